// The convolution as an implicit GEMM (workloads/conv.hpp): F, Q, the SRAM level and the
// footprint by hand for a 1 x 1 convolution (the GEMM's figures exactly), a 3 x 3 one with padding
// and an edge row tile, and strided ones; the block programs that carry them, to the byte; the
// rules and the default tiling.
#include "workloads/conv.hpp"

#include <gtest/gtest.h>

#include "tests/kernel_traffic.hpp"

namespace ridgeline {
namespace {

const Roof kRoof{1e12, 1e12, 1e11};

ConvSpec conv(std::uint64_t batch, std::uint64_t channels, std::uint64_t size,
              std::uint64_t filters, std::uint64_t kernel, std::uint64_t stride,
              std::uint64_t padding, TileShape tile) {
  ConvSpec spec;
  spec.batch = batch;
  spec.channels = channels;
  spec.height = spec.width = size;
  spec.filters = filters;
  spec.kernel_r = spec.kernel_s = kernel;
  spec.stride = stride;
  spec.padding = padding;
  spec.dtype = DataType::bf16;
  spec.tile = tile;
  spec.stages = 2;
  spec.register_tile = RegisterTile{4, 4};
  return spec;
}

// What every block of the grid loads, stores, computes, lands in SRAM and reads from it.
struct SramTraffic {
  std::uint64_t writes = 0;
  std::uint64_t reads = 0;
};
SramTraffic sram_of(const Kernel& kernel) {
  SramTraffic t;
  kernel.for_each_program([&](const Program& program, std::uint64_t blocks) {
    for (const Op& op : program.ops()) {
      t.writes += blocks * op.sram_write_bytes;
      t.reads += blocks * op.sram_read_bytes;
    }
  });
  return t;
}

// The first op of `kind` in the program's order (loads in the order they are issued).
const Op& first_op(const Program& program, OpKind kind) {
  for (const Op& op : program.ops()) {
    if (op.kind == kind) return op;
  }
  ADD_FAILURE() << "no " << name_of(kind);
  return program.ops().front();
}

void expect_program_carries_analysis(const ConvSpec& spec) {
  ASSERT_FALSE(check_rules(spec)) << check_rules(spec)->rule;
  const Analysis a = analyze(spec, kRoof);
  const Kernel kernel = build_kernel(spec);
  const test::KernelTraffic m = test::traffic_of(kernel);
  EXPECT_EQ(m.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(m.store_bytes, a.hbm_write_bytes);
  EXPECT_EQ(m.flops, a.issued_flops);
  const SramTraffic sram = sram_of(kernel);
  EXPECT_EQ(sram.writes, a.sram_write_bytes);
  EXPECT_EQ(sram.reads, a.sram_read_bytes);
}

TEST(Conv, OneByOneIsTheGemmOfItsPixelsByItsChannels) {
  // [2, 8, 8, 64] by 128 filters 1 x 1: A is x itself, M = 128 pixels, K = 64 channels. Tiles of
  // 4 output rows (32 pixels) x 64 filters x 16 channels divide it: the GEMM's figures exactly.
  const ConvSpec spec = conv(2, 64, 8, 128, 1, 1, 0, TileShape{32, 64, 16});
  ASSERT_FALSE(check_rules(spec));
  const GemmSpec gemm = implicit_gemm(spec);
  EXPECT_EQ(gemm.m, 128u);
  EXPECT_EQ(gemm.n, 128u);
  EXPECT_EQ(gemm.k, 64u);
  const Analysis c = analyze(spec, kRoof), g = analyze(gemm, kRoof);
  const std::uint64_t e = 2;
  EXPECT_EQ(c.flops, 2u * 128 * 128 * 64);
  EXPECT_EQ(c.issued_flops, c.flops);
  // A once a block column (128 / 64 = 2), the weights once a row tile (2 images x 2 row tiles), y.
  EXPECT_EQ(c.hbm_read_bytes, 2 * 128 * 64 * e + 4 * 64 * 128 * e);
  EXPECT_EQ(c.hbm_write_bytes, 128u * 128 * e);
  EXPECT_EQ(c.flops, g.flops);
  EXPECT_EQ(c.issued_flops, g.issued_flops);
  EXPECT_EQ(c.hbm_read_bytes, g.hbm_read_bytes);
  EXPECT_EQ(c.hbm_write_bytes, g.hbm_write_bytes);
  EXPECT_EQ(c.sram_read_bytes, g.sram_read_bytes);
  EXPECT_EQ(c.sram_write_bytes, g.sram_write_bytes);
  EXPECT_EQ(c.footprint.sram_bytes, g.footprint.sram_bytes);
  EXPECT_EQ(c.footprint.threads, g.footprint.threads);
  EXPECT_EQ(c.footprint.register_bytes, g.footprint.register_bytes);
  // S_input = (32 x 16 + 16 x 64) e a stage, two stages; FP32 accumulators of 32 x 64.
  EXPECT_EQ(c.footprint.input_bytes_per_stage, (32u * 16 + 16 * 64) * e);
  EXPECT_EQ(c.footprint.sram_bytes, 2 * (32u * 16 + 16 * 64) * e);
  EXPECT_EQ(c.footprint.accumulator_bytes, 32u * 64 * 4);
  EXPECT_EQ(c.footprint.threads, (32u / 4) * (64 / 4));
  expect_program_carries_analysis(spec);
}

TEST(Conv, ThreeByThreePaddedLoadsWhatLiesInTheInputEveryTap) {
  // [2, 8, 8, 32] by 64 filters 3 x 3, stride 1, padding 1: P = Q = 8. Row tiles of 3 rows
  // (24 pixels): ceil(8 / 3) = 3 of them, the last with 2 rows (its third predicated).
  const ConvSpec spec = conv(2, 32, 8, 64, 3, 1, 1, TileShape{24, 32, 16});
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(spec.out_height(), 8u);
  EXPECT_EQ(spec.out_width(), 8u);
  EXPECT_EQ(spec.row_tiles(), 3u);
  EXPECT_EQ(spec.steps(), 9u * 2);  // 9 taps x 32 / 16 channel chunks
  const std::uint64_t e = 2, taps = 32 * 9;
  // Output rows whose input row lies inside, tap by tap: r = 0 misses p = 0, r = 2 p = 7.
  EXPECT_EQ(outputs_inside(0, 8, 8, 1, 1).count(), 7u);
  EXPECT_EQ(outputs_inside(1, 8, 8, 1, 1).count(), 8u);
  EXPECT_EQ(outputs_inside(2, 8, 8, 1, 1).count(), 7u);
  const std::uint64_t v = 7 + 8 + 7;  // V_H = V_W
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 2u * (2 * 8 * 8) * 64 * taps);          // padding taps included
  EXPECT_EQ(a.issued_flops, 2u * (2 * 3 * 24) * 64 * taps);  // 3 row tiles of 24 an image
  // A: every block column (64 / 32 = 2) reads each image's im2col elements outside the padding,
  // 32 C V_H V_W; the weights once for each of the 2 x 3 row tiles; y once.
  EXPECT_EQ(a.hbm_read_bytes, 2 * 2 * 32 * v * v * e + 6 * 64 * taps * e);
  EXPECT_EQ(a.hbm_write_bytes, 2u * 8 * 8 * 64 * e);
  // 12 blocks of 18 K-steps: whole tiles land, (24 + 32) 16 e. 6 x 8 threads of 4 x 4 outputs,
  // numbered along n: the first warp spans 4 rows of 8 threads (4 x 4 + 8 x 4 elements a k), the
  // second the other 2 (2 x 4 + 8 x 4).
  EXPECT_EQ(a.sram_write_bytes, 12u * 18 * (24 + 32) * 16 * e);
  EXPECT_EQ(a.sram_read_bytes, 12u * 18 * ((4 * 4 + 8 * 4) + (2 * 4 + 8 * 4)) * 16 * e);
  expect_program_carries_analysis(spec);
}

TEST(Conv, InteriorRowTilesShareAProgramAndComeFirst) {
  const ConvSpec spec = conv(2, 32, 8, 64, 3, 1, 1, TileShape{24, 32, 16});
  const Kernel kernel = build_kernel(spec);
  EXPECT_EQ(kernel.grid_rows, 3u * 2);
  EXPECT_EQ(kernel.grid_cols, 2u);
  // Row tile 1 (rows 3 to 5) is the interior: block rows 0 and 1; then row tile 0 (its taps
  // above the input) and row tile 2 (below it, and past P), a band each.
  ASSERT_EQ(kernel.bands.size(), 2u);
  EXPECT_EQ(kernel.bands[0].first_row, 2u);
  EXPECT_EQ(kernel.bands[1].first_row, 4u);
  const std::uint64_t image = 8 * 8 * 32 * 2;
  // Step 0 (tap r = s = 0, channels 0 to 15), image 1, row tile 1: output row 3 reads input row
  // 2 from column 0 (q = 0 lies in the padding: 7 pixels), a pixel 32 x 2 bytes apart.
  const Op& interior = first_op(kernel.program_for(BlockCoord{1, 0}), OpKind::load);
  EXPECT_EQ(interior.tensor, 0u);  // x
  EXPECT_EQ(interior.step, 0u);
  const Region row = interior.address.for_block(BlockCoord{1, 0});
  EXPECT_EQ(row.base, image + 2 * 8 * 32 * 2);
  EXPECT_EQ(row.rows, 7u);
  EXPECT_EQ(row.row_bytes, 16u * 2);
  EXPECT_EQ(row.pitch_bytes, 32u * 2);
  // Row tile 0's first output row reads input row -1 for r = 0: no load; its first load is
  // output row 1's, input row 0.
  const Op& top = first_op(kernel.program_for(BlockCoord{3, 0}), OpKind::load);
  EXPECT_EQ(top.address.for_block(BlockCoord{3, 0}).base, image);
  EXPECT_EQ(top.sram_write_bytes, 8u * 16 * 2);  // the whole output row lands
  // y: row tile 2 of image 1 writes rows 6 and 7 only, the filters of block column 1.
  const Op& store = first_op(kernel.program_for(BlockCoord{5, 1}), OpKind::store);
  const Region out = store.address.for_block(BlockCoord{5, 1});
  const std::uint64_t y = tensors(spec)[2].address;
  EXPECT_EQ(out.base, y + (8u * 8 + 6 * 8) * 64 * 2 + 32 * 2);
  EXPECT_EQ(out.rows, 2u * 8);
  EXPECT_EQ(out.row_bytes, 32u * 2);
  EXPECT_EQ(out.pitch_bytes, 64u * 2);
}

TEST(Conv, StrideTwoSkipsInputRowsAndColumns) {
  // [1, 8, 8, 16] by 32 filters 3 x 3, stride 2, padding 1: P = Q = 4. Tap 0 misses output 0
  // (input -1); taps 1 and 2 see all four (inputs 0, 2, 4, 6 and 1, 3, 5, 7).
  const ConvSpec spec = conv(1, 16, 8, 32, 3, 2, 1, TileShape{8, 32, 16});
  ASSERT_FALSE(check_rules(spec));
  EXPECT_EQ(spec.out_height(), 4u);
  const std::uint64_t v = 3 + 4 + 4, e = 2, taps = 16 * 9;
  const Analysis a = analyze(spec, kRoof);
  EXPECT_EQ(a.flops, 2u * 16 * 32 * taps);
  EXPECT_EQ(a.issued_flops, a.flops);  // 2 row tiles of 2 rows
  EXPECT_EQ(a.hbm_read_bytes, 16 * v * v * e + 2 * 32 * taps * e);
  EXPECT_EQ(a.hbm_write_bytes, 16u * 32 * e);
  expect_program_carries_analysis(spec);
  // The 1 x 1 stride-2 projection of a ResNet block: every other pixel, none re-read.
  ConvSpec projection = conv(2, 16, 8, 32, 1, 2, 0, TileShape{8, 32, 16});
  projection.stages = 1;  // a single K-step
  const Analysis p = analyze(projection, kRoof);
  EXPECT_EQ(p.hbm_read_bytes, 2u * 16 * 4 * 4 * e + 4 * 32 * 16 * e);
  expect_program_carries_analysis(projection);
}

TEST(Conv, RulesTieTheTileToTheOutputAndTheChannels) {
  const ConvSpec valid = conv(2, 32, 8, 64, 3, 1, 1, TileShape{24, 32, 16});
  auto broken = [&](auto change) {
    ConvSpec spec = valid;
    change(spec);
    const auto violation = check_rules(spec);
    return violation ? violation->key_path + ": " + violation->rule : std::string("none");
  };
  EXPECT_EQ(broken([](ConvSpec& s) { s.kernel_r = 11; }),
            "workload.kernel.r: the filter (R = 11) is larger than the padded input (height + 2 "
            "padding = 10): it has no output");
  EXPECT_EQ(broken([](ConvSpec& s) { s.tile.m = 20; }),
            "workload.tile.m: must be whole output rows of one image: a multiple of the output's "
            "width Q = 8 up to P x Q = 64");
  const auto starts = [](const std::string& text, const std::string& start) {
    return text.rfind(start, 0) == 0;
  };
  EXPECT_PRED2(starts, broken([](ConvSpec& s) { s.tile.m = 72; }), "workload.tile.m: must be");
  EXPECT_EQ(broken([](ConvSpec& s) { s.tile.n = 48; }),
            "workload.tile.n: must divide filters = 64");
  EXPECT_PRED2(starts, broken([](ConvSpec& s) { s.tile.k = 12; }),
               "workload.tile.k: must divide channels = 32: a K-step");
  // The implicit GEMM's rules, at the same keys.
  EXPECT_PRED2(starts, broken([](ConvSpec& s) { s.stages = 19; }),
               "workload.stages: more stages than K-steps");
  EXPECT_EQ(broken([](ConvSpec& s) { s.register_tile.m = 5; }),
            "workload.register_tile.m: must divide tile.m = 24");
  EXPECT_PRED2(starts, broken([](ConvSpec& s) { s.batch = s.channels = s.filters = 1u << 24; }),
               "workload: the convolution is too large");
}

TEST(Conv, TheDefaultTilingFitsTheOutputsRows) {
  // ResNet-50's 3 x 3 layer of its fourth stage: 14 x 14 outputs. 7 rows (98 pixels) divide 14;
  // 14 x 16 threads of 7 x 8 outputs, a warp 2 x 16 of them.
  ConvSpec spec = conv(32, 256, 14, 256, 3, 1, 1, TileShape{});
  apply_default_tiling(spec);
  EXPECT_EQ(spec.tile.m, 98u);
  EXPECT_EQ(spec.tile.n, 128u);
  EXPECT_EQ(spec.tile.k, 32u);
  EXPECT_EQ(spec.stages, 2u);
  EXPECT_EQ(spec.register_tile.m, 7u);
  EXPECT_EQ(spec.register_tile.n, 8u);
  ASSERT_TRUE(spec.warp_tile.has_value());
  EXPECT_EQ(spec.warp_tile->m, 14u);
  EXPECT_EQ(spec.warp_tile->n, 128u);
  EXPECT_FALSE(check_rules(spec));
  EXPECT_FALSE(WorkloadKind<ConvSpec>::check_threads(spec, KernelTarget{}));
  // A first layer: 3 channels, 7 x 7 filters of stride 2 over 224 x 224, 64 filters: Q = 112,
  // one output row a block.
  ConvSpec first = conv(1, 3, 224, 64, 7, 2, 3, TileShape{});
  apply_default_tiling(first);
  EXPECT_EQ(first.tile.m, 112u);
  EXPECT_EQ(first.tile.k, 3u);
  EXPECT_FALSE(check_rules(first));
  expect_program_carries_analysis(first);
}

TEST(Conv, TensorsAreNhwcInputAndOutputAndKrscWeights) {
  const ConvSpec spec = conv(2, 32, 8, 64, 3, 2, 1, TileShape{8, 32, 16});
  const std::vector<TensorRef> t = tensors(spec);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].name, "x");
  EXPECT_EQ(t[0].role, TensorRole::input);
  EXPECT_EQ(t[0].shape, (TensorShape{{2, 8, 8, 32}}));
  EXPECT_EQ(t[0].address, 0u);
  EXPECT_EQ(t[1].name, "w");
  EXPECT_EQ(t[1].role, TensorRole::input);
  EXPECT_EQ(t[1].shape, (TensorShape{{64, 3, 3, 32}}));
  EXPECT_EQ(t[1].address, 1u << 20);  // after x's aligned MiB
  EXPECT_EQ(t[2].name, "y");
  EXPECT_EQ(t[2].role, TensorRole::output);
  EXPECT_EQ(t[2].shape, (TensorShape{{2, 4, 4, 64}}));
  EXPECT_EQ(t[2].address, 2u << 20);
}

}  // namespace
}  // namespace ridgeline
