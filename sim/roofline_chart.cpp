#include "sim/roofline_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "sim/svg.hpp"

namespace ridgeline {

namespace {

constexpr double kWidth = 780, kHeight = 500;
constexpr double kLeft = 90, kRight = 200, kTop = 44, kBottom = 64;  // kRight holds the legend
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                    "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

struct LogAxis {
  double low, high;       // data range, powers of ten
  double from_px, to_px;  // pixel range
  double at(double value) const {
    const double t = (std::log10(value) - std::log10(low)) / (std::log10(high) - std::log10(low));
    return from_px + t * (to_px - from_px);
  }
};

double decade_below(double value) { return std::pow(10.0, std::floor(std::log10(value))); }
double decade_above(double value) { return std::pow(10.0, std::ceil(std::log10(value))); }

// Intensities read as plain numbers (0.01, 0.25, 20) until they are large enough for a prefix.
std::string intensity_text(double value) {
  return value >= 1e4 ? si(value) : fmt::format("{:.3g}", value);
}

}  // namespace

std::string si(double value, int significant) {
  constexpr std::pair<double, const char*> kPrefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}};
  for (const auto& [scale, prefix] : kPrefixes) {
    if (std::fabs(value) >= scale * 0.9995) {
      std::string text = fmt::format("{:.{}g}", value / scale, significant);
      return prefix[0] ? text + " " + prefix : text;
    }
  }
  return fmt::format("{:.{}g}", value, significant);
}

RooflineChart roofline_of(const std::vector<Json>& reports,
                          const std::vector<std::string>& series) {
  RooflineChart chart;
  if (reports.empty()) return chart;
  const Json& first = reports.front();
  const Json& analytical = first["analytical"];
  chart.peak_flop_per_s = analytical["peak_flop_per_s"].get<double>();
  const std::string dtype = first["workload"]["dtype"].get<std::string>();
  chart.peak_label = fmt::format("P = {}FLOP/s ({})", si(chart.peak_flop_per_s), dtype);
  chart.title =
      fmt::format("Roofline of {} ({})", first["hardware"]["name"].get<std::string>(), dtype);
  // Every level any report has (a kernel without SRAM traffic has no SRAM level), in the order
  // first met; the machine is the same for all reports, so a level's bandwidth is too.
  for (const Json& r : reports) {
    if (!r["analytical"].contains("levels")) continue;
    for (const Json& level : r["analytical"]["levels"]) {
      const std::string level_name = level["name"].get<std::string>();
      const bool known = std::any_of(chart.levels.begin(), chart.levels.end(),
                                     [&](const auto& l) { return l.name == level_name; });
      if (!known) chart.levels.push_back({level_name, level["bandwidth_bytes_per_s"].get<double>()});
    }
  }
  if (chart.levels.empty()) chart.levels.push_back({"hbm", analytical["hbm_bytes_per_s"].get<double>()});
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Json& r = reports[i];
    const std::string name =
        i < series.size() ? series[i] : r["workload"]["label"].get<std::string>();
    const double analytical_flop_per_s = r["analytical"]["roof_flop_per_s"].get<double>();
    chart.points.push_back({name, r["analytical"]["intensity_flop_per_byte"].get<double>(),
                            analytical_flop_per_s, false, ""});
    if (r.contains("simulated")) {
      chart.points.push_back({name, r["simulated"]["intensity_flop_per_byte"].get<double>(),
                              r["simulated"]["achieved_flop_per_s"].get<double>(), true, ""});
    }
    // The hierarchical roofline: the same kernel at each inner level's intensity.
    const auto add_levels = [&](const Json& side, double flop_per_s, bool simulated) {
      if (!side.contains("levels")) return;
      for (const Json& level : side["levels"]) {
        const std::string level_name = level["name"].get<std::string>();
        if (level_name == "hbm") continue;
        chart.points.push_back({name, level["intensity_flop_per_byte"].get<double>(), flop_per_s,
                                simulated, level_name});
      }
    };
    add_levels(r["analytical"], analytical_flop_per_s, false);
    if (r.contains("simulated")) {
      add_levels(r["simulated"], r["simulated"]["achieved_flop_per_s"].get<double>(), true);
    }
  }
  return chart;
}

std::string render_roofline_svg(const RooflineChart& chart) {
  // Ranges: every point, every ridge and the peak, with a margin of a decade where needed.
  double x_min = std::numeric_limits<double>::max(), x_max = 0;
  double y_min = chart.peak_flop_per_s, y_max = chart.peak_flop_per_s;
  for (const auto& level : chart.levels) {
    const double ridge = chart.peak_flop_per_s / level.bytes_per_s;
    x_min = std::min(x_min, ridge);
    x_max = std::max(x_max, ridge);
  }
  for (const auto& p : chart.points) {
    if (p.intensity_flop_per_byte <= 0 || p.flop_per_s <= 0) continue;
    x_min = std::min(x_min, p.intensity_flop_per_byte);
    x_max = std::max(x_max, p.intensity_flop_per_byte);
    y_min = std::min(y_min, p.flop_per_s);
  }
  const LogAxis x{decade_below(x_min / 3), decade_above(x_max * 3), kLeft, kWidth - kRight};
  const LogAxis y{decade_below(y_min / 3), decade_above(y_max * 1.5), kHeight - kBottom, kTop};

  Svg svg(kWidth, kHeight);
  svg.element("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  svg.element("text",
              {{"x", svg_number(kLeft)}, {"y", "24"}, {"font-size", "16"}, {"font-weight", "bold"}},
              chart.title);

  // Grid and ticks, one per decade.
  svg.open("g", {{"class", "axes"}, {"stroke", "#ddd"}});
  for (double v = x.low; v <= x.high * 1.0001; v *= 10) {
    svg.element("line", {{"x1", svg_number(x.at(v))},
                         {"x2", svg_number(x.at(v))},
                         {"y1", svg_number(y.from_px)},
                         {"y2", svg_number(y.to_px)}});
  }
  for (double v = y.low; v <= y.high * 1.0001; v *= 10) {
    svg.element("line", {{"x1", svg_number(x.from_px)},
                         {"x2", svg_number(x.to_px)},
                         {"y1", svg_number(y.at(v))},
                         {"y2", svg_number(y.at(v))}});
  }
  svg.close("g");
  svg.open("g", {{"class", "ticks"}, {"fill", "#333"}});
  for (double v = x.low; v <= x.high * 1.0001; v *= 10) {
    svg.element(
        "text",
        {{"x", svg_number(x.at(v))}, {"y", svg_number(y.from_px + 18)}, {"text-anchor", "middle"}},
        intensity_text(v));
  }
  for (double v = y.low; v <= y.high * 1.0001; v *= 10) {
    svg.element(
        "text",
        {{"x", svg_number(x.from_px - 8)}, {"y", svg_number(y.at(v) + 4)}, {"text-anchor", "end"}},
        si(v));
  }
  svg.element("text",
              {{"x", svg_number((x.from_px + x.to_px) / 2)},
               {"y", svg_number(kHeight - 18)},
               {"text-anchor", "middle"}},
              "arithmetic intensity I (FLOP/byte)");
  svg.element(
      "text",
      {{"x", "20"},
       {"y", svg_number((y.from_px + y.to_px) / 2)},
       {"text-anchor", "middle"},
       {"transform", fmt::format("rotate(-90 20 {})", svg_number((y.from_px + y.to_px) / 2))}},
      "performance (FLOP/s)");
  svg.element("rect", {{"x", svg_number(x.from_px)},
                       {"y", svg_number(y.to_px)},
                       {"width", svg_number(x.to_px - x.from_px)},
                       {"height", svg_number(y.from_px - y.to_px)},
                       {"fill", "none"},
                       {"stroke", "#888"}});
  svg.close("g");

  // Ceilings: the compute roof, and per level the slope BW x I up to its ridge point.
  const double roof_y = y.at(chart.peak_flop_per_s);
  double leftmost_ridge = x.to_px;
  svg.open("g", {{"class", "ceilings"}, {"stroke-width", "2.5"}, {"fill", "none"}});
  for (std::size_t i = 0; i < chart.levels.size(); ++i) {
    const auto& level = chart.levels[i];
    const double ridge = chart.peak_flop_per_s / level.bytes_per_s;
    const double start = std::max(x.low, y.low / level.bytes_per_s);
    const double x0 = x.at(start), y0 = y.at(start * level.bytes_per_s);
    const double x1 = x.at(ridge);
    leftmost_ridge = std::min(leftmost_ridge, x1);
    svg.element("line", {{"class", "slope"},
                         {"data-level", level.name},
                         {"data-bytes-per-s", fmt::format("{}", level.bytes_per_s)},
                         {"x1", svg_number(x0)},
                         {"y1", svg_number(y0)},
                         {"x2", svg_number(x1)},
                         {"y2", svg_number(roof_y)},
                         {"stroke", i == 0 ? "#222" : "#666"},
                         {"stroke-dasharray", i == 0 ? "" : "6 4"}});
    // The ridge point, marked with its value.
    svg.element("circle", {{"class", "ridge"},
                           {"data-level", level.name},
                           {"data-ridge-flop-per-byte", fmt::format("{}", ridge)},
                           {"cx", svg_number(x1)},
                           {"cy", svg_number(roof_y)},
                           {"r", "4"},
                           {"fill", "#222"},
                           {"stroke", "none"}});
    svg.element("line", {{"x1", svg_number(x1)},
                         {"y1", svg_number(roof_y)},
                         {"x2", svg_number(x1)},
                         {"y2", svg_number(y.from_px)},
                         {"stroke", "#bbb"},
                         {"stroke-width", "1"},
                         {"stroke-dasharray", "3 3"}});
    svg.element("text",
                {{"x", svg_number(x1 + 4)},
                 {"y", svg_number(y.from_px - 6 - 14.0 * static_cast<double>(i))},
                 {"fill", "#444"},
                 {"stroke", "none"}},
                fmt::format("ridge {}: {} FLOP/B", level.name, intensity_text(ridge)));
    // The slope's label, along the line.
    const double angle = std::atan2(roof_y - y0, x1 - x0) * 180 / M_PI;
    const double lx = x0 + (x1 - x0) * 0.35, ly = y0 + (roof_y - y0) * 0.35 - 6;
    svg.element("text",
                {{"x", svg_number(lx)},
                 {"y", svg_number(ly)},
                 {"fill", "#222"},
                 {"stroke", "none"},
                 {"transform", fmt::format("rotate({} {} {})", svg_number(angle), svg_number(lx),
                                           svg_number(ly))}},
                fmt::format("{} {}B/s", level.name, si(level.bytes_per_s)));
  }
  svg.element("line", {{"class", "roof"},
                       {"data-flop-per-s", fmt::format("{}", chart.peak_flop_per_s)},
                       {"x1", svg_number(leftmost_ridge)},
                       {"y1", svg_number(roof_y)},
                       {"x2", svg_number(x.to_px)},
                       {"y2", svg_number(roof_y)},
                       {"stroke", "#222"}});
  svg.element("text",
              {{"x", svg_number(x.to_px - 4)},
               {"y", svg_number(roof_y - 8)},
               {"text-anchor", "end"},
               {"fill", "#222"},
               {"stroke", "none"}},
              chart.peak_label);
  svg.close("g");

  // The kernels: a colour per series; hollow = analytical, filled = simulated.
  std::map<std::string, std::size_t> colour_of;
  std::vector<std::string> order;
  for (const auto& p : chart.points) {
    if (colour_of.emplace(p.series, colour_of.size()).second) order.push_back(p.series);
  }
  svg.open("g", {{"class", "points"}});
  for (const auto& p : chart.points) {
    if (p.intensity_flop_per_byte <= 0 || p.flop_per_s <= 0) continue;
    const char* colour = kPalette[colour_of[p.series] % std::size(kPalette)];
    if (!p.level.empty()) {
      // At an inner level's intensity: a square, hollow or filled like the kernel's points.
      const double side = p.simulated ? 8 : 10;
      svg.open("rect",
               {{"class", p.simulated ? "level-simulated" : "level-analytical"},
                {"data-series", p.series},
                {"data-level", p.level},
                {"data-intensity-flop-per-byte", fmt::format("{}", p.intensity_flop_per_byte)},
                {"data-flop-per-s", fmt::format("{}", p.flop_per_s)},
                {"x", svg_number(x.at(p.intensity_flop_per_byte) - side / 2)},
                {"y", svg_number(y.at(p.flop_per_s) - side / 2)},
                {"width", svg_number(side)},
                {"height", svg_number(side)},
                {"fill", p.simulated ? colour : "none"},
                {"stroke", colour},
                {"stroke-width", "2"}});
      svg.element("title", {},
                  fmt::format("{} ({}), I at {} = {} FLOP/B, {}FLOP/s", p.series,
                              p.simulated ? "simulated" : "analytical", p.level,
                              si(p.intensity_flop_per_byte, 6), si(p.flop_per_s, 6)));
      svg.close("rect");
      continue;
    }
    svg.open("circle",
             {{"class", p.simulated ? "simulated" : "analytical"},
              {"data-series", p.series},
              {"data-intensity-flop-per-byte", fmt::format("{}", p.intensity_flop_per_byte)},
              {"data-flop-per-s", fmt::format("{}", p.flop_per_s)},
              {"cx", svg_number(x.at(p.intensity_flop_per_byte))},
              {"cy", svg_number(y.at(p.flop_per_s))},
              {"r", p.simulated ? "5" : "7"},
              {"fill", p.simulated ? colour : "none"},
              {"stroke", colour},
              {"stroke-width", "2"}});
    svg.element("title", {},
                fmt::format("{} ({}): I = {} FLOP/B, {}FLOP/s", p.series,
                            p.simulated ? "simulated" : "analytical",
                            si(p.intensity_flop_per_byte, 6), si(p.flop_per_s, 6)));
    svg.close("circle");
  }
  svg.close("g");

  // Legend, right of the plot.
  svg.open("g", {{"class", "legend"}});
  double ly = kTop + 8;
  const double lx = kWidth - kRight + 16;
  svg.element("circle", {{"cx", svg_number(lx)},
                         {"cy", svg_number(ly)},
                         {"r", "6"},
                         {"fill", "none"},
                         {"stroke", "#444"},
                         {"stroke-width", "2"}});
  svg.element("text", {{"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}}, "analytical");
  ly += 18;
  svg.element("circle",
              {{"cx", svg_number(lx)}, {"cy", svg_number(ly)}, {"r", "5"}, {"fill", "#444"}});
  svg.element("text", {{"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}}, "simulated");
  if (std::any_of(chart.points.begin(), chart.points.end(),
                  [](const RooflineChart::Point& p) { return !p.level.empty(); })) {
    ly += 18;
    svg.element("rect", {{"x", svg_number(lx - 5)},
                         {"y", svg_number(ly - 5)},
                         {"width", "10"},
                         {"height", "10"},
                         {"fill", "none"},
                         {"stroke", "#444"},
                         {"stroke-width", "2"}});
    svg.element("text", {{"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}}, "at L2 / SRAM I");
  }
  ly += 26;
  for (const auto& name : order) {
    const char* colour = kPalette[colour_of[name] % std::size(kPalette)];
    svg.element("rect", {{"x", svg_number(lx - 6)},
                         {"y", svg_number(ly - 6)},
                         {"width", "12"},
                         {"height", "12"},
                         {"fill", colour}});
    svg.element("text", {{"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}}, name);
    ly += 18;
  }
  svg.close("g");
  return svg.str();
}

}  // namespace ridgeline
