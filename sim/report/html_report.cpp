#include "sim/report/html_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "sim/charts/busy_chart.hpp"
#include "sim/charts/roofline_chart.hpp"
#include "sim/charts/svg.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 0; color: #222; background: #fafafa; }
main { max-width: 980px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.4em; margin: 0.2em 0; } h2 { font-size: 1.1em; margin: 1.4em 0 0.5em; border-bottom: 1px solid #ddd; }
.subtitle { color: #555; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0; }
.card { background: white; border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px; flex: 1 1 130px; max-width: 220px; }
.card .label { font-size: 0.8em; color: #666; } .card .value { font-size: 1.3em; font-weight: bold; }
table { border-collapse: collapse; background: white; width: 100%; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; } th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
.chart { background: white; border: 1px solid #ddd; border-radius: 6px; overflow-x: auto; }
.chart svg { max-width: 100%; height: auto; display: block; }
.note { color: #555; font-size: 0.88em; }
.columns { display: flex; flex-wrap: wrap; gap: 16px; } .columns > div { flex: 1; min-width: 280px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } .charts > .chart { flex: 1 1 440px; }
td.text, th.text { text-align: left; } .scroll { overflow-x: auto; }
@media print { body { background: white; } main { max-width: none; } .chart, .card { break-inside: avoid; } }
)";

std::string number(const Json& value, int decimals = 6) {
  if (value.is_number_unsigned() || value.is_number_integer())
    return with_commas(value.get<std::uint64_t>());
  if (value.is_number()) {
    const double v = value.get<double>();
    // Whole quantities (rates in B/s, FLOP/s) read better with separators than with decimals;
    // small ones (seconds) need significant digits, not fixed decimals.
    if (v == std::floor(v) && std::fabs(v) < 1.8e19)
      return with_commas(static_cast<std::uint64_t>(v));
    if (std::fabs(v) < 1e-3) return fmt::format("{:.{}g}", v, decimals);
    return fmt::format("{:.{}f}", v, decimals);
  }
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// A table cell carrying the JSON path it shows, so the page can be checked against the JSON.
std::string cell(const Json& report, const std::string& path, const std::string& text) {
  (void)report;
  return fmt::format("<td data-key=\"{}\">{}</td>", xml_escape(path), xml_escape(text));
}

const Json* at(const Json& report, const std::string& dotted) {
  const Json* node = &report;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    const auto dot = dotted.find('.', start);
    const std::string key =
        dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

std::string value_cell(const Json& report, const std::string& path, double scale = 1,
                       int decimals = 6, const std::string& unit = "") {
  const Json* v = at(report, path);
  if (v == nullptr) return "<td></td>";
  std::string text = scale == 1 ? number(*v, decimals)
                                : fmt::format("{:.{}f}", v->get<double>() * scale, decimals);
  if (!unit.empty()) text += " " + unit;
  return cell(report, path, text);
}

// A cell of a quantity in the text report's form: a time in the unit that fits it ("10.097 us"),
// a rate with its SI prefix ("19.747033 TFLOP/s").
enum class Quantity { seconds, flop_per_s, bytes_per_s };

std::string quantity_cell(const Json& report, const std::string& path, Quantity quantity) {
  const Json* v = at(report, path);
  if (v == nullptr || !v->is_number()) return "<td></td>";
  const double value = v->get<double>();
  switch (quantity) {
    case Quantity::seconds:
      return cell(report, path, duration(value));
    case Quantity::flop_per_s:
      return cell(report, path, engineering(value, "FLOP/s"));
    case Quantity::bytes_per_s:
      return cell(report, path, engineering(value, "B/s"));
  }
  return "<td></td>";
}

// A horizontal bar of shares that add up to one: where the cores' time went. It spans the width of
// its box (drawn at 900 units, scaled to the page), so shares adding up to one fill it.
std::string share_bar(const std::vector<std::pair<std::string, double>>& shares,
                      const std::vector<const char*>& colours) {
  constexpr double kW = 900, kH = 34;
  constexpr double kLegendRow = 20, kLegendColumn = kW / 2;
  const double legend_rows = std::ceil(static_cast<double>(shares.size()) / 2);
  Svg svg(kW, kH + 16 + kLegendRow * legend_rows);
  svg.fill_box_width();
  double x = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const double w = std::max(0.0, shares[i].second) * kW;
    svg.open("rect", {{"x", svg_number(x)},
                      {"y", "0"},
                      {"width", svg_number(w)},
                      {"height", svg_number(kH)},
                      {"fill", colours[i % colours.size()]},
                      {"data-share", fmt::format("{}", shares[i].second)}});
    svg.element("title", {}, fmt::format("{}: {:.1f} %", shares[i].first, 100 * shares[i].second));
    svg.close("rect");
    x += w;
    // Legend in two columns below the bar.
    const double lx = kLegendColumn * static_cast<double>(i % 2);
    const double ly = kH + 12 + kLegendRow * std::floor(static_cast<double>(i) / 2);
    svg.element("rect", {{"x", svg_number(lx)},
                         {"y", svg_number(ly)},
                         {"width", "12"},
                         {"height", "12"},
                         {"fill", colours[i % colours.size()]}});
    svg.element("text", {{"x", svg_number(lx + 16)}, {"y", svg_number(ly + 10)}},
                fmt::format("{} {:.1f} %", shares[i].first, 100 * shares[i].second));
  }
  return svg.str();
}

std::string key_values(const Json& object) {
  std::string rows;
  for (const auto& [key, value] : object.items()) {
    std::string text = value.is_object() || value.is_array() ? value.dump() : number(value);
    rows += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", xml_escape(key), xml_escape(text));
  }
  return "<table>\n" + rows + "</table>\n";
}

// The energy: a table of joules by component, analytical beside simulated, a bar of where the
// joules went (the run's, else the model's), and the power limit's outcome.
std::string energy_section(const Json& report) {
  const bool simulated = report.contains("simulated") && report["simulated"].contains("energy");
  const Json& a = report["analytical"]["energy"];
  std::string html = "<h2>Energy</h2>\n<table>\n<tr><th>component</th><th>analytical</th>";
  html += simulated ? "<th>simulated</th><th>share</th></tr>\n" : "</tr>\n";
  const auto joules_cell = [&](const std::string& path) {
    const Json* v = at(report, path);
    return v ? cell(report, path, engineering(v->get<double>(), "J")) : std::string("<td></td>");
  };
  std::vector<std::pair<std::string, double>> shares;
  const Json& shown = simulated ? report["simulated"]["energy"] : a;
  for (const auto& [key, value] : a["by_component"].items()) {
    const std::string name = key.substr(0, key.size() - 2);  // "flops_j" -> "flops"
    html += "<tr><td>" + xml_escape(name) + "</td>" +
            joules_cell("analytical.energy.by_component." + key);
    if (simulated) {
      const double part = report["simulated"]["energy"]["by_component"][key].get<double>();
      html += joules_cell("simulated.energy.by_component." + key) +
              fmt::format("<td>{:.1f} %</td>",
                          100 * part / report["simulated"]["energy"]["total_j"].get<double>());
    }
    html += "</tr>\n";
    shares.emplace_back(name,
                        shown["by_component"][key].get<double>() / shown["total_j"].get<double>());
  }
  const auto row = [&](const char* name, const char* key, const char* unit) {
    std::string text = "<tr><td>" + std::string(name) + "</td>";
    for (const char* side : {"analytical", "simulated"}) {
      if (std::string(side) == "simulated" && !simulated) break;
      const std::string path = std::string(side) + ".energy." + key;
      const Json* v = at(report, path);
      text += v ? cell(report, path, engineering(v->get<double>(), unit)) : "<td></td>";
    }
    return text + (simulated ? "<td></td></tr>\n" : "</tr>\n");
  };
  html += row("total", "total_j", "J");
  html += row("average power", "average_power_w", "W");
  html += row("FLOP per joule", "flop_per_j", "FLOP/J");
  html += row("energy-delay product", "energy_delay_product_j_s", "J s");
  html += "</table>\n<div class=\"chart\" id=\"energy-shares\">\n";
  html += share_bar(shares, {"#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#d62728",
                             "#ff9896", "#7f7f7f"});
  html += fmt::format(
      "</div>\n<p class=\"note\">Where the joules went ({}). HBM activations: {} ({}).</p>\n",
      simulated ? "the run" : "the analytical model", number(shown["counts"]["hbm_activations"]),
      shown["counts"]["hbm_activations_from"].get<std::string>() == "dram_model"
          ? "counted by the DRAM model"
          : "by the row rule: one per row of HBM bytes");
  if (report["analytical"].contains("power_limit")) {
    const Json& p = report["analytical"]["power_limit"];
    html += fmt::format(
        "<p>Power limit <span data-key=\"analytical.power_limit.limit_w\">{}</span>: the cores "
        "run at <span data-key=\"analytical.power_limit.clock_hz\">{}</span> (nominal {}), the "
        "analytical time {} instead of {}.</p>\n",
        engineering(p["limit_w"].get<double>(), "W"),
        engineering(p["clock_hz"].get<double>(), "Hz"),
        engineering(p["nominal_clock_hz"].get<double>(), "Hz"), duration(p["time_s"].get<double>()),
        duration(p["nominal_time_s"].get<double>()));
  }
  return html;
}

}  // namespace

std::string html_page_start(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>Ridgeline: {}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
      xml_escape(title), kStyle);
}

std::string html_page_end() {
  return "<p class=\"note\">Made by Ridgeline.</p>\n</main>\n</body>\n</html>\n";
}

std::string render_html_report(const Json& report, const BusyTimeline* busy_timeline) {
  const Json& analytical = report["analytical"];
  const bool simulated = report.contains("simulated");
  const std::string title = report["workload"]["description"].get<std::string>();
  std::string html;
  auto add = [&](const std::string& text) { html += text; };

  add(html_page_start(title));
  add(fmt::format(
      "<h1>{}</h1>\n<div class=\"subtitle\">on {}: {} cores, P = {}FLOP/s, BW = {}B/s, ridge {} "
      "FLOP/byte</div>\n",
      xml_escape(title), xml_escape(report["hardware"]["name"].get<std::string>()),
      number(report["hardware"]["cores"]), si(analytical["peak_flop_per_s"].get<double>()),
      si(analytical["hbm_bytes_per_s"].get<double>()),
      fmt::format("{:.6g}", analytical["ridge_flop_per_byte"].get<double>())));

  // Headline figures.
  add("<div class=\"cards\">\n");
  auto card = [&](const std::string& label, const std::string& path, const std::string& text) {
    add(
        fmt::format("<div class=\"card\"><div class=\"label\">{}</div><div class=\"value\" "
                    "data-key=\"{}\">{}</div></div>\n",
                    xml_escape(label), xml_escape(path), xml_escape(text)));
  };
  card("T_ideal", "analytical.t_ideal_s", duration(analytical["t_ideal_s"].get<double>()));
  card("analytical bound", "analytical.bound", analytical["bound"].get<std::string>());
  if (simulated) {
    const Json& s = report["simulated"];
    card("simulated time", "simulated.time_s", duration(s["time_s"].get<double>()));
    card("of its roof (" + s["verdict"]["limit"].get<std::string>() + ")",
         "simulated.percent_of_roof", fmt::format("{:.2f} %", s["percent_of_roof"].get<double>()));
    card("achieved", "simulated.achieved_flop_per_s",
         si(s["achieved_flop_per_s"].get<double>(), 4) + "FLOP/s");
    card("simulated bound", "simulated.bound", s["bound"].get<std::string>());
    if (s.contains("limiter")) {  // a memory trace runs no blocks: no limiter
      card("limiter", "simulated.limiter.cause", s["limiter"]["cause"].get<std::string>());
    }
  }
  add("</div>\n");
  if (simulated) {
    // As in the text report: the run's roof is the lowest at the Q measured at each level; the
    // note's (its Q, no cache between) is beside it, labelled.
    const Json& s = report["simulated"];
    add(fmt::format(
        "<p class=\"note\">Of its roof: the lowest roof the run faces, at the intensities "
        "measured (here {}'s). Of the seed note's roof, which counts the note's Q with no cache "
        "between the cores and HBM: <span data-key=\"simulated.percent_of_note_roof\">{:.2f}"
        "</span> %.</p>\n",
        xml_escape(s["verdict"]["limit"].get<std::string>()),
        s["percent_of_note_roof"].get<double>()));
  }

  // Analytical beside simulated.
  add("<h2>Analytical and simulated</h2>\n<table>\n<tr><th>figure</th><th>analytical</th>");
  add(simulated ? "<th>simulated</th></tr>\n" : "</tr>\n");
  // A row of the table; `cell_of` makes each side's cell from its JSON path.
  auto row_of = [&](const std::string& name, const std::string& a_path, const std::string& s_path,
                    const auto& cell_of) {
    add("<tr><td>" + xml_escape(name) + "</td>" + cell_of(a_path));
    if (simulated) add(s_path.empty() ? "<td></td>" : cell_of(s_path));
    add("</tr>\n");
  };
  auto row = [&](const std::string& name, const std::string& a_path, const std::string& s_path) {
    row_of(name, a_path, s_path, [&](const std::string& path) { return value_cell(report, path); });
  };
  auto quantity_row = [&](const std::string& name, const std::string& a_path,
                          const std::string& s_path, Quantity quantity) {
    row_of(name, a_path, s_path,
           [&](const std::string& path) { return quantity_cell(report, path, quantity); });
  };
  quantity_row("time", "analytical.t_ideal_s", "simulated.time_s", Quantity::seconds);
  row("FLOPs F", "analytical.flops", "simulated.flops");
  if (report["analytical"]["issued_flops"] != report["analytical"]["flops"]) {
    row("FLOPs issued (edge tiles' lanes, vector units' too)", "analytical.issued_flops",
        "simulated.issued_flops");
  }
  row("HBM bytes Q", "analytical.hbm_bytes", "simulated.hbm_bytes");
  row("intensity I (FLOP/byte)", "analytical.intensity_flop_per_byte",
      "simulated.intensity_flop_per_byte");
  quantity_row("FLOP/s (roof / achieved)", "analytical.roof_flop_per_s",
               "simulated.achieved_flop_per_s", Quantity::flop_per_s);
  quantity_row("HBM bytes/s (peak / achieved)", "analytical.hbm_bytes_per_s",
               "simulated.achieved_hbm_bytes_per_s", Quantity::bytes_per_s);
  row("bound", "analytical.bound", "simulated.bound");
  quantity_row("T_compute", "analytical.t_compute_s", "", Quantity::seconds);
  quantity_row("T_memory", "analytical.t_memory_s", "", Quantity::seconds);
  add("</table>\n");

  // The roofline, and the energy roofline beside it when the hardware gives energies.
  const bool energy = analytical.contains("energy");
  const bool energy_roof = energy && analytical["energy"]["roofline"].contains("peak_flop_per_j") &&
                           analytical["flops"].get<std::uint64_t>() > 0;
  add(energy_roof ? "<h2>Roofline and energy roofline</h2>\n<div class=\"charts\">\n"
                  : "<h2>Roofline</h2>\n");
  add("<div class=\"chart\">\n" + render_roofline_svg(roofline_of({report}, {})) + "</div>\n");
  if (energy_roof) {
    add("<div class=\"chart\" id=\"energy-roofline\">\n" +
        render_roofline_svg(energy_roofline_of({report}, {})) + "</div>\n</div>\n");
    add("<p class=\"note\">Energy roofline: FLOP per joule against I. Its roof is the lower of "
        "what the FLOPs alone allow and I times the bytes per joule of a byte read at the level "
        "alone; the kernel's point counts every joule (each level, static power), so it lies "
        "below them.</p>\n");
  }
  if (energy) add(energy_section(report));

  if (simulated) {
    const Json& s = report["simulated"];
    const double core_time = s["time_s"].get<double>() * report["hardware"]["cores"].get<double>();
    const Json& stalls = s["stalls"];
    // Busy at the unit's rate, and busy but held by SRAM operand reads or instruction issue.
    const double busy = s["compute_busy_fraction"].get<double>() +
                        s["operand_stall_fraction"].get<double>() +
                        s["issue_stall_fraction"].get<double>();
    const double overlap = core_time > 0 ? s["overlap_s"].get<double>() / core_time : 0;
    // A memory trace's report has no barrier or spill stalls: a missing one is zero (a const
    // object's operator[] must never be asked for a key it lacks).
    auto share = [&](const char* key) {
      return core_time > 0 ? stalls.value(key, 0.0) / core_time : 0;
    };
    add("<h2>Where the cores' time went</h2>\n<div class=\"chart\" id=\"core-time\">\n");
    add(share_bar({{"compute, overlapped with memory", overlap},
                   {"compute alone", busy - overlap},
                   {"waiting for data", share("compute_waiting_data_s")},
                   {"launching blocks", share("launching_s")},
                   {"waiting for other blocks", share("waiting_blocks_s")},
                   {"draining (stores, syncs)", share("draining_s")},
                   {"no work", share("no_work_s")},
                   {"in barriers", share("barrier_s")},
                   {"reloading spilled registers", share("spill_reload_s")}},
                  {"#2ca02c", "#98df8a", "#d62728", "#8c564b", "#17becf", "#ff9896", "#c7c7c7",
                   "#9467bd", "#ff7f0e"}));
    add("</div>\n<p class=\"note\">Shares of core-time: cores x simulated time. Overlap per "
        "core: " +
        fmt::format("{:.1f} %", 100 * s["overlap_fraction"].get<double>()) +
        " of the shorter of memory activity and compute ran alongside the other.</p>\n");
    if (busy_timeline) {
      const bool trace = s.contains("trace");
      add("<h2>Busy units over time</h2>\n<div class=\"chart\" id=\"busy-timeline\">\n");
      add(render_busy_chart(
          *busy_timeline,
          Time::from_ps(static_cast<std::uint64_t>(std::llround(s["time_s"].get<double>() * 1e12))),
          trace ? "player" : "core"));
      add("</div>\n<p class=\"note\">Each strip is the run cut into equal spans; the deeper the "
          "shade, the larger the part of a span the unit was busy: a load (or store) in flight, "
          "computing, HBM channels transferring (averaged over channels, and over cores in the "
          "strips of all cores). For every operation at its own time, ask for a timeline "
          "(<code>--timeline</code>) or a waveform (<code>--vcd</code>).</p>\n");
    }
    if (s.contains("limiter")) {
      add("<p>Limiter: <span data-key=\"simulated.limiter.cause\">" +
          xml_escape(s["limiter"]["cause"].get<std::string>()) +
          "</span>: " + xml_escape(s["limiter"]["summary"].get<std::string>()) + ".</p>\n");
    }
    add("<h2>Utilisation and stalls</h2>\n<table>\n<tr><th>figure</th><th>value</th></tr>\n");
    add("<tr><td>HBM busy</td>" + value_cell(report, "simulated.hbm_busy_fraction", 100, 1, "%") +
        "</tr>\n");
    add("<tr><td>compute busy at its rate</td>" +
        value_cell(report, "simulated.compute_busy_fraction", 100, 1, "%") + "</tr>\n");
    add("<tr><td>compute busy, held by SRAM operands</td>" +
        value_cell(report, "simulated.operand_stall_fraction", 100, 1, "%") + "</tr>\n");
    add("<tr><td>compute busy, held by instruction issue</td>" +
        value_cell(report, "simulated.issue_stall_fraction", 100, 1, "%") + "</tr>\n");
    add("<tr><td>overlap (of the shorter activity)</td>" +
        value_cell(report, "simulated.overlap_fraction", 100, 1, "%") + "</tr>\n");
    for (const auto& [key, value] : stalls.items()) {
      add("<tr><td>" + xml_escape(key) + " (core-time)</td>" +
          quantity_cell(report, "simulated.stalls." + key, Quantity::seconds) + "</tr>\n");
    }
    add("</table>\n");
  }

  add("<h2>On-chip footprint and occupancy</h2>\n<div class=\"columns\"><div>\n");
  add(key_values(analytical["footprint"]));
  add("</div><div>\n");
  add(key_values(analytical["occupancy"]));
  add("</div></div>\n");

  add("<h2>Configuration</h2>\n<div class=\"columns\"><div>\n<h3>hardware</h3>\n");
  add(key_values(report["hardware"]));
  add("</div><div>\n<h3>workload</h3>\n");
  add(key_values(report["workload"]));
  add("</div></div>\n");
  add(fmt::format("<p class=\"note\">Files: {} and {}{}.</p>\n",
                  xml_escape(report["config"]["hardware_path"].get<std::string>()),
                  xml_escape(report["config"]["workload_path"].get<std::string>()),
                  report["config"]["overrides"].empty()
                      ? ""
                      : ", with --set " + xml_escape(report["config"]["overrides"].dump())));
  add(html_page_end());
  return html;
}

}  // namespace ridgeline
