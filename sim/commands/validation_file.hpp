// A validation file (configs/validation/*.yaml, top key 'validation:'): measured cases of real
// machines, each a hardware file, a workload file with overrides, the figure measured, its value
// with a unit, and where the measurement was published. `ridgeline validate` simulates them.
// The reference of every key is docs/VALIDATION.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/util/config_error.hpp"

namespace ridgeline {

/// What a case measured, and what `validate` takes from the run's report for it.
enum class ValidationFigure {
  bandwidth,  ///< B/s: the workload's bytes (the model's Q, or a trace's accesses) over its time
  flop_rate,  ///< FLOP/s: the workload's FLOPs over its time
  time,       ///< s: the kernel's time
  latency,    ///< s: a memory trace's mean latency, issue to last byte
  power,      ///< W: the kernel's average power (its energy over its time; needs hardware.energy)
};

std::string_view name_of(ValidationFigure figure);
/// "B/s", "FLOP/s", "s", "W".
std::string_view unit_of(ValidationFigure figure);

struct ValidationCase {
  std::string name;           ///< unique over every file of a validate command
  std::string gpu;            ///< the machine measured, e.g. "A100 SXM4 80GB": colours the chart
  std::string hardware_path;  ///< resolved against the validation file's folder
  std::string workload_path;  ///< likewise
  std::vector<std::string> overrides;  ///< the case's `set:`, as --set's "key=value", in order
  std::vector<SourceLocation> override_locations;  ///< where each was written
  /// The case's `l2_resident:`, as run's --l2-resident: input tensors in the L2 when the run
  /// starts (a chase of a warm L2 measures its hit latency)
  std::vector<std::string> l2_resident;
  SourceLocation l2_resident_where;  ///< where it was written
  ValidationFigure figure = ValidationFigure::bandwidth;
  double measured = 0;  ///< in the figure's unit (B/s, FLOP/s, s or W)
  std::string source;   ///< the publication, as the file names it
  std::string key_path;        ///< "validation.cases[3]"
  SourceLocation where;        ///< the case's entry
  SourceLocation name_where;   ///< its `name` key
  SourceLocation figure_where;  ///< its `figure` key
};

/// Reads every case of `path`. Bad input is a ConfigError at its key.
std::vector<ValidationCase> load_validation_file(const std::string& path);

}  // namespace ridgeline
