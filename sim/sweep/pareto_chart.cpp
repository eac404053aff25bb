#include "sim/sweep/pareto_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "sim/charts/plot_frame.hpp"

namespace ridgeline {

namespace {

constexpr double kWidth = 780;
constexpr double kMinLeft = 84, kRight = 30, kTop = 56, kPlotHeight = 340;
constexpr std::size_t kLabels = 30;  // front points labelled on the chart (the table has all)
constexpr const char* kDotColour = "#7f9fbf";
constexpr const char* kFrontColour = "#d62728";

Scale objective_scale(double low, double high, double from_px, double to_px) {
  if (low > 0 && high / low >= 10) return Scale::log(low, high, from_px, to_px);
  return Scale::linear(std::min(low, 0.0), high, from_px, to_px);
}

std::string goal(const Objective& o) { return o.maximize ? "higher" : "lower"; }

}  // namespace

std::string render_pareto_chart(const SweepTable& table) {
  const auto& objectives = table.pareto_objectives();
  if (objectives.size() != 2 || !table.summary().contains("pareto")) return "";
  const Objective& a = objectives[0];
  const Objective& b = objectives[1];
  std::set<std::uint64_t> front;
  for (const auto& p : table.summary()["pareto"]["points"])
    front.insert(p["point"].get<std::uint64_t>());

  const auto& points = table.points();
  double ax_low = std::numeric_limits<double>::max(),
         ax_high = std::numeric_limits<double>::lowest();
  double by_low = ax_low, by_high = ax_high;
  std::vector<std::size_t> drawn, front_points;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    if (p.status != SweepPointStatus::ok || !std::isfinite(p.pareto[0]) ||
        !std::isfinite(p.pareto[1]))
      continue;
    drawn.push_back(i);
    if (front.count(p.point)) front_points.push_back(i);
    ax_low = std::min(ax_low, p.pareto[0]);
    ax_high = std::max(ax_high, p.pareto[0]);
    by_low = std::min(by_low, p.pareto[1]);
    by_high = std::max(by_high, p.pareto[1]);
  }
  if (drawn.empty()) ax_low = ax_high = by_low = by_high = 1;

  PlotFrame frame;
  frame.y = objective_scale(by_low, by_high, kTop + kPlotHeight, kTop);
  frame.y_ticks = frame.y.ticks();
  frame.x =
      objective_scale(ax_low, ax_high, left_for_y_labels(frame.y_ticks, kMinLeft), kWidth - kRight);
  frame.x_ticks = frame.x.ticks();
  frame.x_title = fmt::format("{} = {} ({} is better)", a.name, a.expression, goal(a));
  frame.y_title = fmt::format("{} ({} is better)", b.name, goal(b));
  Svg svg(kWidth, kTop + kPlotHeight + x_title_depth(frame) + 12);
  draw_title(svg, fmt::format("Pareto front of {} and {}: {} of {} points", a.name, b.name,
                              front_points.size(), drawn.size()));
  svg.element("text", {{"x", "8"}, {"y", "36"}, {"fill", "#555"}},
              fmt::format("y: {} = {}", b.name, b.expression));
  draw_frame(svg, frame);

  DotSet dots("dot", kDotColour, 3.5);
  for (std::size_t i : drawn) {
    const SweepPoint& p = points[i];
    if (front.count(p.point)) continue;
    dots.add(frame.x.at(p.pareto[0]), frame.y.at(p.pareto[1]), p.point, p.pareto[0], p.pareto[1],
             [&] {
               return fmt::format("point {}: {}\n{} = {:.6g}, {} = {:.6g}", p.point,
                                  table.inputs(i), a.name, p.pareto[0], b.name, p.pareto[1]);
             });
  }
  svg.open("g", {{"class", "dots"}});
  dots.draw(svg);
  svg.close("g");

  // The front, along the first objective from its best end (ties: by point).
  std::sort(front_points.begin(), front_points.end(), [&](std::size_t x, std::size_t y) {
    const double ka = a.maximize ? -points[x].pareto[0] : points[x].pareto[0];
    const double kb = a.maximize ? -points[y].pareto[0] : points[y].pareto[0];
    return ka != kb ? ka < kb : points[x].point < points[y].point;
  });
  std::string line;
  for (std::size_t i : front_points) {
    line +=
        fmt::format("{}{},{}", line.empty() ? "" : " ", svg_number(frame.x.at(points[i].pareto[0])),
                    svg_number(frame.y.at(points[i].pareto[1])));
  }
  svg.open("g", {{"class", "front"}});
  svg.element("polyline", {{"class", "front-line"},
                           {"points", line},
                           {"fill", "none"},
                           {"stroke", kFrontColour},
                           {"stroke-width", "2"}});
  // Labels: one per place, naming every front point there.
  std::map<std::pair<long, long>, std::vector<std::uint64_t>> labels;
  std::vector<std::pair<long, long>> label_order;
  for (std::size_t i : front_points) {
    const SweepPoint& p = points[i];
    const double px = frame.x.at(p.pareto[0]), py = frame.y.at(p.pareto[1]);
    svg.open("circle", {{"class", "front"},
                        {"data-point", std::to_string(p.point)},
                        {"data-x", data_number(p.pareto[0])},
                        {"data-y", data_number(p.pareto[1])},
                        {"cx", svg_number(px)},
                        {"cy", svg_number(py)},
                        {"r", "5.5"},
                        {"fill", kFrontColour},
                        {"stroke", "white"}});
    svg.element("title", {},
                fmt::format("point {} (on the front): {}\n{} = {:.6g}, {} = {:.6g}", p.point,
                            table.inputs(i), a.name, p.pareto[0], b.name, p.pareto[1]));
    svg.close("circle");
    const auto key = std::make_pair(std::lround(px), std::lround(py));
    auto& named = labels[key];
    if (named.empty()) label_order.push_back(key);
    named.push_back(p.point);
  }
  for (std::size_t l = 0; l < label_order.size() && l < kLabels; ++l) {
    const auto& key = label_order[l];
    std::string text;
    for (std::uint64_t p : labels[key]) text += (text.empty() ? "#" : ", #") + std::to_string(p);
    svg.element("text",
                {{"class", "front-label"},
                 {"x", svg_number(static_cast<double>(key.first) + 8)},
                 {"y", svg_number(static_cast<double>(key.second) - 8)},
                 {"fill", kFrontColour},
                 {"font-weight", "bold"}},
                text);
  }
  svg.close("g");
  return svg.str();
}

}  // namespace ridgeline
