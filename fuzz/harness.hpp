// What the libFuzzer targets share: the input's sections, the scratch files they are written to,
// and the checks every target makes: a ConfigError is one line that starts with where the problem
// is, and a configuration that loads gives its reports and passes the simulated-time check.
// A failed check aborts, so that libFuzzer keeps the input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/util/config_error.hpp"

namespace ridgeline::fuzz {

/// The input split at lines holding only "%%"; each section keeps its last newline.
std::vector<std::string_view> sections_of(std::string_view input);

/// The non-empty lines of a section (--set arguments, one a line).
std::vector<std::string> lines_of(std::string_view section);

/// `name` in a directory of this process's own, made once.
std::string scratch_path(const std::string& name);

void write_file(const std::string& path, std::string_view contents);

/// Reports what broke, then aborts.
[[noreturn]] void fail(const char* what, const std::string& message);

/// The message must be one line starting "FILE:LINE:COLUMN: " (from 1) for one of `files`, or
/// "--set ARGUMENT: ".
void check_error(const ConfigError& error, const std::vector<std::string>& files);

/// What analyze writes (JSON, CSV, text), then, for workloads cheap enough to build, what run
/// checks before it elaborates (which may refuse with a ConfigError like any other).
void check_loaded(const RunConfig& config);

}  // namespace ridgeline::fuzz
