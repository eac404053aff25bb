// An error as one JSON object, for programs that run ridgeline and act on its errors
// (`ridgeline --error-format json`, the Python module): the one line the CLI prints, and its parts.
#pragma once

#include <string>
#include <string_view>

#include "sim/util/config_error.hpp"
#include "sim/util/json.hpp"

namespace ridgeline {

/// {"error": "bad_input", "message", "file", "line", "column", "key", "value", "rule", "fix"}:
/// the message is what the CLI prints after "ridgeline: error: "; line and column are 0 and the
/// other parts empty where unknown, as in ConfigError.
Json error_json(const ConfigError& error);

/// {"error": KIND, "message"} for an error that has no parts: a command line that does not parse
/// (kind "bad_input") or a bug in Ridgeline (kind "internal").
Json error_json(std::string_view kind, const std::string& message);

/// `json` as one line, whatever bytes the user's values hold (invalid UTF-8 replaced).
std::string error_line(const Json& json);

}  // namespace ridgeline
