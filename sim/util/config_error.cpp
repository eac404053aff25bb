#include "sim/util/config_error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ridgeline {

namespace {

// Bytes of the well-formed UTF-8 sequence at `text[i]`, or 0 when it is not one.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
  const unsigned char lead = byte(i);
  const std::size_t length = lead >= 0xf0 && lead <= 0xf4   ? 4
                             : lead >= 0xe0 && lead <= 0xef ? 3
                             : lead >= 0xc2 && lead <= 0xdf ? 2
                                                            : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_chars) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= max_chars) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (const std::size_t length = utf8_sequence(text, i); length > 0) {
      out.append(text.substr(i, length));  // "µs" stays as written
      i += length - 1;
    } else {
      out += fmt::format("\\x{:02x}", c);  // not UTF-8: a terminal would show garbage
    }
  }
  return out;
}

std::string SourceLocation::to_string() const {
  // A --set argument or a path may hold a newline or be very long: the message stays one line.
  const std::string where = printable(source, 256);
  if (line <= 0) return where;
  if (column <= 0) return fmt::format("{}:{}", where, line);
  return fmt::format("{}:{}:{}", where, line, column);
}

namespace {

std::string compose(const SourceLocation& where, const std::string& key_path,
                    const std::string& value, const std::string& rule, const std::string& fix) {
  std::string message = where.to_string() + ": ";
  if (!key_path.empty()) message += printable(key_path, 256) + ": ";
  if (!value.empty()) message += "value \"" + printable(value) + "\": ";
  message += rule;
  if (!fix.empty()) message += " (" + fix + ")";
  // Rules quote keys as written (a quoted YAML key may hold a newline): one line, whatever came in.
  return printable(message, 4096);
}

}  // namespace

ConfigError::ConfigError(SourceLocation where, std::string key_path, std::string value,
                         std::string rule, std::string fix)
    : std::runtime_error(compose(where, key_path, value, rule, fix)),
      where_(std::move(where)),
      key_path_(std::move(key_path)),
      value_(std::move(value)),
      rule_(std::move(rule)),
      fix_(std::move(fix)) {}

std::string ConfigWarning::text() const {
  std::string line = where.to_string() + ": key '" + printable(key_path, 256) + "' " + message;
  if (!fix.empty()) line += " (" + fix + ")";
  return printable(line, 4096);
}

std::string warning_lines(const std::vector<ConfigWarning>& warnings) {
  std::vector<std::string> seen;
  std::string lines;
  for (const ConfigWarning& warning : warnings) {
    std::string text = warning.text();
    if (std::find(seen.begin(), seen.end(), text) != seen.end()) continue;
    lines += "ridgeline: warning: " + text + "\n";
    seen.push_back(std::move(text));
  }
  return lines;
}

}  // namespace ridgeline
