#include "sim/config/quantity.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <limits>

namespace ridgeline {

namespace {

using u128 = unsigned __int128;

struct Unit {
  std::string_view symbol;
  Dimension dimension;
  u128 scale;  // base units per one of this unit
};

constexpr u128 kKi = 1024;
constexpr u128 kE3 = 1000;

constexpr std::array kUnits = {
    Unit{"B", Dimension::bytes, 1},
    Unit{"KB", Dimension::bytes, kE3},
    Unit{"MB", Dimension::bytes, kE3* kE3},
    Unit{"GB", Dimension::bytes, kE3* kE3* kE3},
    Unit{"TB", Dimension::bytes, kE3* kE3* kE3* kE3},
    Unit{"KiB", Dimension::bytes, kKi},
    Unit{"MiB", Dimension::bytes, kKi* kKi},
    Unit{"GiB", Dimension::bytes, kKi* kKi* kKi},
    Unit{"TiB", Dimension::bytes, kKi* kKi* kKi* kKi},
    Unit{"B/s", Dimension::bandwidth, 1},
    Unit{"KB/s", Dimension::bandwidth, kE3},
    Unit{"MB/s", Dimension::bandwidth, kE3* kE3},
    Unit{"GB/s", Dimension::bandwidth, kE3* kE3* kE3},
    Unit{"TB/s", Dimension::bandwidth, kE3* kE3* kE3* kE3},
    Unit{"KiB/s", Dimension::bandwidth, kKi},
    Unit{"MiB/s", Dimension::bandwidth, kKi* kKi},
    Unit{"GiB/s", Dimension::bandwidth, kKi* kKi* kKi},
    Unit{"TiB/s", Dimension::bandwidth, kKi* kKi* kKi* kKi},
    Unit{"ps", Dimension::time, 1},
    Unit{"ns", Dimension::time, kE3},
    Unit{"us", Dimension::time, kE3* kE3},
    Unit{"ms", Dimension::time, kE3* kE3* kE3},
    Unit{"s", Dimension::time, kE3* kE3* kE3* kE3},
    Unit{"Hz", Dimension::frequency, 1},
    Unit{"kHz", Dimension::frequency, kE3},
    Unit{"MHz", Dimension::frequency, kE3* kE3},
    Unit{"GHz", Dimension::frequency, kE3* kE3* kE3},
    Unit{"FLOP/cycle", Dimension::flops_per_cycle, 1},
    Unit{"B/cycle", Dimension::bytes_per_cycle, 1},
    Unit{"cycle", Dimension::cycles, 1},
    Unit{"cycles", Dimension::cycles, 1},
    Unit{"FLOP/s", Dimension::flop_rate, 1},
    Unit{"kFLOP/s", Dimension::flop_rate, kE3},
    Unit{"MFLOP/s", Dimension::flop_rate, kE3* kE3},
    Unit{"GFLOP/s", Dimension::flop_rate, kE3* kE3* kE3},
    Unit{"TFLOP/s", Dimension::flop_rate, kE3* kE3* kE3* kE3},
    Unit{"PFLOP/s", Dimension::flop_rate, kE3* kE3* kE3* kE3* kE3},
    Unit{"b/s", Dimension::bit_rate, 1},
    Unit{"kb/s", Dimension::bit_rate, kE3},
    Unit{"Mb/s", Dimension::bit_rate, kE3* kE3},
    Unit{"Gb/s", Dimension::bit_rate, kE3* kE3* kE3},
    // Energies in attojoules, so that pJ figures with up to six decimals are whole numbers; a
    // bit is an eighth of a byte, so per bit is eight times as much per byte.
    Unit{"fJ/FLOP", Dimension::energy_per_flop, kE3},
    Unit{"pJ/FLOP", Dimension::energy_per_flop, kE3* kE3},
    Unit{"nJ/FLOP", Dimension::energy_per_flop, kE3* kE3* kE3},
    Unit{"fJ/B", Dimension::energy_per_byte, kE3},
    Unit{"pJ/B", Dimension::energy_per_byte, kE3* kE3},
    Unit{"nJ/B", Dimension::energy_per_byte, kE3* kE3* kE3},
    Unit{"fJ/bit", Dimension::energy_per_byte, 8 * kE3},
    Unit{"pJ/bit", Dimension::energy_per_byte, 8 * kE3* kE3},
    Unit{"nJ/bit", Dimension::energy_per_byte, 8 * kE3* kE3* kE3},
    Unit{"fJ", Dimension::energy, kE3},
    Unit{"pJ", Dimension::energy, kE3* kE3},
    Unit{"nJ", Dimension::energy, kE3* kE3* kE3},
    Unit{"uJ", Dimension::energy, kE3* kE3* kE3* kE3},
    // Power in microwatts: a microwatt over a picosecond is an attojoule.
    Unit{"uW", Dimension::power, 1},
    Unit{"mW", Dimension::power, kE3},
    Unit{"W", Dimension::power, kE3* kE3},
    Unit{"kW", Dimension::power, kE3* kE3* kE3},
};

std::string units_of(Dimension dimension) {
  std::string list;
  for (const Unit& unit : kUnits) {
    if (unit.dimension != dimension) continue;
    if (!list.empty()) list += ", ";
    list += unit.symbol;
  }
  return list;
}

// A decimal number read exactly: value = digits * 10^exponent.
struct Decimal {
  u128 digits = 0;
  int exponent = 0;
};

constexpr u128 kLimit = std::numeric_limits<std::uint64_t>::max();

// Reads [0-9]+(.[0-9]*)?([eE][+-]?[0-9]+)? from the front of `text`; returns characters used.
std::size_t read_decimal(std::string_view text, Decimal& out) {
  std::size_t i = 0;
  bool any_digit = false;
  auto take_digit = [&](char c) {
    if (out.digits > kLimit * 10) throw QuantityError("the number has too many digits", "");
    out.digits = out.digits * 10 + static_cast<unsigned>(c - '0');
    any_digit = true;
  };
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    take_digit(text[i++]);
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      take_digit(text[i++]);
      --out.exponent;
    }
  }
  if (!any_digit) return 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    bool negative = false;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) negative = text[j++] == '-';
    int exponent = 0;
    const std::size_t digits_start = j;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])) &&
           exponent < 1000) {
      exponent = exponent * 10 + (text[j++] - '0');
    }
    if (j > digits_start) {  // an 'e' without digits is not an exponent: leave it to the unit
      out.exponent += negative ? -exponent : exponent;
      i = j;
    }
  }
  return i;
}

// digits * 10^exponent * scale as a whole number, or why not.
std::uint64_t whole(const Decimal& number, u128 scale, std::string_view base_unit) {
  u128 value = number.digits;
  u128 divisor = 1;
  for (int e = number.exponent; e > 0; --e) {
    if (value > kLimit * 10) throw QuantityError("the value is too large", "");
    value *= 10;
  }
  for (int e = number.exponent; e < 0; ++e) {
    if (divisor > kLimit * 10) throw QuantityError("the value has too many decimals", "");
    divisor *= 10;
  }
  if (value != 0 && scale > (kLimit * kLimit) / value)
    throw QuantityError("the value is too large", "");
  value *= scale;
  if (value % divisor != 0) {
    throw QuantityError(fmt::format("the value is not a whole number of {}", base_unit),
                        "use a smaller unit or fewer decimals");
  }
  value /= divisor;
  if (value > kLimit) throw QuantityError("the value is too large (over 2^64 - 1)", "");
  return static_cast<std::uint64_t>(value);
}

std::string_view base_unit(Dimension dimension) {
  switch (dimension) {
    case Dimension::bytes:
      return "bytes";
    case Dimension::bandwidth:
      return "bytes/s";
    case Dimension::time:
      return "picoseconds";
    case Dimension::frequency:
      return "Hz";
    case Dimension::flops_per_cycle:
      return "FLOP/cycle";
    case Dimension::bytes_per_cycle:
      return "B/cycle";
    case Dimension::cycles:
      return "cycles";
    case Dimension::flop_rate:
      return "FLOP/s";
    case Dimension::bit_rate:
      return "bits/s";
    case Dimension::energy_per_flop:
      return "attojoules per FLOP";
    case Dimension::energy_per_byte:
      return "attojoules per byte";
    case Dimension::energy:
      return "attojoules";
    case Dimension::power:
      return "microwatts";
  }
  return "";
}

// "size" for "a size", "energy" for "an energy".
std::string_view without_article(std::string_view described) {
  return described.substr(described.find(' ') + 1);
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

}  // namespace

std::string_view describe(Dimension dimension) {
  switch (dimension) {
    case Dimension::bytes:
      return "a size";
    case Dimension::bandwidth:
      return "a bandwidth";
    case Dimension::time:
      return "a time";
    case Dimension::frequency:
      return "a frequency";
    case Dimension::flops_per_cycle:
      return "a throughput per cycle";
    case Dimension::bytes_per_cycle:
      return "a bandwidth per cycle";
    case Dimension::cycles:
      return "a number of cycles";
    case Dimension::flop_rate:
      return "a FLOP rate";
    case Dimension::bit_rate:
      return "a bit rate";
    case Dimension::energy_per_flop:
      return "an energy per FLOP";
    case Dimension::energy_per_byte:
      return "an energy per byte or bit";
    case Dimension::energy:
      return "an energy";
    case Dimension::power:
      return "a power";
  }
  return "";
}

std::string_view example(Dimension dimension) {
  switch (dimension) {
    case Dimension::bytes:
      return "192KiB";
    case Dimension::bandwidth:
      return "1TB/s";
    case Dimension::time:
      return "500ns";
    case Dimension::frequency:
      return "1.5GHz";
    case Dimension::flops_per_cycle:
      return "256FLOP/cycle";
    case Dimension::bytes_per_cycle:
      return "128B/cycle";
    case Dimension::cycles:
      return "4cycles";
    case Dimension::flop_rate:
      return "989.4TFLOP/s";
    case Dimension::bit_rate:
      return "6.4Gb/s";
    case Dimension::energy_per_flop:
      return "1.1pJ/FLOP";
    case Dimension::energy_per_byte:
      return "2.68pJ/bit";
    case Dimension::energy:
      return "909pJ";
    case Dimension::power:
      return "400W";
  }
  return "";
}

double in_report_units(std::uint64_t value, Dimension dimension) {
  switch (dimension) {
    case Dimension::time:
      return static_cast<double>(value) / 1e12;
    case Dimension::energy_per_flop:
    case Dimension::energy_per_byte:
    case Dimension::energy:
      return static_cast<double>(value) / 1e18;
    case Dimension::power:
      return static_cast<double>(value) / 1e6;
    default:
      return static_cast<double>(value);
  }
}

std::uint64_t parse_quantity(std::string_view raw, Dimension dimension) {
  const std::string_view text = trim(raw);
  const std::string fix = fmt::format("write {} such as {}; units: {}", describe(dimension),
                                      example(dimension), units_of(dimension));
  Decimal number;
  const std::size_t used = read_decimal(text, number);
  if (used == 0) {
    throw QuantityError(
        fmt::format("expected {}: a non-negative number followed by a unit", describe(dimension)),
        fix);
  }
  const std::string_view symbol = trim(text.substr(used));
  if (symbol.empty()) {
    throw QuantityError(fmt::format("{} needs a unit", describe(dimension)), fix);
  }
  for (const Unit& unit : kUnits) {
    if (unit.symbol != symbol) continue;
    if (unit.dimension != dimension) {
      throw QuantityError(
          fmt::format("'{}' is a unit of {}, but this key takes {}", symbol,
                      without_article(describe(unit.dimension)), describe(dimension)),
          fix);
    }
    try {
      return whole(number, unit.scale, base_unit(dimension));
    } catch (const QuantityError& error) {
      throw QuantityError(error.what(), error.fix().empty() ? fix : error.fix());
    }
  }
  throw QuantityError(fmt::format("unknown unit '{}'", symbol), fix);
}

std::uint64_t parse_count(std::string_view raw) {
  const std::string_view text = trim(raw);
  const std::string fix = "write a whole number such as 4096, without unit or sign";
  if (text.empty()) throw QuantityError("expected a whole number", fix);
  u128 value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw QuantityError("expected a whole number", fix);
    value = value * 10 + static_cast<unsigned>(c - '0');
    if (value > kLimit) throw QuantityError("the value is too large (over 2^64 - 1)", fix);
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace ridgeline
