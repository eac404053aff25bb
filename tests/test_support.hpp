// Paths and helpers shared by the tests.
#pragma once

#include <string>

#include "sim/config.hpp"

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

}  // namespace ridgeline::test
