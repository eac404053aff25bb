#include "sim/util/text_format.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

namespace ridgeline {

namespace {

// A prefix's scale is 10^power_of_ten, with its exact inverse for the small ones: 1e-6 is no exact
// double, 1e6 is.
struct Prefix {
  double scale;
  double inverse;
  const char* symbol;
};

constexpr Prefix kPrefixes[] = {
    {1e15, 1e-15, "P"}, {1e12, 1e-12, "T"}, {1e9, 1e-9, "G"}, {1e6, 1e-6, "M"}, {1e3, 1e-3, "k"},
    {1, 1, ""},         {1e-3, 1e3, "m"},   {1e-6, 1e6, "u"}, {1e-9, 1e9, "n"}, {1e-12, 1e12, "p"}};

// From the largest prefix allowed down: the first that leaves the value at least 1, or the
// smallest (a sub-picosecond span reads "0.5 ps").
std::string with_prefix(double value, std::string_view unit, const Prefix* first,
                        const Prefix* end) {
  if (value == 0) return fmt::format("0 {}", unit);
  const Prefix* chosen = end - 1;
  for (const Prefix* p = first; p != end; ++p) {
    if (std::fabs(value) >= p->scale) {
      chosen = p;
      break;
    }
  }
  // Scaled by an exact power of ten (divided by 1e12, multiplied by 1e6), one correctly rounded
  // operation, so a short decimal stays one.
  const double scaled = chosen->scale >= 1 ? value / chosen->scale : value * chosen->inverse;
  std::string number = fmt::format("{:.{}f}", scaled, kDecimals);
  while (number.back() == '0') number.pop_back();
  if (number.back() == '.') number.pop_back();
  return fmt::format("{} {}{}", number, chosen->symbol, unit);
}

}  // namespace

std::string engineering(double value, std::string_view unit) {
  return with_prefix(value, unit, std::begin(kPrefixes), std::end(kPrefixes));
}

std::string duration(double seconds) {
  const Prefix* unprefixed = std::begin(kPrefixes) + 5;  // seconds: no kiloseconds
  return with_prefix(seconds, "s", unprefixed, std::end(kPrefixes));
}

std::string percent(double fraction) { return fmt::format("{:.1f} %", 100.0 * fraction); }

std::string with_commas(std::uint64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

}  // namespace ridgeline
