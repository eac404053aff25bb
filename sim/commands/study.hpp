// `ridgeline study`: several workloads on one machine, the seed note's table of analytical
// figures followed by the simulated ones beside them. Each simulation runs in its own process.
#pragma once

#include <string>
#include <vector>

namespace ridgeline {

struct StudyOptions {
  std::string hardware_path;
  std::vector<std::string> workload_paths;
  std::vector<std::string> overrides;
  bool analytical_only = false;
  unsigned jobs = 1;
  std::string json_path;      ///< all reports as one JSON array; empty for none
  std::string csv_path;       ///< all reports as CSV, one header and a row per run; empty for none
  std::string roofline_path;  ///< every workload on one roofline (SVG); empty for none
  std::string html_path;      ///< the tables and the roofline as one HTML page; empty for none
};

/// Prints the tables to stdout; returns the process exit code.
int run_study(const StudyOptions& options);

}  // namespace ridgeline
