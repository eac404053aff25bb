#include "sim/commands/validate.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <variant>

#include "sim/charts/chart_scale.hpp"
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
    check_simulated_time_fits(*config);
  } catch (const ConfigError& error) {
    SourceLocation where = error.where();
    for (std::size_t i = 0; i < c.overrides.size(); ++i) {
      if (where.source == "--set " + c.overrides[i]) where = c.override_locations[i];
    }
    throw ConfigError(where, error.key_path(), error.value(),
                      fmt::format("in case '{}' ({}): {}", c.name, c.where.to_string(),
                                  error.rule()),
                      error.fix());
  }
  if (c.figure == ValidationFigure::latency &&
      !std::holds_alternative<MemoryTraceSpec>(config->workload)) {
    throw ConfigError(c.figure_where, c.key_path + ".figure", "latency",
                      "a latency is measured of a memory trace (its mean, issue to last byte)",
                      "give a workload of kind memory_trace, or another figure");
  }
}

namespace {

Json read_json(const std::string& path) {
  std::ifstream file(path);
  return Json::parse(file);
}

// What the case measured, taken from its run's report.
double simulated_figure(const Json& report, ValidationFigure figure) {
  const Json& s = report["simulated"];
  switch (figure) {
    case ValidationFigure::bandwidth:
      // As a bandwidth benchmark counts: the bytes the workload is defined to move over its time.
      if (s.contains("trace")) return s["trace"]["achieved_bytes_per_s"].get<double>();
      return report["analytical"]["hbm_bytes"].get<double>() / s["time_s"].get<double>();
    case ValidationFigure::flop_rate:
      return s["achieved_flop_per_s"].get<double>();
    case ValidationFigure::time:
      return s["time_s"].get<double>();
    case ValidationFigure::latency:
      return s["trace"]["latency_s"]["mean"].get<double>();
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

std::string one_line(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  const std::size_t last = text.rfind('\n');
  return last == std::string::npos ? text : text.substr(last + 1);
}

}  // namespace

int run_validate(const ValidateOptions& options) {
  std::vector<ValidationCase> cases;
  for (const std::string& file : options.files) {
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
  for (const ValidationCase& c : cases) check_validation_case(c);

  char directory_template[] = "/tmp/ridgeline-validate-XXXXXX";
  const char* directory = mkdtemp(directory_template);
  if (directory == nullptr) throw std::runtime_error("cannot create a temporary directory in /tmp");
  std::vector<std::vector<std::string>> runs;
  std::vector<std::string> outputs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    outputs.push_back(fmt::format("{}/{}.json", directory, i));
    std::vector<std::string> arguments{"run",    cases[i].hardware_path, cases[i].workload_path,
                                       "--quiet", "--json", outputs.back()};
    for (const std::string& assignment : cases[i].overrides) {
      arguments.push_back("--set");
      arguments.push_back(assignment);
    }
    runs.push_back(std::move(arguments));
  }
  fmt::print("Validation: {} measured cases from {} file(s), {} simulations at a time\n\n",
             cases.size(), options.files.size(), options.jobs);
  std::cout << std::flush;
  const std::vector<ChildResult> results = run_children(self_executable(), runs, options.jobs);

  std::vector<Outcome> outcomes;
  int exit_code = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Outcome& o = outcomes.emplace_back();
    o.c = &cases[i];
    if (!results[i].ok()) {
      o.failure = one_line(results[i].error_text.empty() ? results[i].failure()
                                                         : results[i].error_text);
      exit_code = 1;
      continue;
    }
    o.simulated = simulated_figure(read_json(outputs[i]), cases[i].figure);
    std::remove(outputs[i].c_str());
    o.ok = true;
    o.error_percent = 100 * (o.simulated / cases[i].measured - 1);
  }
  rmdir(directory);

  ReportTable table;
  table.id = "cases";
  table.title = "Measured against simulated";
  table.header = {"case", "machine", "figure", "measured", "simulated", "error"};
  std::size_t name_width = 4, gpu_width = 7;
  for (const ValidationCase& c : cases) {
    name_width = std::max(name_width, c.name.size());
    gpu_width = std::max(gpu_width, c.gpu.size());
  }
  table.widths = {name_width, gpu_width, 9, 16, 16, 9};
  double sum_abs = 0;
  const Outcome* worst = nullptr;
  std::size_t ok = 0;
  for (const Outcome& o : outcomes) {
    if (!o.ok) {
      table.rows.push_back({{o.c->name}, o.failure});
      continue;
    }
    table.add({o.c->name, o.c->gpu, std::string(name_of(o.c->figure)),
               figure_text(o.c->figure, o.c->measured), figure_text(o.c->figure, o.simulated),
               fmt::format("{:+.1f} %", o.error_percent)});
    ++ok;
    sum_abs += std::fabs(o.error_percent);
    if (worst == nullptr || std::fabs(o.error_percent) > std::fabs(worst->error_percent)) worst = &o;
  }
  fmt::print("{}", table_text(table));
  const double mean_abs = ok > 0 ? sum_abs / static_cast<double>(ok) : 0;
  const std::map<std::string, double> r = correlations(outcomes);
  std::vector<std::string> summary;
  summary.push_back(fmt::format("mean absolute error {:.1f} % over {} cases", mean_abs, ok));
  if (worst != nullptr) {
    summary.push_back(fmt::format("worst: {} ({:+.1f} %)", worst->c->name, worst->error_percent));
  }
  for (const auto& [figure, value] : r) {
    summary.push_back(fmt::format("correlation ({}, on logarithms): r = {:.3f}", figure, value));
  }
  if (ok < outcomes.size()) {
    summary.push_back(fmt::format("{} case(s) failed to simulate and are left out",
                                  outcomes.size() - ok));
  }
  fmt::print("\n");
  for (const std::string& line : summary) fmt::print("  {}\n", line);

  if (!options.json_path.empty()) {
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
    json["mean_absolute_error_percent"] = mean_abs;
    json["max_abs_error_percent"] = worst != nullptr ? std::fabs(worst->error_percent) : 0.0;
    json["correlation"] = Json::object();
    for (const auto& [figure, value] : r) json["correlation"][figure] = value;
    write_file_atomically(options.json_path, json.dump(2) + "\n");
  }
  std::vector<CorrelationPoint> points;
  for (const Outcome& o : outcomes) {
    if (o.ok) {
      points.push_back({o.c->name, o.c->gpu, std::string(name_of(o.c->figure)),
                        std::string(unit_of(o.c->figure)), o.c->measured, o.simulated});
    }
  }
  const std::string svg = render_correlation_chart(points);
  if (!options.svg_path.empty()) write_file_atomically(options.svg_path, svg);
  if (!options.html_path.empty()) {
    std::string html = html_page_start("validation");
    html += "<h1>Ridgeline against measured machines</h1>\n" + table_html(table);
    html += "<ul>\n";
    for (const std::string& line : summary) html += "<li>" + xml_escape(line) + "</li>\n";
    html += "</ul>\n<h2>Simulated against measured</h2>\n<div class=\"chart\">\n" + svg +
            "</div>\n<h2>Sources</h2>\n<ul>\n";
    for (const ValidationCase& c : cases)
      html += "<li>" + xml_escape(c.name) + ": " + xml_escape(c.source) + "</li>\n";
    html += "</ul>\n";
    write_file_atomically(options.html_path, html + html_page_end());
  }
  return exit_code;
}

}  // namespace ridgeline
