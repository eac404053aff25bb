// Every bundled hardware file with every bundled workload it accepts, each run through
// `ridgeline run --json` and its report held to the physical bounds (report_checks.hpp).
//
// The files are found when the tests are listed (ctest lists them before each run: the
// DISCOVERY_MODE of tests/CMakeLists.txt), so a new bundled file is covered without a change
// here: hardware files are those rooted at `hardware:` under configs/hardware and
// configs/questions, workloads those rooted at `workload:` under configs/workloads and
// configs/questions, each list sorted.
//
// One test per pair, not per hardware file: the 4096^3 GEMMs take 2 to 20 s of CPU each on the
// machines with an L2 or a detailed HBM (kSlowPairs: more), so a hardware file's 40 workloads
// take up to a few minutes of CPU, past the tests' time limit on a loaded machine; a pair alone
// stays within it and ctest spreads them all. A pair the hardware refuses is skipped (GTEST_SKIP);
// the refusals of each hardware file are counted by its own test, with `ridgeline analyze` (no
// simulation).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "sim/graph/graph_config.hpp"
#include "tests/invariants/invariant_runs.hpp"
#include "tests/test_support.hpp"

namespace ridgeline::test {
namespace {

namespace fs = std::filesystem;

// Files under configs/ (relative paths, sorted) whose document is rooted at `root`.
std::vector<std::string> bundled(const std::string& root, const std::vector<std::string>& folders) {
  std::vector<std::string> found;
  const fs::path configs = config_path("");
  for (const std::string& folder : folders) {
    for (const auto& entry : fs::recursive_directory_iterator(configs / folder)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".yaml") continue;
      const YAML::Node document = YAML::LoadFile(entry.path().string());
      if (!document.IsMap() || !document[root]) continue;
      // Graphs of kernels (kind: graph, transformer, onnx) run each kernel as a run of its own,
      // which checks itself; tests/cli/graph_cli_test.cpp checks the graph's sums.
      const YAML::Node kind = document[root]["kind"];
      if (root == "workload" && kind && is_graph_kind(kind.as<std::string>())) continue;
      found.push_back(fs::relative(entry.path(), configs).generic_string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<std::string> bundled_hardware() {
  return bundled("hardware", {"hardware", "questions"});
}
std::vector<std::string> bundled_workloads() {
  return bundled("workload", {"workloads", "questions"});
}

// "hardware/seed.yaml" -> "hardware_seed": a path as a test name.
std::string name_of_path(const std::string& path) {
  std::string name = path.substr(0, path.rfind('.'));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// Workloads each hardware file refuses (exit 2), by count: a data type it lacks (the seed
// machines and the stacks run fp32 only, so not the bf16 GEMMs, attention, the convolution nor the
// fp64 streams), a block that does not fit (the GPUs' 164 to 228 KiB of shared memory hold no
// t = 64 or 128 double-buffered 4096 tile; 256 x 256 tiles need more registers than any core has),
// more threads than a block may have, a spill the workload refuses, a cluster or warpgroup the
// cores lack (the Hopper GEMM off Hopper). A new refusal changes a count and fails the test,
// naming every refused workload and why, so it is seen and this table kept true. Written from the
// files as bundled.
const std::map<std::string, std::size_t> kExpectedRefusals{
    {"hardware/a100-sxm4-40gb.yaml", 13},
    {"hardware/a100-sxm4-80gb.yaml", 13},
    {"hardware/h100-pcie-80gb.yaml", 12},
    {"hardware/h100-sxm5-80gb.yaml", 12},
    {"hardware/h200-sxm5-141gb.yaml", 12},
    {"hardware/hbm2e-stack.yaml", 15},
    {"hardware/hbm3-stack.yaml", 15},
    {"hardware/hbm3-stack-ramulator.yaml", 16},  // and the random trace: past its 8 GiB
    {"hardware/hbm3e-stack.yaml", 15},
    {"hardware/seed-l2.yaml", 15},
    {"hardware/seed-sequential.yaml", 15},
    {"hardware/seed.yaml", 15},
    {"questions/q1-local-vs-shared/machine.yaml", 19},
    {"questions/q2-tile-under-limits/hardware/h100-sxm5-no-l2.yaml", 12},
    {"questions/q3-l2-reuse/hardware/seed-l2-8mib.yaml", 15},
    {"questions/q3-l2-reuse/hardware/seed-l2-96mib.yaml", 15},
    {"questions/q4-slow-past-ridge/machine.yaml", 24},
};

class BundledRefusals : public ::testing::TestWithParam<std::string> {};

TEST_P(BundledRefusals, AreTheExpectedOnes) {
  const std::string hardware = GetParam();
  std::vector<std::string> refused;
  const std::vector<std::string> workloads = bundled_workloads();
  for (const std::string& workload : workloads) {
    if (auto rule = refusal_of(config_path(hardware), config_path(workload))) {
      refused.push_back(workload + ": " + *rule);
    }
  }
  std::string refusals;
  for (const std::string& line : refused) refusals += "\n  " + line;
  const auto expected = kExpectedRefusals.find(hardware);
  if (expected == kExpectedRefusals.end()) {
    ADD_FAILURE() << hardware << " is new: add it to kExpectedRefusals with its " << refused.size()
                  << " refusal(s):" << refusals;
  } else {
    EXPECT_EQ(refused.size(), expected->second)
        << hardware << " refuses other workloads than kExpectedRefusals says:" << refusals;
  }
  std::cout << hardware << " refuses " << refused.size() << " of " << workloads.size()
            << " bundled workloads:" << refusals << "\n";
}

std::string hardware_test_name(const ::testing::TestParamInfo<std::string>& param) {
  return name_of_path(param.param);
}
INSTANTIATE_TEST_SUITE_P(Configs, BundledRefusals, ::testing::ValuesIn(bundled_hardware()),
                         hardware_test_name);

struct Pair {
  std::string hardware;
  std::string workload;
  std::size_t hardware_index;  // in bundled_hardware()
  std::size_t workload_index;  // in bundled_workloads()
};
void PrintTo(const Pair& pair, std::ostream* out) {
  *out << pair.hardware << " with " << pair.workload;
}

std::vector<Pair> bundled_pairs() {
  std::vector<Pair> pairs;
  const std::vector<std::string> workloads = bundled_workloads();
  const std::vector<std::string> hardware = bundled_hardware();
  for (std::size_t h = 0; h < hardware.size(); ++h) {
    for (std::size_t w = 0; w < workloads.size(); ++w) {
      pairs.push_back(Pair{hardware[h], workloads[w], h, w});
    }
  }
  return pairs;
}

// The pairs that take more than a minute of CPU (measured with RelWithDebInfo on the project's
// build machine; every other pair takes at most about 20 s), and what they took: each alone is
// more than the tests' 300 s on a loaded machine. Skipped, saying so, unless
// RIDGELINE_INVARIANT_SLOW=1; then run them from the binary, without ctest's limit:
//   RIDGELINE_INVARIANT_SLOW=1 build/tests/invariant_tests --gtest_filter='*no_reuse*'
const std::map<std::pair<std::string, std::string>, double> kSlowPairs{
    {{"hardware/hbm3e-stack.yaml", "workloads/seed/gemm-4096-no-reuse.yaml"}, 157},
    {{"hardware/hbm3-stack.yaml", "workloads/seed/gemm-4096-no-reuse.yaml"}, 145},
    {{"hardware/hbm2e-stack.yaml", "workloads/seed/gemm-4096-no-reuse.yaml"}, 76},
};

// Hardware files that model a memory alone behind a request generator, for memory traces: a
// kernel on them runs on one core and takes minutes (200 to 280 s of CPU for the q1 and q2
// GEMMs, measured), so their kernel pairs are skipped like the slow ones; their trace pairs run.
const std::map<std::string, std::string> kTraceOnlyHardware{
    {"hardware/hbm3-stack-ramulator.yaml",
     "the DRAM comparison's one in-order request generator (docs/DRAM-VALIDATION.md)"},
};

bool is_memory_trace(const std::string& workload) {
  const YAML::Node document = YAML::LoadFile(config_path(workload));
  return document["workload"]["kind"] &&
         document["workload"]["kind"].as<std::string>() == "memory_trace";
}

bool slow_pairs_wanted() {
  const char* wanted = std::getenv("RIDGELINE_INVARIANT_SLOW");
  return wanted && std::string(wanted) == "1";
}

bool every_pair_wanted() {
  const char* wanted = std::getenv("RIDGELINE_INVARIANT_ALL");
  return slow_pairs_wanted() || (wanted && std::string(wanted) == "1");
}

// Why a pair does not run by default (refused, slow, a kernel on a trace-only machine), or
// nothing. Files as bundled_hardware() and bundled_workloads() name them.
std::optional<std::string> skipped_by_default(const std::string& hardware,
                                              const std::string& workload) {
  if (auto rule = refusal_of(config_path(hardware), config_path(workload))) {
    return "refused: " + *rule;
  }
  const auto slow = kSlowPairs.find({hardware, workload});
  if (slow != kSlowPairs.end()) {
    return "slow: " + std::to_string(slow->second) +
           " s of CPU measured; set RIDGELINE_INVARIANT_SLOW=1 to run it";
  }
  const auto trace_only = kTraceOnlyHardware.find(hardware);
  if (trace_only != kTraceOnlyHardware.end() && !is_memory_trace(workload)) {
    return "a kernel on " + trace_only->second + "; set RIDGELINE_INVARIANT_SLOW=1 to run it";
  }
  return std::nullopt;
}

// The whole product (17 hardware files x 59 workloads, 761 of the pairs accepted) takes more CPU
// than a test run should (19 minutes when it was 14 x 40, before the GPU presets' detailed HBM),
// and most of it repeats itself: a workload's fifth GPU finds little its first four did not. By
// default each workload runs on kMachinesPerWorkload of the hardware files that run it, taken in
// turn from hardware file (workload index mod hardware files) on, so each workload starts from
// another machine and every machine takes its share of the workloads. RIDGELINE_INVARIANT_ALL=1
// runs every pair (docs/RELIABILITY.md).
constexpr std::size_t kMachinesPerWorkload = 3;

// Whether `pair`, which runs by default, is among its workload's kMachinesPerWorkload machines.
bool in_rotation(const Pair& pair) {
  const std::vector<std::string> hardware = bundled_hardware();
  std::size_t taken = 0;
  for (std::size_t step = 0; step < hardware.size() && taken < kMachinesPerWorkload; ++step) {
    const std::size_t h = (pair.workload_index + step) % hardware.size();
    if (h == pair.hardware_index) return true;
    if (!skipped_by_default(hardware[h], pair.workload)) ++taken;
  }
  return false;
}

class BundledPair : public ::testing::TestWithParam<Pair> {};

TEST_P(BundledPair, MeetsThePhysicalBounds) {
  const std::string hardware = config_path(GetParam().hardware);
  const std::string workload = config_path(GetParam().workload);
  const bool run_slow = slow_pairs_wanted();
  if (run_slow) {
    if (auto rule = refusal_of(hardware, workload)) GTEST_SKIP() << "refused: " << *rule;
  } else if (auto why = skipped_by_default(GetParam().hardware, GetParam().workload)) {
    GTEST_SKIP() << *why;
  }
  if (!every_pair_wanted() && !in_rotation(GetParam())) {
    GTEST_SKIP() << "not among the workload's " << kMachinesPerWorkload
                 << " machines of the default rotation; set RIDGELINE_INVARIANT_ALL=1 to run it";
  }
  ScratchDirectory scratch("invariants_pair");
  const CheckedRun run =
      run_and_check(hardware, workload, scratch.path("report.json"), run_slow ? 0 : kRunTimeLimitS);
  ASSERT_EQ(run.exit_code, 0) << "ridgeline analyze accepts the pair but run did not: "
                              << run.outcome << "\n  " << run.command << "\n"
                              << run.error_text;
  std::string sentences;
  for (const std::string& failure : run.failures) sentences += "\n  - " + failure;
  EXPECT_TRUE(run.failures.empty())
      << GetParam().hardware << " with " << GetParam().workload << " fails " << run.failures.size()
      << " check(s):" << sentences << "\n  " << run.command;
  std::cout << "run: wall " << run.wall_s << " s, CPU " << run.cpu_s << " s\n";
}

std::string pair_test_name(const ::testing::TestParamInfo<Pair>& param) {
  return name_of_path(param.param.hardware) + "__" + name_of_path(param.param.workload);
}
INSTANTIATE_TEST_SUITE_P(Configs, BundledPair, ::testing::ValuesIn(bundled_pairs()),
                         pair_test_name);

TEST(BundledFiles, AreFoundByTheirRootKey) {
  const std::vector<std::string> hardware = bundled_hardware();
  const std::vector<std::string> workloads = bundled_workloads();
  const auto has = [](const std::vector<std::string>& files, const std::string& file) {
    return std::find(files.begin(), files.end(), file) != files.end();
  };
  EXPECT_TRUE(has(hardware, "hardware/seed.yaml"));
  EXPECT_TRUE(has(hardware, "questions/q1-local-vs-shared/machine.yaml"));
  EXPECT_TRUE(has(workloads, "workloads/memory/copy-trace.yaml"));
  EXPECT_TRUE(has(workloads, "questions/q4-slow-past-ridge/baseline.yaml"));
  EXPECT_FALSE(has(workloads, "hardware/seed.yaml"));
  EXPECT_FALSE(has(hardware, "questions/q1-local-vs-shared/both.yaml"));
  EXPECT_TRUE(std::is_sorted(hardware.begin(), hardware.end()));
  EXPECT_TRUE(std::is_sorted(workloads.begin(), workloads.end()));
}

}  // namespace
}  // namespace ridgeline::test
