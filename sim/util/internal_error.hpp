// A figure Ridgeline computed that no machine could produce, or counters that contradict each
// other: a defect of the program, never of the user's input. The commands report it as an
// internal error and exit with status 1 (bad input exits with 2).
#pragma once

#include <stdexcept>
#include <string>

namespace ridgeline {

class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& what)
      : std::logic_error(what +
                         "\nthis is a bug in Ridgeline: please report it with the hardware and "
                         "workload files and the --set options of the run") {}
};

}  // namespace ridgeline
