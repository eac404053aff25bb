// The ridgeline executable as users run it: exit codes, messages, output files.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
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

TEST(Cli, VersionIsTheBuildsProjectVersion) {
  const Outcome o = ridgeline("--version");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, "ridgeline " RIDGELINE_VERSION "\n");
  EXPECT_NE(ridgeline("--help").out.find("--version"), std::string::npos);
}

// The options a command's --help lists, by their names as CLI11 prints them ("-j,--jobs",
// "--trace-limit"), each with its description ("stop a trace file ... (default: 256MiB)").
std::map<std::string, std::string> options_in_help(const std::string& help) {
  std::map<std::string, std::string> options;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t dash = line.find_first_not_of(' ');
    if (dash == std::string::npos || line[dash] != '-' || dash == 0) continue;
    std::istringstream words(line.substr(dash));
    std::string name;
    words >> name;
    std::string description;
    std::getline(words, description);
    // A long type ("FLOAT:SECONDS") puts the description on the next line.
    if (description.find("  ") == std::string::npos) {
      std::string next;
      if (lines.peek() == ' ' && std::getline(lines, next)) description += next;
    }
    options[name] = description;
  }
  return options;
}

TEST(Cli, HelpStatesEveryDefaultAndAnalyzeNoSimulation) {
  // Options without a default: files to write, overrides, flags, the sweep's --out.
  const std::set<std::string> no_default = {
      "-h,--help",      "--help-all",   "--set",   "--json", "--csv",
      "--roofline",     "--report",     "--quiet", "--vcd",  "--timeline",
      "--busy-profile", "--analytical", "--out"};
  for (const char* command : {"analyze", "run", "study", "sweep", "sweep-merge", "sweep-report"}) {
    const Outcome o = ridgeline(std::string(command) + " --help");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const auto options = options_in_help(o.out);
    EXPECT_FALSE(options.empty()) << command << "\n" << o.out;
    for (const auto& [name, description] : options) {
      if (no_default.count(name)) continue;
      EXPECT_NE(description.find("(default: "), std::string::npos)
          << command << " " << name << ": " << description;
    }
  }
  const auto analyze = options_in_help(ridgeline("analyze --help").out);
  ASSERT_TRUE(analyze.count("--roofline"));
  EXPECT_EQ(analyze.at("--roofline").find("simulated"), std::string::npos)
      << analyze.at("--roofline");
  const auto run = options_in_help(ridgeline("run --help").out);
  EXPECT_NE(run.at("--roofline").find("simulated"), std::string::npos);
  EXPECT_NE(run.at("--trace-limit").find("(default: 256MiB)"), std::string::npos);
  EXPECT_NE(run.at("--trace-level").find("(default: rates)"), std::string::npos);
}

// The README's commands block, a command's lines each ("ridgeline run ..." and the lines that
// continue it).
std::map<std::string, std::string> readme_commands() {
  const std::string readme = slurp(std::string(RIDGELINE_SOURCE_DIR) + "/README.md");
  const std::size_t section = readme.find("## Commands");
  const std::size_t start = readme.find("```\n", section) + 4;
  std::istringstream lines(readme.substr(start, readme.find("```", start) - start));
  std::map<std::string, std::string> commands;
  std::string command;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("ridgeline ", 0) == 0) {
      std::istringstream words(line.substr(10));
      words >> command;
    }
    commands[command] += line + "\n";
  }
  return commands;
}

TEST(Cli, ReadmeListsEveryOptionAndEveryLimiterCause) {
  const auto readme = readme_commands();
  for (const char* command : {"analyze", "run", "study", "sweep", "sweep-merge", "sweep-report"}) {
    ASSERT_TRUE(readme.count(command)) << command;
    const std::string& usage = readme.at(command);
    for (const auto& [names, description] :
         options_in_help(ridgeline(std::string(command) + " --help").out)) {
      if (names == "-h,--help" || names == "--help-all") continue;
      // Any of its names will do: "-j N" stands for -j,--jobs.
      bool listed = false;
      std::istringstream each(names);
      for (std::string name; std::getline(each, name, ',');) {
        listed = listed || usage.find(name + " ") != std::string::npos ||
                 usage.find(name + "]") != std::string::npos ||
                 usage.find(name + "\n") != std::string::npos;
      }
      EXPECT_TRUE(listed) << command << " " << names << " is missing from:\n" << usage;
    }
  }
  EXPECT_TRUE(readme.count("--version"));
  // The limiter's causes and input supply's details, as sim/report/compute_report.cpp names
  // them in the report.
  const std::string text = slurp(std::string(RIDGELINE_SOURCE_DIR) + "/README.md");
  for (const char* cause : {"compute", "hbm_bandwidth", "l2_bandwidth", "sram_bandwidth",
                            "synchronisation", "register_spill", "low_occupancy", "input_supply",
                            "tail", "in_flight_limit", "hbm_queueing"}) {
    EXPECT_NE(text.find(std::string("`") + cause + "`"), std::string::npos) << cause;
  }
}

TEST(Cli, SetNullRemovesAnOptionalKey) {
  const std::string h100 = test::config_path("hardware/h100-sxm5-80gb.yaml");
  const std::string bf16 = test::config_path("workloads/tensor-core/gemm-4096-bf16.yaml");
  const std::string with_path = ::testing::TempDir() + "ridgeline_cli_null_with.json";
  const std::string without_path = ::testing::TempDir() + "ridgeline_cli_null_without.json";
  ASSERT_EQ(ridgeline("analyze --quiet " + h100 + " " + bf16 + " --json " + with_path).exit_code,
            0);
  const Outcome o =
      ridgeline("analyze --quiet " + h100 + " " + bf16 +
                " --set hardware.l2=null --set workload.warp_tile=null --json " + without_path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto with = nlohmann::json::parse(slurp(with_path));
  const auto without = nlohmann::json::parse(slurp(without_path));
  const auto level_names = [](const nlohmann::json& report) {
    std::vector<std::string> names;
    for (const auto& level : report["analytical"]["levels"]) names.push_back(level["name"]);
    return names;
  };
  EXPECT_EQ(level_names(with), (std::vector<std::string>{"hbm", "l2", "sram"}));
  EXPECT_EQ(level_names(without), (std::vector<std::string>{"hbm", "sram"}));
  EXPECT_TRUE(with["hardware"].contains("l2"));
  EXPECT_FALSE(without["hardware"].contains("l2"));
  EXPECT_TRUE(with["workload"].contains("warp_tile"));
  EXPECT_FALSE(without["workload"].contains("warp_tile"));
  // Without the warp tile each thread reads its own operands: more bytes at the SRAM level.
  EXPECT_GT(without["analytical"]["levels"][1]["bytes"].get<double>(),
            with["analytical"]["levels"][2]["bytes"].get<double>());
  std::remove(with_path.c_str());
  std::remove(without_path.c_str());
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
  EXPECT_EQ(report["config"]["version"], RIDGELINE_VERSION);
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

// analyze writes the JSON and CSV run does, less the simulated figures; both say which build
// wrote them.
TEST(Cli, AnalyzeWritesJsonAndCsvNamingTheVersion) {
  const std::string json_path = ::testing::TempDir() + "ridgeline_cli_analyze.json";
  const std::string csv_path = ::testing::TempDir() + "ridgeline_cli_analyze.csv";
  const Outcome o =
      ridgeline("analyze " + kSeed + " " + kT64 + " --json " + json_path + " --csv " + csv_path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto report = nlohmann::json::parse(slurp(json_path));
  EXPECT_EQ(report["config"]["version"], RIDGELINE_VERSION);
  EXPECT_FALSE(report.contains("simulated"));

  const std::string csv = slurp(csv_path);
  ASSERT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.rfind("config.version,", 0), 0u) << header;
  EXPECT_NE(header.find("analytical.hbm_bytes"), std::string::npos);
  EXPECT_EQ(header.find("simulated."), std::string::npos);
  EXPECT_EQ(csv.substr(csv.find('\n') + 1).rfind(std::string(RIDGELINE_VERSION) + ",", 0), 0u)
      << csv;
  std::remove(json_path.c_str());
  std::remove(csv_path.c_str());
}

// Times are counts of picoseconds; the JSON writes each in the shortest form that reads back
// exactly, and a span that is a short decimal of seconds is that decimal, never what a product
// with 1e-12 can give (1570260133 ps x 1e-12 = 0.0015702601329999999).
TEST(Cli, JsonAndCsvTimesAreShortDecimals) {
  const std::string json_path = ::testing::TempDir() + "ridgeline_cli_short.json";
  const std::string csv_path = ::testing::TempDir() + "ridgeline_cli_short.csv";
  const Outcome a100 = ridgeline("run " + test::config_path("hardware/a100-sxm4-80gb.yaml") + " " +
                                 test::config_path("workloads/vector-add.yaml") +
                                 " --quiet --json " + json_path + " --csv " + csv_path);
  ASSERT_EQ(a100.exit_code, 0) << a100.err;
  const std::string json = slurp(json_path);
  EXPECT_NE(json.find("\"time_s\": 0.002240162298,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"in_flight_limit_s\": 0.224460052059,"), std::string::npos);
  EXPECT_NE(slurp(csv_path).find(",0.002240162298,"), std::string::npos);
  // T_ideal = Q / BW: 3 GiB at 1 TB/s on the seed machine.
  const Outcome seed =
      ridgeline("analyze " + kSeed + " " + test::config_path("workloads/vector-add.yaml") +
                " --json " + json_path);
  ASSERT_EQ(seed.exit_code, 0) << seed.err;
  EXPECT_NE(slurp(json_path).find("\"t_ideal_s\": 0.003221225472,"), std::string::npos);
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

// "LINE:COLUMN" where `text` starts in `path` (a bundled file's line, without counting by hand).
std::string position_of(const std::string& path, const std::string& text) {
  std::istringstream lines(slurp(path));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (const auto at = line.find(text); at != std::string::npos)
      return std::to_string(number) + ":" + std::to_string(at + 1);
  }
  return "not found";
}

// A key the model ignores is named on stderr before the run, with its location, with --quiet too
// (stdout stays empty), and the JSON report records it; the run still goes on.
TEST(Cli, IgnoredKeyIsWarnedWithItsLocationAndRecordedInTheReport) {
  const std::string hbm3 = test::config_path("hardware/hbm3-stack.yaml");
  const std::string trace = test::config_path("workloads/memory/sequential-trace.yaml");
  const std::string json = ::testing::TempDir() + "ridgeline_cli_ignored_key.json";
  const Outcome o = ridgeline("run " + hbm3 + " " + trace +
                              " --set hardware.hbm.mode=simple --quiet --json " + json);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, "");
  const std::string warning =
      hbm3 + ":" + position_of(hbm3, "tRCD_RD:") +
      ": key 'hardware.hbm.dram.timing' is ignored: hbm.mode is simple, which uses hbm.dram only "
      "to map addresses to pseudo-channels (set hbm.mode: detailed to simulate it, or remove it)";
  EXPECT_EQ(o.err, "ridgeline: warning: " + warning + "\n");
  const nlohmann::json report = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(report["config"]["warnings"], nlohmann::json::array({warning}));
  std::remove(json.c_str());

  // Nothing to warn about: nothing on stderr, an empty list in the report.
  const Outcome detailed = ridgeline("analyze " + hbm3 + " " + trace + " --quiet --json " + json);
  ASSERT_EQ(detailed.exit_code, 0) << detailed.err;
  EXPECT_EQ(detailed.err, "");
  EXPECT_EQ(nlohmann::json::parse(slurp(json))["config"]["warnings"], nlohmann::json::array());
  std::remove(json.c_str());
}

// A study reads the hardware once per workload: its warnings are printed once.
TEST(Cli, StudyPrintsTheHardwaresWarningsOnce) {
  const Outcome o = ridgeline("study " + test::config_path("hardware/seed-l2.yaml") + " " +
                              test::config_path("workloads/seed/gemm-4096-t64-double.yaml") + " " +
                              test::config_path("workloads/seed/gemm-4096-t128-double.yaml") +
                              " --analytical --set hardware.l2.capacity=2KiB");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err.find("ridgeline: warning: "), 0u) << o.err;
  EXPECT_EQ(o.err.find("ridgeline: warning: ", 1), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("key 'hardware.l2.set_index' is ignored"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace ridgeline
