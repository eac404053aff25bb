// The operators of inference simulated on the cores (configs/workloads/ops/): the cores move and
// compute exactly the analytical Q and F (hand-computed here), and the simulated time lies between
// the physical floor (the bytes that must cross HBM at its bandwidth) and a bound above T_ideal.
// Small shapes: each run takes well under a second. SystemC elaborates once a process: a test
// simulates once itself, and a run it compares against runs in a child process (run_report).
#include <gtest/gtest.h>

#include "sim/run/simulate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

// Seconds for `bytes` at the machine's HBM bandwidth.
double at_hbm(const RunConfig& config, std::uint64_t bytes) {
  return static_cast<double>(bytes) / config.analysis.roof.hbm_bytes_per_s;
}

TEST(OperatorsSimulated, BiasAddMovesItsBroadcastOnceABlockAtHbmSpeed) {
  // [256, 4096] + [4096] BF16, blocks of 256 x 8 = 2048 outputs: 512 blocks, each reading its
  // 2048 of a and the half of the bias it needs, writing 2048 of y. The seed machine has no L2.
  const RunConfig config = seed_config("workloads/ops/elementwise-bias-add.yaml");
  const std::uint64_t a = 256 * 4096 * 2, bias = 512 * 2048 * 2, y = 256 * 4096 * 2;
  EXPECT_EQ(config.analysis.hbm_bytes(), a + bias + y);  // 6,291,456 B
  EXPECT_EQ(config.analysis.flops, 256u * 4096);         // one add an output
  const SimulationResult run = simulate(config);
  EXPECT_EQ(run.hbm_bytes(), a + bias + y);
  EXPECT_EQ(run.flops(), 256u * 4096);
  // 6.291456 us at 1 TB/s; the first loads' 500 ns latency and the tail add to it.
  EXPECT_GE(run.time.seconds(), 6.291456e-6);
  EXPECT_LE(run.time.seconds(), 1.25 * 6.291456e-6);
}

TEST(OperatorsSimulated, SoftmaxPassesOverHbmCostTheirReads) {
  // [512, 1024] BF16 (1 MiB): kept on chip it is read once and written once; streamed in three
  // passes (max, sum, normalise) it is read three times.
  const RunConfig three = seed_config("workloads/ops/softmax.yaml", {"workload.passes=3"});
  const std::uint64_t tensor = 512 * 1024 * 2;
  EXPECT_EQ(three.analysis.flops, 512u * (5 * 1024 + 1));  // 5 an element, 1 a row
  EXPECT_EQ(three.analysis.hbm_bytes(), 4 * tensor);
  const SimulationResult run = simulate(three);
  EXPECT_EQ(run.hbm_bytes(), 4 * tensor);
  EXPECT_EQ(run.flops(), 512u * (5 * 1024 + 1));
  EXPECT_GE(run.time.seconds(), 4.194304e-6);  // 4 MiB at 1 TB/s
  EXPECT_LE(run.time.seconds(), 2.0 * 4.194304e-6);
  const nlohmann::json on_chip =
      test::run_report("hardware/seed.yaml", "workloads/ops/softmax.yaml");
  EXPECT_EQ(on_chip["simulated"]["hbm_bytes"].get<std::uint64_t>(), 2 * tensor);
  const double on_chip_s = on_chip["simulated"]["time_s"].get<double>();
  EXPECT_GE(on_chip_s, 2.097152e-6);
  EXPECT_GT(run.time.seconds(), on_chip_s);
}

TEST(OperatorsSimulated, SplitKHandsPartialSumsOverAndFillsTheMachine) {
  // 16 x 1024 x 4096 BF16 in 16 x 128 x 64 tiles: 8 output tiles of 64 K-steps, split 8 ways.
  // Seven splits of each tile write a 16 x 128 FP32 partial and signal; the last waits, reads
  // them and adds them on the vector units.
  const RunConfig config =
      seed_config("workloads/ops/gemm-split-k.yaml", {}, "hardware/h100-sxm5-80gb.yaml");
  const std::uint64_t partials = 7 * 16 * 1024 * 4;
  const std::uint64_t a = 8 * 16 * 4096 * 2, b = 4096 * 1024 * 2, c = 16 * 1024 * 2;
  EXPECT_EQ(config.analysis.hbm_read_bytes, a + b + partials);
  EXPECT_EQ(config.analysis.hbm_write_bytes, c + partials);
  EXPECT_EQ(config.analysis.vector_flops, 7u * 16 * 1024);
  EXPECT_EQ(config.analysis.issued_flops, 2u * 16 * 1024 * 4096 + 7 * 16 * 1024);
  const SimulationResult split = simulate(config);
  EXPECT_EQ(split.flops(), config.analysis.issued_flops);
  EXPECT_EQ(split.core_total().flag_waits, 8u);  // the last split of each tile
  // Its floor: A, B and C once over HBM (the L2 may serve the partials and A's re-reads).
  EXPECT_GE(split.time.seconds(), at_hbm(config, 131072 + b + c));
  // Unsplit, the 8 tiles run their 64 K-steps on 8 cores: split 8 ways, the grid is 64 blocks.
  const nlohmann::json unsplit =
      test::run_report("hardware/h100-sxm5-80gb.yaml", "workloads/ops/gemm-split-k.yaml",
                       {"workload.decomposition.splits=1"});
  EXPECT_LT(2 * split.time.seconds(), unsplit["simulated"]["time_s"].get<double>());
}

TEST(OperatorsSimulated, ADecodeStepOfGroupedQueryAttentionStreamsTheCache) {
  // One query a head, 32 heads on 8 K/V heads, 1024 cached keys of 128, BF16, causal (the query
  // sees every key): F = 32 x 4 x 128 x 1024; each block reads its head's Q and its group's K
  // and V (the 4 heads of a group each read them: the L2 may share them in a run).
  const RunConfig config =
      seed_config("workloads/ops/attention-decode.yaml", {}, "hardware/h100-sxm5-80gb.yaml");
  const std::uint64_t q = 128 * 2, kv = 2 * 1024 * 128 * 2;
  EXPECT_EQ(config.analysis.flops, 32u * 4 * 128 * 1024);
  EXPECT_EQ(config.analysis.hbm_read_bytes, 32 * (q + kv));
  EXPECT_EQ(config.analysis.hbm_write_bytes, 32 * q);
  const SimulationResult run = simulate(config);
  EXPECT_EQ(run.flops(), config.analysis.issued_flops);
  // The floor: every K/V head, Q and O cross HBM once.
  EXPECT_GE(run.time.seconds(), at_hbm(config, 8 * kv + 2 * 32 * q));
  EXPECT_LE(run.time.seconds(), 3 * config.analysis.roofline.t_ideal_s);
}

// A 3 x 3 convolution that gives the seed machine's 128 cores a block each: [8, 16, 16, 64] by 128
// filters, padding 1, FP32; blocks of 2 output rows (32 pixels) x 64 filters, 16 channels a K-step:
// 8 row tiles x 8 images x 2 filter tiles, 9 taps x 4 channel chunks = 36 K-steps each.
const std::vector<std::string> kSmallConv = {"workload.batch=8",
                                             "workload.channels=64",
                                             "workload.height=16",
                                             "workload.width=16",
                                             "workload.filters=128",
                                             "workload.dtype=fp32",
                                             "workload.tile={m: 32, n: 64, k: 16}",
                                             "workload.stages=2",
                                             "workload.register_tile={m: 4, n: 4}",
                                             "workload.warp_tile={m: 16, n: 32}"};

TEST(OperatorsSimulated, AConvolutionRequestsEveryTapsTileAndAnL2ServesTheRepeats) {
  const RunConfig config =
      seed_config("workloads/ops/conv-resnet.yaml", kSmallConv, "hardware/seed-l2.yaml");
  // Q by hand: A, for each of the 2 filter tiles, the 8 images' im2col elements inside the input
  // (of each tap's 16 output rows and columns, taps 0 and 2 miss one: 15 + 16 + 15 = 46 each
  // way); the weights once for each of the 64 row tiles; y once.
  const std::uint64_t e = 4, taps = 64 * 9, v = 15 + 16 + 15;
  const std::uint64_t a = 2 * 8 * 64 * v * v * e, w = 64 * 128 * taps * e, y = 8 * 256 * 128 * e;
  EXPECT_EQ(config.analysis.hbm_read_bytes, a + w);
  EXPECT_EQ(config.analysis.hbm_write_bytes, y);
  EXPECT_EQ(config.analysis.flops, 2u * (8 * 256) * 128 * taps);
  const SimulationResult run = simulate(config);
  // The cores request exactly the note's Q, compute its F and move its SRAM traffic.
  ASSERT_EQ(run.levels.size(), 1u);
  EXPECT_EQ(run.levels[0].traffic.requested_bytes, config.analysis.hbm_bytes());
  EXPECT_EQ(run.flops(), config.analysis.issued_flops);
  EXPECT_EQ(run.sram_total().read_bytes, config.analysis.sram_read_bytes);
  EXPECT_EQ(run.sram_total().write_bytes, config.analysis.sram_write_bytes);
  // The L2 serves the taps' repeats: HBM carries well under Q (x, w and y are 1.8 MiB; Q is
  // 28.6 MB), and the run is bound by compute rather than by the note's T_memory.
  EXPECT_LT(3 * run.hbm_bytes(), config.analysis.hbm_bytes());
  EXPECT_GE(run.time.seconds(), config.analysis.roofline.t_compute_s);
  EXPECT_LT(run.time.seconds(), config.analysis.roofline.t_ideal_s);
  // Without the L2, HBM carries exactly Q, and the run takes at least T_ideal (memory-bound).
  const nlohmann::json seed =
      test::run_report("hardware/seed.yaml", "workloads/ops/conv-resnet.yaml", kSmallConv);
  EXPECT_EQ(seed["simulated"]["hbm_bytes"].get<std::uint64_t>(), config.analysis.hbm_bytes());
  const double seed_s = seed["simulated"]["time_s"].get<double>();
  EXPECT_GE(seed_s, config.analysis.roofline.t_ideal_s);
  EXPECT_LE(seed_s, 1.5 * config.analysis.roofline.t_ideal_s);
}

TEST(OperatorsSimulated, AConvolutionsTileAutoRunsFasterThanTheBundledHandTile) {
  // ResNet-50's conv4_x on the H100 preset: the chooser weighs the hand tile too (112 x 128 x 32,
  // 3 stages, 56 x 32 warp tiles) and picks one its estimate finds faster; the run bears it out
  // (18.3 against 30.5 us when written). Both compute the same F.
  const nlohmann::json hand =
      test::run_report("hardware/h100-sxm5-80gb.yaml", "workloads/ops/conv-resnet.yaml");
  const nlohmann::json chosen =
      test::run_report("hardware/h100-sxm5-80gb.yaml", "workloads/ops/conv-resnet-auto.yaml");
  EXPECT_EQ(chosen["simulated"]["flops"], hand["simulated"]["flops"]);
  EXPECT_LT(chosen["simulated"]["time_s"].get<double>(),
            0.8 * hand["simulated"]["time_s"].get<double>());
  EXPECT_NE(chosen["workload"]["tile_choice"]["reason"].get<std::string>().find("candidates"),
            std::string::npos);
}

}  // namespace
}  // namespace ridgeline
