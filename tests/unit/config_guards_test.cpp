// Configuration that loads but is silently wrong: stated figures that disagree with the simulated
// ones are refused with both numbers; keys the model ignores where they are, and figures that
// keep a run from the roofline, are named in warnings (RunConfig::warnings, the JSON report's
// config.warnings).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/hardware_config.hpp"
#include "sim/config/hardware_guards.hpp"
#include "sim/report/report.hpp"
#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;

const std::string kA100 = config_path("hardware/a100-sxm4-80gb.yaml");
const std::string kH100 = config_path("hardware/h100-sxm5-80gb.yaml");
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

TEST(ConfigGuards, NewUnitsReadExactly) {
  EXPECT_EQ(parse_quantity("989.4TFLOP/s", Dimension::flop_rate), 989'400'000'000'000u);
  EXPECT_EQ(parse_quantity("19.5 TFLOP/s", Dimension::flop_rate), 19'500'000'000'000u);
  EXPECT_EQ(parse_quantity("5.23Gb/s", Dimension::bit_rate), 5'230'000'000u);
  try {
    parse_quantity("5.23GB/s", Dimension::bit_rate);
    FAIL() << "bytes for bits";
  } catch (const QuantityError& error) {
    EXPECT_STREQ(error.what(), "'GB/s' is a unit of bandwidth, but this key takes a bit rate");
  }
}

// Every bundled machine loads with its stated figures checked and nothing to warn about.
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

TEST(ConfigGuards, StatedPeaksDisagreeingAreRefusedWithBothNumbers) {
  EXPECT_EQ(refusal(kH100, {"hardware.cores.compute.stated_peak.bf16=1000TFLOP/s @ 1.83GHz"}),
            "--set hardware.cores.compute.stated_peak.bf16=1000TFLOP/s @ 1.83GHz: "
            "hardware.cores.compute.stated_peak.bf16: value \"1000TFLOP/s @ 1.83GHz\": "
            "cores.count x throughput.bf16 x the stated clock = 132 x 4096 FLOP/cycle x 1.83 GHz "
            "= 989.42976 TFLOP/s, 1.06 % below the stated 1 PFLOP/s; they may differ by at "
            "most 0.5 % (a datasheet's rounding) (correct cores.count or "
            "cores.compute.throughput.bf16, or the stated peak and its clock)");
  // H100's FP32 datasheet peak is at 1.98 GHz: stated at the machine's 1.83 GHz, it disagrees.
  expect_refused(kH100, {"hardware.cores.compute.stated_peak.fp32=66.9TFLOP/s @ 1.83GHz"},
                 "132 x 256 FLOP/cycle x 1.83 GHz = 61.83936 TFLOP/s, 7.56 % below "
                 "the stated 66.9 TFLOP/s");
  // Above as well as below.
  expect_refused(kA100, {"hardware.cores.compute.stated_peak.fp32=19TFLOP/s @ 1.41GHz"},
                 "108 x 128 FLOP/cycle x 1.41 GHz = 19.49184 TFLOP/s, 2.59 % above the "
                 "stated 19 TFLOP/s");
}

TEST(ConfigGuards, StatedPeaksWithinHalfAPercentPass) {
  // 989.42976 TFLOP/s simulated, as a fraction of the stated: 0.4998 % below 994.4, 0.5099 %
  // below 994.5, 0.4905 % above 984.6 and 0.5007 % above 984.5.
  EXPECT_EQ(refusal(kH100, {"hardware.cores.compute.stated_peak.bf16=994.4TFLOP/s @ 1.83GHz"}), "");
  EXPECT_NE(refusal(kH100, {"hardware.cores.compute.stated_peak.bf16=994.5TFLOP/s @ 1.83GHz"}), "");
  EXPECT_EQ(refusal(kH100, {"hardware.cores.compute.stated_peak.bf16=984.6TFLOP/s @ 1.83GHz"}), "");
  EXPECT_NE(refusal(kH100, {"hardware.cores.compute.stated_peak.bf16=984.5TFLOP/s @ 1.83GHz"}), "");
}

TEST(ConfigGuards, StatedPeakNeedsItsClockAndAThroughput) {
  expect_refused(kH100, {"hardware.cores.compute.stated_peak.bf16=989.4TFLOP/s"},
                 "a stated peak names the clock it is stated at: PEAK @ CLOCK");
  expect_refused(kH100, {"hardware.cores.compute.stated_peak.bf16=989.4TFLOPS @ 1.83GHz"},
                 "the peak, before '@': unknown unit 'TFLOPS'");
  // Ampere has no FP8: a stated FP8 peak has nothing to be checked against.
  expect_refused(kA100, {"hardware.cores.compute.stated_peak.fp8=1PFLOP/s @ 1.41GHz"},
                 "the machine lists no cores.compute.throughput.fp8");
  expect_refused(kA100, {"hardware.cores.compute.stated_peak.fp33=1PFLOP/s @ 1.41GHz"},
                 "did you mean 'fp32'?");
}

TEST(ConfigGuards, StatedInterfaceDisagreeingIsRefusedWithBothNumbers) {
  EXPECT_EQ(refusal(kH100, {"hardware.hbm.stated_interface.pin_rate=6.4Gb/s"}),
            "--set hardware.hbm.stated_interface.pin_rate=6.4Gb/s: hardware.hbm.stated_interface: "
            "hbm.bandwidth = 3.35 TB/s is 18.21 % below data_pins x pin_rate / 8 = 5120 x 6.4 Gb/s "
            "/ 8 = 4.096 TB/s; they may differ by at most 0.5 % (a datasheet's rounding) (correct "
            "hbm.bandwidth, or the stated pins and pin rate)");
  expect_refused(kH100, {"hardware.hbm.stated_interface.data_pins=5000"},
                 "hardware.hbm.stated_interface.data_pins: value \"5000\": 5000 data pins "
                 "do not split evenly over channels x pseudo_channels = 80 x 2 = 160 parts "
                 "(31.25 pins each)");
  expect_refused(kH100, {"hardware.hbm.stated_interface.pin_rate=5.23GB/s"},
                 "'GB/s' is a unit of bandwidth, but this key takes a bit rate");
}

TEST(ConfigGuards, StatedSetsDisagreeingAreRefusedWithBothNumbers) {
  EXPECT_EQ(
      refusal(kA100, {"hardware.l2.stated_sets=16384"}),
      "--set hardware.l2.stated_sets=16384: hardware.l2.stated_sets: value \"16384\": "
      "capacity / (line_size x associativity) = 40 MiB / (128 B x 16) = 20480 sets, not the "
      "16384 stated (a count of sets is exact: no rounding is allowed) (16384 sets of 128 B x "
      "16 ways hold 32 MiB: correct capacity, line_size or associativity, or the stated "
      "sets)");
}

// A value from --set (or a sweep) makes another machine than the datasheet's: the stated
// figures it is checked against are not checked, and the machine loads.
TEST(ConfigGuards, ChangedFiguresTurnTheirStatedFiguresOff) {
  for (const std::vector<std::string>& overrides :
       {std::vector<std::string>{"hardware.cores.count=66"},
        {"hardware.cores.compute.throughput.bf16=2048FLOP/cycle"},
        {"hardware.hbm.bandwidth=6.7TB/s"},
        {"hardware.hbm.channels=40"},
        {"hardware.l2.capacity=25MiB"},
        {"hardware.clock=1.98GHz"}}) {
    SCOPED_TRACE(overrides.front());
    EXPECT_EQ(refusal(kH100, overrides), "");
    // Nothing about a stated figure. (Another bandwidth or channel count than the DRAM's timings
    // allow is warned about by the detailed mode's own check, which stays on.)
    for (const ConfigWarning& warning : hardware_warnings(kH100, overrides)) {
      EXPECT_EQ(warning.text().find("stated"), std::string::npos) << warning.text();
      EXPECT_NE(warning.text().find("caps the DRAM"), std::string::npos) << warning.text();
    }
  }
  // The figures left as the file has them are still checked.
  EXPECT_NE(refusal(kH100, {"hardware.hbm.bandwidth=6.7TB/s",
                            "hardware.cores.compute.stated_peak.bf16=1PFLOP/s @ 1.83GHz"}),
            "");
  // A stated figure given with the figures it states, in one value, is checked.
  EXPECT_NE(refusal(kH100, {"hardware.hbm={bandwidth: 1TB/s, latency: 100ns, channels: 8, "
                            "interleave: 256B, max_bytes_in_flight_per_core: 64KiB, "
                            "stated_interface: {data_pins: 1024, pin_rate: 6.4Gb/s}}"}),
            "");
}

// A sweep point that changes cores.count writes its hardware.yaml without the stated peaks it
// was not checked against: the file reads back as the point did.
TEST(ConfigGuards, WrittenPointsLeaveOutTheStatedFiguresTheyChanged) {
  const std::vector<PlacedValue> placed = {
      PlacedValue{"hardware.cores.count", YAML::Load("66"), SourceLocation{"sweep.yaml", 3, 5}},
      PlacedValue{"hardware.cores.compute.throughput.fp32", YAML::Load("128FLOP/cycle"),
                  SourceLocation{"sweep.yaml", 4, 5}}};
  const ConfigNode point =
      load_document_text(kH100, read_config_file(kH100), "hardware", {}, placed);
  EXPECT_NO_THROW(parse_hardware(point));
  remove_unchecked_stated_figures(point);
  const std::string written = emit_document(point);
  EXPECT_EQ(written.find("stated_peak"), std::string::npos) << "every type's peak used cores.count";
  EXPECT_NE(written.find("stated_interface"), std::string::npos) << "the HBM is the file's";
  EXPECT_NE(written.find("stated_sets"), std::string::npos);
  EXPECT_NO_THROW(parse_hardware(load_document_text("point.yaml", written, "hardware", {})));

  // Only the type changed loses its peak.
  const ConfigNode fp32_only =
      load_document_text(kH100, read_config_file(kH100), "hardware", {}, {placed[1]});
  remove_unchecked_stated_figures(fp32_only);
  const YAML::Node peaks = fp32_only.yaml()["cores"]["compute"]["stated_peak"];
  EXPECT_FALSE(peaks["fp32"].IsDefined());
  EXPECT_TRUE(peaks["bf16"].IsDefined());
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
