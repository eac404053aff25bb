#include "sim/config/yaml_comments.hpp"

namespace ridgeline {

namespace {

// Whether a line, comment cut, ends in a block scalar's header: '|' or '>' as a value (after
// "key:", "- " or alone), with its indentation and chomping indicators.
bool opens_block_scalar(std::string_view line) {
  std::size_t end = line.find_last_not_of(" \t");
  if (end == std::string_view::npos) return false;
  std::size_t start = end + 1;
  while (start > 0 && (line[start - 1] == '+' || line[start - 1] == '-' ||
                       (line[start - 1] >= '0' && line[start - 1] <= '9')))
    --start;
  if (start == 0 || (line[start - 1] != '|' && line[start - 1] != '>')) return false;
  --start;
  return start == 0 || line[start - 1] == ' ' || line[start - 1] == '\t' ||
         line[start - 1] == ':' || line[start - 1] == '-';
}

}  // namespace

std::optional<std::string> without_comments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    std::size_t cut = line.size();
    char quote = 0;  // the quote the scan is inside, or 0
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quote == '"') {
        if (c == '\\') {
          ++i;  // an escape: the next character is text
        } else if (c == '"') {
          quote = 0;
        }
      } else if (quote == '\'') {
        if (c == '\'') {
          if (i + 1 < line.size() && line[i + 1] == '\'') {
            ++i;  // '' is a quote in the text
          } else {
            quote = 0;
          }
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
        cut = i;
        break;
      }
    }
    // A quote open at the end of its line continues on the next, where a '#' may be text; a quote
    // inside a plain scalar (it's) reads the same and only costs the cut.
    if (quote != 0) return std::nullopt;
    if (opens_block_scalar(line.substr(0, cut))) return std::nullopt;
    // The '#' stays: the comment is still one where it was, only empty, so the document reads
    // as before to the error (a comment inside a multi-line plain scalar stays one).
    const std::string_view kept = line.substr(0, cut < line.size() ? cut + 1 : cut);
    out.append(kept);
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

}  // namespace ridgeline
