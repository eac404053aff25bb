#include "sim/charts/correlation_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "sim/charts/plot_frame.hpp"

namespace ridgeline {

namespace {

constexpr double kPanelWidth = 460, kPanelHeight = 300;  // the plot of one panel, pixels
constexpr double kMinLeft = 80, kRight = 24, kTop = 60, kGap = 70;
constexpr double kBand = 0.10;  // the band around y = x: +-10 %

std::vector<std::string> in_first_seen_order(const std::vector<CorrelationPoint>& points,
                                             std::string CorrelationPoint::*field) {
  std::vector<std::string> seen;
  for (const CorrelationPoint& p : points) {
    if (std::find(seen.begin(), seen.end(), p.*field) == seen.end()) seen.push_back(p.*field);
  }
  return seen;
}

// A log scale's ticks; within less than a decade, where it would have one or none, the round
// values a linear scale over the same span would label.
std::vector<Tick> ticks_of(const Scale& scale, const std::string& unit) {
  std::vector<Tick> ticks = scale.ticks(unit);
  if (ticks.size() >= 2) return ticks;
  ticks.clear();
  for (const Tick& t : Scale::linear(scale.low(), scale.high(), 0, 1).ticks(unit)) {
    if (t.value >= scale.low() && t.value <= scale.high() && t.value > 0) ticks.push_back(t);
  }
  return ticks;
}

bool drawable(const CorrelationPoint& p) {
  return p.measured > 0 && p.simulated > 0 && std::isfinite(p.measured) &&
         std::isfinite(p.simulated);
}

}  // namespace

std::string render_correlation_chart(const std::vector<CorrelationPoint>& all) {
  std::vector<CorrelationPoint> points;
  std::copy_if(all.begin(), all.end(), std::back_inserter(points), drawable);
  if (points.empty()) return "";
  const std::vector<std::string> groups = in_first_seen_order(points, &CorrelationPoint::group);
  const std::vector<std::string> figures = in_first_seen_order(points, &CorrelationPoint::figure);
  const double panel_total = kTop + kPanelHeight + kGap;
  const double legend_height = 22.0 * static_cast<double>(groups.size()) + 16;
  Svg svg(kMinLeft + kPanelWidth + kRight + 40,
          panel_total * static_cast<double>(figures.size()) + legend_height);
  draw_title(svg, fmt::format("Simulated against measured: {} cases", points.size()));
  svg.element("text", {{"x", "8"}, {"y", "38"}, {"fill", "#555"}},
              fmt::format("log-log; the line is simulated = measured, the band +-{:.0f} %",
                          kBand * 100));
  for (std::size_t f = 0; f < figures.size(); ++f) {
    const double top = kTop + panel_total * static_cast<double>(f);
    double low = std::numeric_limits<double>::max(), high = 0;
    std::string unit;
    for (const CorrelationPoint& p : points) {
      if (p.figure != figures[f]) continue;
      low = std::min({low, p.measured, p.simulated});
      high = std::max({high, p.measured, p.simulated});
      unit = p.unit;
    }
    // Both axes on one scale, so that y = x is the diagonal.
    PlotFrame frame;
    const double from = low / (1 + kBand), to = high * (1 + kBand);
    frame.y = Scale::padded(from, to, true, top + kPanelHeight, top);
    frame.y_ticks = ticks_of(frame.y, unit);
    const double left = left_for_y_labels(frame.y_ticks, kMinLeft);
    frame.x = Scale::padded(from, to, true, left, left + kPanelWidth);
    frame.x_ticks = ticks_of(frame.x, unit);
    frame.x_title = fmt::format("measured {} ({})", figures[f], unit);
    frame.y_title = fmt::format("simulated ({})", unit);
    svg.open("g", {{"class", "panel"}, {"data-figure", figures[f]}});
    draw_frame(svg, frame);
    svg.element("text", {{"class", "panel-title"}, {"x", svg_number(left)}, {"y", svg_number(top - 8)},
                         {"font-weight", "bold"}},
                figures[f]);
    const double a = frame.x.low(), b = frame.x.high();
    const auto at = [&](double x, double y) {
      return svg_number(frame.x.at(x)) + "," + svg_number(frame.y.at(y));
    };
    // The band between y = x (1 - band) and y = x (1 + band), clipped to the plot.
    const double upper_leaves = b / (1 + kBand), lower_enters = a / (1 - kBand);
    svg.element("polygon", {{"class", "band"},
                            {"points", at(a, a * (1 + kBand)) + " " + at(upper_leaves, b) + " " +
                                           at(b, b) + " " + at(b, b * (1 - kBand)) + " " +
                                           at(lower_enters, a) + " " + at(a, a)},
                            {"fill", "#d8e6f3"},
                            {"fill-opacity", "0.6"}});
    svg.element("line", {{"class", "identity"},
                         {"x1", svg_number(frame.x.at(a))},
                         {"y1", svg_number(frame.y.at(a))},
                         {"x2", svg_number(frame.x.at(b))},
                         {"y2", svg_number(frame.y.at(b))},
                         {"stroke", "#333"},
                         {"stroke-dasharray", "4 3"}});
    for (const CorrelationPoint& p : points) {
      if (p.figure != figures[f]) continue;
      const auto colour = static_cast<std::size_t>(
          std::find(groups.begin(), groups.end(), p.group) - groups.begin());
      svg.open("circle", {{"class", "case"},
                          {"data-case", p.name},
                          {"data-measured", data_number(p.measured)},
                          {"data-simulated", data_number(p.simulated)},
                          {"cx", svg_number(frame.x.at(p.measured))},
                          {"cy", svg_number(frame.y.at(p.simulated))},
                          {"r", "5"},
                          {"fill", series_colour(colour)},
                          {"stroke", "white"}});
      svg.element("title", {},
                  fmt::format("{} ({}): measured {}, simulated {} ({:+.1f} %)", p.name, p.group,
                              si_unit(p.measured, p.unit), si_unit(p.simulated, p.unit),
                              100 * (p.simulated / p.measured - 1)));
      svg.close("circle");
    }
    svg.close("g");
  }
  const double legend_top = kTop + panel_total * static_cast<double>(figures.size()) - kGap + 40;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const double y = legend_top + 22.0 * static_cast<double>(g);
    svg.element("circle", {{"cx", svg_number(kMinLeft)},
                           {"cy", svg_number(y - 4)},
                           {"r", "5"},
                           {"fill", series_colour(g)}});
    svg.element("text", {{"class", "legend"}, {"x", svg_number(kMinLeft + 12)}, {"y", svg_number(y)}},
                groups[g]);
  }
  return svg.str();
}

}  // namespace ridgeline
