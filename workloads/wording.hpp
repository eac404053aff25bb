// Counts in the words the reports and messages print them with.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace ridgeline {

/// A count and its noun, singular for one: (1, "stage") -> "1 stage", (2, "stage") -> "2 stages",
/// (1, "operand fragment") -> "1 operand fragment".
inline std::string counted(std::uint64_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

}  // namespace ridgeline
