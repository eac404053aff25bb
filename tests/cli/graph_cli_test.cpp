// Graphs run from the command line: every kernel simulated (identical ones once), the graph's
// figures the sums of its kernels', the L2 between kernels, and the same numbers at every -j.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "tests/cli/cli_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

nlohmann::json graph_report(const std::string& hardware, const std::string& workload,
                            const std::string& options) {
  const std::string json = ::testing::TempDir() + "ridgeline_graph_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                           ".json";
  const test::Outcome outcome =
      test::ridgeline("run " + test::config_path(hardware) + " " + test::config_path(workload) +
                      " --quiet --json " + json + " " + options);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  nlohmann::json report = nlohmann::json::parse(test::slurp(json));
  std::remove(json.c_str());
  return report;
}

TEST(GraphRun, TheGraphsFiguresAreItsKernelsSummed) {
  const nlohmann::json r =
      graph_report("hardware/h100-sxm5-80gb.yaml", "workloads/models/mlp-block.yaml", "-j 2");
  const nlohmann::json& kernels = r["simulated"]["kernels"];
  ASSERT_EQ(kernels.size(), 5u);
  EXPECT_EQ(r["simulated"]["simulations"], 5);
  EXPECT_EQ(r["simulated"]["reused_kernels"], 0);
  double time = 0;
  std::uint64_t flops = 0, hbm = 0, dirty = 0;
  for (const auto& k : kernels) {
    time += k["time_s"].get<double>();
    flops += k["flops"].get<std::uint64_t>();
    hbm += k["hbm_bytes"].get<std::uint64_t>();
    dirty += k["l2_dirty_at_end_bytes"].get<std::uint64_t>();
    EXPECT_GT(k["time_s"].get<double>(), 0) << k["name"];
  }
  EXPECT_NEAR(r["simulated"]["time_s"].get<double>(), time, time * 1e-12);
  EXPECT_EQ(r["simulated"]["flops"], flops);
  EXPECT_EQ(r["analytical"]["flops"], flops);  // every FLOP simulated, none invented
  // Stores still dirty in the L2 at a kernel's end reach HBM later: the graph counts them.
  EXPECT_EQ(r["simulated"]["deferred_write_back_bytes"], dirty);
  EXPECT_EQ(r["simulated"]["hbm_bytes"], hbm + dirty);
  // Never faster than the HBM's peak.
  EXPECT_LE(r["simulated"]["achieved_hbm_bytes_per_s"].get<double>(),
            r["hardware"]["hbm_bytes_per_s"].get<double>());
  // The up projection finds its input, the norm's 1 MiB output, in the L2: its HBM reads are
  // the weight's 8 MiB, not more than the weight and what did not stay.
  EXPECT_EQ(kernels[1]["name"], "up_proj");
  EXPECT_EQ(r["analytical"]["kernels"][1]["l2_resident_bytes"], 1 << 20);
}

TEST(GraphRun, StreamsAtOnceTakeLessThanTheSumWhenTheKernelsLeaveRoom) {
  // Three decode GEMVs in three streams on the H100: none fills the HBM or the block slots
  // alone, so at once they take less than one after another, and no less than the longest.
  const std::string timeline = ::testing::TempDir() + "ridgeline_streams.trace.json";
  const nlohmann::json r =
      graph_report("hardware/h100-sxm5-80gb.yaml", "workloads/models/decode-qkv-streams.yaml",
                   "-j 2 --timeline " + timeline);
  EXPECT_EQ(r["workload"]["streams"], 3);
  const nlohmann::json& s = r["simulated"];
  double longest = 0;
  for (const auto& k : s["kernels"]) longest = std::max(longest, k["time_s"].get<double>());
  EXPECT_DOUBLE_EQ(s["critical_path_s"].get<double>(), longest);  // none waits for another
  EXPECT_LT(s["streams_time_s"].get<double>(), 0.95 * s["time_s"].get<double>());
  EXPECT_GE(s["streams_time_s"].get<double>(), longest);
  // Together they cannot move the weights faster than the HBM's peak: at least Q / BW.
  EXPECT_GE(s["streams_time_s"].get<double>(),
            s["hbm_bytes"].get<double>() / r["hardware"]["hbm_bytes_per_s"].get<double>());
  // The timeline has a track per stream beside the one of the kernels one after another: each
  // kernel there no shorter than alone, the last ending at the streams' time.
  const nlohmann::json trace = nlohmann::json::parse(test::slurp(timeline));
  std::remove(timeline.c_str());
  double last_end = 0;
  std::size_t slices = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "X" || event["pid"] != 2) continue;
    ++slices;
    const auto& kernels = s["kernels"];
    const auto alone = std::find_if(kernels.begin(), kernels.end(),
                                    [&](const auto& k) { return k["name"] == event["name"]; });
    ASSERT_NE(alone, kernels.end());
    EXPECT_GE(event["dur"].get<double>(), (*alone)["time_s"].get<double>() * 1e6 * (1 - 1e-9));
    last_end = std::max(last_end, event["ts"].get<double>() + event["dur"].get<double>());
  }
  EXPECT_EQ(slices, 3u);
  EXPECT_NEAR(last_end, s["streams_time_s"].get<double>() * 1e6, 1e-6);
}

TEST(GraphRun, IdenticalLayersAreSimulatedOnceAndTheNumbersDoNotDependOnJobs) {
  const std::string small = "--set workload.layers=2 --set workload.sequence=128";
  const nlohmann::json one = graph_report(
      "hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-decode.yaml", small + " -j 1");
  const nlohmann::json two = graph_report(
      "hardware/h100-sxm5-80gb.yaml", "workloads/models/llama-2-7b-decode.yaml", small + " -j 2");
  const nlohmann::json& sim = one["simulated"];
  // The lookup, 15 kernels a layer, the final norm and the head.
  ASSERT_EQ(sim["kernels"].size(), 1 + 2u * 15 + 2);
  const std::size_t simulations = sim["simulations"].get<std::size_t>();
  EXPECT_LT(simulations, 18u);  // the second layer is the first again
  EXPECT_EQ(sim["reused_kernels"].get<std::size_t>(), 33 - simulations);
  // A reused kernel reports its run's figures: layer 1's down projection is layer 0's.
  const auto figures = [&](const std::string& name) {
    for (const auto& k : sim["kernels"]) {
      if (k["name"] == name) return k;
    }
    return nlohmann::json();
  };
  EXPECT_EQ(figures("layers.1.down_proj")["time_s"], figures("layers.0.down_proj")["time_s"]);
  EXPECT_TRUE(figures("layers.1.down_proj")["reused"].get<bool>());
  // Decode is memory-bound, every kernel of it.
  EXPECT_EQ(sim["bound"], "memory");
  EXPECT_EQ(one["simulated"], two["simulated"]);
}

TEST(GraphRun, AnInputLeftInTheL2IsNotReadFromHbm) {
  test::ScratchFiles files;
  const std::string gemm =
      files.write("gemm",
                  "workload: {kind: gemm, m: 512, n: 4096, k: 1024, dtype: bf16, strategy: tiled, "
                  "tile: auto}\n");
  const auto read_bytes = [&](const std::string& options) {
    const std::string json = ::testing::TempDir() + "ridgeline_l2_resident.json";
    const test::Outcome outcome =
        test::ridgeline("run " + test::config_path("hardware/h100-sxm5-80gb.yaml") + " " + gemm +
                        " --quiet --json " + json + " " + options);
    EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
    const nlohmann::json r = nlohmann::json::parse(test::slurp(json));
    return r["simulated"]["hbm_read_bytes"].get<std::uint64_t>();
  };
  const std::uint64_t cold = read_bytes("");
  const std::uint64_t warm = read_bytes("--l2-resident A");
  // A is 512 x 1024 BF16: 1 MiB, read once from HBM when cold (the L2 serves its re-reads).
  EXPECT_EQ(cold - warm, 1u << 20);
  EXPECT_EQ(read_bytes("--l2-resident A,B"), 0u);
  // Left written, at home only, A is in the L2 just the same.
  EXPECT_EQ(read_bytes("--l2-written A"), warm);
  EXPECT_EQ(read_bytes("--l2-resident B --l2-written A"), 0u);
}

TEST(GraphAnalyze, PrintsTheKernelsByShareOfTime) {
  const test::Outcome outcome =
      test::ridgeline("analyze " + test::config_path("hardware/h100-sxm5-80gb.yaml") + " " +
                      test::config_path("workloads/models/llama-2-7b-decode.yaml"));
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("483 kernels"), std::string::npos) << outcome.out;
  // The projections of every layer share one row: their pattern and their count.
  EXPECT_NE(outcome.out.find("layers.*.down_proj"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("memory-bound kernels 100.0 %"), std::string::npos) << outcome.out;
}

TEST(GraphAnalyze, AnOnnxModelBecomesAGraphOfKernels) {
  const std::string json = ::testing::TempDir() + "ridgeline_onnx_graph.json";
  const test::Outcome outcome = test::ridgeline(
      "analyze " + test::config_path("hardware/h100-sxm5-80gb.yaml") + " " +
      test::config_path("workloads/models/mlp-block-onnx.yaml") + " --json " + json);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const nlohmann::json r = nlohmann::json::parse(test::slurp(json));
  EXPECT_EQ(r["workload"]["kind"], "onnx");
  const nlohmann::json& kernels = r["analytical"]["kernels"];
  ASSERT_EQ(kernels.size(), 5u);
  EXPECT_EQ(kernels[1]["name"], "up_proj");
  EXPECT_EQ(kernels[1]["flops"], 2ull * 512 * 4096 * 1024);
  // Relu reads and writes 512 x 4096 BF16 values once each: 8 MiB.
  EXPECT_EQ(kernels[2]["kind"], "elementwise");
  EXPECT_EQ(kernels[2]["hbm_bytes"], 2ull * 512 * 4096 * 2);
}

TEST(GraphRun, DrawsEveryDistinctKernelAndEveryKernelsSlice) {
  test::ScratchDirectory out("graph_pictures");
  const test::Outcome outcome =
      test::ridgeline("run " + test::config_path("hardware/h100-sxm5-80gb.yaml") + " " +
                      test::config_path("workloads/models/mlp-block.yaml") + " --quiet --json " +
                      out.path("r.json") + " --roofline " + out.path("r.svg") + " --report " +
                      out.path("r.html") + " --timeline " + out.path("t.json"));
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const nlohmann::json report = nlohmann::json::parse(test::slurp(out.path("r.json")));
  // The timeline: a slice per kernel, one after another, their durations the graph's time.
  const nlohmann::json timeline = nlohmann::json::parse(test::slurp(out.path("t.json")));
  double end_us = 0, total_us = 0;
  std::size_t slices = 0;
  for (const auto& event : timeline["traceEvents"]) {
    if (event["ph"] != "X") continue;
    ++slices;
    EXPECT_NEAR(event["ts"].get<double>(), end_us, 1e-6) << event["name"];
    end_us = event["ts"].get<double>() + event["dur"].get<double>();
    total_us += event["dur"].get<double>();
  }
  EXPECT_EQ(slices, 5u);
  EXPECT_NEAR(total_us, report["simulated"]["time_s"].get<double>() * 1e6, 1e-6);
  // Beneath them, what each kernel kept busy of the machine, from its start: every share a
  // fraction, and zero once the last kernel ends.
  std::vector<nlohmann::json> counters, units;
  for (const auto& event : timeline["traceEvents"]) {
    if (event["ph"] != "C") continue;
    (event["name"] == "busy (fraction of the machine)" ? counters : units).push_back(event);
  }
  ASSERT_EQ(counters.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) {
    for (const char* part : {"hbm", "compute", "block slots"}) {
      EXPECT_GE(counters[i]["args"][part].get<double>(), 0) << part;
      EXPECT_LE(counters[i]["args"][part].get<double>(), 1) << part;
    }
  }
  EXPECT_NEAR(counters[5]["ts"].get<double>(), end_us, 1e-6);
  EXPECT_EQ(counters[5]["args"]["hbm"].get<double>(), 0);
  // And the per-unit tracks: each kernel's busy profile over its slice, at most 48 values a
  // kernel, every one a fraction; over a kernel's slice the HBM's mean is the kernel's HBM busy
  // fraction (the counter above), and all fall to zero at the end.
  ASSERT_GT(units.size(), 5u);
  EXPECT_LE(units.size(), 5u * 48 + 1);
  for (const auto& event : units) {
    EXPECT_EQ(event["name"], "units busy (fraction of their time)");
    for (const char* part : {"cores: loads in flight", "cores: computing",
                             "cores: stores in flight", "l2 port", "hbm"}) {
      ASSERT_TRUE(event["args"].contains(part)) << part;
      EXPECT_GE(event["args"][part].get<double>(), 0) << part;
      EXPECT_LE(event["args"][part].get<double>(), 1 + 1e-12) << part;
    }
  }
  std::size_t next = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    const double start = counters[i]["ts"].get<double>(), end = counters[i + 1]["ts"].get<double>();
    ASSERT_LT(next, units.size());
    EXPECT_NEAR(units[next]["ts"].get<double>(), start, 1e-6);
    double hbm_us = 0;
    for (; next < units.size() && units[next]["ts"].get<double>() < end - 1e-9; ++next) {
      const double until =
          next + 1 < units.size() ? std::min(end, units[next + 1]["ts"].get<double>()) : end;
      hbm_us +=
          units[next]["args"]["hbm"].get<double>() * (until - units[next]["ts"].get<double>());
    }
    EXPECT_NEAR(hbm_us / (end - start), counters[i]["args"]["hbm"].get<double>(), 1e-6) << i;
  }
  ASSERT_EQ(next, units.size() - 1);
  EXPECT_NEAR(units.back()["ts"].get<double>(), end_us, 1e-6);
  EXPECT_EQ(units.back()["args"]["hbm"].get<double>(), 0);
  // The roofline: a filled circle per distinct kernel, their areas their shares of the time.
  const std::string svg = test::slurp(out.path("r.svg"));
  std::size_t simulated_points = 0;
  double shares = 0;
  for (std::size_t at = svg.find("data-time-share=\""); at != std::string::npos;
       at = svg.find("data-time-share=\"", at + 1)) {
    ++simulated_points;
    shares += std::stod(svg.substr(at + 17));
  }
  // Every kernel here is distinct; one that moved no HBM byte (all in the L2) has no intensity
  // at HBM and no point.
  std::size_t with_bytes = 0;
  double their_share = 0;
  for (const auto& k : report["simulated"]["kernels"]) {
    if (k["hbm_bytes"].get<std::uint64_t>() == 0) continue;
    ++with_bytes;
    their_share += k["time_s"].get<double>() / report["simulated"]["time_s"].get<double>();
  }
  EXPECT_GE(with_bytes, 3u);
  EXPECT_EQ(simulated_points, with_bytes);
  EXPECT_NEAR(shares, their_share, 1e-9);
  // The page: the kernels' table and a bar per kernel in the Gantt chart.
  const std::string html = test::slurp(out.path("r.html"));
  EXPECT_NE(html.find("<table id=\"kernels\">"), std::string::npos);
  std::size_t bars = 0;
  for (std::size_t at = html.find("data-kernel="); at != std::string::npos;
       at = html.find("data-kernel=", at + 1))
    ++bars;
  EXPECT_EQ(bars, 5u);
}

TEST(GraphRun, AFusedGroupMovesFewerBytesThanItsKernelsApart) {
  const nlohmann::json fused =
      graph_report("hardware/h100-sxm5-80gb.yaml", "workloads/models/fused-bias-gelu.yaml", "");
  const nlohmann::json apart =
      graph_report("hardware/h100-sxm5-80gb.yaml", "workloads/models/fused-bias-gelu.yaml",
                   "--set workload.fuse=null");
  ASSERT_EQ(fused["simulated"]["kernels"].size(), 1u);
  ASSERT_EQ(apart["simulated"]["kernels"].size(), 3u);
  // The same FLOPs, simulated as the model counts them; the intermediates never reach HBM.
  EXPECT_EQ(fused["simulated"]["flops"], apart["simulated"]["flops"]);
  EXPECT_EQ(fused["simulated"]["flops"], fused["analytical"]["flops"]);
  EXPECT_LT(fused["simulated"]["hbm_bytes"].get<std::uint64_t>(),
            apart["simulated"]["hbm_bytes"].get<std::uint64_t>());
  // Saved, analytically: `up` and `biased` (512 x 4096 BF16) each written and read once, and the
  // bias kernel's reads of the bias vector beyond the epilogue's.
  EXPECT_GE(fused["analytical"]["fusion_saved_bytes"].get<std::uint64_t>(), 4ull * 512 * 4096 * 2);
  EXPECT_EQ(fused["analytical"]["fusion_saved_bytes"].get<std::uint64_t>(),
            apart["analytical"]["hbm_bytes"].get<std::uint64_t>() -
                fused["analytical"]["hbm_bytes"].get<std::uint64_t>());
}

TEST(GraphSweep, SweepsATransformersKeysWithTheGraphsFiguresInEachRow) {
  test::ScratchDirectory out("graph_sweep");
  const test::Outcome outcome =
      test::ridgeline("sweep " + test::config_path("sweeps/llama-decode-batch.yaml") + " --out " +
                      out.path("results") + " --analytical");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::ifstream lines(out.path("results/results.jsonl"));
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 4u);
  const std::uint64_t batches[] = {1, 8, 32, 64};
  // Two layers: the projections' FLOPs grow with the batch (one token a sequence), exactly.
  const std::uint64_t h = 4096, ffn = 11008, vocabulary = 32000;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["status"], "ok") << rows[i]["reason"];
    EXPECT_EQ(rows[i]["workload.kernels"], 1 + 2 * 15 + 2);
    EXPECT_FALSE(rows[i].contains("analytical.kernels"));  // the kernels are the report's
    const std::uint64_t b = batches[i];
    const std::uint64_t gemm = 2 * 2 * b * (4 * h * h + 3 * h * ffn) + 2 * b * vocabulary * h;
    EXPECT_GT(rows[i]["analytical.flops"].get<std::uint64_t>(), gemm);
    EXPECT_LT(rows[i]["analytical.flops"].get<std::uint64_t>(), gemm + gemm / 10);
  }
}

}  // namespace
}  // namespace ridgeline
