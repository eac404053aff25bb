// The Pareto front of a sweep's two chosen objectives (those summary.json names): every ok point
// with both values as a dot, the front (the points no other point beats on both, as the sweep's
// SweepSummary finds them) highlighted, joined in order along the first objective and labelled
// with their point numbers.
#pragma once

#include <string>

#include "sim/sweep/sweep_table.hpp"

namespace ridgeline {

/// Empty when the sweep has no Pareto pair.
std::string render_pareto_chart(const SweepTable& table);

}  // namespace ridgeline
