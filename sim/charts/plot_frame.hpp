// The parts of a 2-D scatter chart that the sweep's charts share: the frame (grid, ticks and
// their labels, rotated when they crowd, axis titles) and a set of dots that draws the points
// landing on the same pixel once, naming them all in its data and tooltip.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/charts/chart_scale.hpp"
#include "sim/charts/svg.hpp"

namespace ridgeline {

struct PlotFrame {
  Scale x, y;
  std::vector<Tick> x_ticks;  ///< for categories: value = index, label = the category
  std::vector<Tick> y_ticks;
  std::string x_title, y_title;
};

/// The plot's left edge that leaves room for the y tick labels and, left of them, the turned y
/// title: at least `minimum_px`.
double left_for_y_labels(const std::vector<Tick>& y_ticks, double minimum_px);

/// The plot's left edge at which the x tick labels, turned when they crowd, end inside the
/// chart: the frame's own x.from_px() when they already do.
double left_for_x_labels(const PlotFrame& frame);

/// Whether the x tick labels need turning to fit between their ticks.
bool x_labels_crowd(const PlotFrame& frame);
/// How far below the plot the x axis's title sits (more when the tick labels are turned);
/// a chart leaves a line more than this under y.from_px().
double x_title_depth(const PlotFrame& frame);

/// A chart's white ground and its bold title at the top left.
void draw_title(Svg& svg, const std::string& title);

/// The x tick labels at `y` (their baseline), turned when they crowd.
void draw_x_tick_labels(Svg& svg, const Scale& x, const std::vector<Tick>& ticks, bool turn,
                        double y);

/// Draws the frame into `svg` (whose height leaves room for the x labels below y.from_px()).
void draw_frame(Svg& svg, const PlotFrame& frame);

/// Points a marker lists in data-point; data-count says how many it stands for.
inline constexpr std::size_t kListedPoints = 32;

/// Dots of one kind (an svg class), at most one per half pixel: points that coincide on the
/// chart are one dot whose data-point lists them (the first kListedPoints, in the order added),
/// data-count counts them and whose tooltip names the first few. data-x / data-y hold the first
/// point's values. A chart's size thus depends on its pixels, not on the sweep's points.
class DotSet {
 public:
  DotSet(std::string css_class, std::string colour, double radius);
  /// `tooltip` is asked for only while the dot names fewer than a few points.
  void add(double px, double py, std::uint64_t point, double x_value, double y_value,
           const std::function<std::string()>& tooltip);
  void draw(Svg& svg) const;
  std::size_t size() const { return dots_.size(); }

 private:
  struct Dot {
    double px, py, x_value, y_value;
    std::vector<std::uint64_t> points;
    std::vector<std::string> tooltips;
  };
  std::string class_, colour_;
  double radius_;
  std::vector<Dot> dots_;
  std::map<std::pair<long, long>, std::size_t> at_;
};

/// "3 8 13": the first kListedPoints of `points`, for data-point.
std::string listed_points(const std::vector<std::uint64_t>& points);

/// A number as data attributes hold it: the shortest text that reads back to the same double.
std::string data_number(double value);

}  // namespace ridgeline
