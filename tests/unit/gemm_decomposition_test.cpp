// Batched GEMMs and the split-K and stream-K decompositions (workloads/gemm.hpp,
// gemm_stream_k.hpp): their analytical figures by hand, and the block programs that carry them,
// to the byte.
#include <gtest/gtest.h>

#include "tests/kernel_traffic.hpp"
#include "workloads/gemm.hpp"
#include "workloads/gemm_stream_k.hpp"

namespace ridgeline {
namespace {

const Roof kRoof{1e12, 1e12, 1e11};

GemmSpec fp16_gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k, TileShape tile) {
  GemmSpec spec;
  spec.m = m;
  spec.n = n;
  spec.k = k;
  spec.dtype = DataType::fp16;
  spec.tile = tile;
  spec.stages = 1;
  return spec;
}

using test::traffic_of;

TEST(GemmBatch, EachGemmOfTheBatchMovesWhatOneAloneWould) {
  // Three 64 x 32 x 48 FP16 GEMMs in 32 x 32 x 16 tiles: 2 x 1 blocks of 3 K-steps each.
  GemmSpec spec = fp16_gemm(64, 32, 48, TileShape{32, 32, 16});
  spec.batch.count = 3;
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 3u * 2 * 64 * 32 * 48);
  // A read once per block column (1), B once per block row (2), C written once, 3 times over.
  EXPECT_EQ(a.hbm_read_bytes, 3u * (1 * 64 * 48 * 2 + 2 * 48 * 32 * 2));
  EXPECT_EQ(a.hbm_write_bytes, 3u * 64 * 32 * 2);
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 6u);  // the batch's block rows one after the other
  const test::KernelTraffic m = traffic_of(kernel);
  EXPECT_EQ(m.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(m.store_bytes, a.hbm_write_bytes);
  EXPECT_EQ(m.flops, a.issued_flops);
  // Block row 3 is the second GEMM's second tile row: A at one matrix (64 x 48 x 2 B) plus 32
  // rows on; B at one matrix (48 x 32 x 2 B) past B's start (1 MiB: A's 3 matrices, aligned).
  const BlockCoord block{3, 0};
  const Program& program = kernel.program_for(block);
  EXPECT_EQ(program.ops()[0].address.for_block(block).base, 6144u + 32 * 48 * 2);
  EXPECT_EQ(program.ops()[1].address.for_block(block).base, (1u << 20) + 3072);
}

TEST(GemmBatch, AStrideOfZeroSharesOneMatrix) {
  GemmSpec spec = fp16_gemm(64, 32, 48, TileShape{32, 32, 16});
  spec.batch.count = 3;
  spec.batch.stride_b = 0;  // one weight matrix for the whole batch
  const Kernel kernel = build_kernel(spec);
  const BlockCoord third{4, 0};
  EXPECT_EQ(kernel.program_for(third).ops()[1].address.for_block(third).base,
            kernel.program.ops()[1].address.for_block(BlockCoord{0, 0}).base);
  // B's 48 x 32 FP16 matrix fits in one MiB: C starts at 2 MiB.
  const Op& store = kernel.program.ops().back();
  EXPECT_EQ(store.address.for_block(BlockCoord{5, 0}).base,
            (2u << 20) + 2 * 64 * 32 * 2 + 32 * 32 * 2);
}

TEST(GemmSplitK, PartialSumsAreWrittenOnceAndReadOnce) {
  // 32 x 64 x 128 FP16 in 32 x 32 x 16 tiles: 1 x 2 tiles of 8 K-steps, in 3 splits of 3, 3, 2
  // K-steps. Each of the first two splits writes a 32 x 64 FP32 partial sum; the last reads both.
  GemmSpec spec = fp16_gemm(32, 64, 128, TileShape{32, 32, 16});
  spec.decomposition = DecompositionParams{GemmDecomposition::split_k, 3};
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(k_slice(spec, 1).first_step, 3u);
  EXPECT_EQ(k_slice(spec, 2).first_step, 6u);
  EXPECT_EQ(k_slice(spec, 2).steps, 2u);
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 2u * 32 * 64 * 128);
  EXPECT_EQ(a.vector_flops, 2u * 32 * 64);  // the last split's adds, two partials a tile
  EXPECT_EQ(a.issued_flops, 2u * 32 * 64 * 128 + 2 * 32 * 64);
  const std::uint64_t partials = 2 * 32 * 64 * 4;
  EXPECT_EQ(a.hbm_read_bytes, 2u * 32 * 128 * 2 + 1 * 128 * 64 * 2 + partials);
  EXPECT_EQ(a.hbm_write_bytes, 32u * 64 * 2 + partials);
  // The adds run at the vector peak: T_compute = 524288 / 1e12 + 4096 / 1e11.
  EXPECT_DOUBLE_EQ(a.roofline.t_compute_s, 524288 / 1e12 + 4096 / 1e11);

  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 3u);  // one block row a split
  EXPECT_EQ(kernel.grid_cols, 2u);
  EXPECT_EQ(kernel.flags, 2u);  // one an output tile
  ASSERT_EQ(kernel.bands.size(), 1u);
  EXPECT_EQ(kernel.bands[0].first_row, 2u);
  const test::KernelTraffic m = traffic_of(kernel);
  EXPECT_EQ(m.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(m.store_bytes, a.hbm_write_bytes);
  EXPECT_EQ(m.flops, a.issued_flops);
  // Split 1 starts at K-step 3 (column 48 of A: 96 bytes on), the last split at K-step 6.
  EXPECT_EQ(kernel.program.ops()[0].address.for_block(BlockCoord{1, 0}).base, 96u);
  const Program& last = kernel.program_for(BlockCoord{2, 1});
  EXPECT_EQ(last.ops()[0].address.for_block(BlockCoord{2, 1}).base, 192u);
  std::uint64_t waits = 0, signals = 0;
  for (const Op& op : last.ops()) waits += op.kind == OpKind::wait ? op.flag_count : 0;
  for (const Op& op : kernel.program.ops()) signals += op.kind == OpKind::signal ? 1 : 0;
  EXPECT_EQ(waits, 2u);
  EXPECT_EQ(signals, 1u);
  // Tile (0, 1)'s flag is the same for its three splits.
  const FlagPattern flag = kernel.program.ops().back().flag;
  EXPECT_EQ(flag.for_block(BlockCoord{0, 1}), 1u);
  EXPECT_EQ(flag.for_block(BlockCoord{1, 1}), 1u);
}

TEST(GemmSplitK, TheLastSplitHoldsThePartialLastKStep) {
  // K = 120 in K-steps of 16: 8 steps, the last of 8 columns. Two splits of four.
  GemmSpec spec = fp16_gemm(32, 32, 120, TileShape{32, 32, 16});
  spec.decomposition = DecompositionParams{GemmDecomposition::split_k, 2};
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.hbm_read_bytes, 32u * 120 * 2 + 120 * 32 * 2 + 32 * 32 * 4);
  const Kernel kernel = build_kernel(spec);
  const test::KernelTraffic m = traffic_of(kernel);
  EXPECT_EQ(m.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(m.store_bytes, a.hbm_write_bytes);
}

TEST(GemmSplitK, RulesTieTheSplitsToTheKSteps) {
  GemmSpec spec = fp16_gemm(32, 64, 128, TileShape{32, 32, 16});
  spec.decomposition = DecompositionParams{GemmDecomposition::split_k, 9};
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.decomposition.splits");
  spec.decomposition.splits = 4;
  spec.stages = 3;  // the shortest split has 2 K-steps
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.stages");
  spec.stages = 2;
  spec.strategy = GemmStrategy::register_tiled;
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.decomposition");
}

// tile: auto checks a candidate's rules once unsplit and then only its splits' own: on every spec
// whose unsplit self keeps the rules, check_split_rules says what check_rules says, including a
// matrix whose counts fit 63 bits unsplit but not with 64 splits' partial sums.
TEST(GemmSplitK, TheSplitsOwnRulesAreAllASplitCanBreak) {
  const auto said = [](const std::optional<Violation>& v) {
    return v ? v->key_path + ": " + v->rule : std::string();
  };
  std::vector<GemmSpec> unsplit;
  for (const TileShape tile : {TileShape{32, 32, 16}, TileShape{64, 32, 32}, TileShape{32, 64, 48}})
    unsplit.push_back(fp16_gemm(128, 64, 192, tile));
  // 2 M N K e = 2^62 bytes of FP8 operands; with 64 splits' partial sums, M N x 8 x (1 + 2 x 64)
  // more, past 2^63 (with 32, within it).
  unsplit.push_back(
      fp16_gemm(std::uint64_t{1} << 28, std::uint64_t{1} << 24, 512, TileShape{256, 256, 8}));
  unsplit.back().dtype = DataType::fp8;
  std::size_t compared = 0, refused = 0;
  for (const GemmSpec& base : unsplit) {
    for (std::uint32_t stages = 1; stages <= 4; ++stages) {
      GemmSpec spec = base;
      spec.stages = stages;
      if (check_rules(spec)) continue;
      for (std::uint64_t splits = 2; splits <= 64; splits *= 2) {
        spec.decomposition = DecompositionParams{GemmDecomposition::split_k, splits};
        EXPECT_EQ(said(check_split_rules(spec)), said(check_rules(spec)))
            << base.tile.m << "x" << base.tile.n << "x" << base.tile.k << ", " << stages
            << " stages, " << splits << " splits";
        ++compared;
        if (check_rules(spec)) ++refused;
      }
    }
  }
  EXPECT_GT(compared, 40u);
  EXPECT_GT(refused, 10u);  // splits past the K-steps, stages past a split's, and the size
  GemmSpec huge = unsplit.back();
  EXPECT_FALSE(check_rules(huge));
  huge.decomposition = DecompositionParams{GemmDecomposition::split_k, 32};
  EXPECT_FALSE(check_split_rules(huge));
  huge.decomposition.splits = 64;
  ASSERT_TRUE(check_split_rules(huge));
  EXPECT_EQ(check_split_rules(huge)->key_path, "workload");
}

TEST(GemmStreamK, WorkersShareTheIterationsAndHandOverPartialTiles) {
  // 32 x 64 x 64 FP16 in 32 x 32 x 16 tiles: 2 tiles of 4 K-steps, 8 iterations over 3 workers:
  // [0, 2), [2, 5), [5, 8). Worker 0 owns tile 0 (steps 0-1), worker 1 finishes it (steps 2-3)
  // and owns tile 1 (step 0), worker 2 finishes tile 1 (steps 1-3).
  GemmSpec spec = fp16_gemm(32, 64, 64, TileShape{32, 32, 16});
  spec.decomposition = DecompositionParams{GemmDecomposition::stream_k, 1, 3};
  ASSERT_FALSE(check_rules(spec));
  const StreamKPlan plan = stream_k_plan(spec);
  ASSERT_EQ(plan.workers[1].size(), 2u);
  EXPECT_EQ(plan.workers[1][0].first_step, 2u);
  EXPECT_EQ(plan.workers[1][1].tile, 1u);
  EXPECT_EQ(plan.helpers[0], std::vector<std::uint64_t>{1});
  EXPECT_EQ(plan.helpers[1], std::vector<std::uint64_t>{2});

  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 2u * 32 * 64 * 64);
  EXPECT_EQ(a.vector_flops, 2u * 32 * 32);  // each owner adds one helper's tile
  const std::uint64_t partials = 2 * 32 * 32 * 4;
  EXPECT_EQ(a.hbm_read_bytes, 2u * 32 * 64 * 2 + 64 * 64 * 2 + partials);
  EXPECT_EQ(a.hbm_write_bytes, 32u * 64 * 2 + partials);

  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 3u);
  EXPECT_EQ(kernel.flags, 2u);
  const test::KernelTraffic m = traffic_of(kernel);
  EXPECT_EQ(m.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(m.store_bytes, a.hbm_write_bytes);
  EXPECT_EQ(m.flops, a.issued_flops);
}

TEST(GemmPromotion, FP8PartialSumsAreAddedIntoFP32EveryIntervalAndAfterTheLastStep) {
  // 256 x 256 x 448 FP8 in 128 x 128 x 64 tiles: 2 x 2 tiles of 7 K-steps. A promotion every
  // 128 of K is one every 2 K-steps and one after the last: 4 a tile, each an FMA (2 FLOPs) an
  // accumulator, on the vector units.
  GemmSpec spec = fp16_gemm(256, 256, 448, TileShape{128, 128, 64});
  spec.dtype = DataType::fp8;
  spec.promotion_interval = kFp8PromotionInterval;
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(promotions_over(spec, 7), 4u);
  const std::uint64_t mma = 2u * 256 * 256 * 448;
  const std::uint64_t promotion = 4u * 4 * 128 * 128 * 2;
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, mma);  // useful FLOPs: the promotions are the kernel's overhead
  EXPECT_EQ(a.vector_flops, promotion);
  EXPECT_EQ(a.issued_flops, mma + promotion);
  EXPECT_DOUBLE_EQ(a.roofline.t_compute_s, mma / 1e12 + promotion / 1e11);
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(traffic_of(kernel).flops, a.issued_flops);
  std::uint64_t fp32_ops = 0;
  for (const Op& op : kernel.program.ops())
    fp32_ops += op.kind == OpKind::compute && op.compute_type == DataType::fp32 ? 1 : 0;
  EXPECT_EQ(fp32_ops, 4u);

  // A K-step longer than the interval promotes tile.k / interval times a step: 128 x 128 x 256
  // tiles of 2 K-steps (K = 512), 2 a step.
  GemmSpec longer = spec;
  longer.k = 512;
  longer.tile.k = 256;
  EXPECT_EQ(promotions_over(longer, 2), 4u);
  EXPECT_EQ(analyze(longer, kRoof).vector_flops, 4u * 4 * 128 * 128 * 2);
  EXPECT_EQ(traffic_of(build_kernel(longer)).flops, analyze(longer, kRoof).issued_flops);

  // Split-K in 3 of 3, 2 and 2 K-steps: each split promotes over its own slice (2 + 1 + 1), and
  // the last adds the two partial sums.
  GemmSpec split = spec;
  split.decomposition = DecompositionParams{GemmDecomposition::split_k, 3};
  ASSERT_FALSE(check_rules(split));
  const Analysis s = analyze(split, kRoof);
  EXPECT_EQ(s.vector_flops, 4u * 128 * 128 * (2 * (2 + 1 + 1) + 2));
  EXPECT_EQ(traffic_of(build_kernel(split)).flops, s.issued_flops);
}

TEST(GemmPromotion, AnIntervalThatEndsInsideAKStepIsPromotedAfterIt) {
  // K = 384 in K-steps of 96 with a promotion every 128: the intervals end inside steps 1, 2 and
  // 3 (at K = 128, 256, 384), so one promotion follows each of those, none the first.
  GemmSpec spec = fp16_gemm(256, 256, 384, TileShape{128, 128, 96});
  spec.dtype = DataType::fp8;
  spec.promotion_interval = 128;
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(promotions_over(spec, 4), 3u);
  EXPECT_EQ(promotions_after(spec, 0, 4), 0u);
  EXPECT_EQ(promotions_after(spec, 1, 4), 1u);
  EXPECT_EQ(promotions_after(spec, 2, 4), 1u);
  EXPECT_EQ(promotions_after(spec, 3, 4), 1u);
  // Five K-steps (K = 480): three intervals end within them, and the last step promotes the 96
  // of K left after the third.
  EXPECT_EQ(promotions_over(spec, 5), 4u);
  EXPECT_EQ(promotions_after(spec, 4, 5), 1u);
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.vector_flops, 4u * 128 * 128 * 2 * 3);
  EXPECT_EQ(traffic_of(build_kernel(spec)).flops, a.issued_flops);
}

TEST(GemmPromotion, IsATiledDataParallelOrSplitKKernels) {
  GemmSpec spec = fp16_gemm(256, 256, 384, TileShape{128, 128, 64});
  spec.dtype = DataType::fp8;
  spec.promotion_interval = 128;
  spec.decomposition = DecompositionParams{GemmDecomposition::stream_k, 1, 3};
  ASSERT_TRUE(check_rules(spec));
  EXPECT_EQ(check_rules(spec)->key_path, "workload.promotion_interval");
  spec.decomposition = DecompositionParams{};
  spec.strategy = GemmStrategy::register_tiled;
  ASSERT_TRUE(check_rules(spec));
  EXPECT_NE(check_rules(spec)->rule.find("strategy: tiled"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
