// One run's configuration: a hardware file, a workload file and --set overrides, read, checked
// against each other (data type supported, one block fits a core) and analysed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/hardware.hpp"
#include "sim/config/power_limit.hpp"
#include "sim/util/config_error.hpp"
#include "workloads/analysis.hpp"
#include "workloads/violation.hpp"
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
  /// With hardware.power_limit: the clock solved for this workload (hardware.core_clock is set
  /// to it, and `analysis` is at it) and the figures at the nominal clock.
  std::optional<PowerLimitSolution> power_limit;
  /// What the reader found that loads but should be known (keys ignored where they are, a DRAM
  /// below its bandwidth): hardware's first, then the workload's, each once. The commands print
  /// them on stderr before they run; the JSON report records them (config.warnings).
  std::vector<ConfigWarning> warnings;
};

/// Reads both files, applies the overrides, checks every rule and collects the warnings. Throws
/// ConfigError.
RunConfig load_config(const std::string& hardware_path, const std::string& workload_path,
                      const std::vector<std::string>& overrides);

/// The machine's two roofline ceilings for `type`.
Roof roof_of(const HardwareParams& hardware, DataType type);

// The steps of load_config on typed values, for callers that set values without YAML (sweeps).
// Each rule returns what it finds broken; load_config reports it at the key's position.

/// The machine lists a throughput for the workload's data type (a workload replayed by trace
/// players has no FLOPs: it needs none).
std::optional<Violation> check_data_type(const HardwareParams& hardware,
                                         const WorkloadSpec& workload);
/// The analytical model of the workload on the machine (check_rules and check_data_type hold).
Analysis analyze_on(const HardwareParams& hardware, const WorkloadSpec& workload);
/// Threads per block, warps per block and registers per thread within the cores' limits (a
/// register spill is allowed where the GEMM says `spill: local`).
std::optional<Violation> check_threads(const HardwareParams& hardware, const WorkloadSpec& workload,
                                       const Footprint& footprint);
/// One block's SRAM buffers and registers fit a core.
std::optional<Violation> check_fits(const HardwareParams& hardware, const WorkloadSpec& workload,
                                    const Footprint& footprint);
/// Blocks per core and what limits them.
Occupancy occupancy_on(const HardwareParams& hardware, const Footprint& footprint);

}  // namespace ridgeline
