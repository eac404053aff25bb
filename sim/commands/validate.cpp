#include "sim/commands/validate.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <variant>

#include "sim/charts/correlation_chart.hpp"
#include "sim/charts/svg.hpp"
#include "sim/commands/validation_file.hpp"
#include "sim/config/run_config.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/report_table.hpp"
#include "sim/run/run_limits.hpp"
#include "sim/util/child_process.hpp"
#include "sim/util/json.hpp"
#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

constexpr std::size_t kMinimumForCorrelation = 3;  // cases of one kind of figure

}  // namespace

void check_validation_case(const ValidationCase& c) {
  std::optional<RunConfig> config;
  try {
    config = load_config(c.hardware_path, c.workload_path, c.overrides);
    set_l2_resident(*config, c.l2_resident);
    check_simulated_time_fits(*config);
  } catch (const ConfigError& error) {
    SourceLocation where = error.where();
    for (std::size_t i = 0; i < c.overrides.size(); ++i) {
      if (where.source == "--set " + c.overrides[i]) where = c.override_locations[i];
    }
    std::string key_path = error.key_path();
    if (where.source == "--l2-resident") {
      where = c.l2_resident_where;
      key_path = c.key_path + ".l2_resident";
    }
    throw ConfigError(
        where, key_path, error.value(),
        fmt::format("in case '{}' ({}): {}", c.name, c.where.to_string(), error.rule()),
        error.fix());
  }
  if (c.figure == ValidationFigure::latency &&
      !std::holds_alternative<MemoryTraceSpec>(config->workload)) {
    throw ConfigError(c.figure_where, c.key_path + ".figure", "latency",
                      "a latency is measured of a memory trace (its mean, issue to last byte)",
                      "give a workload of kind memory_trace, or another figure");
  }
  if (c.figure == ValidationFigure::power && !config->hardware.energy) {
    throw ConfigError(c.figure_where, c.key_path + ".figure", "power",
                      "a power is simulated from the hardware's energy model, and hardware '" +
                          config->hardware.name + "' gives no hardware.energy",
                      "give the hardware an energy section (docs/CONFIG.md), or another figure");
  }
}

namespace {

// What the case measured, taken from its run's report.
double simulated_figure(const Json& report, ValidationFigure figure) {
  const Json& s = report["simulated"];
  switch (figure) {
    case ValidationFigure::bandwidth: {
      // As a bandwidth benchmark counts: the bytes the workload is defined to move over its time.
      // A benchmark runs its kernel many times over, and each run first writes back what the last
      // one left dirty in the caches; one simulated run ends with that still in the L2. Its time
      // gains that write-back at the HBM's peak: the least it can cost, and what keeps the figure
      // at or below the peak (the HBM moved at most peak x time while the kernel ran).
      const double bytes = s.contains("trace") ? s["trace"]["bytes"].get<double>()
                                               : report["analytical"]["hbm_bytes"].get<double>();
      double dirty_bytes = 0;
      for (const auto& [name, component] : report["components"].items()) {
        if (component.contains("dirty_at_end_bytes"))
          dirty_bytes += component["dirty_at_end_bytes"].get<double>();
      }
      const double drain_s = dirty_bytes / report["hardware"]["hbm_bytes_per_s"].get<double>();
      return bytes / (s["time_s"].get<double>() + drain_s);
    }
    case ValidationFigure::flop_rate:
      return s["achieved_flop_per_s"].get<double>();
    case ValidationFigure::time:
      return s["time_s"].get<double>();
    case ValidationFigure::latency:
      return s["trace"]["latency_s"]["mean"].get<double>();
    case ValidationFigure::power:
      return s["energy"]["average_power_w"].get<double>();
  }
  return 0;
}

// A figure for the table, in the unit people quote it in.
std::string figure_text(ValidationFigure figure, double value) {
  switch (figure) {
    case ValidationFigure::bandwidth:
      return fmt::format("{:.1f} GB/s", value / 1e9);
    case ValidationFigure::flop_rate:
      return fmt::format("{:.1f} TFLOP/s", value / 1e12);
    case ValidationFigure::time:
      return fmt::format("{:.3f} us", value * 1e6);
    case ValidationFigure::latency:
      return fmt::format("{:.1f} ns", value * 1e9);
    case ValidationFigure::power:
      return fmt::format("{:.1f} W", value);
  }
  return "";
}

struct Outcome {
  const ValidationCase* c = nullptr;
  bool ok = false;
  std::string failure;
  double simulated = 0;
  double error_percent = 0;  ///< (simulated - measured) / measured
};

// Pearson's r of measured against simulated over the cases of each kind of figure that has
// enough of them (on the logarithms: the cases span decades).
std::map<std::string, double> correlations(const std::vector<Outcome>& outcomes) {
  std::map<std::string, std::vector<std::pair<double, double>>> by_figure;
  for (const Outcome& o : outcomes) {
    if (!o.ok) continue;
    by_figure[std::string(name_of(o.c->figure))].emplace_back(std::log(o.c->measured),
                                                              std::log(o.simulated));
  }
  std::map<std::string, double> r;
  for (const auto& [figure, pairs] : by_figure) {
    if (pairs.size() < kMinimumForCorrelation) continue;
    double mx = 0, my = 0;
    for (const auto& [x, y] : pairs) {
      mx += x;
      my += y;
    }
    mx /= static_cast<double>(pairs.size());
    my /= static_cast<double>(pairs.size());
    double sxy = 0, sxx = 0, syy = 0;
    for (const auto& [x, y] : pairs) {
      sxy += (x - mx) * (y - my);
      sxx += (x - mx) * (x - mx);
      syy += (y - my) * (y - my);
    }
    if (sxx > 0 && syy > 0) r[figure] = sxy / std::sqrt(sxx * syy);
  }
  return r;
}

// Every case of `files`, in order; two cases of one name are an error at the second.
std::vector<ValidationCase> load_cases(const std::vector<std::string>& files) {
  std::vector<ValidationCase> cases;
  for (const std::string& file : files) {
    for (ValidationCase& c : load_validation_file(file)) {
      for (const ValidationCase& earlier : cases) {
        if (earlier.name == c.name) {
          throw ConfigError(c.name_where, c.key_path + ".name", c.name,
                            fmt::format("a case of this name is already at {}",
                                        earlier.where.to_string()),
                            "give each case its own name");
        }
      }
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

// Each case simulated by `ridgeline run` in a child process of its own, `jobs` at a time.
std::vector<Outcome> simulate_cases(const std::vector<ValidationCase>& cases, unsigned jobs) {
  const std::string directory = make_temporary_directory("ridgeline-validate");
  std::vector<std::vector<std::string>> runs;
  std::vector<std::string> outputs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    outputs.push_back(fmt::format("{}/{}.json", directory, i));
    runs.push_back(run_arguments(cases[i].hardware_path, cases[i].workload_path, cases[i].overrides,
                                 outputs.back(), cases[i].l2_resident));
  }
  const std::vector<ChildResult> results = run_children(self_executable(), runs, jobs);
  std::vector<Outcome> outcomes;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Outcome& o = outcomes.emplace_back();
    o.c = &cases[i];
    if (!results[i].ok()) {
      o.failure = results[i].failure();
      continue;
    }
    o.simulated = simulated_figure(read_json_file(outputs[i]), cases[i].figure);
    std::remove(outputs[i].c_str());
    o.ok = true;
    o.error_percent = 100 * (o.simulated / cases[i].measured - 1);
  }
  rmdir(directory.c_str());
  return outcomes;
}

// The statistics over the cases that ran, and the lines that say them.
struct Summary {
  std::size_t ok = 0;
  double mean_abs_error_percent = 0;
  const Outcome* worst = nullptr;
  std::map<std::string, double> correlation;  // by figure
  std::vector<std::string> lines;
};

Summary summarize(const std::vector<Outcome>& outcomes) {
  Summary s;
  double sum_abs = 0;
  for (const Outcome& o : outcomes) {
    if (!o.ok) continue;
    ++s.ok;
    sum_abs += std::fabs(o.error_percent);
    if (s.worst == nullptr || std::fabs(o.error_percent) > std::fabs(s.worst->error_percent))
      s.worst = &o;
  }
  s.mean_abs_error_percent = s.ok > 0 ? sum_abs / static_cast<double>(s.ok) : 0;
  s.correlation = correlations(outcomes);
  s.lines.push_back(
      fmt::format("mean absolute error {:.1f} % over {} cases", s.mean_abs_error_percent, s.ok));
  if (s.worst != nullptr) {
    s.lines.push_back(
        fmt::format("worst: {} ({:+.1f} %)", s.worst->c->name, s.worst->error_percent));
  }
  for (const auto& [figure, value] : s.correlation) {
    s.lines.push_back(fmt::format("correlation ({}, on logarithms): r = {:.3f}", figure, value));
  }
  if (s.ok < outcomes.size()) {
    s.lines.push_back(
        fmt::format("{} case(s) failed to simulate and are left out", outcomes.size() - s.ok));
  }
  return s;
}

ReportTable cases_table(const std::vector<Outcome>& outcomes) {
  ReportTable table;
  table.id = "cases";
  table.title = "Measured against simulated";
  table.header = {"case", "machine", "figure", "measured", "simulated", "error"};
  std::size_t name_width = 4, gpu_width = 7;
  for (const Outcome& o : outcomes) {
    name_width = std::max(name_width, o.c->name.size());
    gpu_width = std::max(gpu_width, o.c->gpu.size());
  }
  table.widths = {name_width, gpu_width, 9, 16, 16, 9};
  for (const Outcome& o : outcomes) {
    if (!o.ok) {
      table.rows.push_back({{o.c->name}, o.failure});
      continue;
    }
    table.add({o.c->name, o.c->gpu, std::string(name_of(o.c->figure)),
               figure_text(o.c->figure, o.c->measured), figure_text(o.c->figure, o.simulated),
               fmt::format("{:+.1f} %", o.error_percent)});
  }
  return table;
}

Json validation_json(const std::vector<Outcome>& outcomes, const Summary& summary) {
  Json json;
  json["cases"] = Json::array();
  for (const Outcome& o : outcomes) {
    Json c = {{"name", o.c->name},         {"gpu", o.c->gpu},
              {"figure", name_of(o.c->figure)}, {"unit", unit_of(o.c->figure)},
              {"measured", o.c->measured}, {"source", o.c->source}};
    if (o.ok) {
      c["simulated"] = o.simulated;
      c["error_percent"] = o.error_percent;
    } else {
      c["failure"] = o.failure;
    }
    json["cases"].push_back(std::move(c));
  }
  json["mean_absolute_error_percent"] = summary.mean_abs_error_percent;
  json["max_abs_error_percent"] =
      summary.worst != nullptr ? std::fabs(summary.worst->error_percent) : 0.0;
  json["correlation"] = Json::object();
  for (const auto& [figure, value] : summary.correlation) json["correlation"][figure] = value;
  return json;
}

std::string correlation_svg(const std::vector<Outcome>& outcomes) {
  std::vector<CorrelationPoint> points;
  for (const Outcome& o : outcomes) {
    if (o.ok) {
      points.push_back({o.c->name, o.c->gpu, std::string(name_of(o.c->figure)),
                        std::string(unit_of(o.c->figure)), o.c->measured, o.simulated});
    }
  }
  return render_correlation_chart(points);
}

std::string validation_page(const std::vector<Outcome>& outcomes, const ReportTable& table,
                            const Summary& summary, const std::string& svg) {
  std::string html = html_page_start("validation");
  html += "<h1>Ridgeline against measured machines</h1>\n" + table_html(table);
  html += "<ul>\n";
  for (const std::string& line : summary.lines) html += "<li>" + xml_escape(line) + "</li>\n";
  html += "</ul>\n<h2>Simulated against measured</h2>\n<div class=\"chart\">\n" + svg +
          "</div>\n<h2>Sources</h2>\n<ul>\n";
  for (const Outcome& o : outcomes)
    html += "<li>" + xml_escape(o.c->name) + ": " + xml_escape(o.c->source) + "</li>\n";
  return html + "</ul>\n" + html_page_end();
}

}  // namespace

int run_validate(const ValidateOptions& options) {
  const std::vector<ValidationCase> cases = load_cases(options.files);
  for (const ValidationCase& c : cases) check_validation_case(c);
  fmt::print("Validation: {} measured cases from {} file(s), {} simulations at a time\n\n",
             cases.size(), options.files.size(), options.jobs);
  std::cout << std::flush;
  const std::vector<Outcome> outcomes = simulate_cases(cases, options.jobs);
  const ReportTable table = cases_table(outcomes);
  const Summary summary = summarize(outcomes);
  fmt::print("{}\n", table_text(table));
  for (const std::string& line : summary.lines) fmt::print("  {}\n", line);
  if (!options.json_path.empty()) {
    write_file_atomically(options.json_path, validation_json(outcomes, summary).dump(2) + "\n");
  }
  const std::string svg = correlation_svg(outcomes);
  if (!options.svg_path.empty()) write_file_atomically(options.svg_path, svg);
  if (!options.html_path.empty()) {
    write_file_atomically(options.html_path, validation_page(outcomes, table, summary, svg));
  }
  // A simulation that failed on valid input is a bug: reported, and the exit says so.
  return summary.ok == outcomes.size() ? 0 : 1;
}

}  // namespace ridgeline
