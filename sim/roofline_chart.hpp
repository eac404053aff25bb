// The roofline as a picture: log-log axes (FLOP/byte, FLOP/s), the compute ceiling, one memory
// slope per level with its ridge point marked, and each kernel twice: where the analytical model
// puts it (hollow) and where the simulation measured it (filled).
#pragma once

#include <string>
#include <vector>

#include "sim/report.hpp"

namespace ridgeline {

struct RooflineChart {
  struct Level {
    std::string name;        ///< "HBM", "L2", "SRAM"
    double bytes_per_s = 0;  ///< the slope
  };
  struct Point {
    std::string series;  ///< legend entry: a workload, or a swept value
    double intensity_flop_per_byte = 0;
    double flop_per_s = 0;
    bool simulated = false;  ///< measured (filled) or analytical (hollow)
    std::string level;       ///< empty: I at HBM; else I at that level (hierarchical roofline)
  };
  std::string title;
  double peak_flop_per_s = 0;
  std::string peak_label;  ///< e.g. "P = 20 TFLOP/s (fp32)"
  std::vector<Level> levels;
  std::vector<Point> points;
};

/// One series per report (`run`/`analyze` JSON): the analytical point, and the simulated one
/// where the report has it, at I at HBM; with the report's memory levels, the same performance
/// again at I at each inner level (L2, SRAM), to read against that level's slope. Series are
/// named `series[i]`, else the workload's label. Ceilings come from the first report.
RooflineChart roofline_of(const std::vector<Json>& reports, const std::vector<std::string>& series);

std::string render_roofline_svg(const RooflineChart& chart);

/// 2e13 -> "20 T", 1.5e9 -> "1.5 G": SI prefixes for chart labels.
std::string si(double value, int significant = 3);

}  // namespace ridgeline
