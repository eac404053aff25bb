// The roofline as a picture: log-log axes (FLOP/byte, FLOP/s), the compute ceiling, one memory
// slope per level with its ridge point marked, and each kernel twice: where the analytical model
// puts it (hollow) and where the simulation measured it (filled). A sweep over hardware draws
// each machine's roof on the one chart.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/charts/chart_scale.hpp"
#include "sim/util/json.hpp"

namespace ridgeline {

struct RooflineChart {
  struct Level {
    std::string name;        ///< "HBM", "L2", "SRAM"
    double bytes_per_s = 0;  ///< the slope
  };
  /// One machine's ceilings for the data type: the compute roof and a slope per memory level.
  struct Roof {
    std::string name;  ///< the machine, in tooltips (and the legend when there are several)
    double peak_flop_per_s = 0;
    std::string peak_label;  ///< e.g. "P = 20 TFLOP/s (fp32)"
    std::vector<Level> levels;
    std::string colour;  ///< empty: black (a second roof's are grey)
  };
  struct Point {
    std::string series;  ///< legend entry: a workload, or a swept value
    double intensity_flop_per_byte = 0;
    double flop_per_s = 0;
    bool simulated = false;  ///< measured (filled) or analytical (hollow)
    std::string level;       ///< empty: I at HBM; else I at that level (hierarchical roofline)
    std::string point;       ///< a sweep's point number (data-point), empty for none
    std::string note;        ///< more for its tooltip (a sweep point's inputs)
    /// A kernel of a graph: its share of the graph's time, which sizes its circle (area in
    /// proportion); 0 for the standard size.
    double time_share = 0;
  };
  /// What the axes and labels measure. The energy roofline (energy_roofline_of) draws the same
  /// geometry in FLOP/J with slopes in B/J; its markers' data-flop-per-s and slopes'
  /// data-bytes-per-s attributes then hold FLOP/J and B/J.
  struct Units {
    const char* y_title = "performance (FLOP/s)";
    const char* y = "FLOP/s";   ///< after an SI prefix, in tooltips
    const char* slope = "B/s";  ///< a slope's label, after an SI prefix
  };
  std::string title;
  Units units;
  std::vector<Roof> roofs;  ///< one for a run or study; one per machine for a sweep
  std::vector<Point> points;
  std::string legend_title;  ///< above the series in the legend (the axis they are coloured by)
  /// Colours of series; a series not here takes the palette's next colour.
  std::map<std::string, std::string> series_colours;
};

/// One series per report (`run`/`analyze` JSON): the analytical point, and the simulated one
/// where the report has it, at I at HBM; with the report's memory levels, the same performance
/// again at I at each inner level (L2, SRAM), to read against that level's slope. Series are
/// named `series[i]`, else the workload's label. Ceilings come from the first report.
RooflineChart roofline_of(const std::vector<Json>& reports, const std::vector<std::string>& series);

/// The energy roofline of each report that has `analytical.energy`: FLOP per joule against I,
/// the roof min(peak FLOP/J, I x the level's bytes per joule) from `analytical.energy.roofline`
/// (the FLOPs alone, a byte read at that level alone), and the kernel's FLOP per joule (every
/// component, static power too, so below every roof) at I at HBM (circles) and at each inner
/// level (squares), analytical hollow and simulated filled. No roofs without energy figures.
RooflineChart energy_roofline_of(const std::vector<Json>& reports,
                                 const std::vector<std::string>& series);

/// Markers of one series and kind that would land on the same pixel are drawn once, their
/// tooltips joined: a sweep of a million points draws what can be seen.
std::string render_roofline_svg(const RooflineChart& chart);

}  // namespace ridgeline
