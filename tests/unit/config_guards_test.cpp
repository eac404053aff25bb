// Configuration that loads but is silently wrong: keys the model ignores where they are, and
// figures that keep a run from the roofline, are named in warnings (RunConfig::warnings, the JSON
// report's config.warnings).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/hardware_config.hpp"
#include "sim/report/report.hpp"
#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;

const std::string kHbm2e = config_path("hardware/hbm2e-stack.yaml");
const std::string kHbm3 = config_path("hardware/hbm3-stack.yaml");
const std::string kSeedL2 = config_path("hardware/seed-l2.yaml");
const std::string kTrace = config_path("workloads/memory/sequential-trace.yaml");

// The hardware document alone, read as load_config reads it.
std::vector<ConfigWarning> hardware_warnings(const std::string& path,
                                             const std::vector<std::string>& overrides = {}) {
  const ConfigNode document = load_document(path, "hardware", overrides);
  parse_hardware(document);
  return document.warnings();
}

// The text of the one warning reading `path` with `overrides` gives ("" and a failure if not one).
std::string only_warning(const std::string& path, const std::vector<std::string>& overrides) {
  const std::vector<ConfigWarning> warnings = hardware_warnings(path, overrides);
  EXPECT_EQ(warnings.size(), 1u) << warning_lines(warnings);
  return warnings.size() == 1 ? warnings[0].text() : "";
}

// The message of the ConfigError reading `path` with `overrides` throws, or "" when none.
std::string refusal(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    parse_hardware(load_document(path, "hardware", overrides));
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

// Expects reading `path` with `overrides` refused, the message holding `part`.
void expect_refused(const std::string& path, const std::vector<std::string>& overrides,
                    const std::string& part) {
  const std::string message = refusal(path, overrides);
  EXPECT_NE(message.find(part), std::string::npos) << "missing '" << part << "' in: " << message;
}

// "LINE:COLUMN" of the first `text` in `path`, or of what follows it when `after`.
std::string position_of(const std::string& path, const std::string& text, bool after = false) {
  std::ifstream file(path);
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    const auto at = line.find(text);
    if (at != std::string::npos)
      return fmt::format("{}:{}", number, at + 1 + (after ? text.size() : 0));
  }
  return "not found";
}

// Every bundled machine loads with nothing to warn about.
TEST(ConfigGuards, BundledHardwareHasNoWarnings) {
  std::vector<std::string> files;
  for (const char* folder : {"configs/hardware", "configs/questions/q2-tile-under-limits/hardware",
                             "configs/questions/q3-l2-reuse/hardware"}) {
    for (const auto& entry : std::filesystem::directory_iterator(test::source_path(folder)))
      files.push_back(entry.path().string());
  }
  ASSERT_GE(files.size(), 12u);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    EXPECT_TRUE(hardware_warnings(file).empty()) << warning_lines(hardware_warnings(file));
  }
}

// --- warnings ---

TEST(ConfigGuards, DramTimingsInSimpleModeAreNamedAsIgnored) {
  // At the map's first key, as errors about a map are.
  EXPECT_EQ(only_warning(kHbm3, {"hardware.hbm.mode=simple"}),
            kHbm3 + ":" + position_of(kHbm3, "tRCD_RD:") +
                ": key 'hardware.hbm.dram.timing' is ignored: hbm.mode is simple, which uses "
                "hbm.dram only to map addresses to pseudo-channels (set hbm.mode: detailed to "
                "simulate it, or remove it)");
  // Left out, nothing is ignored; the organisation alone is enough in simple mode.
  EXPECT_TRUE(
      hardware_warnings(kHbm3, {"hardware.hbm.mode=simple", "hardware.hbm.dram.timing=null"})
          .empty());
  // Refresh too, and "the default" when the file gives no mode.
  const std::vector<ConfigWarning> by_default =
      hardware_warnings(kHbm3, {"hardware.hbm.mode=null", "hardware.hbm.dram.refresh=true"});
  ASSERT_EQ(by_default.size(), 2u) << warning_lines(by_default);
  EXPECT_EQ(by_default[1].text(),
            "--set hardware.hbm.dram.refresh=true: key 'hardware.hbm.dram.refresh' is ignored: "
            "hbm.mode is simple (the default), which uses hbm.dram only to map addresses to "
            "pseudo-channels (set hbm.mode: detailed to simulate it, or remove it)");
  // The detailed mode still requires them.
  expect_refused(kHbm3, {"hardware.hbm.dram.timing=null"},
                 "'timing' is required in 'hardware.hbm.dram'");
}

TEST(ConfigGuards, RefreshTimingsWithRefreshOffAreNamedAsIgnored) {
  const std::vector<ConfigWarning> warnings =
      hardware_warnings(kHbm3, {"hardware.hbm.dram.refresh=false"});
  ASSERT_EQ(warnings.size(), 2u) << warning_lines(warnings);
  EXPECT_EQ(warnings[0].text(), kHbm3 + ":" + position_of(kHbm3, "tREFI: ", true) +
                                    ": key 'hardware.hbm.dram.timing.tREFI' is ignored: "
                                    "hbm.dram.refresh is false (set refresh: true, or remove it)");
  EXPECT_EQ(warnings[1].key_path, "hardware.hbm.dram.timing.tRFC");
  // Not required then.
  EXPECT_TRUE(hardware_warnings(
                  kHbm3, {"hardware.hbm.dram.refresh=false", "hardware.hbm.dram.timing.tREFI=null",
                          "hardware.hbm.dram.timing.tRFC=null"})
                  .empty());
}

// hbm2e-stack.yaml's own comment suggests SK hynix's 460.8 GB/s; its tCCD_S of 1.25 ns (the
// burst at 3.2 Gb/s) cannot feed that.
TEST(ConfigGuards, DramSlowerThanItsBandwidthIsNamed) {
  EXPECT_EQ(only_warning(kHbm2e, {"hardware.hbm.bandwidth=460.8GB/s"}),
            kHbm2e + ":" + position_of(kHbm2e, "tCCD_S: ", true) +
                ": key 'hardware.hbm.dram.timing.tCCD_S' caps the DRAM at 409.6 GB/s, 11.11 % "
                "below hbm.bandwidth = 460.8 GB/s: each of the 16 pseudo-channels (channels x "
                "pseudo_channels) moves one 32-byte burst per tCCD_S = 1.25 ns, where "
                "hbm.bandwidth needs one every 1.111111 ns (simulated runs fall short of the "
                "roofline's BW, which is hbm.bandwidth: make tCCD_S at most the burst time, or "
                "lower hbm.bandwidth)");
  // Within 0.5 % (a timing rounded to the picosecond) is no shortfall; simple mode has no tCCD_S.
  EXPECT_TRUE(hardware_warnings(kHbm2e, {"hardware.hbm.dram.timing.tCCD_S=1.256ns"}).empty());
  EXPECT_EQ(hardware_warnings(kHbm2e, {"hardware.hbm.dram.timing.tCCD_S=1.257ns"}).size(), 1u);
  EXPECT_EQ(
      hardware_warnings(kHbm2e, {"hardware.hbm.bandwidth=460.8GB/s", "hardware.hbm.mode=simple"})
          .front()
          .key_path,
      "hardware.hbm.dram.timing");
}

TEST(ConfigGuards, SetIndexOfAOneSetL2IsNamedAsIgnored) {
  // 128-byte lines, 16 ways: 2 KiB is one set.
  EXPECT_EQ(only_warning(kSeedL2, {"hardware.l2.capacity=2KiB"}),
            kSeedL2 + ":" + position_of(kSeedL2, "set_index: ", true) +
                ": key 'hardware.l2.set_index' is ignored: the L2 has one set (capacity = "
                "line_size x associativity = 2 KiB), which every line maps to (remove it, or give "
                "the L2 more sets)");
  EXPECT_TRUE(
      hardware_warnings(kSeedL2, {"hardware.l2.capacity=2KiB", "hardware.l2.set_index=null"})
          .empty());
  EXPECT_TRUE(hardware_warnings(kSeedL2, {"hardware.l2.capacity=4KiB"}).empty());
}

TEST(ConfigGuards, WarningsReachTheRunConfigAndTheJsonReport) {
  const RunConfig quiet = load_config(kHbm3, kTrace, {});
  EXPECT_TRUE(quiet.warnings.empty());
  const nlohmann::json none = report_json(quiet, nullptr);
  ASSERT_TRUE(none["config"]["warnings"].is_array());
  EXPECT_TRUE(none["config"]["warnings"].empty());

  const RunConfig simple = load_config(kHbm3, kTrace, {"hardware.hbm.mode=simple"});
  ASSERT_EQ(simple.warnings.size(), 1u);
  const nlohmann::json report = report_json(simple, nullptr);
  ASSERT_EQ(report["config"]["warnings"].size(), 1u);
  EXPECT_EQ(report["config"]["warnings"][0], simple.warnings[0].text());
}

TEST(ConfigGuards, WarningLinesNameEachWarningOnce) {
  const ConfigWarning warning{SourceLocation{"hw.yaml", 3, 7}, "hardware.x", "is ignored: why",
                              "fix it"};
  EXPECT_EQ(warning.text(), "hw.yaml:3:7: key 'hardware.x' is ignored: why (fix it)");
  EXPECT_EQ(warning_lines({warning, warning}),
            "ridgeline: warning: hw.yaml:3:7: key 'hardware.x' is ignored: why (fix it)\n");
  EXPECT_EQ(warning_lines({}), "");
}

}  // namespace
}  // namespace ridgeline
