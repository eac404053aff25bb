#include "sim/sweep/heat_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "sim/charts/plot_frame.hpp"
#include "sim/charts/svg.hpp"

namespace ridgeline {

namespace {

constexpr double kMaxWidth = 940;
constexpr double kTop = 48;
constexpr double kCharPx = 6.6;       // a 12 px label character, on average
constexpr double kBoldCharPx = 7.2;   // a bold one (the y axis's name)
constexpr double kTitleCharPx = 8.4;  // a character of the 14 px bold title
constexpr double kMinCell = 10, kMaxCellWidth = 120, kMaxCellHeight = 34;
constexpr double kNumberCellWidth = 52, kNumberCellHeight = 16;  // smaller: no number written
constexpr std::size_t kReasonsShown = 4;                         // per cell tooltip
constexpr double kLegendWidth = 320, kLegendHeight = 12;

struct CellSummary {
  std::uint64_t ok = 0, failed = 0, skipped = 0;
  bool found = false;
  double best = 0;
  std::size_t best_index = 0;
  std::map<std::pair<bool, std::uint32_t>, std::uint64_t> reasons;  // (failed, reason) -> points
};

}  // namespace

std::string render_heat_map(const SweepTable& table, std::size_t x_axis, std::size_t y_axis,
                            std::size_t figure) {
  const SweepAxis& ax = table.axes()[x_axis];
  const SweepAxis& ay = table.axes()[y_axis];
  const SweepFigure& fig = table.figure(figure);
  const std::size_t nx = ax.values.size(), ny = ay.values.size();
  if (nx * ny > kHeatMapMaxCells || nx == 0 || ny == 0) return "";
  const auto& points = table.points();

  std::vector<CellSummary> cells(nx * ny);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uint32_t vx = table.value(i, x_axis), vy = table.value(i, y_axis);
    if (vx == SweepTable::kNoValue || vy == SweepTable::kNoValue) continue;
    CellSummary& c = cells[vy * nx + vx];
    const SweepPoint& p = points[i];
    if (p.status == SweepPointStatus::failed) ++c.failed;
    if (p.status == SweepPointStatus::skipped) ++c.skipped;
    if (p.status != SweepPointStatus::ok) {
      ++c.reasons[{p.status == SweepPointStatus::failed, p.reason}];
      continue;
    }
    ++c.ok;
    const double v = p.figure[figure];
    if (!std::isfinite(v)) continue;
    const bool better = !c.found || (fig.maximize ? v > c.best : v < c.best) ||
                        (v == c.best && p.point < points[c.best_index].point);
    if (better) {
      c.found = true;
      c.best = v;
      c.best_index = i;
    }
  }
  double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
  for (const CellSummary& c : cells) {
    if (!c.found) continue;
    low = std::min(low, c.best);
    high = std::max(high, c.best);
  }
  const bool any = low <= high;
  const bool log = any && low > 0 && high / low >= 10;
  // Where a value lies between the lowest and the highest (0 to 1), and how good that is.
  const auto position = [&](double v) {
    if (!any || high == low) return 0.5;
    return log ? std::log(v / low) / std::log(high / low) : (v - low) / (high - low);
  };
  const auto goodness = [&](double v) { return fig.maximize ? position(v) : 1 - position(v); };

  // Layout: row labels at the left, column labels under the grid, the legend below them.
  std::size_t longest_row = 0;
  for (const auto& v : ay.values) longest_row = std::max(longest_row, v.label.size());
  // The y axis's name sits above the row labels, right-aligned with them, in bold.
  const double left =
      std::min(260.0, 16 + std::max(static_cast<double>(longest_row) * kCharPx,
                                    static_cast<double>(ay.name.size()) * kBoldCharPx));
  const double cell_w =
      std::clamp((kMaxWidth - left - 20) / static_cast<double>(nx), kMinCell, kMaxCellWidth);
  const double cell_h = std::clamp(360 / static_cast<double>(ny), kMinCell, kMaxCellHeight);
  const bool numbers = cell_w >= kNumberCellWidth && cell_h >= kNumberCellHeight;
  const double grid_w = cell_w * static_cast<double>(nx), grid_h = cell_h * static_cast<double>(ny);
  PlotFrame columns;  // only for the column labels' layout
  columns.x = Scale::categorical(nx, left, left + grid_w);
  for (std::size_t v = 0; v < nx; ++v)
    columns.x_ticks.push_back({static_cast<double>(v), ax.values[v].label});
  const bool turn = x_labels_crowd(columns);
  const double labels_depth = x_title_depth(columns);
  const double legend_top = kTop + grid_h + labels_depth + 22;
  const std::string title = fmt::format("{}: the {} over the other axes, by {} and {}", fig.label,
                                        fig.maximize ? "highest" : "lowest", ax.name, ay.name);
  const double width = std::max({left + grid_w + 20, left + kLegendWidth + 260,
                                 16 + static_cast<double>(title.size()) * kTitleCharPx});
  const double height = legend_top + kLegendHeight + 40;

  Svg svg(width, height);
  draw_title(svg, title);
  // Ids unique on a page that holds a map per figure (SVG inline in HTML shares one id space).
  const std::string hatch = fmt::format("heat-map-{}-hatch", figure);
  const std::string gradient = fmt::format("heat-map-{}-scale", figure);
  svg.open("defs", {});
  svg.open("pattern", {{"id", hatch},
                       {"width", "6"},
                       {"height", "6"},
                       {"patternUnits", "userSpaceOnUse"},
                       {"patternTransform", "rotate(45)"}});
  svg.element("rect", {{"width", "6"}, {"height", "6"}, {"fill", "#eeeeee"}});
  svg.element("line", {{"x1", "0"},
                       {"y1", "0"},
                       {"x2", "0"},
                       {"y2", "6"},
                       {"stroke", "#b0b0b0"},
                       {"stroke-width", "2"}});
  svg.close("pattern");
  svg.open("linearGradient",
           {{"id", gradient}, {"x1", "0"}, {"x2", "1"}, {"y1", "0"}, {"y2", "0"}});
  for (int s = 0; s <= 8; ++s) {
    const double at = s / 8.0;  // position of the value: low to high
    svg.element("stop", {{"offset", svg_number(at)},
                         {"stop-color", ramp_colour(fig.maximize ? at : 1 - at)}});
  }
  svg.close("linearGradient");
  svg.close("defs");

  // Row labels and the y axis's name.
  svg.open("g", {{"class", "rows"}, {"fill", "#333"}});
  for (std::size_t v = 0; v < ny; ++v) {
    svg.element("text",
                {{"class", "y-tick"},
                 {"x", svg_number(left - 6)},
                 {"y", svg_number(kTop + cell_h * (static_cast<double>(v) + 0.5) + 4)},
                 {"text-anchor", "end"}},
                ay.values[v].label);
  }
  svg.element("text",
              {{"class", "y-title"},
               {"x", svg_number(left - 6)},
               {"y", svg_number(kTop - 6)},
               {"text-anchor", "end"},
               {"font-weight", "bold"}},
              ay.name);
  svg.close("g");

  svg.open("g", {{"class", "cells"}});
  for (std::size_t vy = 0; vy < ny; ++vy) {
    for (std::size_t vx = 0; vx < nx; ++vx) {
      const CellSummary& c = cells[vy * nx + vx];
      const double x = left + cell_w * static_cast<double>(vx);
      const double y = kTop + cell_h * static_cast<double>(vy);
      const std::string where =
          fmt::format("{} = {}, {} = {}", ax.name, ax.values[vx].text, ay.name, ay.values[vy].text);
      const std::string counts =
          fmt::format("{} point{}: {} ok, {} failed, {} skipped", c.ok + c.failed + c.skipped,
                      c.ok + c.failed + c.skipped == 1 ? "" : "s", c.ok, c.failed, c.skipped);
      std::string reasons;
      std::size_t shown = 0;
      for (const auto& [key, count] : c.reasons) {
        if (shown++ == kReasonsShown) {
          reasons += fmt::format("\n... and {} other reasons", c.reasons.size() - kReasonsShown);
          break;
        }
        reasons += fmt::format("\n{} {}: {}", count, key.first ? "failed" : "skipped",
                               table.reasons()[key.second]);
      }
      Svg::Attributes a{{"x", svg_number(x)},
                        {"y", svg_number(y)},
                        {"width", svg_number(cell_w)},
                        {"height", svg_number(cell_h)},
                        {"stroke", "white"},
                        {"stroke-width", "1"},
                        {"data-x", ax.values[vx].text},
                        {"data-y", ay.values[vy].text},
                        {"data-ok", std::to_string(c.ok)},
                        {"data-failed", std::to_string(c.failed)},
                        {"data-skipped", std::to_string(c.skipped)}};
      std::string text, text_colour;
      if (c.found) {
        const SweepPoint& best = points[c.best_index];
        const double g = goodness(c.best);
        a.insert(a.begin(), {"class", "cell"});
        a.push_back({"data-value", data_number(c.best)});
        a.push_back({"data-point", std::to_string(best.point)});
        a.push_back({"fill", ramp_colour(g)});
        text = si_unit(c.best, fig.unit);
        text_colour = g > 0.6 ? "#111" : "white";
        svg.open("rect", a);
        svg.element(
            "title", {},
            fmt::format("{}: {} at point {} ({})\n{}{}", where, si_unit(c.best, fig.unit, 6),
                        best.point, table.inputs(c.best_index), counts, reasons));
      } else {
        const std::string state = c.ok > 0                        ? "no figure"
                                  : c.failed > 0 && c.skipped > 0 ? "failed, skipped"
                                  : c.failed > 0                  ? "failed"
                                  : c.skipped > 0                 ? "skipped"
                                                                  : "no point";
        a.insert(a.begin(), {"class", "cell empty"});
        a.push_back({"data-state", state});
        a.push_back({"fill", c.ok + c.failed + c.skipped > 0 ? "url(#" + hatch + ")" : "#fafafa"});
        text = state;
        text_colour = "#555";
        svg.open("rect", a);
        svg.element("title", {}, fmt::format("{}: {}{}", where, counts, reasons));
      }
      svg.close("rect");
      if (numbers) {
        svg.element("text",
                    {{"class", c.found ? "cell-value" : "cell-state"},
                     {"x", svg_number(x + cell_w / 2)},
                     {"y", svg_number(y + cell_h / 2 + 4)},
                     {"text-anchor", "middle"},
                     {"fill", text_colour},
                     {"font-size", c.found ? "12" : "10"},
                     {"pointer-events", "none"}},
                    text);
      }
    }
  }
  svg.close("g");

  // Column labels and the x axis's name, under the grid.
  svg.open("g", {{"class", "columns"}, {"fill", "#333"}});
  const double label_y = kTop + grid_h + 16;
  draw_x_tick_labels(svg, columns.x, columns.x_ticks, turn, label_y);
  svg.element("text",
              {{"class", "x-title"},
               {"x", svg_number(left + grid_w / 2)},
               {"y", svg_number(kTop + grid_h + labels_depth)},
               {"text-anchor", "middle"},
               {"font-weight", "bold"}},
              ax.name);
  svg.close("g");

  // The colour scale: the values from lowest to highest, and the hatch.
  svg.open("g", {{"class", "legend"}});
  if (any) {
    svg.element("rect", {{"class", "scale"},
                         {"x", svg_number(left)},
                         {"y", svg_number(legend_top)},
                         {"width", svg_number(kLegendWidth)},
                         {"height", svg_number(kLegendHeight)},
                         {"fill", "url(#" + gradient + ")"},
                         {"data-low", data_number(low)},
                         {"data-high", data_number(high)}});
    std::vector<double> marks{low, high};
    if (log) {
      for (const Tick& t : Scale::log(low, high, 0, 1).ticks()) {
        if (t.value > low * 1.15 && t.value < high / 1.15) marks.push_back(t.value);
      }
    } else if (high > low) {
      marks.push_back((low + high) / 2);
    }
    for (double m : marks) {
      const double mx = left + kLegendWidth * position(m);
      svg.element("line", {{"x1", svg_number(mx)},
                           {"y1", svg_number(legend_top + kLegendHeight)},
                           {"x2", svg_number(mx)},
                           {"y2", svg_number(legend_top + kLegendHeight + 4)},
                           {"stroke", "#333"}});
      svg.element("text",
                  {{"x", svg_number(mx)},
                   {"y", svg_number(legend_top + kLegendHeight + 16)},
                   {"text-anchor", "middle"},
                   {"font-size", "11"}},
                  si_unit(m, fig.unit));
    }
    svg.element("text",
                {{"x", svg_number(left)}, {"y", svg_number(legend_top - 6)}, {"font-size", "11"}},
                fmt::format("{} ({}; brighter is better{})", fig.label, fig.unit,
                            log ? ", log scale" : ""));
  }
  const double hx = left + kLegendWidth + 24;
  svg.element("rect", {{"x", svg_number(hx)},
                       {"y", svg_number(legend_top)},
                       {"width", "18"},
                       {"height", svg_number(kLegendHeight)},
                       {"fill", "url(#" + hatch + ")"},
                       {"stroke", "#999"}});
  svg.element("text",
              {{"x", svg_number(hx + 24)}, {"y", svg_number(legend_top + 10)}, {"font-size", "11"}},
              "no ok point (failed or skipped)");
  svg.close("g");
  return svg.str();
}

}  // namespace ridgeline
