#include "sim/charts/plot_frame.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

constexpr double kCharPx = 6.6;            // a 12 px label character, on average
constexpr double kYTitleX = 14;            // the turned y title's baseline...
constexpr double kYTitleRight = 18;        // ...and the right of its letters
constexpr double kTickGap = 6;             // between a y tick label and the plot
constexpr std::size_t kTooltipPoints = 3;  // coinciding points named in a dot's tooltip

}  // namespace

std::string data_number(double value) { return fmt::format("{}", value); }

std::string listed_points(const std::vector<std::uint64_t>& points) {
  std::string text;
  for (std::size_t i = 0; i < points.size() && i < kListedPoints; ++i) {
    text += (text.empty() ? "" : " ") + std::to_string(points[i]);
  }
  return text;
}

double left_for_y_labels(const std::vector<Tick>& y_ticks, double minimum_px) {
  std::size_t longest = 0;
  for (const Tick& t : y_ticks) longest = std::max(longest, t.label.size());
  return std::max(minimum_px,
                  kYTitleRight + kTickGap + static_cast<double>(longest) * kCharPx + kTickGap);
}

double left_for_x_labels(const PlotFrame& frame) {
  if (!x_labels_crowd(frame)) return frame.x.from_px();
  // A turned label ends at its tick and reaches left by its length times cos 35 degrees.
  double short_by = 0;
  for (const Tick& t : frame.x_ticks) {
    const double reach = static_cast<double>(t.label.size()) * kCharPx * 0.82;
    short_by = std::max(short_by, reach + kTickGap - frame.x.at(t.value));
  }
  return frame.x.from_px() + short_by;
}

bool x_labels_crowd(const PlotFrame& frame) {
  if (frame.x_ticks.size() < 2) return false;
  std::size_t longest = 0;
  for (const Tick& t : frame.x_ticks) longest = std::max(longest, t.label.size());
  double gap = std::fabs(frame.x.to_px() - frame.x.from_px());
  for (std::size_t i = 1; i < frame.x_ticks.size(); ++i) {
    gap = std::min(gap, std::fabs(frame.x.at(frame.x_ticks[i].value) -
                                  frame.x.at(frame.x_ticks[i - 1].value)));
  }
  return static_cast<double>(longest) * kCharPx > gap - 6;
}

double x_title_depth(const PlotFrame& frame) {
  if (!x_labels_crowd(frame)) return 40;
  std::size_t longest = 0;
  for (const Tick& t : frame.x_ticks) longest = std::max(longest, t.label.size());
  return 32 + static_cast<double>(longest) * kCharPx * 0.58;  // sin 35 degrees
}

void draw_title(Svg& svg, const std::string& title) {
  svg.element("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  svg.element("text",
              {{"class", "chart-title"},
               {"x", "8"},
               {"y", "18"},
               {"font-size", "14"},
               {"font-weight", "bold"}},
              title);
}

void draw_x_tick_labels(Svg& svg, const Scale& x, const std::vector<Tick>& ticks, bool turn,
                        double y) {
  for (const Tick& t : ticks) {
    const double tx = x.at(t.value);
    Svg::Attributes a{{"class", "x-tick"}, {"x", svg_number(tx)}, {"y", svg_number(y)}};
    if (turn) {
      a.push_back({"text-anchor", "end"});
      a.push_back(
          {"transform", fmt::format("rotate(-35 {} {})", svg_number(tx), svg_number(y - 4))});
    } else {
      a.push_back({"text-anchor", "middle"});
    }
    svg.element("text", a, t.label);
  }
}

void draw_frame(Svg& svg, const PlotFrame& frame) {
  const Scale& x = frame.x;
  const Scale& y = frame.y;
  const double left = x.from_px(), right = x.to_px(), bottom = y.from_px(), top = y.to_px();
  svg.open("g", {{"class", "grid"}, {"stroke", "#e4e4e4"}});
  for (const Tick& t : frame.y_ticks) {
    svg.element("line", {{"x1", svg_number(left)},
                         {"x2", svg_number(right)},
                         {"y1", svg_number(y.at(t.value))},
                         {"y2", svg_number(y.at(t.value))}});
  }
  for (const Tick& t : frame.x_ticks) {
    svg.element("line", {{"x1", svg_number(x.at(t.value))},
                         {"x2", svg_number(x.at(t.value))},
                         {"y1", svg_number(bottom)},
                         {"y2", svg_number(top)}});
  }
  svg.close("g");
  svg.open("g", {{"class", "ticks"}, {"fill", "#333"}});
  for (const Tick& t : frame.y_ticks) {
    svg.element("text",
                {{"class", "y-tick"},
                 {"x", svg_number(left - kTickGap)},
                 {"y", svg_number(y.at(t.value) + 4)},
                 {"text-anchor", "end"}},
                t.label);
  }
  draw_x_tick_labels(svg, x, frame.x_ticks, x_labels_crowd(frame), bottom + 16);
  svg.close("g");
  svg.element("rect", {{"x", svg_number(std::min(left, right))},
                       {"y", svg_number(top)},
                       {"width", svg_number(std::fabs(right - left))},
                       {"height", svg_number(bottom - top)},
                       {"fill", "none"},
                       {"stroke", "#888"}});
  const double below = x_title_depth(frame);
  svg.element("text",
              {{"class", "x-title"},
               {"x", svg_number((left + right) / 2)},
               {"y", svg_number(bottom + below)},
               {"text-anchor", "middle"}},
              frame.x_title);
  const double mid = (top + bottom) / 2;
  svg.element(
      "text",
      {{"class", "y-title"},
       {"x", svg_number(kYTitleX)},
       {"y", svg_number(mid)},
       {"text-anchor", "middle"},
       {"transform", fmt::format("rotate(-90 {} {})", svg_number(kYTitleX), svg_number(mid))}},
      frame.y_title);
}

DotSet::DotSet(std::string css_class, std::string colour, double radius)
    : class_(std::move(css_class)), colour_(std::move(colour)), radius_(radius) {}

void DotSet::add(double px, double py, std::uint64_t point, double x_value, double y_value,
                 const std::function<std::string()>& tooltip) {
  const auto key = std::make_pair(std::lround(px * 2), std::lround(py * 2));
  const auto [it, added] = at_.emplace(key, dots_.size());
  if (added) dots_.push_back({px, py, x_value, y_value, {}, {}});
  Dot& dot = dots_[it->second];
  dot.points.push_back(point);
  if (dot.tooltips.size() < kTooltipPoints) dot.tooltips.push_back(tooltip());
}

void DotSet::draw(Svg& svg) const {
  for (const Dot& dot : dots_) {
    svg.open("circle", {{"class", class_},
                        {"data-point", listed_points(dot.points)},
                        {"data-count", std::to_string(dot.points.size())},
                        {"data-x", data_number(dot.x_value)},
                        {"data-y", data_number(dot.y_value)},
                        {"cx", svg_number(dot.px)},
                        {"cy", svg_number(dot.py)},
                        {"r", svg_number(radius_)},
                        {"fill", colour_},
                        {"fill-opacity", "0.55"},
                        {"stroke", colour_}});
    std::string title;
    for (const auto& t : dot.tooltips) title += (title.empty() ? "" : "\n") + t;
    if (dot.points.size() > dot.tooltips.size()) {
      title += fmt::format("\n... {} points here in all", dot.points.size());
    }
    svg.element("title", {}, title);
    svg.close("circle");
  }
}

}  // namespace ridgeline
