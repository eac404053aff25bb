// A sweep's results directory:
//
//   DIR/sweep.json       what sweep this is (fingerprint of the sweep and its files, mode,
//                        points, shard, objectives), checked before anything is resumed
//   DIR/sweep.yaml       the sweep file, as it was
//   DIR/results.jsonl    one JSON object a point, in point order; the record of what is done
//   DIR/results.csv      the same rows with one header (rewritten whole, atomically, when a row
//                        brings a column the header lacks)
//   DIR/points/<p>/      a simulated point: hardware.yaml and workload.yaml (its resolved
//                        configuration), report.json (`ridgeline run --json`), or, when the
//                        simulation failed, row.json (its row)
//
// Each point's line goes to each file in one write, JSONL first. Reopening a directory keeps the
// complete lines, drops a line cut short by a kill, and checks the lines are this sweep's first
// points in order; the CSV is rebuilt from the JSONL if it does not match it line for line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/report/report.hpp"
#include "sim/sweep/sweep_row.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace ridgeline {

struct SweepManifest {
  std::string fingerprint;  ///< of the sweep file and every file it reads
  bool analytical = false;
  std::uint64_t points = 0;  ///< in the whole sweep
  Shard shard;
  std::string sweep_file;
  std::vector<Objective> objectives;  ///< as used, defaults filled in
  std::vector<std::string> pareto;

  Json to_json() const;
  /// Throws ConfigError naming `path` when `json` is not a manifest.
  static SweepManifest from_json(const Json& json, const std::string& path);
};

/// The sweep file's and its files' contents, hashed (FNV-1a, 64 bits).
std::string sweep_fingerprint(const SweepSpec& spec);

class ResultsDirectory {
 public:
  /// `batched`: lines are gathered and written some at a time (analytical sweeps, where a write
  /// per point would cost more than the point); otherwise each point is written at once.
  ResultsDirectory(std::string directory, ColumnTable& columns, bool batched);
  ~ResultsDirectory();
  ResultsDirectory(const ResultsDirectory&) = delete;
  ResultsDirectory& operator=(const ResultsDirectory&) = delete;

  /// Takes the directory (one sweep writes it at a time), creating it, or checks that it holds
  /// this sweep. Returns how many of the shard's points it already holds; `visit`, if given,
  /// sees each of their rows. Throws ConfigError when the directory holds something else.
  std::uint64_t open(const SweepManifest& manifest, const std::string& sweep_text,
                     const std::function<void(const Row&)>& visit = {});

  /// Appends one point's row to both files.
  void append(const Row& row);
  /// Writes what is gathered.
  void flush();

  const std::string& directory() const { return directory_; }
  std::string point_directory(std::uint64_t point) const;
  std::string jsonl_path() const { return directory_ + "/results.jsonl"; }
  std::string csv_path() const { return directory_ + "/results.csv"; }

 private:
  void rewrite_csv();

  std::string directory_;
  ColumnTable& columns_;
  bool batched_;
  RowWriter writer_;
  int lock_fd_ = -1;
  int jsonl_fd_ = -1;
  int csv_fd_ = -1;
  std::string jsonl_buffer_;
  std::string csv_buffer_;
};

/// Reads a results directory's manifest. Throws ConfigError.
SweepManifest read_manifest(const std::string& directory);

/// Calls `visit` with each complete line of `path` (without its newline) and the offset just
/// past it; returns the offset past the last complete line (a line cut short is left out).
std::uint64_t for_each_line(const std::string& path,
                            const std::function<void(std::string_view line)>& visit);

/// The point a results line is for (it starts {"point":N,), or -1.
std::int64_t point_of_line(std::string_view line);

}  // namespace ridgeline
