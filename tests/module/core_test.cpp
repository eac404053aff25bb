// A core alone with an HBM: one block's timeline, computed by hand, to the picosecond.
#include <gtest/gtest.h>

#include <systemc>

#include "sim/accelerator.hpp"
#include "workloads/gemm.hpp"

namespace ridgeline {
namespace {

// 1 core at 1 GHz, 100 FLOP/cycle; HBM 1 byte/ps on one channel, 1 ns latency; SRAM ports so wide
// that a transfer is one cycle.
HardwareParams machine() {
  HardwareParams hw;
  hw.name = "test";
  hw.core_clock = Clock(1'000'000'000);
  hw.cores = 1;
  hw.core.max_resident_blocks = 1;
  hw.core.max_bytes_in_flight = 64 * 1024;
  hw.core.sram = SramParams{1 << 20, 1 << 20, 1 << 20};
  hw.core.registers = RegisterFileParams{1 << 20};
  hw.core.compute.flops_per_cycle[index_of(DataType::fp32)] = 100;
  hw.core.compute.pipeline_latency = Cycles{0};
  hw.hbm.peak_bandwidth.bytes_per_second = 1'000'000'000'000;
  hw.hbm.access_latency = Time::from_ps(1000);
  hw.hbm.channels = 1;
  hw.hbm.interleave_bytes = 256;
  return hw;
}

// C (32 x 32) = A (32 x 64) B (64 x 32) in one block of 32 x 32, two K-steps of 32.
Kernel two_step_gemm(std::uint32_t stages) {
  GemmSpec spec;
  spec.m = 32;
  spec.n = 32;
  spec.k = 64;
  spec.tile = TileShape{32, 32, 32};
  spec.stages = stages;
  return build_kernel(spec);
}

TEST(Core, SingleBufferingSerialisesLoadsAndCompute) {
  const HardwareParams hw = machine();
  const Kernel kernel = two_step_gemm(1);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // A_0 4096 B: 0..4096 on the channel, data at 5096. B_0: 4096..8192, data at 9192.
  // compute_0 (65536 FLOP = 656 cycles): 9192..665192. A_1, B_1 wait for it: data at 674384.
  // compute_1: 674384..1330384. Store C 4096 B: done at 1330384 + 4096 + 1000 = 1335480.
  EXPECT_EQ(stats.finish.ps(), 1'335'480u);
  EXPECT_EQ(stats.compute_busy.ps(), 2u * 656'000);
  EXPECT_EQ(stats.waiting_data.ps(), 2u * 9192);
  EXPECT_EQ(stats.draining.ps(), 5096u);
  EXPECT_EQ(stats.overlap.ps(), 0u);
  EXPECT_EQ(stats.buffer_wait.ps(), 665'192u);  // A_1 was next in line from t = 0
  EXPECT_EQ(stats.load_bytes, 4u * 4096);
  EXPECT_EQ(stats.store_bytes, 4096u);
  EXPECT_EQ(top.hbm.timing().stats().read_bytes, 4u * 4096);
  EXPECT_EQ(top.hbm.timing().stats().write_bytes, 4096u);
  EXPECT_EQ(top.cores[0]->compute.timing.stats().flops, 2u * 65536);
}

TEST(Core, DoubleBufferingOverlapsTheNextLoadsWithCompute) {
  const HardwareParams hw = machine();
  const Kernel kernel = two_step_gemm(2);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // A_1 and B_1 go right after A_0 and B_0 (data at 13288 and 17384), under compute_0
  // (9192..665192); compute_1 follows at once: 665192..1321192; store done at 1326288.
  EXPECT_EQ(stats.finish.ps(), 1'326'288u);
  EXPECT_EQ(stats.waiting_data.ps(), 9192u);
  EXPECT_EQ(stats.overlap.ps(), 17384u - 9192u);
  EXPECT_EQ(stats.buffer_wait.ps(), 0u);
}

TEST(Core, InFlightLimitHoldsRequestsBack) {
  HardwareParams hw = machine();
  hw.core.max_bytes_in_flight = 4096;  // one tile at a time
  const Kernel kernel = two_step_gemm(2);
  Accelerator top("top", hw, kernel);
  sc_core::sc_start();
  const CoreStats& stats = top.cores[0]->stats();
  // Each tile now waits for the previous one's data: A_0 at 5096, B_0 at 10192, A_1 at 15288,
  // B_1 at 20384; compute_0 10192..666192, compute_1 666192..1322192, store at 1327288.
  EXPECT_EQ(stats.finish.ps(), 1'327'288u);
  EXPECT_EQ(stats.in_flight_limit.ps(), 15288u);  // B_0, A_1, B_1 each waited in turn
}

}  // namespace
}  // namespace ridgeline
