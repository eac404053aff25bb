// The same configuration gives byte-identical JSON, CSV and text on every run, and a study gives
// the same JSON whatever the number of simulations it runs at once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/run_ridgeline.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

struct Run {
  std::string name;
  std::vector<std::string> args;  ///< hardware, workload, --set ...
};

const std::string kSmall = test::source_path("tests/bad_input/files/hardware/valid.yaml");
const std::string kSmallGemm = test::source_path("tests/bad_input/files/workload/valid-gemm.yaml");

// Chosen to reach every path where order or rounding could creep in: many blocks contending for
// HBM channels, several resident blocks per core, a clock whose period is not a whole number of
// picoseconds, a bandwidth that is not a whole number of picoseconds per byte, single and multi-
// stage buffering, a short last block, no reuse.
const Run kRuns[] = {
    {"seed_t64_double",
     {test::config_path("hardware/seed.yaml"),
      test::config_path("workloads/seed/gemm-4096-t64-double.yaml"), "--set", "workload.m=1024",
      "--set", "workload.n=1024"}},
    {"contended_resident_blocks",
     {kSmall, kSmallGemm, "--set", "workload.m=512", "--set", "workload.n=512", "--set",
      "workload.stages=3"}},
    {"odd_clock_and_bandwidth",
     {kSmall, kSmallGemm, "--set", "hardware.clock=1.3GHz", "--set",
      "hardware.hbm.bandwidth=819.2GB/s", "--set", "hardware.hbm.channels=6", "--set",
      "workload.stages=1"}},
    {"vector_add_short_last_block",
     {test::config_path("hardware/seed.yaml"), test::config_path("workloads/vector-add.yaml"),
      "--set", "workload.length=1000003", "--set",
      "hardware.hbm.max_requests_in_flight_per_core=3"}},
    {"no_reuse",
     {test::config_path("hardware/seed.yaml"),
      test::config_path("workloads/seed/gemm-4096-no-reuse.yaml"), "--set", "workload.m=256",
      "--set", "workload.n=256", "--set", "workload.k=1024"}},
};

struct Outputs {
  std::string json, csv, text;
};

Outputs run_once(const Run& run, int attempt) {
  const std::string base =
      ::testing::TempDir() + "ridgeline_determinism_" + run.name + "_" + std::to_string(attempt);
  std::vector<std::string> args{"run"};
  args.insert(args.end(), run.args.begin(), run.args.end());
  args.insert(args.end(), {"--json", base + ".json", "--csv", base + ".csv"});
  const test::Outcome o = test::run_program(RIDGELINE_BINARY, args, base);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  Outputs outputs{test::read_file(base + ".json"), test::read_file(base + ".csv"), o.out};
  std::remove((base + ".json").c_str());
  std::remove((base + ".csv").c_str());
  return outputs;
}

class Determinism : public ::testing::TestWithParam<Run> {};

TEST_P(Determinism, ThreeRunsAreByteIdentical) {
  const Outputs first = run_once(GetParam(), 0);
  ASSERT_NE(first.json.find("\"simulated\""), std::string::npos) << "not a simulated report";
  ASSERT_FALSE(first.csv.empty());
  for (int attempt = 1; attempt < 3; ++attempt) {
    const Outputs again = run_once(GetParam(), attempt);
    EXPECT_EQ(again.json, first.json) << "JSON differs on run " << attempt + 1;
    EXPECT_EQ(again.csv, first.csv) << "CSV differs on run " << attempt + 1;
    EXPECT_EQ(again.text, first.text) << "text differs on run " << attempt + 1;
  }
}

void PrintTo(const Run& run, std::ostream* os) { *os << run.name; }

INSTANTIATE_TEST_SUITE_P(Configs, Determinism, ::testing::ValuesIn(kRuns),
                         [](const ::testing::TestParamInfo<Run>& param) {
                           return param.param.name;
                         });

TEST(Determinism, StudyIsTheSameAtAnyNumberOfJobs) {
  const std::string dir = test::config_path("workloads/seed/");
  std::vector<std::string> reports;
  for (const char* jobs : {"1", "2", "3"}) {
    const std::string json = ::testing::TempDir() + "ridgeline_determinism_study_" + jobs + ".json";
    const test::Outcome o =
        test::run_program(RIDGELINE_BINARY,
                          {"study", "-j", jobs, test::config_path("hardware/seed.yaml"),
                           dir + "gemm-4096-t32-single.yaml", dir + "gemm-4096-t64-double.yaml",
                           dir + "gemm-4096-t128-double.yaml", "--set", "workload.m=512", "--set",
                           "workload.n=512", "--json", json},
                          json);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    reports.push_back(test::read_file(json));
    std::remove(json.c_str());
  }
  ASSERT_NE(reports[0].find("\"simulated\""), std::string::npos);
  EXPECT_EQ(reports[1], reports[0]) << "-j 2 differs from -j 1";
  EXPECT_EQ(reports[2], reports[0]) << "-j 3 differs from -j 1";
}

}  // namespace
}  // namespace ridgeline
