// A YAML document's text without its comments, for yaml-cpp to parse: the bundled hardware files
// are four fifths comments (each figure's source), and yaml-cpp's scanner spends half of a
// preset's parsing on them (docs/PERFORMANCE.md, "Start-up"). A comment is emptied, its '#'
// and its newline kept, so the document reads as it did (a comment where one was) and every value
// stays at its line and column and every error is reported where it was.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ridgeline {

/// `text` with each comment emptied, or nothing where that is not certainly safe: a quoted
/// scalar that runs past its line, or a block scalar (`|`, `>`), whose lines may hold a '#' that
/// is text. A '#' starts a comment at the start of a line or after a space or tab, outside quotes,
/// as YAML reads it.
std::optional<std::string> without_comments(std::string_view text);

}  // namespace ridgeline
