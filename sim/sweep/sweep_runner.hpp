// `ridgeline sweep` and `ridgeline sweep-merge`.
//
// A sweep evaluates each point of its shard in order. Analytical sweeps do it all in this
// process. Simulated sweeps run each point that holds (every rule, every constraint) as
// `ridgeline run` on its resolved configuration in a child process of its own, -j at a time;
// points that fail a rule or are skipped never start one. Rows are written in point order
// whatever order children finish in, so the files are the same at every -j. A finished point
// is on disk before its turn comes (its report.json, or for a failed simulation its row.json),
// so a kill loses none and a rerun runs none twice: it takes their rows from their folders.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_report.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace ridgeline {

struct SweepOptions {
  std::string sweep_path;
  std::string out_directory;
  unsigned jobs = 1;
  std::optional<Shard> shard;
  bool analytical = false;
  double point_timeout_s = 0;  ///< 0: no limit
  SweepReportOptions report;   ///< pictures written from the results at the end
};

/// Runs (or resumes) the sweep, prints the summary on stdout; returns the exit code.
int run_sweep(const SweepOptions& options);

struct MergeOptions {
  std::vector<std::string> directories;
  std::string out_directory;
};

/// Joins shards' results into one directory, as if the sweep had run whole there.
int run_sweep_merge(const MergeOptions& options);

}  // namespace ridgeline
