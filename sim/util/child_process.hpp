// Runs this executable again as a child process: SystemC elaborates once per process, so every
// simulation of a study (and of a sweep) is a process of its own.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ridgeline {

struct ChildResult {
  int exit_code = -1;      ///< the child's exit status; -1 when it did not exit normally
  int signal = 0;          ///< the signal that ended it, if any
  bool timed_out = false;  ///< killed (SIGKILL) for running past its time limit
  double limit_s = 0;      ///< that limit, when it did
  double wall_s = 0;       ///< from start to end, seconds
  std::string error_text;  ///< what it wrote to stderr

  bool ok() const { return exit_code == 0; }
  /// One line on why it did not succeed: the limit, the signal, or its last line of stderr.
  std::string failure() const;
};

/// Path of the running executable.
std::string self_executable();

/// A new, empty folder /tmp/PREFIX-XXXXXX (std::runtime_error when none can be made).
std::string make_temporary_directory(const std::string& prefix);

/// `ridgeline run HARDWARE WORKLOAD --quiet --json JSON` with each override as `--set`,
/// `--l2-resident` with the tensors of `l2_resident` and `--l2-written` with those of
/// `l2_written` when they have any: a child's arguments for one simulation whose report is read
/// back from `json`.
std::vector<std::string> run_arguments(const std::string& hardware, const std::string& workload,
                                       const std::vector<std::string>& overrides,
                                       const std::string& json,
                                       const std::vector<std::string>& l2_resident = {},
                                       const std::vector<std::string>& l2_written = {});

/// Up to `jobs` children at once, each given back as it ends. Children get stdout discarded and
/// stderr captured, and are killed if this process dies (so a killed sweep leaves none behind).
/// Meant for one user at a time in a process: it takes over SIGCHLD while it exists.
class ChildPool {
 public:
  /// `timeout_s` > 0: a child still running after that long is killed and reported timed out.
  /// `scratch`: an existing folder for the children's stderr files (default: a new one in /tmp,
  /// removed at the end; a folder of the caller's survives this process being killed in its
  /// own place, where the caller can clear it).
  ChildPool(std::string program, unsigned jobs, double timeout_s = 0, std::string scratch = {});
  ~ChildPool();
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;

  bool has_room() const { return running_.size() < jobs_; }
  std::size_t running() const { return running_.size(); }

  /// Starts a child with `arguments` (in `directory`, if given); `tag` comes back with its
  /// result.
  void start(std::uint64_t tag, const std::vector<std::string>& arguments,
             const std::string& directory = {});
  /// Waits until a child ends (or is killed at its time limit). Needs running() > 0.
  std::pair<std::uint64_t, ChildResult> wait();

 private:
  struct Running {
    std::uint64_t tag;
    std::size_t slot;  // of jobs_: names its stderr file
    std::string error_path;
    std::chrono::steady_clock::time_point started;
    bool killed = false;
  };

  std::string program_;
  unsigned jobs_;
  double timeout_s_;
  std::string directory_;  // stderr files
  bool own_directory_ = false;
  std::map<pid_t, Running> running_;
  sigset_t previous_mask_{};
};

/// Runs `program` with `arguments`, up to `jobs` at a time, and returns each one's result in the
/// order given. stdout is discarded; stderr is captured.
std::vector<ChildResult> run_children(const std::string& program,
                                      const std::vector<std::vector<std::string>>& arguments,
                                      unsigned jobs);

}  // namespace ridgeline
