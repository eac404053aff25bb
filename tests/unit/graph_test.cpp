// Graphs of kernels: the run order and its cycles, the critical path, a graph file read and
// checked, the transformer's kernels against the model's own arithmetic, and which inputs a
// kernel finds in the L2.
#include "workloads/graph.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <variant>

#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_report.hpp"
#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using Dependencies = std::vector<std::vector<std::size_t>>;

TEST(GraphOrder, KeepsTheFileOrderWhereverTheDependenciesAllow) {
  // 0 and 1 are independent; 2 waits for 1; 3 waits for 0 and 2.
  const RunOrder order = run_order(Dependencies{{}, {}, {1}, {0, 2}});
  ASSERT_FALSE(order.cycle);
  EXPECT_EQ(order.order, (std::vector<std::size_t>{0, 1, 2, 3}));
  // Written out of order: 0 waits for 2, which waits for 1.
  const RunOrder reordered = run_order(Dependencies{{2}, {}, {1}});
  EXPECT_EQ(reordered.order, (std::vector<std::size_t>{1, 2, 0}));
}

TEST(GraphOrder, NamesTheKernelsOfACycle) {
  // 0 -> 1 -> 2 -> 0 (each waits for the next), 3 apart.
  const RunOrder order = run_order(Dependencies{{1}, {2}, {0}, {}});
  ASSERT_TRUE(order.cycle);
  EXPECT_TRUE(order.order.empty());
  const std::vector<std::size_t>& ring = order.cycle->kernels;
  ASSERT_EQ(ring.size(), 3u);
  const Dependencies dependencies{{1}, {2}, {0}, {}};
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const std::vector<std::size_t>& on = dependencies[ring[i]];
    EXPECT_EQ(on.front(), ring[(i + 1) % ring.size()]) << "kernel " << ring[i];
  }
}

TEST(GraphOrder, TheCriticalPathIsTheLongestChainByTime) {
  // A diamond: 0 feeds 1 (5 s) and 2 (2 s), both feed 3.
  const Dependencies dependencies{{}, {0}, {0}, {1, 2}};
  const std::vector<std::size_t> order = run_order(dependencies).order;
  const CriticalPath path = critical_path(dependencies, order, {1.0, 5.0, 2.0, 3.0});
  EXPECT_DOUBLE_EQ(path.time_s, 9.0);
  EXPECT_EQ(path.kernels, (std::vector<std::size_t>{0, 1, 3}));
}

TEST(GraphStreams, AKernelWaitsForTheOneBeforeItInItsStream) {
  // 0 and 2 in stream "a", 1 in "b", 3 in "a" and waiting for 1 by its data.
  const Dependencies dependencies{{}, {}, {}, {1}};
  const auto waits = with_stream_order(dependencies, {0, 1, 2, 3}, {"a", "b", "a", "a"});
  EXPECT_EQ(waits, (Dependencies{{}, {}, {0}, {1, 2}}));
}

TEST(GraphStreams, KernelsAtOnceShareTheMachineByWhatEachUses) {
  const Dependencies apart{{}, {}};
  const std::vector<std::size_t> order{0, 1};
  // Each alone 4 s. One HBM-bound (a quarter of the compute units), one compute-bound (a
  // quarter of the HBM): together they use 1.25 of each, so both progress at 0.8: 5 s, not 8.
  EXPECT_DOUBLE_EQ(shared_machine_schedule(apart, order, {4.0, 4.0},
                                           {KernelDemand{0, 0.25, 1}, KernelDemand{0, 1, 0.25}})
                       .time_s,
                   5.0);
  // Half of everything each: they fit together, 4 s.
  EXPECT_DOUBLE_EQ(
      shared_machine_schedule(apart, order, {4.0, 4.0},
                              {KernelDemand{0.5, 0.5, 0.5}, KernelDemand{0.5, 0.5, 0.5}})
          .time_s,
      4.0);
  // Both take every block slot: one after the other in effect. 2 s and 4 s at half speed until
  // the first ends (4 s), then the second's last 2 s alone: 6 s, the sum.
  EXPECT_DOUBLE_EQ(shared_machine_schedule(apart, order, {2.0, 4.0},
                                           {KernelDemand{1, 0.1, 0.1}, KernelDemand{1, 0.1, 0.1}})
                       .time_s,
                   6.0);
  // In one stream (1 waits for 0) nothing overlaps: the sum.
  EXPECT_DOUBLE_EQ(shared_machine_schedule(Dependencies{{}, {0}}, order, {4.0, 4.0},
                                           {KernelDemand{0, 0.25, 1}, KernelDemand{0, 1, 0.25}})
                       .time_s,
                   8.0);
  // A diamond (0 feeds 1 and 2, both feed 3), 1 and 2 fitting together: the critical path.
  const Dependencies diamond{{}, {0}, {0}, {1, 2}};
  const std::vector<double> times{1.0, 5.0, 2.0, 3.0};
  const std::vector<KernelDemand> light(4, KernelDemand{0.3, 0.3, 0.3});
  const SharedSchedule schedule = shared_machine_schedule(diamond, {0, 1, 2, 3}, times, light);
  EXPECT_DOUBLE_EQ(schedule.time_s, critical_path(diamond, {0, 1, 2, 3}, times).time_s);
  // 1 and 2 start together when 0 ends; 3 when the longer of them, 1, ends.
  EXPECT_EQ(schedule.start_s, (std::vector<double>{0, 1, 1, 6}));
  EXPECT_EQ(schedule.finish_s, (std::vector<double>{1, 6, 3, 9}));
}

GraphConfig load(const std::string& hardware, const std::string& workload,
                 const std::vector<std::string>& overrides = {}) {
  return load_graph_config(test::config_path(hardware), test::config_path(workload), overrides);
}

TEST(GraphStreams, AGraphsStreamsRunAtOnceInItsTotals) {
  const GraphConfig g =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/decode-qkv-streams.yaml");
  ASSERT_EQ(g.kernels.size(), 3u);
  EXPECT_EQ(g.kernels[0].stream, "q");
  EXPECT_EQ(g.kernels[2].stream, "v");
  for (const auto& on : g.dependencies) EXPECT_TRUE(on.empty());  // inputs only
  // Three decode GEMVs, each HBM-bound at T_ideal (its HBM busy all the time, in the note's
  // model): at once they share the HBM, so the analytical figure gains nothing from the streams.
  const Json report = graph_report_json(g, nullptr);
  EXPECT_EQ(report["workload"]["streams"].get<std::size_t>(), 3u);
  double sum = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const Roofline& r = g.kernel_config(k).analysis.roofline;
    ASSERT_EQ(r.bound, Bound::memory);
    sum += r.t_ideal_s;
  }
  EXPECT_NEAR(report["analytical"]["streams_time_s"].get<double>(), sum, 1e-12 * sum);
  EXPECT_NEAR(report["analytical"]["t_ideal_s"].get<double>(), sum, 1e-12 * sum);
}

// A command sends a graph to the graph's reader by its workload file alone; anything that is
// not plainly a graph (one kernel, a file that cannot be read) goes to the single-kernel reader.
TEST(GraphConfig, AWorkloadIsAGraphByItsKindAlone) {
  const auto is_graph = [](const std::string& workload, std::vector<std::string> overrides = {}) {
    return workload_is_graph(ConfigInput{test::config_path(workload), std::nullopt}, overrides);
  };
  EXPECT_TRUE(is_graph("workloads/models/llama-2-7b-decode.yaml"));
  EXPECT_TRUE(is_graph("workloads/models/mlp-block.yaml"));
  EXPECT_TRUE(is_graph("workloads/models/mlp-block-onnx.yaml"));
  EXPECT_FALSE(is_graph("workloads/vector-add.yaml"));
  EXPECT_FALSE(is_graph("workloads/vector-add.yaml", {"workload.kind=gemm"}));
  EXPECT_TRUE(is_graph("workloads/vector-add.yaml", {"workload.kind=transformer"}));
  EXPECT_FALSE(is_graph("workloads/no-such-file.yaml"));
  EXPECT_FALSE(
      workload_is_graph(ConfigInput{"inline.yaml", std::string("workload: [1, 2]\n")}, {}));
}

TEST(GraphConfig, ReadsTheMlpBlockAndFindsProducersInTheL2) {
  const GraphConfig g = load("hardware/h100-sxm5-80gb.yaml", "workloads/models/mlp-block.yaml");
  ASSERT_EQ(g.kernels.size(), 5u);
  EXPECT_EQ(g.order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(g.dependencies[4], (std::vector<std::size_t>{3}));  // residual: down; x is an input
  EXPECT_EQ(g.runs.size(), 5u);
  // F of the projections: 2 m n k each.
  EXPECT_EQ(g.kernel_config(1).analysis.flops, 2ull * 512 * 4096 * 1024);
  EXPECT_EQ(g.kernel_config(3).analysis.flops, 2ull * 512 * 1024 * 4096);
  // Each kernel's producer output is in the 50 MiB L2 (a tensor of 512 x 1024 BF16 is 1 MiB,
  // 512 x 4096 is 4 MiB); the residual also finds x, read by the norm 26 MiB of tensors ago
  // (xn 1, up.weight 8, up 4, act 4, down.weight 8, down 1). Weights are read once: never.
  const std::uint64_t mib = 1 << 20;
  EXPECT_EQ(g.l2_resident_bytes,
            (std::vector<std::uint64_t>{0, 1 * mib, 4 * mib, 4 * mib, 2 * mib}));
  // A producer's output, unread since it was written, is at home only (l2_written); x, read by
  // the norm, has copies in the partitions near the cores too (l2_resident).
  EXPECT_EQ(g.kernel_config(4).l2_written, (std::vector<std::string>{"a"}));
  EXPECT_EQ(g.kernel_config(4).l2_resident, (std::vector<std::string>{"b"}));
  EXPECT_EQ(g.kernel_config(1).l2_written, (std::vector<std::string>{"A"}));
  EXPECT_TRUE(g.kernel_config(1).l2_resident.empty());
}

TEST(GraphConfig, MemoryHoldsTheInputsAndEachTensorUntilItsLastReader) {
  const GraphConfig g = load("hardware/h100-sxm5-80gb.yaml", "workloads/models/mlp-block.yaml");
  // Inputs, BF16: x 512 x 1024 (1 MiB), the norm's weight 1024 (2 KiB), up.weight and
  // down.weight 1024 x 4096 (8 MiB each). Written: xn 1 MiB (read by up_proj), up 4 MiB (read by
  // gelu), act 4 MiB (read by down_proj), down 1 MiB, y 1 MiB (an output: kept). While gelu runs,
  // up and act are live (xn was freed after up_proj): the peak, 8 MiB above the inputs.
  const std::uint64_t mib = 1 << 20;
  const std::uint64_t inputs = 1 * mib + 2048 + 8 * mib + 8 * mib;
  EXPECT_EQ(g.memory.input_bytes, inputs);
  EXPECT_EQ(g.memory.peak_bytes, inputs + 8 * mib);
  EXPECT_EQ(g.kernels[g.memory.peak_kernel].name, "gelu");
}

TEST(GraphConfig, AModelLargerThanTheHbmIsRefusedWithItsFootprint) {
  // Llama-2-70B in BF16: 68.7 billion weights (embeddings aside) are 137.5 GB, more than the
  // 80 GiB of an H100's five stacks (85.9 GB); the H200's 141 GB holds it.
  try {
    load("hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-70b-decode.yaml");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.key_path(), "workload.kind");
    EXPECT_NE(std::string(error.what()).find("but the HBM holds 85.90 GB"), std::string::npos)
        << error.what();
  }
  const GraphConfig h200 =
      load("hardware/h200-sxm5-141gb.yaml", "workloads/models/llama-2-70b-decode.yaml");
  EXPECT_GT(h200.memory.input_bytes, 137'000'000'000u);
  EXPECT_LT(h200.memory.peak_bytes, 141'000'000'000u);
}

TEST(GraphConfig, WithoutAnL2NoInputIsResident) {
  const GraphConfig g = load("questions/q2-tile-under-limits/hardware/h100-sxm5-no-l2.yaml",
                             "workloads/models/mlp-block.yaml");
  for (std::uint64_t bytes : g.l2_resident_bytes) EXPECT_EQ(bytes, 0u);
}

TEST(GraphConfig, AFusedGroupIsItsGemmWithAnEpilogueAndItsIntermediateStaysOnChip) {
  const GraphConfig apart = load("hardware/h100-sxm5-80gb.yaml", "workloads/models/mlp-block.yaml");
  const GraphConfig fused = load("hardware/h100-sxm5-80gb.yaml", "workloads/models/mlp-block.yaml",
                                 {"workload.fuse=[[up_proj, gelu]]"});
  ASSERT_EQ(fused.kernels.size(), 4u);
  EXPECT_EQ(fused.kernels[1].name, "up_proj+gelu");
  EXPECT_EQ(fused.kernels[1].writes, (std::vector<std::string>{"act"}));
  const auto& gemm = std::get<GemmSpec>(fused.kernels[1].workload);
  ASSERT_EQ(gemm.epilogue.size(), 1u);
  EXPECT_EQ(gemm.epilogue[0].op, ElementwiseOp::gelu);
  // Its FLOPs: the GEMM's and GELU's (9 an element); its HBM bytes: the GEMM's, C now `act`.
  EXPECT_EQ(fused.kernel_config(1).analysis.flops, 2ull * 512 * 4096 * 1024 + 9ull * 512 * 4096);
  EXPECT_EQ(fused.kernel_config(1).analysis.hbm_bytes(),
            apart.kernel_config(1).analysis.hbm_bytes());
  // Saved: `up` written by the GEMM and read by GELU, 512 x 4096 BF16 each way.
  EXPECT_EQ(fused.fusion_saved_bytes[1], 2ull * 512 * 4096 * 2);
  EXPECT_EQ(fused.fusion_saved_bytes[0], 0u);
}

TEST(GraphConfig, AResNetBlockChainsItsConvolutionsThroughNhwcTensors) {
  const GraphConfig g =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/resnet-basic-block.yaml");
  ASSERT_EQ(g.kernels.size(), 5u);
  // Each 3 x 3 convolution: an implicit GEMM of M = 32 x 14 x 14 output pixels, N = 256
  // filters, K = 256 channels x 9 taps, padding taps included.
  const std::uint64_t conv = 2ull * (32 * 14 * 14) * 256 * (256 * 9);
  EXPECT_EQ(g.kernel_config(0).analysis.flops, conv);
  EXPECT_EQ(g.kernel_config(2).analysis.flops, conv);
  // The residual add waits for the second convolution; x comes from before the graph.
  EXPECT_EQ(g.dependencies[3], (std::vector<std::size_t>{2}));
  // The second convolution finds the first ReLU's output (32 x 14 x 14 x 256 BF16) in the L2.
  EXPECT_EQ(g.l2_resident_bytes[2], 32ull * 14 * 14 * 256 * 2);
}

std::uint64_t gemm_flops(const GraphConfig& g) {
  std::uint64_t flops = 0;
  for (std::size_t k = 0; k < g.kernels.size(); ++k) {
    if (kind_name(g.kernels[k].workload) == "gemm") flops += g.kernel_config(k).analysis.flops;
  }
  return flops;
}

const GraphKernel* kernel_named(const GraphConfig& g, const std::string& name,
                                std::size_t* index = nullptr) {
  for (std::size_t k = 0; k < g.kernels.size(); ++k) {
    if (g.kernels[k].name != name) continue;
    if (index) *index = k;
    return &g.kernels[k];
  }
  return nullptr;
}

TEST(Transformer, LlamaPrefillHasTheModelsKernelsAndMatrixFlops) {
  const GraphConfig g =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-prefill.yaml");
  // The embedding lookup; 15 kernels a layer (2 norms, q, k, v, the rotary embedding of Q and
  // of K, attention, o, residual, gate, up, SiLU x up, down, residual); the final norm, the pick
  // of the last position, the LM head.
  EXPECT_EQ(g.kernels.size(), 1 + 32u * 15 + 3);
  const std::uint64_t t = 2048, h = 4096, ffn = 11008, vocabulary = 32000;
  // Per layer: Q, K, V, O projections of h x h, three FFN matrices of h x ffn; 2 FLOPs a MAC.
  // The head runs on the one sequence's last position.
  const std::uint64_t per_layer = 2 * t * (4 * h * h + 3 * h * ffn);
  EXPECT_EQ(gemm_flops(g), 32 * per_layer + 2 * vocabulary * h);
  // Identical layers share their analysis and their runs: a handful of distinct kernels.
  EXPECT_LE(g.runs.size(), 20u);
  // The weights are read once each, so at least the model's parameters cross HBM.
  std::uint64_t q = 0;
  for (std::size_t k = 0; k < g.kernels.size(); ++k) q += g.kernel_config(k).analysis.hbm_bytes();
  const std::uint64_t parameters = 32 * (4 * h * h + 3 * h * ffn) + vocabulary * h;
  EXPECT_GE(q, 2 * parameters);

  // The lookup reads the prompt's 2,048 ids and rows of the table, and writes the rows.
  std::size_t k = 0;
  ASSERT_NE(kernel_named(g, "embed", &k), nullptr);
  EXPECT_EQ(g.kernels[k].reads, (std::vector<std::string>{"embed_tokens.weight", "tokens"}));
  EXPECT_EQ(g.kernel_config(k).analysis.hbm_read_bytes, t * 4 + t * h * 2);
  EXPECT_EQ(g.kernel_config(k).analysis.hbm_write_bytes, t * h * 2);
  EXPECT_EQ(g.kernel_config(k).analysis.flops, 0u);
  // The rotary embedding: 3 FLOPs an element of Q (and of K), each read and written once.
  ASSERT_NE(kernel_named(g, "layers.0.q_rope", &k), nullptr);
  EXPECT_EQ(g.kernel_config(k).analysis.flops, 3 * t * h);
  EXPECT_EQ(g.kernel_config(k).analysis.hbm_bytes(), 2 * t * h * 2);
  ASSERT_NE(kernel_named(g, "layers.0.attention", &k), nullptr);
  EXPECT_EQ(g.kernels[k].reads[0], "layers.0.q_rope.out");
  EXPECT_EQ(g.kernels[k].reads[1], "layers.0.k_rope.out");
  // The head's input: one row of the final norm's 2,048.
  ASSERT_NE(kernel_named(g, "select_last", &k), nullptr);
  EXPECT_EQ(g.kernel_config(k).analysis.hbm_read_bytes, 4 + h * 2);
  ASSERT_NE(kernel_named(g, "lm_head", &k), nullptr);
  EXPECT_EQ(g.kernels[k].reads[0], "final_norm.last");
  // The embedding table is in device memory whole, though the lookup reads 2,048 of its rows.
  EXPECT_GE(g.memory.input_bytes, 2 * (parameters + vocabulary * h));
}

TEST(Transformer, LogitsOfEveryPositionAndNoRotaryEmbeddingOnRequest) {
  const GraphConfig g =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-prefill.yaml",
           {"workload.layers=2", "workload.sequence=512", "workload.batch=2", "workload.logits=all",
            "workload.rope=false"});
  // The lookup, 13 kernels a layer, the final norm and the head: no pick of positions.
  EXPECT_EQ(g.kernels.size(), 1 + 2u * 13 + 2);
  EXPECT_EQ(kernel_named(g, "select_last"), nullptr);
  EXPECT_EQ(kernel_named(g, "layers.0.q_rope"), nullptr);
  const std::uint64_t t = 2 * 512, h = 4096, ffn = 11008, vocabulary = 32000;
  EXPECT_EQ(gemm_flops(g), 2 * 2 * t * (4 * h * h + 3 * h * ffn) + 2 * t * vocabulary * h);

  // Two sequences' last positions (rows 511 and 1023) when only the next token's are asked for.
  const GraphConfig last =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-prefill.yaml",
           {"workload.layers=2", "workload.sequence=512", "workload.batch=2"});
  std::size_t k = 0;
  ASSERT_NE(kernel_named(last, "select_last", &k), nullptr);
  const auto* pick = std::get_if<GatherSpec>(&last.kernels[k].workload);
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(pick->row_of(0), 511u);
  EXPECT_EQ(pick->row_of(1), 1023u);
  EXPECT_EQ(gemm_flops(last), 2 * 2 * t * (4 * h * h + 3 * h * ffn) + 2 * 2 * vocabulary * h);
}

TEST(Transformer, GroupedQueryDecodeReadsTheCacheOfItsKvHeads) {
  // Llama-3-8B's shape: 8 K/V heads of 128 for 32 query heads.
  const GraphConfig g = load("hardware/h100-sxm5-80gb.yaml",
                             "workloads/models/llama-3-8b-decode.yaml", {"workload.layers=2"});
  // The lookup, 15 kernels a layer, the final norm and the head (one token a sequence: no pick).
  EXPECT_EQ(g.kernels.size(), 1 + 2u * 15 + 2);
  const std::uint64_t h = 4096, kv = 8 * 128, ffn = 14336, vocabulary = 128256;
  EXPECT_EQ(gemm_flops(g), 2 * 2 * (2 * h * h + 2 * h * kv + 3 * h * ffn) + 2 * h * vocabulary);
  for (std::size_t k = 0; k < g.kernels.size(); ++k) {
    if (g.kernels[k].name != "layers.0.attention") continue;
    EXPECT_EQ(g.kernels[k].reads[1], "layers.0.k_cache");
    // The K cache of 8 heads x 8,193 tokens (8,192 cached and the new one) x 128, BF16, read once.
    const Analysis& a = g.kernel_config(k).analysis;
    EXPECT_GE(a.hbm_read_bytes, 2ull * 8 * 8193 * 128 * 2);
  }
}

TEST(Transformer, UnfusedAttentionWritesTheScoresThatFusedKeepsOnChip) {
  const std::vector<std::string> small{"workload.layers=1", "workload.sequence=512"};
  std::vector<std::string> unfused = small;
  unfused.push_back("workload.attention=unfused");
  const GraphConfig fused =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-prefill.yaml", small);
  const GraphConfig eager =
      load("hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-prefill.yaml", unfused);
  EXPECT_EQ(eager.kernels.size(), fused.kernels.size() + 2);  // scores, softmax, context
  std::uint64_t scores_written = 0;
  for (std::size_t k = 0; k < eager.kernels.size(); ++k) {
    if (eager.kernels[k].name == "layers.0.scores")
      scores_written = eager.kernel_config(k).analysis.hbm_write_bytes;
  }
  // 32 heads x 512 x 512 scores, BF16.
  EXPECT_EQ(scores_written, 32ull * 512 * 512 * 2);
}

}  // namespace
}  // namespace ridgeline
