#include "sim/sweep/axis_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "sim/charts/plot_frame.hpp"

namespace ridgeline {

namespace {

constexpr double kWidth = 470;
constexpr double kMinLeft = 74, kRight = 14, kTop = 64, kPlotHeight = 220;
constexpr std::size_t kLabelEachValueUpTo = 12;  // more values: ticks at round numbers
constexpr const char* kDotColour = "#1f77b4";
constexpr const char* kBestColour = "#d62728";

}  // namespace

std::string render_axis_chart(const SweepTable& table, std::size_t axis, std::size_t figure) {
  const SweepAxis& ax = table.axes()[axis];
  const SweepFigure& fig = table.figure(figure);
  const auto& points = table.points();

  // The values to draw, and the best at each of the axis's values (ties: the lower point).
  struct Best {
    double value;
    std::size_t index;
  };
  std::vector<std::optional<Best>> best(ax.values.size());
  struct Drawn {
    std::size_t index;
    std::uint32_t value;
    double y;
  };
  std::vector<Drawn> drawn;  // the ok points with this figure and a value of the axis
  double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    const std::uint32_t v = table.value(i, axis);
    const double y = p.figure[figure];
    if (p.status != SweepPointStatus::ok || v == SweepTable::kNoValue || !std::isfinite(y))
      continue;
    drawn.push_back({i, v, y});
    low = std::min(low, y);
    high = std::max(high, y);
    auto& b = best[v];
    const bool better = !b || (fig.maximize ? y > b->value : y < b->value) ||
                        (y == b->value && p.point < points[b->index].point);
    if (better) b = Best{y, i};
  }
  const bool any = low <= high;
  if (!any) low = high = 1;

  // x: categories in the sweep's order, or the values' numbers.
  const auto x_of = [&](std::uint32_t v) {
    return ax.numeric ? ax.values[v].number : static_cast<double>(v);
  };
  // y first: its labels ("200 TFLOP/s") decide where the plot can start.
  PlotFrame frame;
  const bool log_y = low > 0 && high / low >= 10;
  frame.y = log_y ? Scale::log(low, high, kTop + kPlotHeight, kTop)
                  : Scale::linear(std::min(0.0, low), high, kTop + kPlotHeight, kTop);
  frame.y_ticks = frame.y.ticks(fig.unit);
  double left = left_for_y_labels(frame.y_ticks, kMinLeft);
  double x_low = std::numeric_limits<double>::max(), x_high = std::numeric_limits<double>::lowest();
  for (const auto& v : ax.values) {
    x_low = std::min(x_low, v.number);
    x_high = std::max(x_high, v.number);
  }
  const auto x_scale = [&](double from_px) {
    return ax.numeric ? Scale::padded(x_low, x_high, ax.log, from_px, kWidth - kRight)
                      : Scale::categorical(ax.values.size(), from_px, kWidth - kRight);
  };
  frame.x = x_scale(left);
  if (!ax.numeric || ax.values.size() <= kLabelEachValueUpTo) {
    for (std::uint32_t v = 0; v < ax.values.size(); ++v)
      frame.x_ticks.push_back({x_of(v), ax.values[v].label});
  } else {
    frame.x_ticks = frame.x.ticks();
  }
  // Turned category labels reach left of their ticks: move the plot over when they would be cut.
  if (const double needed = left_for_x_labels(frame); needed > left) {
    left = needed;
    frame.x = x_scale(left);
  }
  const double below = x_title_depth(frame) + 12;
  frame.x_title = ax.name + (ax.numeric && ax.log ? " (log scale)" : "");
  frame.y_title = fmt::format("{} ({})", fig.label, fig.unit);

  Svg svg(kWidth, kTop + kPlotHeight + below);
  // The title, on two lines when a long axis name would not fit on one.
  const std::string title = fmt::format("{} by {}", fig.label, ax.name);
  const bool two_lines = static_cast<double>(title.size()) * 8.4 > kWidth - 16;
  draw_title(svg, two_lines ? fig.label + " by" : title);
  if (two_lines) {
    svg.element("text", {{"x", "8"}, {"y", "34"}, {"font-size", "13"}, {"font-weight", "bold"}},
                ax.name);
  }
  // Legend under the title.
  const double legend_y = two_lines ? 50 : 35;
  const std::string ly = svg_number(legend_y), ty = svg_number(legend_y + 4);
  svg.element("circle", {{"cx", "14"},
                         {"cy", ly},
                         {"r", "4"},
                         {"fill", kDotColour},
                         {"fill-opacity", "0.55"},
                         {"stroke", kDotColour}});
  svg.element("text", {{"x", "22"}, {"y", ty}}, "a point");
  svg.element("line", {{"x1", "80"},
                       {"y1", ly},
                       {"x2", "100"},
                       {"y2", ly},
                       {"stroke", kBestColour},
                       {"stroke-width", "2"}});
  svg.element("text", {{"x", "106"}, {"y", ty}},
              fmt::format("best ({}) over the other axes", fig.maximize ? "highest" : "lowest"));
  draw_frame(svg, frame);
  if (!any) {
    svg.element("text", {{"x", svg_number(left + 12)}, {"y", svg_number(kTop + kPlotHeight / 2)}},
                "no ok point has this figure");
    return svg.str();
  }

  DotSet dots("dot", kDotColour, 4);
  for (const Drawn& d : drawn) {
    const SweepPoint& p = points[d.index];
    const std::size_t i = d.index;
    const std::uint32_t v = d.value;
    const double y = d.y;
    dots.add(frame.x.at(x_of(v)), frame.y.at(y), p.point, x_of(v), y, [&] {
      return fmt::format("point {}: {}\n{} = {}", p.point, table.inputs(i), fig.label,
                         si_unit(y, fig.unit, 6));
    });
  }
  svg.open("g", {{"class", "dots"}});
  dots.draw(svg);
  svg.close("g");

  // The best line, left to right.
  std::vector<std::uint32_t> order;
  for (std::uint32_t v = 0; v < best.size(); ++v) {
    if (best[v]) order.push_back(v);
  }
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return x_of(a) < x_of(b); });
  std::string line;
  for (std::uint32_t v : order) {
    line += fmt::format("{}{},{}", line.empty() ? "" : " ", svg_number(frame.x.at(x_of(v))),
                        svg_number(frame.y.at(best[v]->value)));
  }
  svg.open("g", {{"class", "best"}});
  svg.element("polyline", {{"class", "best-line"},
                           {"points", line},
                           {"fill", "none"},
                           {"stroke", kBestColour},
                           {"stroke-width", "2"}});
  for (std::uint32_t v : order) {
    const SweepPoint& p = points[best[v]->index];
    svg.open("circle", {{"class", "best"},
                        {"data-axis-value", ax.values[v].text},
                        {"data-value", data_number(best[v]->value)},
                        {"data-point", std::to_string(p.point)},
                        {"cx", svg_number(frame.x.at(x_of(v)))},
                        {"cy", svg_number(frame.y.at(best[v]->value))},
                        {"r", "3"},
                        {"fill", kBestColour}});
    svg.element(
        "title", {},
        fmt::format("best at {} = {}: {} (point {}: {})", ax.name, ax.values[v].text,
                    si_unit(best[v]->value, fig.unit, 6), p.point, table.inputs(best[v]->index)));
    svg.close("circle");
  }
  svg.close("g");
  return svg.str();
}

}  // namespace ridgeline
