// Paths and helpers shared by the tests.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/config/run_config.hpp"

namespace ridgeline::test {

inline std::string source_path(const std::string& relative) {
  return std::string(RIDGELINE_SOURCE_DIR) + "/" + relative;
}
inline std::string config_path(const std::string& relative) {
  return source_path("configs/" + relative);
}
inline RunConfig seed_config(const std::string& workload,
                             const std::vector<std::string>& overrides = {},
                             const std::string& hardware = "hardware/seed.yaml") {
  return load_config(config_path(hardware), config_path(workload), overrides);
}

/// Runs `ridgeline run` in a child process (a simulation of its own: SystemC elaborates once per
/// process) and returns its JSON report. For tests that compare several simulations.
inline nlohmann::json run_report(const std::string& hardware, const std::string& workload,
                                 const std::vector<std::string>& overrides = {}) {
  static int runs = 0;
  const std::string json_path = ::testing::TempDir() + "ridgeline_run_" +
                                std::to_string(::getpid()) + "_" + std::to_string(runs++) + ".json";
  std::string command = std::string(RIDGELINE_BINARY) + " run " + config_path(hardware) + " " +
                        config_path(workload) + " --quiet --json " + json_path;
  for (const auto& assignment : overrides) command += " --set '" + assignment + "'";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
  std::ifstream file(json_path);
  const nlohmann::json report = nlohmann::json::parse(file);
  std::remove(json_path.c_str());
  return report;
}

/// Files a test writes for itself, named after the test, removed when the test ends.
class ScratchFiles {
 public:
  ScratchFiles() = default;
  ScratchFiles(const ScratchFiles&) = delete;
  ScratchFiles& operator=(const ScratchFiles&) = delete;
  ~ScratchFiles() {
    for (const auto& path : paths_) std::remove(path.c_str());
  }

  /// Writes `text` to a new file "ridgeline_<prefix>_<n>_<test>.yaml" and returns its path.
  std::string write(const std::string& prefix, const std::string& text) {
    const std::string path =
        ::testing::TempDir() + "ridgeline_" + prefix + "_" + std::to_string(paths_.size()) + "_" +
        ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml";
    std::ofstream(path) << text;
    paths_.push_back(path);
    return path;
  }

 private:
  std::vector<std::string> paths_;
};

/// A folder a test works in, "ridgeline_<prefix>_<test>" in the scratch directory: emptied when
/// the test starts, removed when it ends.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& prefix)
      : dir_(::testing::TempDir() + "ridgeline_" + prefix + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;  // a destructor must not throw; a leftover folder is harmless
    std::filesystem::remove_all(dir_, ignored);
  }

  const std::string& dir() const { return dir_; }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

}  // namespace ridgeline::test
