// What every run must satisfy, checked over its counters when it ends: no level moves bytes
// faster than its peak, no unit computes faster than its own, bytes are conserved from level to
// level, the counted FLOPs and bytes are the analytical ones, the time is no shorter than any
// resource's lower bound, and the shares of the cores' time add up to it. A violation is a defect
// of the simulator: the run stops with an internal error instead of printing the figure.
// docs/RELIABILITY.md lists them with their tolerance.
#pragma once

#include <string>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/run/simulate.hpp"

namespace ridgeline {

/// Relative slack for comparisons of rates and times computed in floating point; counts and
/// picoseconds are compared exactly.
inline constexpr double kInvariantTolerance = 1e-9;

/// Each broken invariant of `result`, a sentence with its figures; empty when all hold.
std::vector<std::string> invariant_violations(const RunConfig& config,
                                              const SimulationResult& result);

/// Throws InternalError (sim/util/internal_error.hpp) listing the violations, if any.
void check_invariants(const RunConfig& config, const SimulationResult& result);

}  // namespace ridgeline
