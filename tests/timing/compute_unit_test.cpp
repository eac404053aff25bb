#include "models/compute_unit.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

ComputeUnitTiming unit() {
  ComputeUnitParams params;
  params.flops_per_cycle[index_of(DataType::fp32)] = 256;
  params.flops_per_cycle[index_of(DataType::fp16)] = 1024;
  params.pipeline_latency = Cycles{4};
  return ComputeUnitTiming(params, Clock(2'000'000'000));  // 500 ps cycles
}

TEST(ComputeUnitTiming, RatePerDataTypeAndWholeCycles) {
  const ComputeUnitTiming cu = unit();
  EXPECT_TRUE(cu.supports(DataType::fp16));
  EXPECT_FALSE(cu.supports(DataType::fp8));
  EXPECT_EQ(cu.execution_time(2560, DataType::fp32).ps(), 5000u);  // 10 cycles
  EXPECT_EQ(cu.execution_time(2561, DataType::fp32).ps(), 5500u);  // 11 cycles
  EXPECT_EQ(cu.execution_time(2560, DataType::fp16).ps(), 1500u);  // 3 cycles (2.5 rounded up)
  EXPECT_EQ(cu.pipeline_latency().ps(), 2000u);
}

TEST(ComputeUnitTiming, OpsQueueAndOperandsCanStretchThem) {
  ComputeUnitTiming cu = unit();
  const auto first = cu.execute(Time::from_ps(1000), 2560, DataType::fp32, Time{});
  EXPECT_EQ(first.start.ps(), 1000u);
  EXPECT_EQ(first.end.ps(), 6000u);
  const auto second = cu.execute(Time::from_ps(2000), 2560, DataType::fp32, Time::from_ps(8000));
  EXPECT_EQ(second.start.ps(), 6000u);  // waits for the first
  EXPECT_EQ(second.end.ps(), 14'000u);  // operands take 8000 ps, longer than 5000 ps of math
  EXPECT_EQ(cu.stats().flops, 5120u);
  EXPECT_EQ(cu.stats().busy.ps(), 13'000u);
  EXPECT_EQ(cu.stats().operand_limited.ps(), 3000u);
}

// An op's warp instructions take a cycle each at the issue rate: where they outlast its FLOPs the
// op is stretched to them, and the stretch is counted apart from the operands'.
TEST(ComputeUnitTiming, WarpInstructionsCanStretchAnOp) {
  ComputeUnitParams params;
  params.flops_per_cycle[index_of(DataType::fp32)] = 256;
  params.pipeline_latency = Cycles{4};
  params.warp_instructions_per_cycle = 4;
  ComputeUnitTiming cu(params, Clock(2'000'000'000));  // 500 ps cycles
  // 2560 FLOPs: 10 cycles; 40 FFMAs (64 FLOPs each) and 4 loads: 44 instructions, 11 cycles.
  EXPECT_EQ(cu.issue_time(44).ps(), 5500u);
  EXPECT_EQ(cu.issue_time(45).ps(), 6000u);  // 12 cycles: whole cycles
  const auto op = cu.execute(Time{}, 2560, DataType::fp32, Time::from_ps(5000), 44);
  EXPECT_EQ(op.end.ps(), 5500u);
  EXPECT_EQ(cu.stats().warp_instructions, 44u);
  EXPECT_EQ(cu.stats().issue_limited.ps(), 500u);
  EXPECT_EQ(cu.stats().operand_limited.ps(), 0u);
  // Operands slower than the issue: theirs is the stretch.
  const auto slow = cu.execute(Time{}, 2560, DataType::fp32, Time::from_ps(7000), 44);
  EXPECT_EQ(slow.end.ps() - slow.start.ps(), 7000u);
  EXPECT_EQ(cu.stats().operand_limited.ps(), 2000u);
  EXPECT_EQ(cu.stats().issue_limited.ps(), 500u);
  // Without an issue rate the instructions are counted and take no time.
  ComputeUnitTiming unlimited = unit();
  EXPECT_EQ(unlimited.issue_time(1'000'000).ps(), 0u);
  const auto plain = unlimited.execute(Time{}, 2560, DataType::fp32, Time{}, 1'000'000);
  EXPECT_EQ(plain.end.ps(), 5000u);
  EXPECT_EQ(unlimited.stats().warp_instructions, 1'000'000u);
}

}  // namespace
}  // namespace ridgeline
