// A run's report as cells of a result row, named by the report's flattened paths (units in the
// names: analytical.t_ideal_s, hardware.hbm_bytes_per_s).
//
// Two ways in: from a report's JSON (what `ridgeline run --json` wrote), and, for the analytical
// part, straight from typed values without building JSON, which is what lets an analytical
// sweep write a million rows a second or so. The second names every leaf report_json gives
// before the simulation (hardware, workload, analytical); a sweep checks the two agree on the
// first point of each shape and takes the JSON way if they ever do not (tests hold them equal).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/report/report.hpp"
#include "sim/sweep/sweep_row.hpp"

namespace ridgeline {

/// What the typed row writer remembers from one point to the next: the column id of each
/// position's name (looked up again only where the name differs), and the workload's texts.
class ShapeCache {
 public:
  struct Named {
    const char* prefix;  // literals: compared by address
    const char* name;
    ColumnId id;
  };
  std::vector<Named>& ids() { return ids_; }
  /// describe(spec) and short_label(spec), composed again only when the spec's bytes differ
  /// from the last one's (formatting them costs more than the rest of a row; equal bytes are
  /// equal values, so they are never stale).
  const std::string& description(const WorkloadSpec& spec) {
    refresh(spec);
    return description_;
  }
  const std::string& label(const WorkloadSpec& spec) {
    refresh(spec);
    return label_;
  }

 private:
  void refresh(const WorkloadSpec& spec);

  std::vector<Named> ids_;
  std::optional<WorkloadSpec> described_;
  std::string description_;
  std::string label_;
};

/// Appends the report's hardware.*, workload.* and analytical.* leaves for `config` to `row`.
void add_analytical_cells(const RunConfig& config, ColumnTable& columns, ShapeCache& cache,
                          Row& row);

/// Appends every leaf of `report` but those under `config`, in document order. Lists become
/// one text, items joined with ';' (as report_csv writes them).
void add_report_json_cells(const Json& report, ColumnTable& columns, Row& row);

}  // namespace ridgeline
