// The hierarchical roofline: F, Q and I at each level of the memory hierarchy (HBM, the shared
// levels such as the L2, SRAM),
// each level's roof (its bandwidth x its I) and which level (or compute) binds, from the
// analytical model and from a simulation's counters.
#pragma once

#include <string>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/run/simulate.hpp"

namespace ridgeline {

struct LevelFigures {
  std::string name;                    ///< "hbm", a shared level's ("l2"), "sram"
  std::uint64_t bytes = 0;             ///< traffic across the level, Q_level
  double intensity_flop_per_byte = 0;  ///< F / Q_level
  double bandwidth_bytes_per_s = 0;    ///< what the level moves per second, all its ports together
  double roof_flop_per_s = 0;          ///< bandwidth x I_level: the fastest this level allows
  double time_s = 0;                   ///< Q_level / bandwidth
  double busy_fraction = -1;           ///< simulated: share of the run its busiest port moved data
};

struct Levels {
  /// From HBM inwards: HBM, the shared levels from the outermost, SRAM; levels moving no bytes
  /// left out.
  std::vector<LevelFigures> levels;
  double peak_flop_per_s = 0;         ///< P
  /// The useful FLOP/s compute allows: P, or P x F / F_issued where edge tiles issue more.
  double compute_roof_flop_per_s = 0;
  double compute_busy_fraction = -1;  ///< simulated: share of core-time the compute units worked
  /// "compute" or the level's name: the lowest roof, at the analytical Q or at the Q measured.
  std::string binding;
  double bound_s = 0;  ///< the binding resource's lower bound on the time: F_issued / P or Q / BW
};

struct RunFigures;

/// From the analytical model: HBM carries the note's Q (no reuse across output tiles), each
/// shared level what the cores request (the same Q), SRAM what the workload's formulas say.
Levels analytical_levels(const RunConfig& config);

/// From what the simulation counted, with the busy fractions `figures` derived from it. The
/// reports take them from run_figures(), which calls this once.
Levels simulated_levels(const RunConfig& config, const SimulationResult& result,
                        const RunFigures& figures);

}  // namespace ridgeline
