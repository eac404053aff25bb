// A convolution's `tile: auto` (workloads/conv_auto_tile.hpp): the choice is a tile of the
// convolution's own rules, its estimate is its implicit GEMM's, and no candidate it weighs, the
// bundled hand tile among them, estimates faster.
#include "workloads/conv_auto_tile.hpp"

#include <gtest/gtest.h>

#include "sim/config/run_config.hpp"
#include "tests/test_support.hpp"
#include "workloads/gemm_auto_tile.hpp"

namespace ridgeline {
namespace {

// A conv document with `tile: auto`, on a preset: the configuration, its choice made.
RunConfig auto_conv(const std::string& hardware, const std::string& shape) {
  const std::string workload = "workload:\n  kind: conv\n" + shape +
                               "  dtype: bf16\n"
                               "  tile: auto\n";
  return load_config(ConfigInput{test::config_path(hardware), std::nullopt},
                     ConfigInput{"<workload>", workload}, {});
}

// The spec `auto_conv` chose for.
const ConvSpec& chosen(const RunConfig& config) {
  const auto& spec = std::get<ConvSpec>(config.workload);
  EXPECT_TRUE(spec.choice.has_value());
  return spec;
}

// ResNet-50's conv4_x, as configs/workloads/ops/conv-resnet.yaml: 32 x 14 x 14 x 256 by 256
// filters of 3 x 3, padding 1.
const char* const kConv4 =
    "  batch: 32\n  channels: 256\n  height: 14\n  width: 14\n  filters: 256\n"
    "  kernel: 3\n  padding: 1\n";

// ResNet-50's conv5_x: 32 x 7 x 7 x 512 by 512 filters of 3 x 3, padding 1.
const char* const kConv5 =
    "  batch: 32\n  channels: 512\n  height: 7\n  width: 7\n  filters: 512\n"
    "  kernel: 3\n  padding: 1\n";

// The implicit GEMM of `spec` as a tile written out, for estimate_tile.
GemmSpec written_out(const ConvSpec& spec) {
  GemmSpec gemm = implicit_gemm(spec);
  gemm.tile_auto = false;
  gemm.choice.reset();
  return gemm;
}

TEST(ConvAutoTile, TheChoiceIsAConvolutionsTileEstimatedAsItsImplicitGemm) {
  const RunConfig config = auto_conv("hardware/h100-sxm5-80gb.yaml", kConv4);
  const auto& spec = std::get<ConvSpec>(config.workload);
  ASSERT_TRUE(spec.choice.has_value());
  EXPECT_GT(spec.choice->candidates, 100u);
  // Whole output rows of one image, a divisor of the filters, a divisor of the channels.
  EXPECT_EQ(spec.tile.m % 14, 0u);
  EXPECT_LE(spec.tile.m, 196u);
  EXPECT_EQ(256 % spec.tile.n, 0u);
  EXPECT_EQ(256 % spec.tile.k, 0u);
  EXPECT_FALSE(check_rules(config.workload));
  EXPECT_GE(config.occupancy.blocks_per_core, 1u);
  // What it reports is the estimate of the tile it hands on (tile, stages, register and warp
  // tiles all carried back from the GEMM's chooser).
  EXPECT_DOUBLE_EQ(spec.choice->estimated_time_s,
                   estimate_tile(written_out(spec), config.hardware).time_s);
  // The bundled hand tile (conv-resnet.yaml: 112 x 128 x 32, 3 stages, 7 x 8 a thread, 56 x 32 a
  // warp) is one of the candidates: the choice estimates no slower.
  const ConvSpec hand = std::get<ConvSpec>(
      test::seed_config("workloads/ops/conv-resnet.yaml", {}, "hardware/h100-sxm5-80gb.yaml")
          .workload);
  ASSERT_EQ(hand.tile.m, 112u);
  EXPECT_LE(spec.choice->estimated_time_s,
            estimate_tile(written_out(hand), config.hardware).time_s);
}

TEST(ConvAutoTile, AFirstLayerTakesItsFewChannelsWhole) {
  // 3 input channels (an RGB image) and 96 filters over a 7 x 7 output: no candidate size divides
  // 3, so tile.k is C itself; tile.n a divisor of 96; tile.m whole rows of 7.
  const RunConfig config =
      auto_conv("hardware/a100-sxm4-80gb.yaml",
                "  batch: 8\n  channels: 3\n  height: 13\n  width: 13\n  filters: 96\n"
                "  kernel: 7\n  stride: 1\n  padding: 0\n");
  const ConvSpec& spec = chosen(config);
  EXPECT_EQ(spec.out_width(), 7u);
  EXPECT_EQ(spec.tile.k, 3u);
  EXPECT_EQ(96 % spec.tile.n, 0u);
  EXPECT_EQ(spec.tile.m % 7, 0u);
  EXPECT_FALSE(check_rules(config.workload));
}

TEST(ConvAutoTile, RowsPastTheOutputCountAgainstATile) {
  // ResNet-50's conv5_x on the A100: 7 x 7 outputs. A tile of 6 rows computes 12 rows an image
  // for 7 (its second row tile 5 rows past P), which a GEMM of N P Q rows would not see (88 us
  // simulated against 43 for whole images when that was so): the choice leaves no row past P.
  const RunConfig config = auto_conv("hardware/a100-sxm4-80gb.yaml", kConv5);
  EXPECT_EQ(chosen(config).out_height() % chosen(config).tile_rows(), 0u);
  EXPECT_EQ(config.analysis.issued_flops, config.analysis.flops);
}

TEST(ConvAutoTile, ChannelsNoSizeDividesAreOfferedWhole) {
  // 131 channels (a prime): the largest divisor up to 128 is 1, a K-step of one channel; C whole
  // is offered too, and chosen (9.8 us simulated against 120 for tile.k = 1 when that was all).
  const RunConfig config = auto_conv("hardware/h100-sxm5-80gb.yaml",
                                     "  batch: 32\n  channels: 131\n  height: 14\n  width: 14\n"
                                     "  filters: 256\n  kernel: 3\n  padding: 1\n");
  EXPECT_EQ(chosen(config).tile.k, 131u);
}

TEST(ConvAutoTile, TheChoiceIsTheSameEveryTime) {
  const auto choose = [] {
    return std::get<ConvSpec>(auto_conv("hardware/h100-sxm5-80gb.yaml", kConv4).workload);
  };
  const ConvSpec first = choose();
  const ConvSpec second = choose();
  EXPECT_EQ(first.tile.m, second.tile.m);
  EXPECT_EQ(first.tile.n, second.tile.n);
  EXPECT_EQ(first.tile.k, second.tile.k);
  EXPECT_EQ(first.stages, second.stages);
  EXPECT_EQ(first.choice->reason, second.choice->reason);
}

}  // namespace
}  // namespace ridgeline
