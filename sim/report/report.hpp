// Turns a run's analytical model and simulated counters into what users read: text on stdout,
// JSON and CSV files. Every figure is derived here, once, from the counters.
#pragma once

#include <functional>
#include <string>

#include "sim/config/run_config.hpp"
#include "sim/run/simulate.hpp"
#include "sim/util/json.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

/// The full report; `simulated` is null for `ridgeline analyze`.
Json report_json(const RunConfig& config, const SimulationResult* simulated);

/// The human-readable report of the same figures.
std::string report_text(const RunConfig& config, const SimulationResult* simulated);

/// One header line and one row: the JSON's leaves, named by their dotted paths (units included
/// in the names, e.g. simulated.time_s).
std::string report_csv(const Json& report);

}  // namespace ridgeline
