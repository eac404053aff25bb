// A sweep's report, drawn from its results directory (so every number is the files'): one
// self-contained HTML page with the summary (points ok, failed, skipped; the best point per
// objective), a heat map over two axes, the Pareto front, time and FLOP/s against each swept
// axis, every point on one roofline coloured by an axis, and the failed and skipped points with
// their reasons. `ridgeline sweep-report DIR` and `ridgeline sweep --report` write it.
#pragma once

#include <string>
#include <vector>

#include "sim/charts/roofline_chart.hpp"
#include "sim/sweep/sweep_table.hpp"

namespace ridgeline {

struct SweepReportOptions {
  std::string html_path;      ///< empty: no page
  std::string roofline_path;  ///< empty: no separate roofline SVG
  std::string color_by;       ///< an axis; empty: the first axis
  std::string heatmap;        ///< "AXIS,AXIS"; empty: the first two axes with more than one value
  bool any() const { return !html_path.empty() || !roofline_path.empty(); }
};

/// The axes chosen by `options` among `table`'s, checked. Throws ConfigError (bad names, a
/// heat map of one axis twice or of other than two).
struct SweepReportAxes {
  std::size_t color_by = 0;
  bool heatmap = false;  ///< false: fewer than two axes with more than one value
  std::size_t heatmap_x = 0, heatmap_y = 0;
};
SweepReportAxes choose_report_axes(const SweepTable& table, const SweepReportOptions& options);

/// Checks the options' axis names against a sweep's swept keys before it runs (names without
/// "axis."). Throws ConfigError.
void check_report_axes(const SweepReportOptions& options, const std::vector<std::string>& axes);

/// Every ok point on one roofline, coloured by axis `color_by`; a roof per machine.
RooflineChart sweep_roofline(const SweepTable& table, std::size_t color_by);

std::string render_sweep_report(const SweepTable& table, const SweepReportAxes& axes);

/// Reads `directory` and writes what `options` asks for. Throws ConfigError.
void write_sweep_report(const std::string& directory, const SweepReportOptions& options);

}  // namespace ridgeline
