// The cores' side of a report: threads and registers, occupancy (analytical and simulated),
// barriers, register spills, the SRAM level's traffic and intensity, and the limiter: when a
// run falls short of its roof, which cause cost the most core time, with the counters that show
// it. Every figure is derived from the analytical model or the simulation's counters; nothing is
// set per configuration.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/run/simulate.hpp"

namespace ridgeline {

/// A run at or above this share of its roof is limited by the roof itself.
inline constexpr double kAtRoofFraction = 0.9;

/// Where the compute units' time went beyond the FLOPs themselves, by cause, in core-seconds
/// (summed over cores), and the cause that cost the most.
struct Limiter {
  /// At the roof (the run's verdict, RunFigures::verdict, at kAtRoofFraction or more): "compute",
  /// or "<level>_bandwidth" ("hbm_bandwidth", "l2_bandwidth", "sram_bandwidth"); else the largest
  /// of: "synchronisation", "block_launch", "register_spill", "waiting_blocks", "low_occupancy",
  /// "input_supply", "tail".
  std::string cause;
  /// input_supply: the largest of its parts, "in_flight_limit", "<level>_queueing" (the L2's port,
  /// "hbm_queueing") or "sram_bandwidth"
  std::string detail;
  std::string summary;  ///< one sentence with the evidence

  double percent_of_roof = 0;  ///< the verdict's
  double lost_s = 0;           ///< core time not spent on FLOPs at the compute unit's rate

  double synchronisation_s = 0;  ///< compute idle while a barrier was in progress
  double block_launch_s = 0;     ///< compute idle while blocks were launched, no load outstanding
  double register_spill_s = 0;   ///< compute idle while spilled registers were reloaded
  double waiting_blocks_s = 0;   ///< compute idle while blocks waited for others' partial sums
  double low_occupancy_s = 0;    ///< compute idle on loads in flight, their latency exposed
  double input_supply_s = 0;     ///< the parts below together
  double in_flight_limit_s = 0;  ///< compute idle, loads held back by the in-flight limit
  /// Compute idle on loads queued behind others, by the queue they waited in: each shared level's
  /// port, from the cores outwards, then "hbm".
  std::vector<std::pair<std::string, double>> queueing_s;
  double sram_bandwidth_s = 0;  ///< compute stretched by SRAM operand bandwidth
  double tail_s = 0;            ///< compute idle with no load to wait for: draining, no work
};

/// From the run's counters and the figures derived from them once (run_figures()).
Limiter find_limiter(const RunConfig& config, const SimulationResult& result,
                     const RunFigures& figures);

/// Adds the cores' thread, warp and register limits and barrier cost to the `hardware` object.
void add_hardware_compute(nlohmann::ordered_json& hardware, const RunConfig& config);
/// Adds the analytical figures (threads, registers, occupancy fraction, SRAM level, spills) to
/// the `analytical` object of the JSON report.
void add_analytical_compute(nlohmann::ordered_json& analytical, const RunConfig& config);
/// Adds the simulated ones, and the limiter, to the `simulated` object.
void add_simulated_compute(nlohmann::ordered_json& simulated, const RunConfig& config,
                           const SimulationResult& result, const RunFigures& figures);

/// What the run's compute roof is: "P", or P as the issue of the run's warp instructions allows
/// it, where that is the longer (verdicts and the limiter name it).
std::string compute_roof_text(const RunConfig& config, const RunFigures& figures);
/// Text lines for the report: the analytical block (threads, registers, SRAM level, spills)...
std::string analytical_compute_text(const RunConfig& config);
/// ...and the simulated one (occupancy, barriers, spills, SRAM level, limiter).
std::string simulated_compute_text(const RunConfig& config, const SimulationResult& result,
                                   const RunFigures& figures);

}  // namespace ridgeline
