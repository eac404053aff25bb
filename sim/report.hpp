// Turns a run's analytical model and simulated counters into what users read: text on stdout,
// JSON and CSV files. Every figure is derived here, once, from the counters.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/config.hpp"
#include "sim/simulate.hpp"

namespace ridgeline {

using Json = nlohmann::ordered_json;

/// The full report; `simulated` is null for `ridgeline analyze`.
Json report_json(const RunConfig& config, const SimulationResult* simulated);

/// The human-readable report of the same figures.
std::string report_text(const RunConfig& config, const SimulationResult* simulated);

/// One header line and one row: the JSON's leaves, named by their dotted paths (units included
/// in the names, e.g. simulated.time_s).
std::string report_csv(const Json& report);

/// Leaves of `json` as (dotted path, value) in document order; lists are joined with ';'.
std::vector<std::pair<std::string, std::string>> flatten(const Json& json);

/// Calls `visit` with each leaf of `json` and its dotted path, in document order, as flatten
/// names them: a list of named entries (memory levels) gives path.<name>.<key> leaves; any other
/// list is one leaf.
void for_each_leaf(const Json& json,
                   const std::function<void(const std::string& path, const Json& leaf)>& visit);
/// A leaf as flatten writes it: strings bare, numbers as JSON, lists joined with ';'.
std::string leaf_text(const Json& leaf);

/// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t value);

/// 1.5e12, "FLOP/s" -> "1.500000 TFLOP/s".
std::string engineering(double value, std::string_view unit);
/// 0.25 -> "0.250000 ms" for 0.25e-3 s.
std::string milliseconds(double seconds);
/// 0.123 -> "12.3 %".
std::string percent(double fraction);

}  // namespace ridgeline
