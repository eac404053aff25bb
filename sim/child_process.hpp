// Runs this executable again as a child process: SystemC elaborates once per process, so every
// simulation of a study (and of a sweep) is a process of its own.
#pragma once

#include <string>
#include <vector>

namespace ridgeline {

struct ChildResult {
  int exit_code = -1;      ///< the child's exit status; -1 when it did not exit normally
  int signal = 0;          ///< the signal that ended it, if any
  std::string error_text;  ///< what it wrote to stderr
};

/// Path of the running executable.
std::string self_executable();

/// Runs `program` with `arguments`, up to `jobs` at a time, and returns each one's result in the
/// order given. stdout is discarded; stderr is captured.
std::vector<ChildResult> run_children(const std::string& program,
                                      const std::vector<std::vector<std::string>>& arguments,
                                      unsigned jobs);

}  // namespace ridgeline
