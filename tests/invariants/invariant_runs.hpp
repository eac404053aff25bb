// What the invariant tests share: one `ridgeline run` in a child process of its own (SystemC
// elaborates once per process), with its report checked; and the times of the runs.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline::test {

/// Exit status of `ridgeline run` for a configuration it refuses (docs/CONFIG.md, "Errors").
constexpr int kRefusedExitCode = 2;
/// A run that takes longer is killed and fails its test: just inside ctest's limit of 300 s a
/// test (tests/CMakeLists.txt), so the failure names the command. A drawn configuration takes
/// well under a second, a bundled pair up to some 20 s of CPU (kSlowPairs aside).
constexpr double kRunTimeLimitS = 280;

struct CheckedRun {
  std::string command;     ///< the command line, to paste into a shell
  int exit_code = -1;      ///< -1 when it did not exit (a signal, the time limit)
  std::string outcome;     ///< why it did not succeed, in one line; empty when it exited 0
  std::string error_text;  ///< its stderr
  double wall_s = 0;
  double cpu_s = 0;  ///< its user + system time (on a loaded machine, truer than the wall time)
  std::vector<std::string> failures;  ///< check_report's, for a run that exited 0

  bool refused() const { return exit_code == kRefusedExitCode; }
  bool passed() const { return exit_code == 0 && failures.empty(); }
  /// The first line of stderr: for a refusal, the rule it broke.
  std::string first_error_line() const;
};

/// Runs `ridgeline run HARDWARE WORKLOAD --quiet --json JSON_PATH` and, if it exits 0, checks
/// its report (check_report). The report file is removed afterwards. `time_limit_s` 0: none.
CheckedRun run_and_check(const std::string& hardware, const std::string& workload,
                         const std::string& json_path, double time_limit_s = kRunTimeLimitS);

/// The rule `ridgeline analyze HARDWARE WORKLOAD` says the pair breaks (the first line of its
/// error, exit 2), or nothing when it accepts the pair. The reader's checks without a simulation:
/// a few milliseconds. Throws if analyze does neither.
std::optional<std::string> refusal_of(const std::string& hardware, const std::string& workload);

/// Times of a test's runs, summed up for its output.
class RunTimes {
 public:
  void add(std::string label, const CheckedRun& run);
  /// "41 runs, wall 12.3 s: min 0.01 s, median 0.12 s, p90 0.9 s, max 2.1 s; CPU 10.2 s: ...;
  /// slowest (CPU): ...".
  std::string summary(std::size_t slowest = 3) const;

 private:
  struct Times {
    double wall_s;
    double cpu_s;
    std::string label;
  };
  std::vector<Times> runs_;
};

}  // namespace ridgeline::test
