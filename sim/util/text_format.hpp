// Numbers as the text reports print them: thousands separators, quantities with SI prefixes,
// durations, percentages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ridgeline {

/// 1234567 -> "1,234,567".
std::string with_commas(std::uint64_t value);

/// Decimals of engineering() and duration() in the unit they choose, trailing zeros dropped: the
/// seed note's figures read to their printed precision (T_compute = 6.871948 ms, T_memory =
/// 549.822923 ms), a smaller figure keeps as many significant digits in a smaller unit, and a round
/// one prints round (20 TFLOP/s, 800 ns).
inline constexpr int kDecimals = 6;

/// A quantity with the SI prefix that puts it in [1, 1000), to kDecimals: 1.5e12, "FLOP/s" ->
/// "1.5 TFLOP/s"; 8.02311912e-4, "s" -> "802.311912 us".
std::string engineering(double value, std::string_view unit);
/// A span of time in the unit that fits its size, ps to s, as engineering(): 1.0097e-5 ->
/// "10.097 us" (not 0.010097 ms), 6.8719476736e-3 -> "6.871948 ms", 3.4e-8 -> "34 ns"; 1500 ->
/// "1500 s" (no kiloseconds).
std::string duration(double seconds);
/// 0.123 -> "12.3 %".
std::string percent(double fraction);

}  // namespace ridgeline
