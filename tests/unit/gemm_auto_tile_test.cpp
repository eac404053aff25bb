// `tile: auto` (workloads/gemm_auto_tile.hpp): the estimate a candidate gets, by hand, and the
// choice among candidates on a GPU preset.
#include "workloads/gemm_auto_tile.hpp"

#include <gtest/gtest.h>

#include "sim/config/run_config.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

// 4 cores at 1 GHz, 1000 FP16 FLOP/cycle, SRAM ports of 100 B/cycle, HBM 1 TB/s with 1 us of
// latency, 64 KiB in flight a core, two resident blocks at most.
HardwareParams small_machine() {
  HardwareParams hw;
  hw.name = "small";
  hw.core_clock = Clock(1'000'000'000);
  hw.cores = 4;
  hw.core.max_resident_blocks = 2;
  hw.core.max_bytes_in_flight = 64 * 1024;
  hw.core.sram = SramParams{1 << 20, 100, 100};
  hw.core.registers = RegisterFileParams{1 << 20};
  hw.core.compute.flops_per_cycle[index_of(DataType::fp16)] = 1000;
  hw.core.compute.flops_per_cycle[index_of(DataType::fp32)] = 100;
  hw.hbm.peak_bandwidth.bytes_per_second = 1'000'000'000'000;
  hw.hbm.access_latency = Time::from_ps(1'000'000);
  hw.hbm.channels = 1;
  hw.hbm.interleave_bytes = 256;
  return hw;
}

// small_machine() with an L2 of 1 MiB, 4 TB/s and 100 ns hits; in two partitions, their far hits
// taking `far_hit_ps`, where that is given.
HardwareParams small_machine_with_l2(std::uint64_t far_hit_ps = 0) {
  HardwareParams hw = small_machine();
  L2CacheParams l2;
  l2.capacity_bytes = 1 << 20;
  l2.bandwidth.bytes_per_second = 4'000'000'000'000;
  l2.hit_latency = Time::from_ps(100'000);
  if (far_hit_ps != 0) {
    l2.partitions = 2;
    l2.far_hit_latency = Time::from_ps(far_hit_ps);
  }
  hw.l2 = l2;
  return hw;
}

// configs/workloads/ops/gemm-auto.yaml (tile: auto, BF16) on the H100 preset, with `keys`.
RunConfig auto_gemm_on_h100(const std::vector<std::string>& keys) {
  return load_config(test::config_path("hardware/h100-sxm5-80gb.yaml"),
                     test::config_path("workloads/ops/gemm-auto.yaml"), keys);
}

GemmSpec gemm_64() {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 64;
  spec.dtype = DataType::fp16;
  spec.tile = TileShape{32, 32, 32};
  spec.stages = 2;
  spec.register_tile = RegisterTile{4, 4};
  spec.warp_tile = WarpTile{16, 32, 1};
  return spec;
}

TEST(GemmAutoTile, TheEstimateIsTheLongestTermOfTheBusiestCore) {
  // 2 x 2 blocks of 2 K-steps on 4 cores: one a core, alone (r = 1), 8 block-steps in all.
  const TileEstimate e = estimate_tile(gemm_64(), small_machine());
  // A K-step: 524288 / 8 FLOPs at 1e12 FLOP/s; SRAM reads (64/32) 64 64 2 + (64/16) 64 64 2 =
  // 49152 B / 8 at 100 GB/s (writes 32768 B / 8: less).
  EXPECT_DOUBLE_EQ(e.compute_s, 2 * (524288.0 / 8 / 1e12));
  EXPECT_DOUBLE_EQ(e.sram_s, 2 * (49152.0 / 8 / 100e9));
  // Its fetch: 1 us of latency and its 4096 B of tiles at a quarter of 1 TB/s, over 2 stages.
  EXPECT_DOUBLE_EQ(e.latency_s, 2 * ((1e-6 + 4096.0 * 4 / 1e12) / 2));
  // Q = 2 x 64 64 2 x 2 (A and B, each read twice) + 64 64 2 (C) = 40960 B at 1 TB/s.
  EXPECT_DOUBLE_EQ(e.hbm_s, 40960 / 1e12);
  EXPECT_EQ(e.limited_by, "latency");
  EXPECT_DOUBLE_EQ(e.time_s, e.latency_s);
}

TEST(GemmAutoTile, AnL2ThatHoldsTheWavesPanelsServesTheirReReads) {
  // The 4 blocks run at once (one a core): 2 rows of A panels and 2 columns of B panels, 4096 B
  // each, 16 KiB together; B (8 KiB) fits beside them. Each of A and B then crosses HBM once:
  // 8192 + 8192 B read of the note's 32768, and C's 8192 B written.
  HardwareParams hw = small_machine_with_l2();
  const TileEstimate cached = estimate_tile(gemm_64(), hw);
  EXPECT_DOUBLE_EQ(cached.hbm_s, (8192.0 + 8192 + 8192) / 1e12);
  // Every tile's read still crosses the L2's port: the note's Q.
  EXPECT_DOUBLE_EQ(cached.l2_s, 40960 / 4e12);
  // An L2 smaller than the wave's panels serves none of them.
  hw.l2->capacity_bytes = 8192;
  EXPECT_DOUBLE_EQ(estimate_tile(gemm_64(), hw).hbm_s, 40960 / 1e12);
}

TEST(GemmAutoTile, ALoadWaitsForTheLaterOfTheHbmAndTheFarPartition) {
  // A tile's first read reaches the far partition and the HBM at once, as in the L2's model: its
  // latency is the longer of the two paths, not their sum.
  HardwareParams hw = small_machine_with_l2(400'000);
  // 400 ns across the chip, under the HBM's 1 us: the fetch of the first test.
  EXPECT_DOUBLE_EQ(estimate_tile(gemm_64(), hw).latency_s, 2 * ((1e-6 + 4096.0 * 4 / 1e12) / 2));
  // 1.5 us across the chip, over it: the far partition's.
  hw.l2->far_hit_latency = Time::from_ps(1'500'000);
  EXPECT_DOUBLE_EQ(estimate_tile(gemm_64(), hw).latency_s, 2 * ((1.5e-6 + 4096.0 * 4 / 1e12) / 2));
}

TEST(GemmAutoTile, OnTheH100ALargeGemmTakesWarpgroupsAndAClusterLikeCublas) {
  // 4096^3 BF16: with the L2 in the estimate the HBM term no longer decides alone, and the
  // choice is a Hopper kernel's shape: warpgroup MMA, four stages, tiles multicast to a pair.
  const RunConfig config =
      auto_gemm_on_h100({"workload.m=4096", "workload.n=4096", "workload.k=4096"});
  const auto& spec = std::get<GemmSpec>(config.workload);
  ASSERT_TRUE(spec.choice);
  ASSERT_TRUE(spec.warp_tile);
  EXPECT_EQ(spec.warp_tile->warps, 4u);
  EXPECT_EQ(spec.cluster.blocks(), 2u);
  EXPECT_GE(spec.stages, 3u);
  // Its estimate is the pipeline's, not the note's HBM time (the note's Q at 3.35 TB/s).
  EXPECT_LT(spec.choice->estimated_time_s,
            static_cast<double>(config.analysis.hbm_bytes()) / 3.35e12);
}

TEST(GemmAutoTile, TheBlockOrderIsChosenWhereTheFileLeavesItOpen) {
  // The FFN's 2048 x 11008 x 4096: row-major, a wave's B panels (43 columns of them) overflow the
  // 50 MiB L2; grouped by block rows they fit, and the order is part of the choice.
  const std::vector<std::string> ffn{"workload.m=2048", "workload.n=11008", "workload.k=4096"};
  const auto chosen = [](const std::vector<std::string>& keys) {
    return std::get<GemmSpec>(auto_gemm_on_h100(keys).workload);
  };
  const GemmSpec open = chosen(ffn);
  EXPECT_EQ(open.block_order.kind, BlockOrderKind::grouped);
  EXPECT_NE(open.choice->reason.find("blocks grouped by"), std::string::npos)
      << open.choice->reason;
  // An order the file gives is kept.
  std::vector<std::string> row_major = ffn;
  row_major.push_back("workload.block_order.kind=row_major");
  EXPECT_EQ(chosen(row_major).block_order.kind, BlockOrderKind::row_major);
}

TEST(GemmAutoTile, SplitKAddsItsReductionTail) {
  GemmSpec spec = gemm_64();
  spec.stages = 1;
  spec.decomposition = DecompositionParams{GemmDecomposition::split_k, 2};
  const TileEstimate e = estimate_tile(spec, small_machine());
  // 8 blocks of one K-step, two a core, resident together. One stage: a block's fetch waits for
  // its compute as well, 1 us + 16.384 ns + 65.536 ns, longer than the two blocks' computes.
  EXPECT_DOUBLE_EQ(e.latency_s, 1e-6 + 4096.0 * 4 / 1e12 + 524288.0 / 8 / 1e12);
  // The two blocks' K-steps at 1e12 FLOP/s, and their share of the reduction's 4 x 32 x 32 adds
  // at the FP32 rate.
  EXPECT_DOUBLE_EQ(e.compute_s, 2 * (524288.0 / 8 / 1e12) + 4096.0 / 8 * 2 / 1e11);
  // The last split reads one 32 x 32 FP32 partial: one latency and 4096 B at a quarter of 1 TB/s.
  EXPECT_DOUBLE_EQ(e.reduction_s, 1e-6 + 4096.0 * 4 / 1e12);
  EXPECT_DOUBLE_EQ(e.time_s, e.latency_s + e.reduction_s);
}

TEST(GemmAutoTile, PartialSumsTheL2HoldsAreReadFromIt) {
  GemmSpec spec = gemm_64();
  spec.stages = 1;
  spec.decomposition = DecompositionParams{GemmDecomposition::split_k, 2};
  HardwareParams hw = small_machine_with_l2(200'000);
  const TileEstimate without = estimate_tile(spec, small_machine());
  const TileEstimate e = estimate_tile(spec, hw);
  // The last split reads one 32 x 32 FP32 partial from the L2 that holds all four tiles' (16 KiB
  // of its 1 MiB): the far partition's latency, then 4096 B at a quarter of its 4 TB/s.
  EXPECT_DOUBLE_EQ(e.reduction_s, 200e-9 + 4096.0 * 4 / 4e12);
  // The HBM carries neither their writes nor their reads.
  EXPECT_DOUBLE_EQ(without.hbm_s - e.hbm_s, 2 * 64 * 64 * 4 / 1e12);
  // An L2 too small for them leaves them at the HBM, read at a miss's latency (the later of the
  // HBM's 1 us and the far partition's 200 ns), as without one.
  hw.l2->capacity_bytes = 8192;
  EXPECT_DOUBLE_EQ(estimate_tile(spec, hw).reduction_s, 1e-6 + 4096.0 * 4 / 1e12);
  EXPECT_DOUBLE_EQ(estimate_tile(spec, hw).hbm_s, without.hbm_s);
}

TEST(GemmAutoTile, ASkinnyGemmOnTheH100ApproachesTheWeightStream) {
  // The decode GEMM of the issue: 16 x 4096 x 4096 BF16. Streaming the weights once takes
  // 4096 x 4096 x 2 B / 3.35 TB/s = 10.0 us.
  const RunConfig config =
      auto_gemm_on_h100({"workload.m=16", "workload.n=4096", "workload.k=4096"});
  const auto& spec = std::get<GemmSpec>(config.workload);
  ASSERT_TRUE(spec.choice);
  EXPECT_GT(spec.choice->candidates, 100u);
  EXPECT_EQ(spec.tile.m, 16u);
  const double weights_s = 4096.0 * 4096 * 2 / 3.35e12;
  // Within a fifth of it: the tiles landing and the operand reads share the banks of shared
  // memory (one port), and one latency comes before the first tile.
  EXPECT_LT(spec.choice->estimated_time_s, 1.2 * weights_s);
  EXPECT_NE(spec.choice->reason.find("split-K"), std::string::npos);  // the other kind's best
  // A new user's tile, one thread an output (72.9 us simulated), estimates far slower.
  GemmSpec naive = spec;
  naive.tile_auto = false;
  naive.choice.reset();
  naive.tile = TileShape{16, 64, 64};
  naive.stages = 3;
  naive.register_tile = RegisterTile{1, 1};
  naive.warp_tile.reset();
  naive.decomposition = DecompositionParams{};
  EXPECT_GT(estimate_tile(naive, config.hardware).time_s, 3 * spec.choice->estimated_time_s);
  // The choice is an ordinary spec: its rules hold and its blocks fit.
  EXPECT_FALSE(check_rules(config.workload));
  EXPECT_GE(config.occupancy.blocks_per_core, 1u);
}

TEST(GemmAutoTile, AmongEqualEstimatesTheChoiceKeepsTheMostRoom) {
  // A decode GEMV, 1 x 4096 x 4096 BF16 on the H100: the weights' stream at the HBM's bandwidth
  // binds every candidate that keeps enough in flight, so many estimates are equal. The choice
  // is the one with the most room left on its other terms: a shallower pipeline of the same
  // tile estimates the same time with less room for its loads, and loses.
  const RunConfig config =
      auto_gemm_on_h100({"workload.m=1", "workload.n=4096", "workload.k=4096"});
  const auto& spec = std::get<GemmSpec>(config.workload);
  ASSERT_TRUE(spec.choice);
  EXPECT_EQ(spec.choice->limited_by, "hbm");
  const TileEstimate chosen = estimate_tile(spec, config.hardware);
  ASSERT_GT(spec.stages, 1u);
  GemmSpec shallower = spec;
  shallower.tile_auto = false;
  shallower.choice.reset();
  shallower.stages = spec.stages - 1;
  const TileEstimate other = estimate_tile(shallower, config.hardware);
  EXPECT_DOUBLE_EQ(other.time_s, chosen.time_s);
  EXPECT_GT(other.latency_s, chosen.latency_s);
  EXPECT_EQ(ranked_terms(chosen)[0], chosen.hbm_s);
  EXPECT_LT(ranked_terms(chosen), ranked_terms(other));
  // The report says so.
  EXPECT_NE(spec.choice->reason.find("estimated the same, and it leaves the most room"),
            std::string::npos)
      << spec.choice->reason;
}

// The bound that spares most candidates their estimate changes nothing: with every candidate
// estimated, the choice and what its report says (the candidates counted, the estimates equal
// to the winner's, the best of the other kind) are the same, over shapes where each term binds
// (compute, issue, SRAM, HBM, split-K, an FP8 GEMM's promotions) on three machines.
TEST(GemmAutoTile, TheBoundSparesEstimatesWithoutChangingTheChoice) {
  struct Case {
    const char* hardware;
    std::vector<std::string> keys;
  };
  const std::vector<Case> cases = {
      {"h100-sxm5-80gb.yaml", {"workload.m=2048", "workload.n=11008", "workload.k=4096"}},
      {"h100-sxm5-80gb.yaml", {"workload.m=16", "workload.n=4096", "workload.k=4096"}},
      {"h100-sxm5-80gb.yaml", {"workload.m=1", "workload.n=4096", "workload.k=4096"}},
      {"h100-sxm5-80gb.yaml",
       {"workload.m=4096", "workload.n=4096", "workload.k=4096", "workload.dtype=fp32"}},
      {"h100-sxm5-80gb.yaml",
       {"workload.m=512", "workload.n=1024", "workload.k=8192", "workload.dtype=fp8"}},
      {"a100-sxm4-40gb.yaml", {"workload.m=100", "workload.n=300", "workload.k=500"}},
      {"a100-sxm4-40gb.yaml",
       {"workload.m=64", "workload.n=64", "workload.k=65536", "workload.dtype=fp32"}},
      {"seed.yaml",
       {"workload.m=1024", "workload.n=1024", "workload.k=1024", "workload.dtype=fp32"}},
  };
  for (const Case& c : cases) {
    const RunConfig config = load_config(test::config_path(std::string("hardware/") + c.hardware),
                                         test::config_path("workloads/ops/gemm-auto.yaml"), c.keys);
    // The spec as `tile: auto` reads it, before the choice filled it in.
    GemmSpec asked = std::get<GemmSpec>(config.workload);
    asked.tile = TileShape{0, 0, 0};
    asked.register_tile = RegisterTile{0, 0};
    asked.stages = 0;
    asked.warp_tile.reset();
    asked.cluster = ClusterShape{};
    asked.decomposition = DecompositionParams{};
    asked.block_order = BlockOrderParams{};
    asked.block_order_auto = true;
    asked.choice.reset();
    TileCandidates sizes = gemm_tile_candidates(asked);
    const std::optional<GemmSpec> bounded = choose_tile(asked, config.hardware, sizes);
    sizes.bounded = false;
    const std::optional<GemmSpec> every = choose_tile(asked, config.hardware, sizes);
    ASSERT_TRUE(bounded && every) << c.hardware;
    ASSERT_TRUE(bounded->choice && every->choice);
    EXPECT_EQ(bounded->choice->reason, every->choice->reason) << c.hardware << " " << c.keys[0];
    EXPECT_EQ(bounded->choice->candidates, every->choice->candidates);
    EXPECT_EQ(bounded->tile.m, every->tile.m);
    EXPECT_EQ(bounded->tile.n, every->tile.n);
    EXPECT_EQ(bounded->tile.k, every->tile.k);
    EXPECT_EQ(bounded->stages, every->stages);
    EXPECT_EQ(bounded->decomposition.splits, every->decomposition.splits);
    // The choice made in the run itself, from the file, is this one.
    EXPECT_EQ(bounded->choice->reason, std::get<GemmSpec>(config.workload).choice->reason);
  }
}

TEST(GemmAutoTile, TheChoiceIsTheSameEveryTime) {
  const auto choose = [] {
    GemmSpec spec;
    spec.m = 8;
    spec.n = 1024;
    spec.k = 2048;
    spec.dtype = DataType::fp16;
    spec.tile_auto = true;
    spec.register_tile = RegisterTile{0, 0};
    spec.stages = 0;
    return choose_tile(spec, small_machine());
  };
  const std::optional<GemmSpec> first = choose();
  ASSERT_TRUE(first);
  const std::optional<GemmSpec> second = choose();
  EXPECT_EQ(first->tile.n, second->tile.n);
  EXPECT_EQ(first->tile.k, second->tile.k);
  EXPECT_EQ(first->stages, second->stages);
  EXPECT_EQ(first->decomposition.splits, second->decomposition.splits);
  EXPECT_EQ(first->choice->reason, second->choice->reason);
  EXPECT_EQ(first->tile.m, 8u);  // M below the smallest candidate: the whole of M
}

}  // namespace
}  // namespace ridgeline
