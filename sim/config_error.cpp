#include "sim/config_error.hpp"

#include <fmt/format.h>

namespace ridgeline {

std::string SourceLocation::to_string() const {
  if (line <= 0) return source;
  if (column <= 0) return fmt::format("{}:{}", source, line);
  return fmt::format("{}:{}:{}", source, line, column);
}

namespace {

// Values may hold anything, binary garbage included: keep the message one printable line.
std::string printable(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if (out.size() >= 80) {
      out += "...";
      break;
    }
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string compose(const SourceLocation& where, const std::string& key_path,
                    const std::string& value, const std::string& rule, const std::string& fix) {
  std::string message = where.to_string() + ": ";
  if (!key_path.empty()) message += key_path + ": ";
  if (!value.empty()) message += "value \"" + printable(value) + "\": ";
  message += rule;
  if (!fix.empty()) message += " (" + fix + ")";
  return message;
}

}  // namespace

ConfigError::ConfigError(SourceLocation where, std::string key_path, std::string value,
                         std::string rule, std::string fix)
    : std::runtime_error(compose(where, key_path, value, rule, fix)),
      where_(std::move(where)),
      key_path_(std::move(key_path)),
      value_(std::move(value)),
      rule_(std::move(rule)) {}

}  // namespace ridgeline
