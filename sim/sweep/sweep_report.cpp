#include "sim/sweep/sweep_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>
#include <utility>

#include "sim/charts/plot_frame.hpp"
#include "sim/charts/svg.hpp"
#include "sim/report/html_report.hpp"
#include "sim/sweep/axis_chart.hpp"
#include "sim/sweep/heat_map.hpp"
#include "sim/sweep/pareto_chart.hpp"
#include "sim/util/config_error.hpp"
#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

constexpr std::size_t kProblemRows = 500;  // failed and skipped points listed in the page
constexpr std::size_t kRampAbove = 10;     // numeric colour axes with more values use a ramp

// "A,B" -> {"A", "B"}; anything else is the user's to fix.
std::vector<std::string> heatmap_names(const std::string& text) {
  std::vector<std::string> names;
  std::size_t start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    names.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (names.size() != 2 || names[0].empty() || names[1].empty()) {
    throw ConfigError(SourceLocation{"--heatmap"}, "", text, "must name two axes, AXIS,AXIS",
                      "e.g. --heatmap workload.tile,workload.stages");
  }
  return names;
}

void check_distinct(const std::string& x, const std::string& y, const std::string& text) {
  if (x == y) {
    throw ConfigError(SourceLocation{"--heatmap"}, "", text, "names the same axis twice",
                      "name two different axes");
  }
}

// The unit of a result column, read from its name's ending (simulated.time_s,
// analytical.roof_flop_per_s, analytical.footprint.sram_bytes_per_block); "" when it names none.
std::string column_unit(const std::string& column) {
  constexpr std::pair<std::string_view, const char*> kEndings[] = {
      {"flop_per_s", "FLOP/s"},    {"bytes_per_s", "B/s"},
      {"flop_per_byte", "FLOP/B"}, {"bytes_per_block", "B"},
      {"bytes_per_core", "B"},     {"bytes", "B"},
      {"flops", "FLOP"},           {"_s", "s"}};
  for (const auto& [ending, unit] : kEndings) {
    if (column.size() >= ending.size() &&
        column.compare(column.size() - ending.size(), ending.size(), ending) == 0)
      return unit;
  }
  return "";
}

// An objective's unit, as far as its expression shows one: a column's, or a column's per
// another's ("FLOP/s per B"); "" for anything else, which is then shown as a plain number.
std::string expression_unit(const std::string& expression) {
  const auto is_column = [](const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
  };
  if (is_column(expression)) return column_unit(expression);
  const auto slash = expression.find(" / ");
  if (slash == std::string::npos) return "";
  const std::string over = expression.substr(0, slash), under = expression.substr(slash + 3);
  if (!is_column(over) || !is_column(under)) return "";
  const std::string over_unit = column_unit(over), under_unit = column_unit(under);
  return over_unit.empty() || under_unit.empty() ? "" : over_unit + " per " + under_unit;
}

std::string td(const std::string& text, const std::string& key = "", bool left = false) {
  std::string attributes;
  if (!key.empty()) attributes += fmt::format(" data-key=\"{}\"", xml_escape(key));
  if (left) attributes += " class=\"text\"";
  return fmt::format("<td{}>{}</td>", attributes, xml_escape(text));
}

// An objective's value as the charts label one ("469 us", "293 TFLOP/s"), the exact number in
// data-value for whoever reads the page back.
std::string value_td(double value, const std::string& unit, const std::string& key = "") {
  if (!std::isfinite(value)) return td("-", key);
  std::string attributes = fmt::format(" data-value=\"{}\"", data_number(value));
  if (!key.empty()) attributes += fmt::format(" data-key=\"{}\"", xml_escape(key));
  return fmt::format("<td{}>{}</td>", attributes, xml_escape(si_unit(value, unit)));
}

}  // namespace

SweepReportAxes choose_report_axes(const SweepTable& table, const SweepReportOptions& options) {
  SweepReportAxes chosen;
  const auto& axes = table.axes();
  std::vector<std::size_t> varied;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (axes[a].values.size() > 1) varied.push_back(a);
  }
  if (!options.color_by.empty()) {
    chosen.color_by = table.axis_index(options.color_by, "--color-by");
  } else if (!varied.empty()) {
    chosen.color_by = varied.front();
  }
  if (!options.heatmap.empty()) {
    const auto names = heatmap_names(options.heatmap);
    chosen.heatmap_x = table.axis_index(names[0], "--heatmap");
    chosen.heatmap_y = table.axis_index(names[1], "--heatmap");
    check_distinct(axes[chosen.heatmap_x].name, axes[chosen.heatmap_y].name, options.heatmap);
    chosen.heatmap = true;
    return chosen;
  }
  // The first two varied axes that are not zipped together (a zip's keys give as many pairs of
  // values as either has values: a diagonal, no map).
  for (std::size_t i = 0; i < varied.size() && !chosen.heatmap; ++i) {
    for (std::size_t j = i + 1; j < varied.size() && !chosen.heatmap; ++j) {
      std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
      for (std::size_t p = 0; p < table.points().size(); ++p)
        pairs.emplace(table.value(p, varied[i]), table.value(p, varied[j]));
      if (pairs.size() > std::max(axes[varied[i]].values.size(), axes[varied[j]].values.size())) {
        chosen.heatmap = true;
        chosen.heatmap_x = varied[i];
        chosen.heatmap_y = varied[j];
      }
    }
  }
  return chosen;
}

void check_report_axes(const SweepReportOptions& options, const std::vector<std::string>& axes) {
  if (!options.color_by.empty()) check_axis_name(options.color_by, axes, "--color-by");
  if (!options.heatmap.empty()) {
    const auto names = heatmap_names(options.heatmap);
    check_distinct(check_axis_name(names[0], axes, "--heatmap"),
                   check_axis_name(names[1], axes, "--heatmap"), options.heatmap);
  }
}

RooflineChart sweep_roofline(const SweepTable& table, std::size_t color_by) {
  RooflineChart chart;
  const bool has_axis = color_by < table.axes().size();
  const SweepAxis* axis = has_axis ? &table.axes()[color_by] : nullptr;
  const auto& points = table.points();

  // A colour per value of the axis, fixed by its place among the axis's values.
  std::vector<std::string> colour_of_value;
  if (axis) {
    const bool ramp = axis->numeric && axis->values.size() > kRampAbove;
    std::vector<std::size_t> by_number(axis->values.size());
    for (std::size_t v = 0; v < by_number.size(); ++v) by_number[v] = v;
    std::sort(by_number.begin(), by_number.end(), [&](std::size_t x, std::size_t y) {
      return axis->values[x].number < axis->values[y].number;
    });
    colour_of_value.resize(axis->values.size());
    for (std::size_t rank = 0; rank < by_number.size(); ++rank) {
      const std::size_t v = by_number[rank];
      colour_of_value[v] = ramp ? ramp_colour(0.9 * static_cast<double>(rank) /
                                              static_cast<double>(by_number.size() - 1))
                                : series_colour(axis->numeric ? rank : v);
    }
    for (std::size_t v = 0; v < axis->values.size(); ++v) {
      chart.series_colours[axis->values[v].label] = colour_of_value[v];
    }
    chart.legend_title = axis->name;
  }

  // One roof per machine, coloured like its points when they all share a colour.
  std::vector<std::set<std::uint32_t>> machine_values(table.machines().size());
  std::size_t ok = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    if (p.status != SweepPointStatus::ok) continue;
    ++ok;
    const std::uint32_t v = axis ? table.value(i, color_by) : SweepTable::kNoValue;
    machine_values[p.machine].insert(v);
    const std::string series =
        axis && v != SweepTable::kNoValue ? axis->values[v].label : std::string("points");
    const std::string point = std::to_string(p.point);
    const std::string note = fmt::format("point {}: {}", p.point, table.inputs(i));
    chart.points.push_back(
        {series, p.analytical_intensity, p.analytical_flop_per_s, false, "", point, note});
    if (table.simulated() && std::isfinite(p.simulated_flop_per_s)) {
      chart.points.push_back(
          {series, p.simulated_intensity, p.simulated_flop_per_s, true, "", point, note});
    }
  }
  const bool several = table.machines().size() > 1;
  for (std::size_t m = 0; m < table.machines().size(); ++m) {
    const SweepMachine& machine = table.machines()[m];
    RooflineChart::Roof roof;
    roof.name = machine.name;
    roof.peak_flop_per_s = machine.peak_flop_per_s;
    roof.peak_label = fmt::format("P = {}FLOP/s ({})", si(machine.peak_flop_per_s), machine.dtype);
    for (const auto& [level, bandwidth] : machine.levels) roof.levels.push_back({level, bandwidth});
    const auto& values = machine_values[m];
    if (several && axis && values.size() == 1 && *values.begin() != SweepTable::kNoValue) {
      roof.colour = colour_of_value[*values.begin()];
    }
    chart.roofs.push_back(std::move(roof));
  }
  const std::string machines = several ? fmt::format("{} machines", table.machines().size())
                               : table.machines().empty() ? std::string("no machine")
                                                          : table.machines().front().name;
  chart.title = fmt::format("Sweep roofline: {} ok point{} on {}{}", ok, ok == 1 ? "" : "s",
                            machines, axis ? ", coloured by " + axis->name : "");
  if (chart.roofs.empty()) {
    chart.roofs.push_back({"none", 1, "", {{"hbm", 1}}, ""});
  }
  return chart;
}

std::string render_sweep_report(const SweepTable& table, const SweepReportAxes& axes) {
  const SweepManifest& m = table.manifest();
  const Json& summary = table.summary();
  const std::string mode = table.simulated() ? "simulated" : "analytical";
  std::string html = html_page_start("sweep " + m.sweep_file);
  auto add = [&](const std::string& text) { html += text; };

  add(fmt::format("<h1>Sweep {}</h1>\n", xml_escape(m.sweep_file)));
  add(fmt::format(
      "<div class=\"subtitle\">{} sweep of {} points{}; results in {}. Charts show the {} "
      "figures: {} and {}.</div>\n",
      mode == "simulated" ? "A simulated" : "An analytical", m.points,
      m.shard.count > 1 ? ", shard " + m.shard.to_string() : std::string(),
      xml_escape(table.directory()), mode, xml_escape(table.figure(0).column),
      xml_escape(table.figure(1).column)));

  add("<div class=\"cards\">\n");
  for (const char* status : {"ok", "failed", "skipped"}) {
    add(
        fmt::format("<div class=\"card\"><div class=\"label\">points {}</div><div class=\"value\" "
                    "data-key=\"points.{}\">{}</div></div>\n",
                    status, status, summary["points"][status].get<std::uint64_t>()));
  }
  add(fmt::format(
      "<div class=\"card\"><div class=\"label\">in the results</div><div class=\"value\">{} of "
      "{}</div></div>\n",
      table.points().size(), m.points));
  add("</div>\n");

  // Best point per objective.
  add("<h2>Best point per objective</h2>\n<div class=\"scroll\"><table>\n<tr><th>objective</th>"
      "<th>value</th><th>point</th><th class=\"text\">inputs</th></tr>\n");
  for (const Json& best : summary["best"]) {
    const std::string name = best["objective"].get<std::string>();
    add(fmt::format("<tr><td>{}<div class=\"note\">{} {}</div></td>", xml_escape(name),
                    xml_escape(best["goal"].get<std::string>()),
                    xml_escape(best["expression"].get<std::string>())));
    if (best.contains("point")) {
      add(value_td(best["value"].get<double>(),
                   expression_unit(best["expression"].get<std::string>()),
                   "best." + name + ".value") +
          td(std::to_string(best["point"].get<std::uint64_t>()), "best." + name + ".point") +
          td(best["inputs"].get<std::string>(), "", true));
    } else {
      add("<td colspan=\"3\" class=\"text\">no point has a value</td>");
    }
    add("</tr>\n");
  }
  add("</table></div>\n");
  if (summary["best"].empty()) add("<p class=\"note\">The sweep ranks by no objective.</p>\n");

  // Heat maps.
  add("<h2>Heat map</h2>\n");
  if (axes.heatmap) {
    bool drawn = false;
    for (std::size_t f = 0; f < 2; ++f) {
      const std::string svg = render_heat_map(table, axes.heatmap_x, axes.heatmap_y, f);
      if (svg.empty()) continue;
      drawn = true;
      add(fmt::format("<div class=\"chart heat-map\" data-figure=\"{}\">\n{}</div>\n",
                      xml_escape(table.figure(f).name), svg));
    }
    add(drawn ? "<p class=\"note\">Each cell is the best point of those with its two values; "
                "hover over a cell for the point, its inputs and why the others failed or were "
                "skipped. <code>--heatmap AXIS,AXIS</code> picks other axes.</p>\n"
              : fmt::format("<p class=\"note\">{} by {} would make more than {} cells: choose "
                            "axes with fewer values with <code>--heatmap AXIS,AXIS</code>.</p>\n",
                            xml_escape(table.axes()[axes.heatmap_x].name),
                            xml_escape(table.axes()[axes.heatmap_y].name), kHeatMapMaxCells));
  } else {
    add("<p class=\"note\">A heat map needs two axes with more than one value each.</p>\n");
  }

  // The Pareto front.
  add("<h2>Pareto front</h2>\n");
  const std::string pareto = render_pareto_chart(table);
  if (pareto.empty()) {
    add("<p class=\"note\">This sweep names no Pareto pair of objectives (<code>pareto:</code> in "
        "the sweep file; an analytical run leaves out a pair that needs simulated "
        "figures).</p>\n");
  } else {
    add("<div class=\"chart\" id=\"pareto\">\n" + pareto + "</div>\n");
    const auto& objectives = table.pareto_objectives();
    add(
        fmt::format("<div class=\"scroll\"><table id=\"pareto-points\">\n<tr><th>point</th>"
                    "<th>{}</th><th>{}</th><th class=\"text\">inputs</th></tr>\n",
                    xml_escape(objectives[0].name), xml_escape(objectives[1].name)));
    for (const Json& p : summary["pareto"]["points"]) {
      add("<tr>" + td(std::to_string(p["point"].get<std::uint64_t>())) +
          value_td(p[objectives[0].name].get<double>(), expression_unit(objectives[0].expression)) +
          value_td(p[objectives[1].name].get<double>(), expression_unit(objectives[1].expression)) +
          td(p["inputs"].get<std::string>(), "", true) + "</tr>\n");
    }
    add("</table></div>\n");
  }

  // Each figure against each axis that varies.
  add(fmt::format("<h2>{} time and FLOP/s by axis</h2>\n",
                  table.simulated() ? "Simulated" : "Analytical"));
  bool any_axis = false;
  for (std::size_t a = 0; a < table.axes().size(); ++a) {
    if (table.axes()[a].values.size() < 2) continue;
    any_axis = true;
    add("<div class=\"charts\">\n");
    for (std::size_t f = 0; f < 2; ++f) {
      add(
          fmt::format("<div class=\"chart axis-chart\" data-axis=\"{}\" data-figure=\"{}\">\n{}"
                      "</div>\n",
                      xml_escape(table.axes()[a].name), xml_escape(table.figure(f).name),
                      render_axis_chart(table, a, f)));
    }
    add("</div>\n");
  }
  add(any_axis ? "<p class=\"note\">Dots are the ok points at each value of the axis; the line "
                 "joins the best of them at each value, over every other axis.</p>\n"
               : "<p class=\"note\">No axis has more than one value.</p>\n");

  add("<h2>Roofline</h2>\n<div class=\"chart\" id=\"roofline\">\n");
  add(render_roofline_svg(sweep_roofline(table, axes.color_by)));
  add("</div>\n<p class=\"note\">Hollow: the analytical model's point (I at HBM, the roof); "
      "filled: the simulation's (I measured, FLOP/s achieved). "
      "<code>--color-by AXIS</code> colours by another axis.</p>\n");

  // Failed and skipped points.
  const std::uint64_t problems = summary["points"]["failed"].get<std::uint64_t>() +
                                 summary["points"]["skipped"].get<std::uint64_t>();
  add(fmt::format("<h2>Failed and skipped points ({})</h2>\n", problems));
  if (problems > 0) {
    add("<div class=\"scroll\"><table id=\"problems\">\n<tr><th>point</th><th class=\"text\">"
        "status</th><th class=\"text\">inputs</th><th class=\"text\">reason</th></tr>\n");
    std::size_t listed = 0;
    for (std::size_t i = 0; i < table.points().size() && listed < kProblemRows; ++i) {
      const SweepPoint& p = table.points()[i];
      if (p.status == SweepPointStatus::ok) continue;
      ++listed;
      add("<tr>" + td(std::to_string(p.point)) +
          td(p.status == SweepPointStatus::failed ? "failed" : "skipped", "", true) +
          td(table.inputs(i), "", true) + td(table.reasons()[p.reason], "", true) + "</tr>\n");
    }
    add("</table></div>\n");
    if (problems > listed) {
      add(fmt::format("<p class=\"note\">The first {} are listed; results.csv has them all.</p>\n",
                      listed));
    }
  }
  add(
      fmt::format("<p class=\"note\">Drawn from {}/results.jsonl and sweep.json; the summary is "
                  "recomputed from the rows as the sweep does (summary.json).</p>\n",
                  xml_escape(table.directory())));
  add(html_page_end());
  return html;
}

void write_sweep_report(const std::string& directory, const SweepReportOptions& options) {
  if (!options.any()) return;
  const SweepTable table = SweepTable::read(directory);
  const SweepReportAxes axes = choose_report_axes(table, options);
  if (!options.html_path.empty()) {
    write_file_atomically(options.html_path, render_sweep_report(table, axes));
  }
  if (!options.roofline_path.empty()) {
    write_file_atomically(options.roofline_path,
                          render_roofline_svg(sweep_roofline(table, axes.color_by)));
  }
}

}  // namespace ridgeline
