// Threads, registers and occupancy of a block, the SRAM level's traffic and the register-tiled
// strategy, analytically: every figure against its formula.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/test_support.hpp"
#include "workloads/gemm.hpp"
#include "workloads/vector_add.hpp"

namespace ridgeline {
namespace {

GemmSpec gemm_2048(std::uint64_t register_m, std::uint64_t register_n) {
  GemmSpec spec;
  spec.m = spec.n = spec.k = 2048;
  spec.tile = TileShape{128, 128, 32};
  spec.stages = 2;
  spec.register_tile = RegisterTile{register_m, register_n};
  return spec;
}

const Roof kRoof{4.096e12, 256e9};

// A rule broken, as "key: rule", or nothing.
std::string said(const std::optional<Violation>& v) {
  return v ? v->key_path + ": " + v->rule : std::string();
}

std::string threads_rule(const GemmSpec& spec, const KernelTarget& target) {
  return said(WorkloadKind<GemmSpec>::check_threads(spec, target));
}

TEST(ThreadRegisters, AccumulatorsFragmentsAndOverhead) {
  GemmSpec spec = gemm_2048(8, 8);
  spec.register_overhead = 24;
  EXPECT_EQ(threads_per_block(spec), 256u);  // (128 / 8) x (128 / 8)
  ThreadRegisters r = thread_registers(spec);
  EXPECT_EQ(r.accumulators, 64u);  // 8 x 8 FP32 partial sums
  EXPECT_EQ(r.fragments, 16u);     // 8 of A and 8 of B, FP32
  EXPECT_EQ(r.total, 104u);

  spec.dtype = DataType::fp16;  // operands pack two to a register; partial sums stay FP32
  r = thread_registers(spec);
  EXPECT_EQ(r.accumulators, 64u);
  EXPECT_EQ(r.fragments, 8u);

  spec.registers_per_thread = 200;  // a compiler's figure replaces the estimate
  EXPECT_EQ(thread_registers(spec).total, 200u);
  EXPECT_TRUE(thread_registers(spec).given);
}

TEST(ThreadRegisters, TheRegisterFileIsAllocatedInWholeWarps) {
  GemmSpec spec = gemm_2048(8, 8);
  spec.tile = TileShape{48, 64, 32};  // 6 x 8 = 48 threads: two warps of 32, 16 lanes idle
  spec.m = 48 * 8;
  const Footprint f = footprint(spec, KernelTarget{32, 0, 0, {}});
  EXPECT_EQ(f.threads, 48u);
  EXPECT_EQ(f.warps, 2u);
  EXPECT_EQ(f.registers_per_thread, 80u);
  EXPECT_EQ(f.register_bytes, 2u * 32 * 80 * 4);
  const Footprint wide = footprint(spec, KernelTarget{64, 0, 0, {}});
  EXPECT_EQ(wide.warps, 1u);
  EXPECT_EQ(wide.register_bytes, 64u * 80 * 4);
}

TEST(ThreadRegisters, AboveTheLimitTheExcessSpills) {
  GemmSpec spec = gemm_2048(16, 16);  // 256 + 32 = 288 registers, 64 threads
  spec.spill = SpillPolicy::local;
  const KernelTarget target{32, 1024, 255, {}};
  const Analysis a = analyze(spec, kRoof, target);
  EXPECT_EQ(a.footprint.registers_per_thread, 288u);
  EXPECT_EQ(a.footprint.allocated_registers_per_thread, 255u);
  EXPECT_EQ(a.footprint.spilled_registers_per_thread, 33u);
  EXPECT_EQ(a.footprint.register_bytes, 64u * 255 * 4);
  // Per block and K-step after the first: 64 threads x 33 registers x 4 bytes, each way.
  const std::uint64_t blocks = 16 * 16, steps = 2048 / 32;
  EXPECT_EQ(a.local_read_bytes, blocks * (steps - 1) * 64 * 33 * 4);
  EXPECT_EQ(a.local_write_bytes, a.local_read_bytes);
  // The note's Q is the kernel's data: spills come beside it.
  EXPECT_EQ(a.hbm_bytes(), analyze(gemm_2048(16, 16), kRoof).hbm_bytes());
}

// Local blocking divides the traffic of the level that feeds the registers by the register tile;
// shared-memory blocking divides HBM traffic by the block tile.
TEST(SramLevel, QFollowsTheRegisterTile) {
  for (const auto& [r_m, r_n] : {std::pair{1, 1}, {4, 4}, {8, 8}, {8, 4}}) {
    SCOPED_TRACE(testing::Message() << r_m << " x " << r_n);
    const GemmSpec spec = gemm_2048(r_m, r_n);
    const Analysis a = analyze(spec, kRoof);
    const std::uint64_t mnk_e = 2048ull * 2048 * 2048 * 4;
    // The 128 x 128 tile's threads are numbered along n, 128 / R_N a row: a warp of 32 spans
    // `rows` rows of `cols` threads and reads rows R_M + cols R_N elements a k (a word the
    // threads share is one bank access) for 32 R_M R_N outputs.
    const std::uint64_t cols = std::min(32, 128 / r_n), rows = 32 / cols;
    const std::uint64_t per_warp = rows * r_m + cols * r_n, outputs = 32ull * r_m * r_n;
    EXPECT_EQ(a.sram_read_bytes, mnk_e / outputs * per_warp);
    EXPECT_EQ(a.sram_write_bytes, a.hbm_read_bytes);  // tiles land in SRAM once
    EXPECT_EQ(a.hbm_read_bytes, mnk_e / 128 + mnk_e / 128);
    // I at SRAM (reads) = 2 x 32 R_M R_N / (e (rows R_M + cols R_N)).
    EXPECT_DOUBLE_EQ(static_cast<double>(a.flops) / a.sram_read_bytes,
                     2.0 * outputs / (4.0 * per_warp));
  }
}

// A warp that shares operand fragments reads each from SRAM once for its threads: the register
// tile's place in the formulas goes to the warp tile, per K-step and over the whole run.
TEST(SramLevel, AWarpTileReadsOperandsOncePerWarp) {
  GemmSpec spec = gemm_2048(8, 8);
  spec.warp_tile = WarpTile{64, 32};  // 8 x 4 threads of 8 x 8
  const Analysis a = analyze(spec, kRoof);
  const std::uint64_t mnk_e = 2048ull * 2048 * 2048 * 4;
  EXPECT_EQ(a.sram_read_bytes, mnk_e / 32 + mnk_e / 64);
  EXPECT_EQ(a.sram_write_bytes, analyze(gemm_2048(8, 8), kRoof).sram_write_bytes);
  const Kernel kernel = build_kernel(spec);
  std::uint64_t computes = 0;
  for (const Op& op : kernel.program.ops()) {
    if (op.kind != OpKind::compute) continue;
    ++computes;
    // (B_M/W_M)(B_N/W_N)(W_M + W_N) B_K e = 2 x 4 x 96 x 32 x 4 bytes a K-step.
    EXPECT_EQ(op.sram_read_bytes, 2u * 4 * 96 * 32 * 4);
  }
  EXPECT_EQ(computes, 2048u / 32);
  EXPECT_EQ(computes * 2u * 4 * 96 * 32 * 4 * kernel.blocks(), a.sram_read_bytes);
}

// Warp instructions of an FP32 tiled GEMM, by hand: 128 x 128 x 32 tiles of 16 x 16 threads of
// 8 x 8 (8 warps). A thread's k: 64 FFMAs and its 8 + 8 operands in 2 + 2 LDS.128; a K-step: 32
// k's, the 32 KiB of tiles copied 16 B a thread (8 each) and one barrier: 8 x (32 x 68 + 8 + 1)
// = 17,480 a K-step, over 16 x 16 blocks of 64 K-steps. On an SM of 256 FLOP and 4 issue slots a
// cycle they take 17,480 / 16,384 of the FLOPs' time: T_compute is theirs.
TEST(Issue, AnFp32GemmsWarpInstructionsByHand) {
  const GemmSpec spec = gemm_2048(8, 8);
  const Roof sm{256e9, 1e15, 256e9, 4e9};  // one H100-like SM at 1 GHz, HBM out of the way
  const Analysis a = analyze(spec, sm);
  EXPECT_EQ(warp_instructions_per_step_of(spec, 32), 17'480u);
  EXPECT_EQ(a.warp_instructions, 16u * 16 * 64 * 17'480);
  EXPECT_DOUBLE_EQ(issue_time_s(a.warp_instructions, sm), 16.0 * 16 * 64 * 17'480 / 4e9);
  EXPECT_DOUBLE_EQ(a.roofline.t_compute_s, issue_time_s(a.warp_instructions, sm));
  EXPECT_GT(a.roofline.t_compute_s, 2.0 * 2048 * 2048 * 2048 / 256e9);
  EXPECT_DOUBLE_EQ(a.roofline.roof_flop_per_s,
                   static_cast<double>(a.flops) / a.roofline.t_compute_s);
  // Every K-step's compute op issues them, and they add up to the analytical count.
  const Kernel kernel = build_kernel(spec);
  std::uint64_t issued = 0;
  for (const Op& op : kernel.program.ops()) {
    if (op.kind != OpKind::compute) continue;
    EXPECT_EQ(op.warp_instructions, 17'480u);
    issued += op.warp_instructions;
  }
  EXPECT_EQ(issued * kernel.blocks(), a.warp_instructions);
  // Without an issue rate the count stays and takes no time: T_compute is F / P.
  const Analysis unmodelled = analyze(spec, kRoof);
  EXPECT_EQ(unmodelled.warp_instructions, a.warp_instructions);
  EXPECT_DOUBLE_EQ(unmodelled.roofline.t_compute_s, 2.0 * 2048 * 2048 * 2048 / 4.096e12);
}

// Matrix instructions (tensor-core types) and kernels without SRAM tiles are not counted: their
// multiply-adds are not one a lane per instruction, or their loads are not modelled as such.
TEST(Issue, OnlyLaneMultiplyAddsOfTiledKernelsAreCounted) {
  GemmSpec spec = gemm_2048(8, 8);
  spec.dtype = DataType::bf16;
  EXPECT_EQ(warp_instructions_per_step_of(spec, 32), 0u);
  EXPECT_EQ(analyze(spec, kRoof).warp_instructions, 0u);
  spec.dtype = DataType::fp64;  // 8 B elements: an LDS.128 holds two, a thread's 8 take 4
  EXPECT_EQ(warp_instructions_per_step_of(spec, 32), 8u * (32 * (64 + 4 + 4) + 16 + 1));
  spec = gemm_2048(8, 8);
  spec.strategy = GemmStrategy::register_tiled;
  EXPECT_EQ(warp_instructions_per_step_of(spec, 32), 0u);
}

// A warpgroup (wgmma) reads each operand from SRAM once for its four warps: the formula's tile is
// the warpgroup's 64 x 128, and it must hold 4 x 32 threads. Its matrix instructions take the
// tensor cores' types, not FP32's lane multiply-adds.
TEST(SramLevel, AWarpgroupTileReadsOperandsOncePerWarpgroup) {
  GemmSpec spec = gemm_2048(8, 8);
  spec.dtype = DataType::bf16;
  spec.warp_tile = WarpTile{64, 128, 4};  // 8 x 16 threads of 8 x 8
  const Analysis a = analyze(spec, kRoof);
  const std::uint64_t mnk_e = 2048ull * 2048 * 2048 * 2;
  EXPECT_EQ(a.sram_read_bytes, mnk_e / 128 + mnk_e / 64);
  KernelTarget hopper;
  hopper.warpgroup_mma = true;
  EXPECT_EQ(threads_rule(spec, hopper), "");
  EXPECT_EQ(threads_rule(spec, KernelTarget{}),
            "workload.warp_tile.warps: 4 warps sharing one matrix instruction need warpgroup MMA, "
            "which the cores lack (hardware.cores.warpgroup_mma is false)");
  spec.warp_tile = WarpTile{64, 32, 4};  // 32 threads: one warp, not four
  EXPECT_EQ(threads_rule(spec, hopper),
            "workload.warp_tile: a warp tile of 64 x 32 with a register tile of 8 x 8 has 32 "
            "threads but 4 warps of 32 have 128 (hardware.cores.warp_size)");
  spec.warp_tile = WarpTile{64, 128, 4};
  spec.dtype = DataType::fp32;
  EXPECT_EQ(threads_rule(spec, hopper),
            "workload.warp_tile.warps: 4 warps share operands only in a warpgroup's matrix "
            "instruction (wgmma), which takes TF32 and narrower types; fp32 multiply-adds are each "
            "lane's own, its operands read by its warp");
}

// A 2 x 1 cluster shares each B tile between the two blocks of a column: each fetches half its
// rows, the L2 and HBM see B once per cluster, and every block's SRAM still receives both tiles
// whole. A is fetched by each block as before.
TEST(Cluster, MulticastHalvesTheSharedTilesFetchesNotWhatLands) {
  GemmSpec spec = gemm_2048(8, 8);
  const Analysis alone = analyze(spec, kRoof);
  spec.cluster = ClusterShape{2, 1};
  const Analysis a = analyze(spec, kRoof);
  const std::uint64_t mnk_e = 2048ull * 2048 * 2048 * 4;
  // M N K e (1 / (C_N B_N) + 1 / (C_M B_M)): A once per block, B once per cluster.
  EXPECT_EQ(a.hbm_read_bytes, mnk_e / 128 + mnk_e / 256);
  EXPECT_EQ(alone.hbm_read_bytes, mnk_e / 128 + mnk_e / 128);
  EXPECT_EQ(a.sram_write_bytes, alone.sram_write_bytes);
  EXPECT_EQ(a.sram_read_bytes, alone.sram_read_bytes);

  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.block_order.cluster_rows, 2u);
  EXPECT_EQ(kernel.block_order.cluster_cols, 1u);
  std::uint64_t fetched = 0;
  std::uint64_t landed = 0;
  for (const Op& op : kernel.program.ops()) {
    if (op.kind != OpKind::load) continue;
    fetched += op.hbm_bytes();
    landed += op.sram_write_bytes;
    if (op.tensor == 1 && op.step == 0) {  // B's first tile: 32 rows of 128 floats, half each
      EXPECT_EQ(op.hbm_bytes(), 16u * 128 * 4);
      EXPECT_EQ(op.sram_write_bytes, 32u * 128 * 4);
      const Region top = op.address.for_block({0, 3});
      const Region bottom = op.address.for_block({1, 3});
      EXPECT_EQ(top.rows, 16u);
      EXPECT_EQ(bottom.base - top.base, 16u * 2048 * 4);       // the next 16 rows of B
      EXPECT_EQ(op.address.for_block({2, 3}).base, top.base);  // the next cluster's first
    }
  }
  EXPECT_EQ(fetched * kernel.blocks(), a.hbm_read_bytes);
  EXPECT_EQ(landed * kernel.blocks(), a.sram_write_bytes);
}

// A cluster tiles the grid and splits whole rows of the tiles it shares; a machine without
// clusters, or with smaller ones, refuses it.
TEST(Cluster, RulesAndTheMachinesLimit) {
  GemmSpec spec = gemm_2048(8, 8);  // a grid of 16 x 16 blocks
  const auto broken = [](const GemmSpec& g) { return said(check_rules(g)); };
  spec.cluster = ClusterShape{3, 1};
  EXPECT_EQ(broken(spec), "workload.cluster.m: must divide the grid's block rows, m / tile.m = 16");
  spec.cluster = ClusterShape{1, 3};
  EXPECT_EQ(broken(spec),
            "workload.cluster.n: must divide the grid's block columns, n / tile.n = 16");
  spec.cluster = ClusterShape{16, 1};  // B's 32 rows a K-step split in 16 shares of 2
  EXPECT_EQ(broken(spec), "");
  spec.tile = TileShape{128, 128, 8};
  EXPECT_EQ(broken(spec),
            "workload.cluster.m: must divide tile.k = 8: the cluster's blocks along M each fetch "
            "a share of the B tile's rows");
  GemmSpec short_rows = gemm_2048(8, 8);
  short_rows.m = 384;
  short_rows.tile = TileShape{24, 128, 32};
  short_rows.cluster = ClusterShape{1, 16};
  EXPECT_EQ(broken(short_rows),
            "workload.cluster.n: must divide tile.m = 24: the cluster's blocks along N each fetch "
            "a share of the A tile's rows");
  spec.tile = TileShape{128, 128, 32};
  spec.cluster = ClusterShape{2, 2};
  spec.block_order = BlockOrderParams{BlockOrderKind::grouped, 3};
  EXPECT_EQ(broken(spec),
            "workload.block_order.group: must be a multiple of cluster.m = 2: clusters are "
            "handed out whole");
  spec.block_order = BlockOrderParams{BlockOrderKind::grouped, 4};
  EXPECT_EQ(broken(spec), "");

  EXPECT_EQ(threads_rule(spec, KernelTarget{}),
            "workload.cluster: a cluster of 2 x 2 blocks, but the cores have no thread-block "
            "clusters (hardware.cores.max_cluster_size is 1)");
  KernelTarget hopper;
  hopper.max_cluster_size = 8;
  EXPECT_EQ(threads_rule(spec, hopper), "");
  spec.cluster = ClusterShape{4, 4};
  EXPECT_EQ(threads_rule(spec, hopper),
            "workload.cluster: a cluster of 4 x 4 = 16 blocks, but a cluster holds at most 8 "
            "(hardware.cores.max_cluster_size)");
}

TEST(RegisterTiled, HbmTrafficFollowsTheRegisterTileAndNoSramIsUsed) {
  GemmSpec spec = gemm_2048(8, 8);
  spec.strategy = GemmStrategy::register_tiled;
  const Analysis a = analyze(spec, kRoof);
  const std::uint64_t mnk_e = 2048ull * 2048 * 2048 * 4;
  EXPECT_EQ(a.hbm_read_bytes, mnk_e / 8 + mnk_e / 8);
  EXPECT_EQ(a.hbm_write_bytes, 2048u * 2048 * 4);
  EXPECT_EQ(a.sram_traffic_bytes(), 0u);
  EXPECT_EQ(a.footprint.sram_bytes, 0u);
  EXPECT_EQ(a.footprint.threads, 256u);
  // Its program reads each A region once per column of threads (B_N / R_N = 16 times).
  const Kernel kernel = build_kernel(spec);
  std::uint64_t loaded = 0;
  for (const Op& op : kernel.program.ops()) {
    if (op.kind == OpKind::load) {
      loaded += op.hbm_bytes();
      EXPECT_EQ(op.sram_write_bytes, 0u);
    }
    if (op.kind == OpKind::compute) {
      EXPECT_EQ(op.sram_read_bytes, 0u);
    }
  }
  EXPECT_EQ(loaded * kernel.blocks(), a.hbm_read_bytes);

  // With 1 x 1 per thread it is the note's no-reuse kernel.
  GemmSpec one = gemm_2048(1, 1);
  one.strategy = GemmStrategy::register_tiled;
  GemmSpec none = gemm_2048(1, 1);
  none.strategy = GemmStrategy::no_reuse;
  EXPECT_EQ(analyze(one, kRoof).hbm_bytes(), analyze(none, kRoof).hbm_bytes());
}

TEST(Occupancy, EachResourceCanLimit) {
  Footprint f;
  f.sram_bytes = 64 * 1024;
  f.register_bytes = 104 * 1024;
  f.warps = 8;
  const auto limit = [&](CoreCapacity capacity) { return occupancy(f, capacity); };
  Occupancy o = limit(CoreCapacity{160 * 1024, 256 * 1024, 16, 64});
  EXPECT_EQ(o.limited_by, "sram");
  EXPECT_EQ(o.blocks_per_core, 2u);
  EXPECT_EQ(o.active_warps, 16u);
  EXPECT_DOUBLE_EQ(o.fraction(), 0.25);
  o = limit(CoreCapacity{256 * 1024, 200 * 1024, 16, 64});
  EXPECT_EQ(o.limited_by, "registers");
  EXPECT_EQ(o.blocks_per_core, 1u);
  o = limit(CoreCapacity{1024 * 1024, 1024 * 1024, 16, 24});
  EXPECT_EQ(o.limited_by, "warps");
  EXPECT_EQ(o.blocks_per_core, 3u);
  EXPECT_DOUBLE_EQ(o.fraction(), 1.0);
  o = limit(CoreCapacity{1024 * 1024, 1024 * 1024, 2, 64});
  EXPECT_EQ(o.limited_by, "max_resident_blocks");
  EXPECT_DOUBLE_EQ(o.fraction(), 0.25);
  o = limit(CoreCapacity{1024 * 1024, 1024 * 1024, 16, 0});  // no warp limit: no fraction
  EXPECT_EQ(o.blocks_per_core, 9u);                          // registers: 1024 / 104
  EXPECT_DOUBLE_EQ(o.fraction(), 0.0);
}

TEST(VectorAdd, ThreadsShareTheOperandRegisters) {
  VectorAddSpec spec;
  spec.length = 1 << 20;
  spec.chunk_elements = 4096;
  spec.block_elements = 65536;
  spec.stages = 2;
  spec.threads = 256;
  const Footprint f = footprint(spec);
  // (2 stages x 2 inputs + 1 output) x 4096 x 4 bytes over 256 threads = 80 registers each,
  // exactly the bytes the block held before threads were modelled.
  EXPECT_EQ(f.registers_per_thread, 80u);
  EXPECT_EQ(f.register_bytes, 5u * 4096 * 4);
  EXPECT_EQ(f.warps, 8u);
}

}  // namespace
}  // namespace ridgeline
