// CachedConfigLoader gives exactly what load_config gives (the same report, or the same error)
// for the bundled configurations with overrides its fast path takes and overrides it leaves to
// load_config, called again and again; and it reads a file again when the file changes.
#include "sim/sweep/cached_config_loader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/report/report.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;

// The report load() gives, or its error: what a caller of either loader sees.
std::string outcome(const std::function<RunConfig()>& load) {
  try {
    return report_json(load(), nullptr).dump();
  } catch (const ConfigError& error) {
    return std::string("error: ") + error.what();
  }
}

// Overrides of keys the fast path copies (sweep_fields), of keys it does not, values that break
// a key's own rule or a rule between values, keys set twice or inside one another.
const std::vector<std::vector<std::string>> kOverrideSets = {
    {},
    {"workload.stages=1"},
    {"workload.stages=3"},
    {"workload.tile.m=64", "workload.tile.n=64"},
    {"workload.tile={m: 64, n: 64, k: 32}"},
    {"workload.register_tile={m: 4, n: 4}"},
    {"hardware.hbm.bandwidth=2TB/s"},
    {"hardware.hbm.bandwidth=4.8TB/s"},  // past the detailed presets' DRAM: a warning of its own
    {"hardware.hbm.bandwidth=4.8TB/s", "hardware.hbm.latency=100ns"},  // with another: slow
    {"hardware.clock=1GHz", "workload.stages=1"},
    {"hardware.cores.count=4", "hardware.hbm.latency=100ns"},
    {"hardware.cores.sram.capacity=1KiB"},  // no block fits
    {"workload.tile.n=8192"},               // larger than the matrix
    {"workload.tile.m=48"},                 // does not divide, or breaks another rule
    {"workload.stages=0"},                  // the key's own rule
    {"hardware.hbm.bandwidth=fast"},        // not a quantity
    {"workload.dtype=bf16"},                // not a copied key: read whole
    {"hardware.l2=null"},                   // likewise, and removes a map
    {"workload.stages=1", "workload.stages=2"},
    {"workload.tile={m: 32, n: 32, k: 32}", "workload.tile.m=64"},
    {"workload.length=1000003"},  // vector_add's, not gemm's
    {"stages=1"},                 // no root
    {"workload.stages"},          // no value
};

TEST(CachedConfigLoader, GivesLoadConfigsReportOrError) {
  const std::vector<std::string> hardware = {"hardware/seed.yaml", "hardware/h100-sxm5-80gb.yaml",
                                             "hardware/a100-sxm4-40gb.yaml",
                                             "hardware/hbm3-stack.yaml"};
  const std::vector<std::string> workloads = {
      "workloads/seed/gemm-4096-t128-double.yaml",
      "questions/q2-tile-under-limits/workloads/128x128x32-2stages.yaml",
      "workloads/vector-add.yaml", "workloads/tensor-core/gemm-4096-bf16-hopper.yaml",
      "workloads/memory/sequential-loads.yaml"};
  CachedConfigLoader loader;
  for (int pass = 0; pass < 2; ++pass) {  // the second from what the first left cached
    for (const std::string& h : hardware) {
      for (const std::string& w : workloads) {
        for (const auto& overrides : kOverrideSets) {
          const ConfigInput hardware_input{config_path(h), std::nullopt};
          const ConfigInput workload_input{config_path(w), std::nullopt};
          EXPECT_EQ(outcome([&] { return loader.load(hardware_input, workload_input, overrides); }),
                    outcome([&] { return load_config(config_path(h), config_path(w), overrides); }))
              << h << " " << w << " with " << ::testing::PrintToString(overrides);
        }
      }
    }
  }
}

TEST(CachedConfigLoader, CopiesTheFieldsOfListedKeys) {
  // A loop over tiles, buffering and bandwidths reads each value once and no document whole.
  CachedConfigLoader loader;
  const ConfigInput hardware{config_path("hardware/h100-sxm5-80gb.yaml"), std::nullopt};
  const ConfigInput workload{
      config_path("questions/q2-tile-under-limits/workloads/128x128x32-2stages.yaml"),
      std::nullopt};
  for (int pass = 0; pass < 2; ++pass) {
    for (const char* tile : {"{m: 64, n: 64, k: 32}", "{m: 128, n: 128, k: 32}"}) {
      for (const char* stages : {"1", "2"}) {
        // 4.8TB/s is past what the preset's HBM3 timings carry: a warning of that value's own.
        for (const char* bandwidth : {"2TB/s", "3.35TB/s", "4.8TB/s"}) {
          const std::vector<std::string> overrides = {
              std::string("workload.tile=") + tile, std::string("workload.stages=") + stages,
              std::string("hardware.hbm.bandwidth=") + bandwidth};
          EXPECT_EQ(report_json(loader.load(hardware, workload, overrides), nullptr),
                    report_json(load_config(hardware, workload, overrides), nullptr));
        }
      }
    }
  }
  EXPECT_EQ(loader.slow_loads(), 0u);
}

TEST(CachedConfigLoader, TextGivenForAFileWarningsIncluded) {
  // The HBM3 stack in simple mode: its DRAM timings are ignored, with a warning on each load,
  // which the fast path must carry as load_config does.
  std::string text = read_config_file(config_path("hardware/hbm3-stack.yaml"));
  const std::string detailed = "mode: detailed";
  ASSERT_NE(text.find(detailed), std::string::npos);
  text.replace(text.find(detailed), detailed.size(), "mode: simple");
  const ConfigInput hardware{"<hardware>", text};
  const ConfigInput workload{config_path("workloads/memory/sequential-loads.yaml"), std::nullopt};
  CachedConfigLoader loader;
  for (const std::vector<std::string>& overrides : {std::vector<std::string>{},
                                                    {"hardware.hbm.bandwidth=1TB/s"},
                                                    {"hardware.hbm.mode=detailed"},
                                                    {"hardware.hbm.latency=1us"}}) {
    const RunConfig expected = load_config(hardware, workload, overrides);
    const RunConfig got = loader.load(hardware, workload, overrides);
    EXPECT_EQ(report_json(got, nullptr), report_json(expected, nullptr));
    if (overrides.empty()) {
      EXPECT_FALSE(got.warnings.empty());
    }
  }
  EXPECT_EQ(loader.slow_loads(), 1u);  // hbm.mode is not a copied key
}

TEST(CachedConfigLoader, ReadsAFileAgainWhenItChanges) {
  test::ScratchFiles scratch;
  const std::string seed = read_config_file(config_path("hardware/seed.yaml"));
  const std::string path = scratch.write("hardware", seed);
  const ConfigInput hardware{path, std::nullopt};
  const ConfigInput workload{config_path("workloads/seed/gemm-4096-t64-double.yaml"), std::nullopt};
  CachedConfigLoader loader;
  const double before = loader.load(hardware, workload, {}).analysis.roof.hbm_bytes_per_s;
  const std::string from = "bandwidth: 1TB/s";
  ASSERT_NE(seed.find(from), std::string::npos);
  std::string faster = seed;
  faster.replace(faster.find(from), from.size(), "bandwidth: 2TB/s");
  std::ofstream(path) << faster;
  // A rewrite within the file system's time resolution must be seen too: the size differs here,
  // and the time is moved on besides.
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(1));
  EXPECT_EQ(loader.load(hardware, workload, {}).analysis.roof.hbm_bytes_per_s, 2 * before);
  std::filesystem::remove(path);
  EXPECT_THROW(loader.load(hardware, workload, {}), ConfigError);  // as load_config: no file
}

}  // namespace
}  // namespace ridgeline
