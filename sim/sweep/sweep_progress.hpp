// A sweep's progress on stderr: a bar redrawn in place when stderr is a terminal (points done,
// failed, skipped, running, time left), plain log lines otherwise (one per simulated point; for
// analytical sweeps one every few seconds), so logs of batch jobs stay readable.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace ridgeline {

class SweepProgress {
 public:
  /// `total`: the points of this run (shard). `per_point_lines`: log every point (simulated
  /// sweeps) rather than every few seconds.
  SweepProgress(std::ostream& out, bool terminal, std::uint64_t total, bool per_point_lines);

  /// A point finished here: status "ok", "failed" or "skipped"; `reason` for the log.
  void finished(std::uint64_t point, std::string_view status, std::string_view reason,
                std::size_t running);
  /// A point whose result was already on disk (resuming), counted without running it.
  void recovered(std::string_view status);
  /// The last line.
  void done();

 private:
  void draw(bool force, std::size_t running);
  std::string counts() const;
  std::string time_left() const;

  std::ostream& out_;
  bool terminal_;
  bool per_point_lines_;
  std::uint64_t total_;
  std::uint64_t resumed_ = 0;
  std::uint64_t here_ = 0;  // finished in this run
  std::uint64_t ok_ = 0, failed_ = 0, skipped_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  std::size_t width_ = 0;
};

}  // namespace ridgeline
