// `ridgeline validate FILE.yaml...`: every measured case of the validation files simulated (each
// in its own process, -j at a time), a table of measured against simulated with the error of
// each, the mean absolute and the worst error and the correlation per kind of figure; as JSON,
// an SVG of simulated against measured, and an HTML page of both. It reports, it does not judge:
// on valid input it exits 0 whatever the errors; a case whose simulation fails is named and left
// out of the statistics (exit 1: a failing simulation is a bug).
#pragma once

#include <string>
#include <vector>

#include "sim/commands/validation_file.hpp"

namespace ridgeline {

/// Loads the case's configuration and checks it as `ridgeline run` would, before anything runs,
/// so that a bad case is a located error (ConfigError, exit 2), not a failed simulation. An
/// override's error is reported at its entry under the case's `set:`; every error names the case.
void check_validation_case(const ValidationCase& c);

struct ValidateOptions {
  std::vector<std::string> files;
  unsigned jobs = 1;
  std::string json_path;  ///< empty: none
  std::string svg_path;
  std::string html_path;
};

/// Prints the table on stdout; returns the exit code.
int run_validate(const ValidateOptions& options);

}  // namespace ridgeline
