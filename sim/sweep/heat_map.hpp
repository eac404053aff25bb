// A heat map of a sweep over two of its axes: a cell per pair of their values holding the best of
// a figure (time or FLOP/s) over the remaining axes, its value written in it and its colour on a
// scale with a legend (brighter is better). A cell without an ok point is hatched grey, saying
// whether its points failed or were skipped, with their reasons in its tooltip.
#pragma once

#include <cstddef>
#include <string>

#include "sim/sweep/sweep_table.hpp"

namespace ridgeline {

/// Cells a heat map may have; more gives no map (its numbers could not be read).
inline constexpr std::size_t kHeatMapMaxCells = 10000;

/// Columns are `x_axis`'s values, rows `y_axis`'s. Empty when there would be more than
/// kHeatMapMaxCells cells.
std::string render_heat_map(const SweepTable& table, std::size_t x_axis, std::size_t y_axis,
                            std::size_t figure);

}  // namespace ridgeline
