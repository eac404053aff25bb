// A bad input is the user's fault: ConfigError says where (file:line:column), which key, what
// value, which rule it broke and how to fix it, in one line. The CLI prints it and exits with 2.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

/// Where a value came from: a file position (1-based) or a command-line argument.
struct SourceLocation {
  std::string source;  ///< file path, or "--set hardware.hbm.latency=..." for an override
  int line = 0;        ///< 1-based; 0 when unknown
  int column = 0;      ///< 1-based; 0 when unknown

  std::string to_string() const;
};

class ConfigError : public std::runtime_error {
 public:
  /// `key_path` like "hardware.hbm.bandwidth" (may be empty for file-level problems), `value` as
  /// written (may be empty), `rule` what it must be, `fix` how to put it right (may be empty).
  ConfigError(SourceLocation where, std::string key_path, std::string value, std::string rule,
              std::string fix = {});

  const SourceLocation& where() const { return where_; }
  const std::string& key_path() const { return key_path_; }
  const std::string& value() const { return value_; }
  const std::string& rule() const { return rule_; }
  const std::string& fix() const { return fix_; }

 private:
  SourceLocation where_;
  std::string key_path_;
  std::string value_;
  std::string rule_;
  std::string fix_;
};

/// A configuration that loads but holds something the user should know: a key the model ignores
/// where it is (hbm.dram.timing in simple mode), or figures that let the model fall short of
/// what the machine claims. Printed on stderr before a command runs and recorded in the JSON
/// report (config.warnings); never a reason to stop.
struct ConfigWarning {
  SourceLocation where;  ///< the key's position, or the --set argument that gave it
  std::string key_path;  ///< "hardware.hbm.dram.timing"
  std::string message;   ///< what is wrong, after the key: "is ignored: hbm.mode is simple"
  std::string fix;       ///< how to put it right (may be empty)

  /// One line: "FILE:LINE:COLUMN: key 'K' MESSAGE (FIX)".
  std::string text() const;
};

/// The warnings as the commands print them on stderr, "ridgeline: warning: TEXT" a line, each
/// text once however many times it was found (a hardware file read for several workloads).
std::string warning_lines(const std::vector<ConfigWarning>& warnings);

/// `text` as one printable line: control characters escaped (\n, \x1b), cut after `max_chars`
/// with "...". Messages quote what the user wrote, binary garbage included.
std::string printable(std::string_view text, std::size_t max_chars = 80);

/// The exit code for bad input (files, flags, values).
inline constexpr int kExitBadInput = 2;

}  // namespace ridgeline
