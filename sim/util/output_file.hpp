// Writes an output file whole or not at all: to a temporary name beside it, then renamed.
#pragma once

#include <string>

namespace ridgeline {

/// Throws ConfigError (the path is the user's) when the file cannot be written.
void write_file_atomically(const std::string& path, const std::string& contents);

/// Creates (or empties) `path` to be written to later; ConfigError as above when it cannot be.
void create_output_file(const std::string& path);

}  // namespace ridgeline
