// A sweep's figure (time or FLOP/s) against one swept axis: every ok point as a dot at its value
// of the axis, and the best over the other axes at each value as a line. Categorical axes (file
// names, tiles written as maps) are ordered categories in the sweep's order; numeric ones a
// linear axis, or a log axis where the values spread geometrically (fits_log).
#pragma once

#include <cstddef>
#include <string>

#include "sim/sweep/sweep_table.hpp"

namespace ridgeline {

/// `figure` indexes SweepTable::figure (0 time, 1 FLOP/s).
std::string render_axis_chart(const SweepTable& table, std::size_t axis, std::size_t figure);

}  // namespace ridgeline
