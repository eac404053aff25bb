#include "sim/util/text_format.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace ridgeline {

std::string engineering(double value, std::string_view unit) {
  constexpr std::pair<double, const char*> kPrefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
      {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
  for (const auto& [scale, prefix] : kPrefixes) {
    if (std::fabs(value) >= scale) return fmt::format("{:.6f} {}{}", value / scale, prefix, unit);
  }
  return fmt::format("0 {}", unit);
}

std::string milliseconds(double seconds) { return fmt::format("{:.6f} ms", seconds * 1e3); }

std::string percent(double fraction) { return fmt::format("{:.1f} %", 100.0 * fraction); }

std::string with_commas(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace ridgeline
