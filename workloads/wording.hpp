// Counts and sizes in the words the reports and messages print them with.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace ridgeline {

/// A count and its noun, singular for one: (1, "stage") -> "1 stage", (2, "stage") -> "2 stages",
/// (1, "operand fragment") -> "1 operand fragment".
inline std::string counted(std::uint64_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

/// Bytes as the seed note writes them: "12 KiB" when a whole number of KiB, MiB, GiB or TiB (the
/// largest such), else "100 B".
inline std::string format_bytes(std::uint64_t bytes) {
  for (const auto& [shift, unit] : {std::pair{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}}) {
    const std::uint64_t size = std::uint64_t{1} << shift;
    if (bytes >= size && bytes % size == 0) return fmt::format("{} {}", bytes / size, unit);
  }
  return fmt::format("{} B", bytes);
}

}  // namespace ridgeline
