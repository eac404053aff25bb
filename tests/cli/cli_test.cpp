// The ridgeline executable as users run it: exit codes, messages, output files.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/cli_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::Outcome;
using test::ridgeline;
using test::slurp;

const std::string kSeed = test::config_path("hardware/seed.yaml");
const std::string kT64 = test::config_path("workloads/seed/gemm-4096-t64-double.yaml");

TEST(Cli, HelpExplainsEverySubcommand) {
  const Outcome o = ridgeline("--help");
  EXPECT_EQ(o.exit_code, 0);
  for (const char* word : {"analyze", "run", "study"})
    EXPECT_NE(o.out.find(word), std::string::npos) << word;
  const Outcome run_help = ridgeline("run --help");
  for (const char* word : {"--set", "--json", "--csv", "HARDWARE", "WORKLOAD"}) {
    EXPECT_NE(run_help.out.find(word), std::string::npos) << word;
  }
}

TEST(Cli, AnalyzePrintsTheNotesFigures) {
  const Outcome o = ridgeline("analyze " + kSeed + " " + kT64);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  for (const char* figure :
       {"8,657,043,456", "15.875969", "6.871948 ms", "8.657043 ms", "memory"}) {
    EXPECT_NE(o.out.find(figure), std::string::npos) << figure << "\n" << o.out;
  }
}

TEST(Cli, BadInputExitsWithTwoAndOneClearLine) {
  const Outcome o =
      ridgeline("analyze " + kSeed + " " + kT64 + " --set hardware.hbm.bandwidth=0TB/s");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(
      o.err.find("--set hardware.hbm.bandwidth=0TB/s: hardware.hbm.bandwidth: value \"0TB/s\": "
                 "a bandwidth must be greater than zero"),
      std::string::npos)
      << o.err;
  EXPECT_EQ(o.out, "");

  EXPECT_EQ(ridgeline("analyze /nonexistent.yaml " + kT64).exit_code, 2);
  EXPECT_EQ(ridgeline("frobnicate").exit_code, 2);
  EXPECT_EQ(ridgeline("run " + kSeed).exit_code, 2);  // WORKLOAD missing
}

TEST(Cli, RunWritesJsonAndCsvWithTheFieldsScriptsRelyOn) {
  const std::string json_path = ::testing::TempDir() + "ridgeline_cli_run.json";
  const std::string csv_path = ::testing::TempDir() + "ridgeline_cli_run.csv";
  const Outcome o =
      ridgeline("run " + kSeed + " " + test::config_path("workloads/vector-add.yaml") +
                " --set workload.length=1048576 --json " + json_path + " --csv " + csv_path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto report = nlohmann::json::parse(slurp(json_path));
  for (const char* key : {"flops", "hbm_bytes", "intensity_flop_per_byte", "roof_flop_per_s",
                          "bound", "t_compute_s", "t_memory_s", "t_ideal_s"}) {
    EXPECT_TRUE(report["analytical"].contains(key)) << key;
  }
  for (const char* key :
       {"time_s", "flops", "hbm_bytes", "achieved_flop_per_s", "achieved_hbm_bytes_per_s",
        "intensity_flop_per_byte", "overlap_fraction", "stalls"}) {
    EXPECT_TRUE(report["simulated"].contains(key)) << key;
  }
  EXPECT_EQ(report["analytical"]["bound"], "memory");
  EXPECT_EQ(report["simulated"]["hbm_bytes"], 12u * 1048576);
  EXPECT_EQ(report["simulated"]["flops"], 1048576u);

  const std::string csv = slurp(csv_path);
  const auto newline = csv.find('\n');
  ASSERT_NE(newline, std::string::npos);
  EXPECT_NE(csv.substr(0, newline).find("simulated.time_s"), std::string::npos);
  EXPECT_NE(csv.substr(0, newline).find("analytical.hbm_bytes"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2);
  std::remove(json_path.c_str());
  std::remove(csv_path.c_str());
}

TEST(Cli, StudyPrintsTheNotesTableAnalytically) {
  const std::string dir = test::config_path("workloads/seed/");
  const Outcome o =
      ridgeline("study --analytical " + kSeed + " " + dir + "gemm-4096-no-reuse.yaml " + dir +
                "gemm-4096-t32-double.yaml " + dir + "gemm-4096-t128-double.yaml");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* figure : {"549,822,922,752", "0.249969", "549.822923", "17,246,978,048",
                             "7.968872", "4,362,076,160", "31.507692", "20.000000", "compute"}) {
    EXPECT_NE(o.out.find(figure), std::string::npos) << figure << "\n" << o.out;
  }
}

TEST(Cli, StudySimulatesEachWorkloadInItsOwnProcess) {
  const std::string dir = test::config_path("workloads/seed/");
  const Outcome o = ridgeline("study -j 2 " + kSeed + " " + dir + "gemm-4096-t128-double.yaml " +
                              dir + "gemm-4096-t64-double.yaml");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("Simulated"), std::string::npos);
  EXPECT_EQ(o.out.find("NO"), std::string::npos) << "counted Q differs from the model\n" << o.out;
}

TEST(Cli, MemoryTraceReportsBandwidthAndLatencyPercentiles) {
  const std::string json_path = ::testing::TempDir() + "ridgeline_cli_trace.json";
  const std::string html_path = ::testing::TempDir() + "ridgeline_cli_trace.html";
  const Outcome o = ridgeline("run " + test::config_path("hardware/hbm3-stack.yaml") + " " +
                              test::config_path("workloads/memory/random-trace.yaml") + " --json " +
                              json_path + " --report " + html_path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  // The HTML report of a trace (no blocks, no FLOPs, no limiter) is written too.
  EXPECT_NE(slurp(html_path).find("trace random-64B"), std::string::npos);
  std::remove(html_path.c_str());
  for (const char* text : {"memory trace: 2,048 accesses (2,048 loads, 0 stores)", "achieved",
                           "p50", "p90", "p99", "max", "HBM (detailed)", "row accesses"}) {
    EXPECT_NE(o.out.find(text), std::string::npos) << text << "\n" << o.out;
  }
  const auto report = nlohmann::json::parse(slurp(json_path));
  const auto& trace = report["simulated"]["trace"];
  EXPECT_EQ(trace["accesses"], 2048u);
  EXPECT_EQ(trace["bytes"], 2048u * 64);
  for (const char* key : {"mean", "min", "p50", "p90", "p99", "max"}) {
    EXPECT_GT(trace["latency_s"][key].get<double>(), 0) << key;
  }
  EXPECT_LE(trace["latency_s"]["p50"].get<double>(), trace["latency_s"]["p99"].get<double>());
  EXPECT_LE(trace["latency_s"]["p99"].get<double>(), trace["latency_s"]["max"].get<double>());
  EXPECT_EQ(report["components"]["dram"]["activations"], 2048.0);
  std::remove(json_path.c_str());
}

TEST(Cli, BadTraceLineExitsWithTwoNamingTheTraceFile) {
  const std::string base = ::testing::TempDir() + "ridgeline_cli_bad";
  std::ofstream(base + ".trace") << "LD 0x0\nLD 0x40\nLOAD 0x80\n";
  std::ofstream(base + ".yaml") << "workload:\n  kind: memory_trace\n  path: " << base
                                << ".trace\n";
  const Outcome o = ridgeline("run " + kSeed + " " + base + ".yaml");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find(base + ".trace:3:1: workload.path: value \"LOAD 0x80\": expected 'LD' or "
                              "'ST' at the start of the line"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1);
  std::remove((base + ".trace").c_str());
  std::remove((base + ".yaml").c_str());
}

}  // namespace
}  // namespace ridgeline
