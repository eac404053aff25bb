// A rule that typed configuration values break, found without knowing where they were written:
// the caller that read them (a YAML document, a sweep file) attaches the position.
#pragma once

#include <string>

namespace ridgeline {

struct Violation {
  std::string key_path;  ///< the key at fault, e.g. "workload.tile.n"
  std::string rule;      ///< what it breaks, with the numbers
  std::string fix;       ///< how to put it right; may be empty
};

}  // namespace ridgeline
