#include "sim/charts/roofline_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "sim/charts/svg.hpp"

namespace ridgeline {

namespace {

constexpr double kWidth = 780, kHeight = 500;
constexpr double kLeft = 90, kRight = 200, kTop = 44, kBottom = 64;  // kRight holds the legend
constexpr std::size_t kLegendSeries = 20;  // more series: the rest counted, not listed
constexpr std::size_t kRidgeLabels = 4;    // more ridge points: their values in tooltips only
constexpr std::size_t kTooltipNotes = 3;   // points drawn as one marker, named in its tooltip
constexpr std::size_t kListedPoints = 32;  // and in its data-point (data-count counts them all)

// Intensities read as plain numbers (0.01, 0.25, 20) until they are large enough for a prefix.
std::string intensity_text(double value) {
  return value >= 1e4 ? si(value) : fmt::format("{:.3g}", value);
}

// The kernel of `r` as series `name`: at I at HBM (circles) and at each inner level's I (squares),
// at `analytical_y` (hollow) and, when the report simulated, `simulated_y` (filled).
void add_kernel_points(RooflineChart& chart, const Json& r, const std::string& name,
                       double analytical_y, double simulated_y) {
  chart.points.push_back({name, r["analytical"]["intensity_flop_per_byte"].get<double>(),
                          analytical_y, false, "", "", ""});
  const bool simulated = r.contains("simulated");
  if (simulated) {
    chart.points.push_back({name, r["simulated"]["intensity_flop_per_byte"].get<double>(),
                            simulated_y, true, "", "", ""});
  }
  // The hierarchical roofline: the same kernel at each inner level's intensity.
  const auto add_levels = [&](const Json& side, double y, bool is_simulated) {
    if (!side.contains("levels")) return;
    for (const Json& level : side["levels"]) {
      const std::string level_name = level["name"].get<std::string>();
      if (level_name == "hbm") continue;
      chart.points.push_back({name, level["intensity_flop_per_byte"].get<double>(), y, is_simulated,
                              level_name, "", ""});
    }
  };
  add_levels(r["analytical"], analytical_y, false);
  if (simulated) add_levels(r["simulated"], simulated_y, true);
}

std::string series_name(const std::vector<Json>& reports, const std::vector<std::string>& series,
                        std::size_t i) {
  return i < series.size() ? series[i] : reports[i]["workload"]["label"].get<std::string>();
}

}  // namespace

RooflineChart roofline_of(const std::vector<Json>& reports,
                          const std::vector<std::string>& series) {
  RooflineChart chart;
  if (reports.empty()) return chart;
  const Json& first = reports.front();
  const Json& analytical = first["analytical"];
  RooflineChart::Roof roof;
  roof.name = first["hardware"]["name"].get<std::string>();
  roof.peak_flop_per_s = analytical["peak_flop_per_s"].get<double>();
  const std::string dtype = first["workload"]["dtype"].get<std::string>();
  roof.peak_label = fmt::format("P = {}FLOP/s ({})", si(roof.peak_flop_per_s), dtype);
  chart.title = fmt::format("Roofline of {} ({})", roof.name, dtype);
  // Every level any report has (a kernel without SRAM traffic has no SRAM level), in the order
  // first met; the machine is the same for all reports, so a level's bandwidth is too.
  for (const Json& r : reports) {
    if (!r["analytical"].contains("levels")) continue;
    for (const Json& level : r["analytical"]["levels"]) {
      const std::string level_name = level["name"].get<std::string>();
      const bool known = std::any_of(roof.levels.begin(), roof.levels.end(),
                                     [&](const auto& l) { return l.name == level_name; });
      if (!known) roof.levels.push_back({level_name, level["bandwidth_bytes_per_s"].get<double>()});
    }
  }
  if (roof.levels.empty())
    roof.levels.push_back({"hbm", analytical["hbm_bytes_per_s"].get<double>()});
  chart.roofs.push_back(std::move(roof));
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Json& r = reports[i];
    add_kernel_points(
        chart, r, series_name(reports, series, i), r["analytical"]["roof_flop_per_s"].get<double>(),
        r.contains("simulated") ? r["simulated"]["achieved_flop_per_s"].get<double>() : 0);
  }
  return chart;
}

RooflineChart energy_roofline_of(const std::vector<Json>& reports,
                                 const std::vector<std::string>& series) {
  RooflineChart chart;
  chart.units = {"energy efficiency (FLOP/J)", "FLOP/J", "B/J"};
  const Json* first = nullptr;
  for (const Json& r : reports) {
    if (r["analytical"].contains("energy")) {
      first = &r;
      break;
    }
  }
  if (first == nullptr) return chart;
  const Json& roofs = (*first)["analytical"]["energy"]["roofline"];
  RooflineChart::Roof roof;
  roof.name = (*first)["hardware"]["name"].get<std::string>();
  const std::string dtype = (*first)["workload"]["dtype"].get<std::string>();
  roof.peak_flop_per_s = roofs.value("peak_flop_per_j", 0.0);
  roof.peak_label = fmt::format("{}FLOP/J ({} FLOPs alone)", si(roof.peak_flop_per_s), dtype);
  chart.title = fmt::format("Energy roofline of {} ({})", roof.name, dtype);
  // The levels of the performance roofline that have an energy bound, in its order.
  for (const Json& level : (*first)["analytical"]["levels"]) {
    const std::string name = level["name"].get<std::string>();
    const std::string key = name + "_bytes_per_j";
    if (roofs.contains(key)) roof.levels.push_back({name, roofs[key].get<double>()});
  }
  chart.roofs.push_back(std::move(roof));
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Json& r = reports[i];
    if (!r["analytical"].contains("energy")) continue;
    const bool simulated = r.contains("simulated") && r["simulated"].contains("energy");
    add_kernel_points(chart, r, series_name(reports, series, i),
                      r["analytical"]["energy"]["flop_per_j"].get<double>(),
                      simulated ? r["simulated"]["energy"]["flop_per_j"].get<double>() : 0);
  }
  return chart;
}

std::string render_roofline_svg(const RooflineChart& chart) {
  const bool several = chart.roofs.size() > 1;
  // Ranges: every point, every ridge and every peak, with a margin of a decade where needed.
  double x_min = std::numeric_limits<double>::max(), x_max = 0;
  double y_min = std::numeric_limits<double>::max(), y_max = 0;
  for (const auto& roof : chart.roofs) {
    y_min = std::min(y_min, roof.peak_flop_per_s);
    y_max = std::max(y_max, roof.peak_flop_per_s);
    for (const auto& level : roof.levels) {
      const double ridge = roof.peak_flop_per_s / level.bytes_per_s;
      x_min = std::min(x_min, ridge);
      x_max = std::max(x_max, ridge);
    }
  }
  for (const auto& p : chart.points) {
    if (p.intensity_flop_per_byte <= 0 || p.flop_per_s <= 0) continue;
    x_min = std::min(x_min, p.intensity_flop_per_byte);
    x_max = std::max(x_max, p.intensity_flop_per_byte);
    y_min = std::min(y_min, p.flop_per_s);
    y_max = std::max(y_max, p.flop_per_s);
  }
  if (x_max == 0) x_min = x_max = 1;
  if (y_max == 0) y_min = y_max = 1;
  const Scale x = Scale::log(x_min / 3, x_max * 3, kLeft, kWidth - kRight);
  const Scale y = Scale::log(y_min / 3, y_max * 1.5, kHeight - kBottom, kTop);

  Svg svg(kWidth, kHeight);
  svg.element("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  svg.element("text",
              {{"x", svg_number(kLeft)}, {"y", "24"}, {"font-size", "16"}, {"font-weight", "bold"}},
              chart.title);

  // Grid and ticks, one per decade.
  svg.open("g", {{"class", "axes"}, {"stroke", "#ddd"}});
  for (double v = x.low(); v <= x.high() * 1.0001; v *= 10) {
    svg.element("line", {{"x1", svg_number(x.at(v))},
                         {"x2", svg_number(x.at(v))},
                         {"y1", svg_number(y.from_px())},
                         {"y2", svg_number(y.to_px())}});
  }
  for (double v = y.low(); v <= y.high() * 1.0001; v *= 10) {
    svg.element("line", {{"x1", svg_number(x.from_px())},
                         {"x2", svg_number(x.to_px())},
                         {"y1", svg_number(y.at(v))},
                         {"y2", svg_number(y.at(v))}});
  }
  svg.close("g");
  svg.open("g", {{"class", "ticks"}, {"fill", "#333"}});
  for (double v = x.low(); v <= x.high() * 1.0001; v *= 10) {
    // One format along the axis: si() throughout, not "100" then "1e+03" then "10 k".
    svg.element("text",
                {{"class", "x-tick"},
                 {"x", svg_number(x.at(v))},
                 {"y", svg_number(y.from_px() + 18)},
                 {"text-anchor", "middle"}},
                si(v));
  }
  for (double v = y.low(); v <= y.high() * 1.0001; v *= 10) {
    svg.element("text",
                {{"class", "y-tick"},
                 {"x", svg_number(x.from_px() - 8)},
                 {"y", svg_number(y.at(v) + 4)},
                 {"text-anchor", "end"}},
                si(v));
  }
  svg.element("text",
              {{"class", "x-title"},
               {"x", svg_number((x.from_px() + x.to_px()) / 2)},
               {"y", svg_number(kHeight - 18)},
               {"text-anchor", "middle"}},
              "arithmetic intensity I (FLOP/byte)");
  const double mid_y = (y.from_px() + y.to_px()) / 2;
  svg.element("text",
              {{"class", "y-title"},
               {"x", "20"},
               {"y", svg_number(mid_y)},
               {"text-anchor", "middle"},
               {"transform", fmt::format("rotate(-90 20 {})", svg_number(mid_y))}},
              chart.units.y_title);
  svg.element("rect", {{"x", svg_number(x.from_px())},
                       {"y", svg_number(y.to_px())},
                       {"width", svg_number(x.to_px() - x.from_px())},
                       {"height", svg_number(y.from_px() - y.to_px())},
                       {"fill", "none"},
                       {"stroke", "#888"}});
  svg.close("g");

  // Ceilings: per roof the compute roof, and per level the slope BW x I up to its ridge point.
  // Machines that share a figure share its line and label: a sweep of bandwidth by peak has a
  // slope per bandwidth and a roof per peak, each drawn and labelled once.
  std::size_t ridges = 0;
  {
    std::set<std::pair<double, double>> seen;
    for (const auto& roof : chart.roofs) {
      for (const auto& level : roof.levels) {
        ridges += seen.emplace(level.bytes_per_s, roof.peak_flop_per_s).second ? 1 : 0;
      }
    }
  }
  std::set<std::tuple<std::string, double, double>> drawn_slopes;  // level, bandwidth, peak
  std::set<std::pair<std::string, double>> labelled_slopes;        // level, bandwidth
  std::map<double, double> leftmost_ridge_of_peak;                 // peak -> pixel
  std::map<double, std::string> roof_colour_of_peak;
  std::size_t ridge_label = 0;
  svg.open("g",
           {{"class", "ceilings"}, {"stroke-width", several ? "1.5" : "2.5"}, {"fill", "none"}});
  for (std::size_t r = 0; r < chart.roofs.size(); ++r) {
    const auto& roof = chart.roofs[r];
    const double roof_y = y.at(roof.peak_flop_per_s);
    const std::string main_colour =
        !roof.colour.empty() ? roof.colour : (r == 0 || !several ? "#222" : "#777");
    auto& leftmost =
        leftmost_ridge_of_peak.try_emplace(roof.peak_flop_per_s, x.to_px()).first->second;
    // Machines of one peak share its roof line: their colour if they agree, else grey.
    const auto [peak_colour, first_at_peak] =
        roof_colour_of_peak.try_emplace(roof.peak_flop_per_s, main_colour);
    if (!first_at_peak && peak_colour->second != main_colour) peak_colour->second = "#555";
    for (std::size_t i = 0; i < roof.levels.size(); ++i) {
      const auto& level = roof.levels[i];
      const double ridge = roof.peak_flop_per_s / level.bytes_per_s;
      const double start = std::max(x.low(), y.low() / level.bytes_per_s);
      const double x0 = x.at(start), y0 = y.at(start * level.bytes_per_s);
      const double x1 = x.at(ridge);
      leftmost = std::min(leftmost, x1);
      if (!drawn_slopes.emplace(level.name, level.bytes_per_s, roof.peak_flop_per_s).second)
        continue;
      Svg::Attributes slope{{"class", "slope"},
                            {"data-level", level.name},
                            {"data-bytes-per-s", fmt::format("{}", level.bytes_per_s)},
                            {"x1", svg_number(x0)},
                            {"y1", svg_number(y0)},
                            {"x2", svg_number(x1)},
                            {"y2", svg_number(roof_y)},
                            {"stroke", i == 0 ? main_colour : "#666"},
                            {"stroke-dasharray", i == 0 ? "" : "6 4"}};
      if (several) slope.push_back({"data-roof", roof.name});
      svg.element("line", slope);
      // The ridge point, marked with its value.
      Svg::Attributes marker{{"class", "ridge"},
                             {"data-level", level.name},
                             {"data-ridge-flop-per-byte", fmt::format("{}", ridge)},
                             {"cx", svg_number(x1)},
                             {"cy", svg_number(roof_y)},
                             {"r", several ? "3" : "4"},
                             {"fill", main_colour},
                             {"stroke", "none"}};
      if (several) marker.push_back({"data-roof", roof.name});
      svg.open("circle", marker);
      svg.element(
          "title", {},
          fmt::format("{}: ridge {} at {} FLOP/B", roof.name, level.name, intensity_text(ridge)));
      svg.close("circle");
      if (ridges <= kRidgeLabels) {
        svg.element("line", {{"x1", svg_number(x1)},
                             {"y1", svg_number(roof_y)},
                             {"x2", svg_number(x1)},
                             {"y2", svg_number(y.from_px())},
                             {"stroke", "#bbb"},
                             {"stroke-width", "1"},
                             {"stroke-dasharray", "3 3"}});
        svg.element("text",
                    {{"x", svg_number(x1 + 4)},
                     {"y", svg_number(y.from_px() - 6 - 14.0 * static_cast<double>(ridge_label++))},
                     {"fill", "#444"},
                     {"stroke", "none"}},
                    fmt::format("ridge {}: {} FLOP/B", level.name, intensity_text(ridge)));
      }
      // The slope's label, along the line, once per level and bandwidth.
      if (!labelled_slopes.emplace(level.name, level.bytes_per_s).second) continue;
      const double angle = std::atan2(roof_y - y0, x1 - x0) * 180 / M_PI;
      // Along the line; further along for each label before it, so parallel slopes' labels
      // do not sit on one another.
      const double along = 0.35 + 0.1 * static_cast<double>((labelled_slopes.size() - 1) % 4);
      const double lx = x0 + (x1 - x0) * along, ly = y0 + (roof_y - y0) * along - 6;
      svg.element("text",
                  {{"x", svg_number(lx)},
                   {"y", svg_number(ly)},
                   {"fill", "#222"},
                   {"stroke", "none"},
                   {"transform", fmt::format("rotate({} {} {})", svg_number(angle), svg_number(lx),
                                             svg_number(ly))}},
                  fmt::format("{} {}{}", level.name, si(level.bytes_per_s), chart.units.slope));
    }
  }
  for (const auto& [peak, leftmost] : leftmost_ridge_of_peak) {
    const double roof_y = y.at(peak);
    std::string label;  // the first roof's label at this peak
    for (const auto& roof : chart.roofs) {
      if (roof.peak_flop_per_s == peak) {
        label = roof.peak_label;
        break;
      }
    }
    svg.element("line", {{"class", "roof"},
                         {"data-flop-per-s", fmt::format("{}", peak)},
                         {"x1", svg_number(leftmost)},
                         {"y1", svg_number(roof_y)},
                         {"x2", svg_number(x.to_px())},
                         {"y2", svg_number(roof_y)},
                         {"stroke", roof_colour_of_peak[peak]}});
    svg.element("text",
                {{"x", svg_number(x.to_px() - 4)},
                 {"y", svg_number(roof_y - 8)},
                 {"text-anchor", "end"},
                 {"fill", "#222"},
                 {"stroke", "none"}},
                label);
  }
  svg.close("g");

  // The kernels: a colour per series; hollow = analytical, filled = simulated.
  std::map<std::string, std::string> colour_of;
  std::vector<std::string> order;
  std::size_t next_colour = 0;
  for (const auto& p : chart.points) {
    if (colour_of.count(p.series)) continue;
    const auto given = chart.series_colours.find(p.series);
    colour_of[p.series] =
        given != chart.series_colours.end() ? given->second : series_colour(next_colour++);
    order.push_back(p.series);
  }
  // One marker per series, kind and half pixel; the points it stands for go in its tooltip.
  struct Marker {
    const RooflineChart::Point* first;
    std::vector<const RooflineChart::Point*> all;
  };
  std::vector<Marker> markers;
  std::map<std::tuple<std::string, bool, std::string, long, long>, std::size_t> marker_at;
  for (const auto& p : chart.points) {
    if (p.intensity_flop_per_byte <= 0 || p.flop_per_s <= 0) continue;
    const auto key = std::make_tuple(p.series, p.simulated, p.level,
                                     std::lround(x.at(p.intensity_flop_per_byte) * 2),
                                     std::lround(y.at(p.flop_per_s) * 2));
    const auto [it, added] = marker_at.emplace(key, markers.size());
    if (added) markers.push_back({&p, {}});
    markers[it->second].all.push_back(&p);
  }
  const auto tooltip = [](const Marker& m, const std::string& figures) {
    const RooflineChart::Point& p = *m.first;
    std::string text =
        fmt::format("{} ({}){}", p.series, p.simulated ? "simulated" : "analytical", figures);
    for (std::size_t i = 0; i < m.all.size() && i < kTooltipNotes; ++i) {
      if (!m.all[i]->note.empty()) text += "\n" + m.all[i]->note;
    }
    if (m.all.size() > kTooltipNotes) {
      text += fmt::format("\n... {} points here in all", m.all.size());
    }
    return text;
  };
  svg.open("g", {{"class", "points"}});
  for (const Marker& m : markers) {
    const RooflineChart::Point& p = *m.first;
    const std::string& colour = colour_of[p.series];
    Svg::Attributes common{{"data-series", p.series}};
    if (!p.point.empty()) {
      std::string points;
      for (std::size_t i = 0; i < m.all.size() && i < kListedPoints; ++i)
        points += (points.empty() ? "" : " ") + m.all[i]->point;
      common.push_back({"data-point", points});
      common.push_back({"data-count", std::to_string(m.all.size())});
    }
    if (!p.level.empty()) {
      // At an inner level's intensity: a square, hollow or filled like the kernel's points.
      const double side = p.simulated ? 8 : 10;
      Svg::Attributes a{{"class", p.simulated ? "level-simulated" : "level-analytical"}};
      a.insert(a.end(), common.begin(), common.end());
      a.insert(a.end(),
               {{"data-level", p.level},
                {"data-intensity-flop-per-byte", fmt::format("{}", p.intensity_flop_per_byte)},
                {"data-flop-per-s", fmt::format("{}", p.flop_per_s)},
                {"x", svg_number(x.at(p.intensity_flop_per_byte) - side / 2)},
                {"y", svg_number(y.at(p.flop_per_s) - side / 2)},
                {"width", svg_number(side)},
                {"height", svg_number(side)},
                {"fill", p.simulated ? colour : "none"},
                {"stroke", colour},
                {"stroke-width", "2"}});
      svg.open("rect", a);
      svg.element("title", {},
                  tooltip(m, fmt::format(", I at {} = {} FLOP/B, {}{}", p.level,
                                         si(p.intensity_flop_per_byte, 6), si(p.flop_per_s, 6),
                                         chart.units.y)));
      svg.close("rect");
      continue;
    }
    Svg::Attributes a{{"class", p.simulated ? "simulated" : "analytical"}};
    a.insert(a.end(), common.begin(), common.end());
    a.insert(a.end(),
             {{"data-intensity-flop-per-byte", fmt::format("{}", p.intensity_flop_per_byte)},
              {"data-flop-per-s", fmt::format("{}", p.flop_per_s)},
              {"cx", svg_number(x.at(p.intensity_flop_per_byte))},
              {"cy", svg_number(y.at(p.flop_per_s))},
              {"r", p.time_share > 0 ? svg_number(4 + 16 * std::sqrt(p.time_share))
                    : p.simulated    ? "5"
                                     : "7"},
              {"fill", p.simulated ? colour : "none"},
              {"stroke", colour},
              {"stroke-width", "2"}});
    if (p.time_share > 0) a.push_back({"data-time-share", fmt::format("{}", p.time_share)});
    svg.open("circle", a);
    svg.element("title", {},
                tooltip(m, fmt::format(": I = {} FLOP/B, {}{}{}", si(p.intensity_flop_per_byte, 6),
                                       si(p.flop_per_s, 6), chart.units.y,
                                       p.time_share > 0 ? fmt::format(", {:.1f} % of the time",
                                                                      100 * p.time_share)
                                                        : "")));
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
  if (several) {
    ly += 18;
    svg.element("line", {{"x1", svg_number(lx - 7)},
                         {"y1", svg_number(ly)},
                         {"x2", svg_number(lx + 7)},
                         {"y2", svg_number(ly)},
                         {"stroke", "#444"},
                         {"stroke-width", "1.5"}});
    svg.element("text", {{"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}},
                fmt::format("{} machines' roofs", chart.roofs.size()));
  }
  ly += 26;
  if (!chart.legend_title.empty()) {
    svg.element("text",
                {{"class", "legend-title"},
                 {"x", svg_number(lx - 6)},
                 {"y", svg_number(ly + 4)},
                 {"font-weight", "bold"}},
                chart.legend_title);
    ly += 20;
  }
  for (std::size_t i = 0; i < order.size() && i < kLegendSeries; ++i) {
    const std::string& name = order[i];
    svg.element("rect", {{"x", svg_number(lx - 6)},
                         {"y", svg_number(ly - 6)},
                         {"width", "12"},
                         {"height", "12"},
                         {"fill", colour_of[name]}});
    svg.element("text",
                {{"class", "series"}, {"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}}, name);
    ly += 18;
  }
  if (order.size() > kLegendSeries) {
    svg.element("text", {{"x", svg_number(lx + 12)}, {"y", svg_number(ly + 4)}},
                fmt::format("... and {} more", order.size() - kLegendSeries));
  }
  svg.close("g");
  return svg.str();
}

}  // namespace ridgeline
