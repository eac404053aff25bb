// One run's configuration: a hardware file, a workload file and --set overrides, read, checked
// against each other (data type supported, one block fits a core) and analysed.
#pragma once

#include <string>
#include <vector>

#include "models/hardware.hpp"
#include "sim/config_error.hpp"
#include "workloads/analysis.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

struct RunConfig {
  std::string hardware_path;
  std::string workload_path;
  std::vector<std::string> overrides;  ///< "key.path=value", in command-line order
  SourceLocation workload_location;    ///< the workload's position, for rules on the whole run
  HardwareParams hardware;
  WorkloadSpec workload;
  Analysis analysis;    ///< the seed note's model for this workload on this hardware
  Occupancy occupancy;  ///< blocks per core and what limits it
};

/// Reads both files, applies the overrides, checks every rule. Throws ConfigError.
RunConfig load_config(const std::string& hardware_path, const std::string& workload_path,
                      const std::vector<std::string>& overrides);

/// The machine's two roofline ceilings for `type`.
Roof roof_of(const HardwareParams& hardware, DataType type);

}  // namespace ridgeline
