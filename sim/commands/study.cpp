#include "sim/commands/study.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/util/child_process.hpp"
#include "sim/config/run_config.hpp"
#include "sim/util/output_file.hpp"
#include "sim/report/report.hpp"
#include "sim/charts/roofline_chart.hpp"
#include "sim/run/run_limits.hpp"

namespace ridgeline {

namespace {

// One row of the L2 table from a run's report: Q at HBM beside the note's, I at HBM, hit rate.
constexpr const char* kL2Row = "  {} {:>18} {:>18} {:>9} {:>11} {:>8} {:>8}\n";

std::string l2_row(const std::string& label, const Json& report) {
  const Json& s = report["simulated"];
  const auto note_q = report["analytical"]["hbm_bytes"].get<std::uint64_t>();
  const auto hbm_q = s["hbm_bytes"].get<std::uint64_t>();
  return fmt::format(
      kL2Row, label, with_commas(note_q), with_commas(hbm_q),
      fmt::format("{:.1f} %", 100.0 * static_cast<double>(hbm_q) / static_cast<double>(note_q)),
      fmt::format("{:.3f}", s["intensity_flop_per_byte"].get<double>()),
      fmt::format("{:.1f} %", 100 * s["l2"]["hit_rate"].get<double>()),
      s["binding_level"].get<std::string>());
}

Json read_json(const std::string& path) {
  std::ifstream file(path);
  return Json::parse(file);
}

}  // namespace

int run_study(const StudyOptions& options) {
  std::vector<RunConfig> configs;
  for (const auto& path : options.workload_paths) {
    configs.push_back(load_config(options.hardware_path, path, options.overrides));
    // A run that cannot be simulated is bad input like any other: refused before anything runs.
    if (!options.analytical_only) check_simulated_time_fits(configs.back());
  }
  const RunConfig& first = configs.front();
  // Labels pad to the longest, so columns line up past the usual 20 characters.
  std::size_t label_width = 0;
  for (const RunConfig& c : configs)
    label_width = std::max(label_width, short_label(c.workload).size());
  const auto label = [&](const std::string& text) {
    return text + std::string(label_width > text.size() ? label_width - text.size() : 0, ' ');
  };
  const bool has_l2 = first.hardware.l2.has_value();
  fmt::print(
      "Ridgeline study on {}: P = {:.6f} TFLOP/s, BW = {:.6f} TB/s, ridge = {:.6f} FLOP/byte\n\n",
      first.hardware.name, first.analysis.roof.peak_flop_per_s / 1e12,
      first.analysis.roof.hbm_bytes_per_s / 1e12, first.analysis.roofline.ridge_flop_per_byte);

  fmt::print("Analytical (the seed note's model)\n");
  const char* analytical_row = "  {:<20} {:>18} {:>11} {:>14} {:>8} {:>14} {:>14} {:>14}\n";
  fmt::print(analytical_row, label("method"), "Q (bytes)", "I (FLOP/B)", "roof (TFLOP/s)", "bound",
             "T_compute (ms)", "T_memory (ms)", "T_ideal (ms)");
  for (const RunConfig& c : configs) {
    const Roofline& r = c.analysis.roofline;
    fmt::print(analytical_row, label(short_label(c.workload)), with_commas(c.analysis.hbm_bytes()),
               fmt::format("{:.6f}", r.intensity_flop_per_byte),
               fmt::format("{:.6f}", r.roof_flop_per_s / 1e12), name_of(r.bound),
               fmt::format("{:.6f}", r.t_compute_s * 1e3),
               fmt::format("{:.6f}", r.t_memory_s * 1e3), fmt::format("{:.6f}", r.t_ideal_s * 1e3));
  }
  std::cout << std::flush;

  Json all = Json::array();
  int exit_code = 0;
  if (options.analytical_only) {
    for (const RunConfig& c : configs) {
      all.push_back(report_json(c, nullptr));
    }
  } else {
    char directory_template[] = "/tmp/ridgeline-study-XXXXXX";
    const char* directory = mkdtemp(directory_template);
    if (directory == nullptr)
      throw std::runtime_error("cannot create a temporary directory in /tmp");
    std::vector<std::vector<std::string>> runs;
    std::vector<std::string> outputs;
    for (std::size_t i = 0; i < configs.size(); ++i) {
      outputs.push_back(fmt::format("{}/{}.json", directory, i));
      std::vector<std::string> arguments{
          "run",    options.hardware_path, options.workload_paths[i], "--quiet",
          "--json", outputs.back()};
      for (const auto& assignment : options.overrides) {
        arguments.push_back("--set");
        arguments.push_back(assignment);
      }
      runs.push_back(std::move(arguments));
    }
    fmt::print("\nSimulated ({} runs, {} at a time)\n", runs.size(), options.jobs);
    std::cout << std::flush;
    const std::vector<ChildResult> results = run_children(self_executable(), runs, options.jobs);
    std::string l2_rows;

    const char* simulated_row =
        "  {:<20} {:>14} {:>14} {:>9} {:>12} {:>12} {:>11} {:>8} {:>8} {:>8}\n";
    fmt::print(simulated_row, label("method"), "T_ideal (ms)", "simulated (ms)", "sim/ideal",
               "TFLOP/s", "HBM TB/s", "I measured", "Q exact", "overlap", "bound");
    for (std::size_t i = 0; i < configs.size(); ++i) {
      const RunConfig& c = configs[i];
      if (results[i].exit_code != 0) {
        std::string error = results[i].error_text;
        while (!error.empty() && std::isspace(static_cast<unsigned char>(error.back())))
          error.pop_back();
        fmt::print("  {:<20} failed: {}\n", label(short_label(c.workload)), error);
        exit_code = 1;
        continue;
      }
      const Json report = read_json(outputs[i]);
      std::remove(outputs[i].c_str());
      const Json& s = report["simulated"];
      const double time = s["time_s"].get<double>();
      const double ideal = c.analysis.roofline.t_ideal_s;
      fmt::print(
          simulated_row, label(short_label(c.workload)), fmt::format("{:.6f}", ideal * 1e3),
          fmt::format("{:.6f}", time * 1e3), fmt::format("{:.4f}", time / ideal),
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
          s["bound"].get<std::string>());
      if (has_l2) l2_rows += l2_row(label(short_label(c.workload)), report);
      all.push_back(report);
    }
    rmdir(directory);
    if (has_l2) {
      fmt::print("\nL2 and the memory levels (simulated)\n");
      fmt::print(kL2Row, label("method"), "note's Q (bytes)", "HBM Q (bytes)", "of note",
                 "I at HBM", "L2 hits", "binds");
      fmt::print("{}", l2_rows);
    }
    fmt::print(
        "\n  sim/ideal: simulated time over T_ideal. Q exact: HBM bytes counted in the simulation "
        "equal the model's Q (plus spilled registers' traffic, if any).\n  overlap: per core, the "
        "share of the shorter of memory activity "
        "and compute that ran alongside the other.\n  bound: the busier of HBM and the compute "
        "units in the simulation.\n");
    if (has_l2) {
      fmt::print(
          "  With an L2 the HBM carries less than the note's Q (which assumes no reuse across "
          "output tiles): Q exact is n/a.\n  L2 hits: line look-ups served without a new HBM "
          "fetch (a hit, or a fill already on its way).\n  binds: the busiest of compute, HBM, "
          "L2 and SRAM in the run.\n");
    }
  }
  if (!options.json_path.empty()) write_file_atomically(options.json_path, all.dump(2) + "\n");
  if (!options.roofline_path.empty()) {
    std::vector<Json> reports(all.begin(), all.end());
    write_file_atomically(options.roofline_path, render_roofline_svg(roofline_of(reports, {})));
  }
  return exit_code;
}

}  // namespace ridgeline
