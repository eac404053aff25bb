// A rule that typed configuration values break, found without knowing where they were written:
// the caller that read them (a YAML document, a sweep file) attaches the position.
#pragma once

#include <string>

namespace ridgeline {

struct Violation {
  std::string key_path;  ///< the key at fault, e.g. "workload.tile.n"
  std::string rule;      ///< what it breaks, with the numbers
  std::string fix;       ///< how to put it right; may be empty
  /// Where to report it when `key_path` is not written (an optional key left to its default);
  /// may be empty (then: the nearest key written on the way to `key_path`).
  std::string fallback_key_path = {};
};

}  // namespace ridgeline
