// Turns a run's analytical model and simulated counters into what users read: text on stdout,
// JSON and CSV files. Every figure is derived here, once, from the counters.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "sim/config/run_config.hpp"
#include "sim/run/simulate.hpp"
#include "sim/util/json.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

/// The full report; `simulated` is null for `ridgeline analyze`.
Json report_json(const RunConfig& config, const SimulationResult* simulated);

/// The human-readable report of the same figures.
/// The report's `config` section: the version, the files, the overrides and the warnings.
Json report_config_json(const std::string& hardware_path, const std::string& workload_path,
                        const std::vector<std::string>& overrides,
                        const std::vector<ConfigWarning>& warnings);
/// The report's `hardware` section: the machine as `config` runs it.
Json report_hardware_json(const RunConfig& config);
std::string report_text(const RunConfig& config, const SimulationResult* simulated);

/// A bound as the text reports and the study name it: "compute", or "memory (l2)" with the
/// memory level that binds.
std::string bound_text(std::string_view bound, std::string_view limit);

/// One header line and one row: the JSON's leaves, named by their dotted paths (units included
/// in the names, e.g. simulated.time_s).
std::string report_csv(const Json& report);

}  // namespace ridgeline
