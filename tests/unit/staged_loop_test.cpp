// The staged loop's barriers and spills: where they sit in a block's program and what they cost
// on its critical path.
#include "workloads/staged_loop.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "workloads/gemm.hpp"

namespace ridgeline {
namespace {

AddressPattern bytes(std::uint64_t count) {
  AddressPattern pattern;
  pattern.region_of_block0 = Region::contiguous(0, count);
  return pattern;
}

std::size_t count_kind(const Program& program, OpKind kind, bool local = false) {
  return static_cast<std::size_t>(
      std::count_if(program.ops().begin(), program.ops().end(),
                    [&](const Op& op) { return op.kind == kind && op.local == local; }));
}

// `steps` steps of one load feeding one compute of `flops` FLOPs.
Program loop(std::uint32_t steps, const StagedLoopShape& shape) {
  ProgramBuilder builder({"A", "local"});
  StagedLoop staged(builder, shape);
  for (std::uint32_t k = 0; k < steps; ++k) {
    staged.add_step({Op::load(0, k, bytes(64), 64)}, Op::compute(k, 100, 0));
  }
  return builder.compile();
}

// Loads take 10 to occupy and 15 to complete; computes 20 and 20; barriers their cycles in ps.
Time path(const Program& program) {
  return program.critical_path([](const Op& op) -> Program::OpTiming {
    switch (op.kind) {
      case OpKind::load:
      case OpKind::store:
        return {Time::from_ps(10), Time::from_ps(15)};
      case OpKind::compute:
        return {Time::from_ps(20), Time::from_ps(20)};
      case OpKind::barrier:
        return {Time::from_ps(op.cycles.count), Time::from_ps(op.cycles.count)};
      case OpKind::signal:  // a staged loop has no flags
      case OpKind::wait:
        return {};
    }
    return {};
  });
}

TEST(StagedLoop, WithoutCostNoBarrierIsAdded) {
  const Program plain = loop(4, {2, {}, {}});
  EXPECT_EQ(plain.size(), 8u);
  EXPECT_EQ(count_kind(plain, OpKind::barrier), 0u);
}

TEST(StagedLoop, OneStageSynchronisesTwicePerStep) {
  // load_k -> arrive_k -> compute_k -> release_k -> load_k+1: the classic single-buffered loop,
  // without a release after the last compute.
  const Program single = loop(4, {1, Cycles{7}, {}});
  EXPECT_EQ(count_kind(single, OpKind::barrier), 4u + 3u);
  // Uncontended: each step is load (15) + arrive (7) + compute (20) + release (7), less the last
  // release: 4 x 49 - 7.
  EXPECT_EQ(path(single).ps(), 4u * 49 - 7);
  EXPECT_EQ(path(loop(4, {1, {}, {}})).ps(), 4u * 35);
}

TEST(StagedLoop, MoreStagesSynchroniseOncePerStepAndKeepLoadsAhead) {
  const Program doubled = loop(4, {2, Cycles{7}, {}});
  EXPECT_EQ(count_kind(doubled, OpKind::barrier), 4u);
  // Loads run a step ahead (the buffer of step k + 2 is free once arrive_k+1 follows compute_k),
  // so the computes follow their barriers back to back: load_0 (15), then 4 x (7 + 20).
  EXPECT_EQ(path(doubled).ps(), 15u + 4 * 27);
  // The loads of step 2 wait for the arrival barrier of step 1 (after compute 0), not compute 0.
  const auto& buffers = doubled.initial_pending_buffers();
  std::size_t loads_waiting_for_a_buffer = 0;
  for (std::uint32_t op = 0; op < doubled.size(); ++op) {
    if (buffers[op] == 0) continue;
    ++loads_waiting_for_a_buffer;
    EXPECT_EQ(doubled.ops()[op].kind, OpKind::load);
  }
  EXPECT_EQ(loads_waiting_for_a_buffer, 2u);  // loads 2 and 3
  for (std::uint32_t op = 0; op < doubled.size(); ++op) {
    if (doubled.label(op) != "barrier 1") continue;
    bool frees_load_2 = false;
    for (const Successor* s = doubled.successors_begin(op); s != doubled.successors_end(op); ++s) {
      frees_load_2 |= s->kind == EdgeKind::buffer_reuse && doubled.label(s->op) == "load A_2";
    }
    EXPECT_TRUE(frees_load_2);
  }
}

TEST(StagedLoop, SpilledRegistersAreReloadedAndWrittenBackAroundEachStep) {
  StagedLoopShape shape{2, {}, LocalSpill{1, bytes(256)}};
  const Program spilled = loop(4, shape);
  // Reloads before steps 1..3, write-backs after steps 0..2.
  EXPECT_EQ(count_kind(spilled, OpKind::load, true), 3u);
  EXPECT_EQ(count_kind(spilled, OpKind::store, true), 3u);
  EXPECT_EQ(spilled.label(2), "store local_0");  // after compute 0, before the loads of step 1
  EXPECT_EQ(spilled.label(4), "load local_1");
  // Each step after the first waits for the previous compute's write-back to leave (its
  // occupancy, 10) and its own reload (15): compute_0 ends at 35, then 3 x (10 + 15 + 20).
  EXPECT_EQ(path(spilled).ps(), 35u + 3 * 45);
}

TEST(GemmKernel, BarriersOnlyGuardSharedMemory) {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 256;
  spec.tile = TileShape{64, 64, 64};
  spec.stages = 2;
  KernelTarget target;
  target.barrier = Cycles{20};
  EXPECT_EQ(count_kind(build_kernel(spec, target).program, OpKind::barrier), 4u);
  EXPECT_EQ(count_kind(build_kernel(spec).program, OpKind::barrier), 0u);
  spec.strategy = GemmStrategy::register_tiled;  // operands in registers: no barrier
  EXPECT_EQ(count_kind(build_kernel(spec, target).program, OpKind::barrier), 0u);
}

TEST(GemmKernel, SpilledRegistersGetTheirOwnLocalRegionPerBlock) {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 256;
  spec.tile = TileShape{64, 64, 64};
  spec.stages = 2;
  spec.register_tile = RegisterTile{16, 16};  // 16 threads, 256 + 32 registers each
  spec.spill = SpillPolicy::local;
  KernelTarget target;
  target.max_registers_per_thread = 255;
  const Kernel kernel = build_kernel(spec, target);
  const Op* reload = nullptr;
  for (const Op& op : kernel.program.ops()) {
    if (op.kind == OpKind::load && op.local) reload = &op;
  }
  ASSERT_NE(reload, nullptr);
  EXPECT_EQ(reload->hbm_bytes(), 16u * 33 * 4);
  EXPECT_EQ(reload->sram_write_bytes, 0u);  // into registers
  const Region first = reload->address.for_block(BlockCoord{0, 0});
  const Region next = reload->address.for_block(BlockCoord{0, 1});
  const Region below = reload->address.for_block(BlockCoord{1, 0});
  EXPECT_EQ(next.base - first.base, 16u * 33 * 4);
  EXPECT_EQ(below.base - first.base, 4u * 16 * 33 * 4);  // 4 blocks per row
  EXPECT_GE(first.base, 3u << 20);                       // past A, B and C, each aligned to 1 MiB
}

}  // namespace
}  // namespace ridgeline
