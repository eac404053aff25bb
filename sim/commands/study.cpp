#include "sim/commands/study.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "sim/charts/roofline_chart.hpp"
#include "sim/charts/svg.hpp"
#include "sim/config/run_config.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/report.hpp"
#include "sim/report/report_table.hpp"
#include "sim/run/run_limits.hpp"
#include "sim/util/child_process.hpp"
#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

// The L2 table's row of one run's report: Q at HBM beside the note's, I at HBM, hit rate.
std::vector<std::string> l2_cells(const std::string& label, const Json& report) {
  const Json& s = report["simulated"];
  const auto note_q = report["analytical"]["hbm_bytes"].get<std::uint64_t>();
  const auto hbm_q = s["hbm_bytes"].get<std::uint64_t>();
  return {label,
          with_commas(note_q),
          with_commas(hbm_q),
          fmt::format("{:.1f} %", 100.0 * static_cast<double>(hbm_q) / static_cast<double>(note_q)),
          fmt::format("{:.3f}", s["intensity_flop_per_byte"].get<double>()),
          fmt::format("{:.1f} %", 100 * s["l2"]["hit_rate"].get<double>()),
          s["verdict"]["limit"].get<std::string>()};
}

std::string verdict_cell(const Json& simulated) {
  const Json& v = simulated["verdict"];
  return bound_text(v["bound"].get<std::string>(), v["limit"].get<std::string>());
}

// A workload's keys and values as the report names them ("n", "tile.m"), in its order.
std::vector<std::pair<std::string, std::string>> workload_fields(const WorkloadSpec& spec) {
  struct Collect {
    std::vector<std::pair<std::string, std::string>> fields;
    void text(const char* name, std::string_view value) { fields.emplace_back(name, value); }
    void integer(const char* name, std::uint64_t value) {
      fields.emplace_back(name, std::to_string(value));
    }
  } collect;
  visit_fields(spec, collect);
  return collect.fields;
}

// Which of `labels` another one equals.
std::vector<bool> repeated(const std::vector<std::string>& labels) {
  std::vector<bool> repeats;
  for (const std::string& label : labels)
    repeats.push_back(std::count(labels.begin(), labels.end(), label) > 1);
  return repeats;
}

// The rows' labels: each workload's short label ("1x32x256, 4 stages"), and where rows would
// read the same, the keys in which those rows differ, named ("1x32x256, 4 stages, n = 4096"); where
// that is not enough (the same workload in two files), the file's name.
std::vector<std::string> row_labels(const std::vector<RunConfig>& configs,
                                    const std::vector<std::string>& paths) {
  std::vector<std::string> labels;
  for (const RunConfig& c : configs) labels.push_back(short_label(c.workload));
  std::vector<std::vector<std::pair<std::string, std::string>>> fields;
  for (const RunConfig& c : configs) fields.push_back(workload_fields(c.workload));
  const std::vector<bool> same_label = repeated(labels);
  std::vector<std::string> distinct = labels;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (!same_label[i]) continue;
    for (const auto& [name, value] : fields[i]) {
      bool differs = false;
      for (std::size_t j = 0; j < configs.size(); ++j) {
        if (labels[j] != labels[i]) continue;
        const auto match =
            std::find_if(fields[j].begin(), fields[j].end(),
                         [&key = name](const auto& field) { return field.first == key; });
        differs = differs || match == fields[j].end() || match->second != value;
      }
      if (differs) distinct[i] += fmt::format(", {} = {}", name, value);
    }
  }
  const std::vector<bool> still_same = repeated(distinct);
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (still_same[i]) distinct[i] += ", " + std::filesystem::path(paths[i]).filename().string();
  }
  return distinct;
}

// Every run's report as CSV, one header and a row per run, each row as `run --csv` writes it
// (report_csv). The header is every report's columns in the order first seen, so workloads of
// different kinds (a GEMM's tile, a trace's pattern) share it; a run without a column leaves it
// empty.
std::string reports_csv(const std::vector<Json>& reports) {
  Json columns = Json::object();  // dotted path -> "", in the order first seen
  std::vector<Json> leaves;       // per report: dotted path -> the leaf as report_csv writes it
  for (const Json& report : reports) {
    Json& flat = leaves.emplace_back(Json::object());
    for (const auto& [path, text] : flatten(report)) {
      flat[path] = text;
      columns[path] = "";
    }
  }
  std::string csv;
  for (const Json& flat : leaves) {
    Json row = columns;
    for (const auto& [path, text] : flat.items()) row[path] = text;
    const std::string header_and_row = report_csv(row);
    csv += csv.empty() ? header_and_row : header_and_row.substr(header_and_row.find('\n') + 1);
  }
  return csv;
}

// The study as one self-contained page: the tables the text prints, their notes, the roofline.
std::string study_html(const std::string& heading, const std::vector<ReportTable>& tables,
                       const std::vector<std::string>& notes, const std::string& roofline_svg) {
  std::string html = html_page_start(heading);
  html += "<h1>" + xml_escape(heading) + "</h1>\n";
  for (const ReportTable& table : tables) html += table_html(table);
  for (const std::string& note : notes) html += "<p class=\"note\">" + xml_escape(note) + "</p>\n";
  html += "<h2>Roofline</h2>\n<div class=\"chart\">\n" + roofline_svg + "</div>\n";
  return html + html_page_end();
}

}  // namespace

int run_study(const StudyOptions& options) {
  std::vector<RunConfig> configs;
  for (const auto& path : options.workload_paths) {
    configs.push_back(load_config(options.hardware_path, path, options.overrides));
    // A run that cannot be simulated is bad input like any other: refused before anything runs.
    if (!options.analytical_only) check_simulated_time_fits(configs.back());
  }
  // Every run's warnings before anything runs, each once (the hardware's are every run's).
  std::vector<ConfigWarning> warnings;
  for (const RunConfig& config : configs)
    warnings.insert(warnings.end(), config.warnings.begin(), config.warnings.end());
  std::cerr << warning_lines(warnings) << std::flush;
  const RunConfig& first = configs.front();
  const std::vector<std::string> labels = row_labels(configs, options.workload_paths);
  // Labels pad to the longest, so columns line up past the usual 20 characters.
  std::size_t label_width = 0;
  for (const std::string& label : labels) label_width = std::max(label_width, label.size());
  const std::size_t method_width = std::max<std::size_t>(20, label_width);
  const bool has_l2 = first.hardware.l2.has_value();
  const std::string heading = fmt::format(
      "Ridgeline study on {}: P = {:.6f} TFLOP/s, BW = {:.6f} TB/s, ridge = {:.6f} FLOP/byte",
      first.hardware.name, first.analysis.roof.peak_flop_per_s / 1e12,
      first.analysis.roof.hbm_bytes_per_s / 1e12, first.analysis.roofline.ridge_flop_per_byte);
  fmt::print("{}\n\n", heading);

  std::vector<ReportTable> tables;
  ReportTable& analytical = tables.emplace_back();
  analytical.id = "analytical";
  analytical.title = "Analytical (the seed note's model)";
  analytical.header = {"method", "Q (bytes)",      "I (FLOP/B)",    "roof (TFLOP/s)",
                       "bound",  "T_compute (ms)", "T_memory (ms)", "T_ideal (ms)"};
  analytical.widths = {method_width, 18, 11, 14, 8, 14, 14, 14};
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const RunConfig& c = configs[i];
    const Roofline& r = c.analysis.roofline;
    analytical.add({labels[i], with_commas(c.analysis.hbm_bytes()),
                    fmt::format("{:.6f}", r.intensity_flop_per_byte),
                    fmt::format("{:.6f}", r.roof_flop_per_s / 1e12), std::string(name_of(r.bound)),
                    fmt::format("{:.6f}", r.t_compute_s * 1e3),
                    fmt::format("{:.6f}", r.t_memory_s * 1e3),
                    fmt::format("{:.6f}", r.t_ideal_s * 1e3)});
  }
  fmt::print("{}\n{}", analytical.title, table_text(analytical));
  std::cout << std::flush;

  std::vector<Json> reports;
  std::vector<std::string> report_labels;  // the row label of each of `reports`
  std::vector<std::string> notes;
  int exit_code = 0;
  if (options.analytical_only) {
    for (std::size_t i = 0; i < configs.size(); ++i) {
      reports.push_back(report_json(configs[i], nullptr));
      report_labels.push_back(labels[i]);
    }
  } else {
    const std::string directory = make_temporary_directory("ridgeline-study");
    std::vector<std::vector<std::string>> runs;
    std::vector<std::string> outputs;
    for (std::size_t i = 0; i < configs.size(); ++i) {
      outputs.push_back(fmt::format("{}/{}.json", directory, i));
      runs.push_back(run_arguments(options.hardware_path, options.workload_paths[i],
                                   options.overrides, outputs.back()));
    }
    fmt::print("\nSimulated ({} runs, {} at a time)\n", runs.size(), options.jobs);
    std::cout << std::flush;
    const std::vector<ChildResult> results = run_children(self_executable(), runs, options.jobs);

    ReportTable simulated;
    simulated.id = "simulated";
    simulated.title = "Simulated";
    simulated.header = {"method",   "T_ideal (ms)", "simulated (ms)", "sim/ideal", "TFLOP/s",
                        "HBM TB/s", "I measured",   "Q exact",        "overlap",   "bound"};
    simulated.widths = {method_width, 14, 14, 9, 12, 12, 11, 8, 8, 14};
    ReportTable l2;
    l2.id = "l2";
    l2.title = "L2 and the memory levels (simulated)";
    l2.header = {"method",   "note's Q (bytes)", "HBM Q (bytes)", "of note",
                 "I at HBM", "L2 hits",          "binds"};
    l2.widths = {label_width, 18, 18, 9, 11, 8, 8};
    for (std::size_t i = 0; i < configs.size(); ++i) {
      const RunConfig& c = configs[i];
      if (results[i].exit_code != 0) {
        std::string error = results[i].error_text;
        while (!error.empty() && std::isspace(static_cast<unsigned char>(error.back())))
          error.pop_back();
        simulated.rows.push_back({{labels[i]}, error});
        exit_code = 1;
        continue;
      }
      const Json report = read_json_file(outputs[i]);
      std::remove(outputs[i].c_str());
      const Json& s = report["simulated"];
      const double time = s["time_s"].get<double>();
      const double ideal = c.analysis.roofline.t_ideal_s;
      simulated.add(
          {labels[i], fmt::format("{:.6f}", ideal * 1e3), fmt::format("{:.6f}", time * 1e3),
           fmt::format("{:.4f}", time / ideal),
           fmt::format("{:.6f}", s["achieved_flop_per_s"].get<double>() / 1e12),
           fmt::format("{:.6f}", s["achieved_hbm_bytes_per_s"].get<double>() / 1e12),
           fmt::format("{:.6f}", s["intensity_flop_per_byte"].get<double>()),
           // Spilled registers travel beside Q (CUDA local memory). With an L2, HBM sees less.
           has_l2 ? "n/a"
           : s["hbm_bytes"].get<std::uint64_t>() ==
                   c.analysis.hbm_bytes() + c.analysis.local_traffic_bytes()
               ? "yes"
               : "NO",
           fmt::format("{:.1f} %", 100 * s["overlap_fraction"].get<double>()),
           verdict_cell(s)});
      if (has_l2) l2.add(l2_cells(labels[i], report));
      reports.push_back(report);
      report_labels.push_back(labels[i]);
    }
    rmdir(directory.c_str());
    fmt::print("{}", table_text(simulated));
    tables.push_back(std::move(simulated));
    if (has_l2) {
      fmt::print("\n{}\n{}", l2.title, table_text(l2));
      tables.push_back(std::move(l2));
    }
    notes = {
        "sim/ideal: simulated time over T_ideal. Q exact: HBM bytes counted in the simulation "
        "equal the model's Q (plus spilled registers' traffic, if any).",
        "overlap: per core, the share of the shorter of memory activity and compute that ran "
        "alongside the other.",
        "bound: the run's verdict, the roof it came closest to: compute (F / P), or the memory "
        "level in brackets (its Q measured / its bandwidth), as `ridgeline run` prints it."};
    if (has_l2) {
      notes.insert(notes.end(),
                   {"With an L2 the HBM carries less than the note's Q (which assumes no reuse "
                    "across output tiles): Q exact is n/a.",
                    "L2 hits: line look-ups served without a new HBM fetch (a hit, or a fill "
                    "already on its way).",
                    "binds: the run's verdict, as in the bound column above."});
    }
    fmt::print("\n");
    for (const std::string& note : notes) fmt::print("  {}\n", note);
  }
  if (!options.json_path.empty()) {
    write_file_atomically(options.json_path, Json(reports).dump(2) + "\n");
  }
  if (!options.csv_path.empty()) write_file_atomically(options.csv_path, reports_csv(reports));
  if (!options.roofline_path.empty() || !options.html_path.empty()) {
    const std::string roofline_svg = render_roofline_svg(roofline_of(reports, report_labels));
    if (!options.roofline_path.empty()) write_file_atomically(options.roofline_path, roofline_svg);
    if (!options.html_path.empty()) {
      write_file_atomically(options.html_path, study_html(heading, tables, notes, roofline_svg));
    }
  }
  return exit_code;
}

}  // namespace ridgeline
