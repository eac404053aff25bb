// Seeded random configurations (config_generator.hpp), each run through `ridgeline run --json`
// and its report held to the physical bounds (report_checks.hpp).
//
// kPropertyDraws draws of seed kPropertySeed in CI, in kShards tests that ctest spreads; set
// RIDGELINE_PROPERTY_SEED and RIDGELINE_PROPERTY_COUNT for other or longer runs (each test then
// takes its share of the count). A draw the reader refuses (exit 2) is allowed, but most must be
// accepted, so the generator stays within the rules. A failing draw prints its files, ready to
// save as a regression case, and the command line.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>

#include "tests/invariants/config_generator.hpp"
#include "tests/invariants/invariant_runs.hpp"
#include "tests/test_support.hpp"

namespace ridgeline::test {
namespace {

constexpr std::size_t kShards = 6;
/// At least this share of the draws must be accepted.
constexpr double kMinimumAccepted = 0.8;

std::string indented(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    out += "    " + text.substr(start, end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// A draw as a regression case: its files as they were run, and how to run it again.
std::string regression_case(const GeneratedCase& c, const CheckedRun& run) {
  std::string out = c.label + " (RIDGELINE_PROPERTY_SEED=" + std::to_string(c.seed) + ", draw " +
                    std::to_string(c.index) + ")\n  command: " + run.command +
                    "\n  hardware.yaml:\n" + indented(c.hardware_yaml) + "  workload.yaml:\n" +
                    indented(c.workload_yaml);
  if (!c.trace_name.empty()) out += "  " + c.trace_name + ":\n" + indented(c.trace_text);
  return out;
}

class RandomConfigurations : public ::testing::TestWithParam<std::size_t> {};

TEST_P(RandomConfigurations, MeetThePhysicalBounds) {
  const PropertySettings settings = property_settings();
  const std::size_t shard = GetParam();
  const std::size_t first = shard * settings.count / kShards;
  const std::size_t last = (shard + 1) * settings.count / kShards;
  ScratchDirectory scratch("invariants_property");
  std::size_t accepted = 0;
  std::map<std::string, std::size_t> refusals;  // by the rule, without the file position
  RunTimes times;
  for (std::size_t index = first; index < last; ++index) {
    const GeneratedCase c = generate_case(settings.seed, index);
    const std::string hardware = scratch.path("hardware-" + std::to_string(index) + ".yaml");
    const std::string workload = scratch.path("workload-" + std::to_string(index) + ".yaml");
    std::ofstream(hardware) << c.hardware_yaml;
    std::ofstream(workload) << c.workload_yaml;
    if (!c.trace_name.empty()) std::ofstream(scratch.path(c.trace_name)) << c.trace_text;
    const CheckedRun run = run_and_check(hardware, workload,
                                         scratch.path("report-" + std::to_string(index) + ".json"));
    times.add("draw " + std::to_string(index), run);
    if (run.refused()) {
      const std::string line = run.first_error_line();
      const std::size_t key = line.find(": ", line.find(".yaml:"));  // past "file:line:column"
      ++refusals[key == std::string::npos ? line : line.substr(key + 2)];
      continue;
    }
    if (run.exit_code != 0) {
      ADD_FAILURE() << "did not run: " << run.outcome << "\n"
                    << run.error_text << regression_case(c, run);
      continue;
    }
    ++accepted;
    if (!run.failures.empty()) {
      std::string sentences;
      for (const std::string& failure : run.failures) sentences += "\n  - " + failure;
      ADD_FAILURE() << "fails " << run.failures.size() << " check(s):" << sentences << "\n"
                    << regression_case(c, run);
    }
  }
  const std::size_t draws = last - first;
  std::string reasons;
  for (const auto& [reason, count] : refusals) {
    reasons += "\n  " + std::to_string(count) + " x " + reason;
  }
  EXPECT_GE(static_cast<double>(accepted), kMinimumAccepted * static_cast<double>(draws))
      << "the generator strays outside the rules: refusals by rule:" << reasons;
  std::cout << "draws " << first << " to " << last << " of seed " << settings.seed << ": "
            << accepted << " accepted, " << draws - accepted << " refused; " << times.summary()
            << "\nrefused by rule:" << reasons << "\n";
}

INSTANTIATE_TEST_SUITE_P(Draws, RandomConfigurations, ::testing::Range<std::size_t>(0, kShards));

TEST(ConfigGenerator, ADrawDependsOnItsSeedAndIndexAlone) {
  const GeneratedCase a = generate_case(kPropertySeed, 17);
  generate_case(kPropertySeed, 16);
  const GeneratedCase b = generate_case(kPropertySeed, 17);
  EXPECT_EQ(a.hardware_yaml, b.hardware_yaml);
  EXPECT_EQ(a.workload_yaml, b.workload_yaml);
  EXPECT_EQ(a.trace_text, b.trace_text);
  EXPECT_NE(a.hardware_yaml, generate_case(kPropertySeed, 18).hardware_yaml);
  EXPECT_NE(a.hardware_yaml, generate_case(kPropertySeed + 1, 17).hardware_yaml);
}

TEST(ConfigGenerator, DrawsEveryKind) {
  std::map<std::string, std::size_t> kinds;
  for (std::size_t i = 0; i < kPropertyDraws; ++i) {
    const std::string yaml = generate_case(kPropertySeed, i).workload_yaml;
    const std::size_t at = yaml.find("kind: ") + 6;
    ++kinds[yaml.substr(at, yaml.find('\n', at) - at)];
  }
  EXPECT_GT(kinds["gemm"], 0u);
  EXPECT_GT(kinds["vector_add"], 0u);
  EXPECT_GT(kinds["memory_trace"], 0u);
}

}  // namespace
}  // namespace ridgeline::test
