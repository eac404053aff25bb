// Numbers as the text reports print them: thousands separators, SI prefixes, milliseconds,
// percentages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ridgeline {

/// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t value);

/// 1.5e12, "FLOP/s" -> "1.500000 TFLOP/s".
std::string engineering(double value, std::string_view unit);
/// 0.25 -> "0.250000 ms" for 0.25e-3 s.
std::string milliseconds(double seconds);
/// 0.123 -> "12.3 %".
std::string percent(double fraction);

}  // namespace ridgeline
