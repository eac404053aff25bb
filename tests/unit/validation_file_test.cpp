// Validation files: what a case reads (units into B/s, FLOP/s and seconds, overrides in order),
// and every bundled case loads and passes the checks `ridgeline validate` makes before it runs.
#include "sim/commands/validation_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sim/commands/validate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ValidationFile, ReadsEachFigureInItsUnitAndTheOverridesInOrder) {
  const std::string seed = test::config_path("hardware/seed.yaml");
  const std::string gemm = test::config_path("workloads/seed/gemm-4096-t64-double.yaml");
  std::string text = "validation:\n  cases:\n";
  for (const char* figure_and_value :
       {"bandwidth, measured: 1759GB/s", "flop_rate, measured: 794.5TFLOP/s",
        "time, measured: 1.5ms", "latency, measured: 405ns"}) {
    text += std::string("    - {name: c") + std::to_string(text.size()) + ", gpu: g, hardware: " +
            seed + ", workload: " + gemm +
            ", set: {workload.n: 1024, hardware.clock: 1GHz}, figure: " + figure_and_value +
            ", source: s}\n";
  }
  const std::vector<ValidationCase> cases =
      load_validation_file(write_file("validation_units.yaml", text));
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].figure, ValidationFigure::bandwidth);
  EXPECT_EQ(cases[0].measured, 1759e9);
  EXPECT_EQ(cases[1].measured, 794.5e12);
  EXPECT_EQ(cases[2].measured, 1.5e-3);
  EXPECT_EQ(cases[3].figure, ValidationFigure::latency);
  EXPECT_EQ(cases[3].measured, 405e-9);
  EXPECT_EQ(cases[0].overrides,
            (std::vector<std::string>{"workload.n=1024", "hardware.clock=1GHz"}));
  EXPECT_EQ(cases[0].override_locations.size(), 2u);
  EXPECT_EQ(cases[0].hardware_path, std::filesystem::path(seed).lexically_normal().string());
  EXPECT_EQ(cases[1].key_path, "validation.cases[1]");
  EXPECT_EQ(unit_of(ValidationFigure::flop_rate), "FLOP/s");
}

TEST(ValidationFile, ReadsTheTensorsACaseFindsInTheL2AndChecksThemAgainstTheWorkload) {
  const std::string machine = test::config_path("hardware/seed-l2.yaml");
  const std::string trace = test::config_path("workloads/memory/sequential-loads.yaml");
  const std::string text =
      "validation:\n  cases:\n    - {name: warm, gpu: g, hardware: " + machine +
      ", workload: " + trace +
      ", l2_resident: [data], figure: latency, measured: 150ns, source: s}\n"
      "    - {name: wrong, gpu: g, hardware: " +
      machine + ", workload: " + trace +
      ", l2_resident: [A], figure: latency, measured: 150ns, source: s}\n";
  const std::vector<ValidationCase> cases =
      load_validation_file(write_file("validation_l2_resident.yaml", text));
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].l2_resident, std::vector<std::string>{"data"});
  EXPECT_NO_THROW(check_validation_case(cases[0]));
  try {
    check_validation_case(cases[1]);
    ADD_FAILURE() << "a tensor the trace does not read is refused";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.key_path(), "validation.cases[1].l2_resident");
    EXPECT_EQ(error.where().line, 4);
    EXPECT_NE(error.rule().find("is not an input tensor"), std::string::npos) << error.rule();
  }
}

TEST(ValidationFile, EveryBundledCaseLoadsAndIsChecked) {
  std::size_t files = 0;
  std::set<std::string> names, machines;
  for (const auto& entry : std::filesystem::directory_iterator(test::config_path("validation"))) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    for (const ValidationCase& c : load_validation_file(entry.path().string())) {
      SCOPED_TRACE(c.name);
      EXPECT_NO_THROW(check_validation_case(c));
      EXPECT_TRUE(names.insert(c.name).second) << "names are unique over the bundled files";
      EXPECT_GT(c.measured, 0);
      EXPECT_FALSE(c.source.empty());
      machines.insert(c.gpu);
    }
  }
  EXPECT_GE(files, 1u);
  EXPECT_GE(names.size(), 7u);
  EXPECT_TRUE(machines.count("A100 SXM4 80GB"));
  EXPECT_TRUE(machines.count("H100 SXM5 80GB"));
}

}  // namespace
}  // namespace ridgeline
