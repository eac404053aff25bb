// Quantities with units, parsed once from configuration text into the models' strong types:
// "1TB/s", "20FLOP/cycle", "192KiB", "500ns", "1.5GHz", "4cycles".
//
// Decimal prefixes are powers of ten (KB, MB, GB, TB; GB/s, TB/s), binary ones powers of two
// (KiB, MiB, GiB, TiB), as the seed note uses them. Numbers are read exactly (digits and a
// decimal exponent), so "819.2GB/s" is 819,200,000,000 bytes/s, not a rounded double; a value
// that is not a whole number of the base unit (bytes, picoseconds, hertz) is refused.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "models/units.hpp"

namespace ridgeline {

enum class Dimension {
  bytes,            ///< B, KB, MB, GB, TB, KiB, MiB, GiB, TiB
  bandwidth,        ///< B/s ... TB/s, KiB/s ... TiB/s
  time,             ///< ps, ns, us, ms, s
  frequency,        ///< Hz, kHz, MHz, GHz
  flops_per_cycle,  ///< FLOP/cycle
  bytes_per_cycle,  ///< B/cycle
  cycles,           ///< cycle, cycles
  flop_rate,        ///< FLOP/s ... PFLOP/s: a datasheet's peak (hardware.cores.compute.stated_peak)
  bit_rate,         ///< b/s ... Gb/s: bits a second on one pin (hardware.hbm.stated_interface)
  energy_per_flop,  ///< fJ/FLOP, pJ/FLOP, nJ/FLOP; attojoules per FLOP (hardware.energy.flop)
  energy_per_byte,  ///< fJ/B, pJ/B, nJ/B and fJ/bit, pJ/bit, nJ/bit; attojoules per byte
  energy,           ///< fJ, pJ, nJ, uJ; attojoules (hardware.energy.hbm.activation)
  power,            ///< uW, mW, W, kW; microwatts (hardware.energy.static_power, power_limit)
};

/// Every dimension, in the order Dimension lists them; each unit belongs to one of them.
inline constexpr Dimension kAllDimensions[] = {Dimension::bytes,
                                               Dimension::bandwidth,
                                               Dimension::time,
                                               Dimension::frequency,
                                               Dimension::flops_per_cycle,
                                               Dimension::bytes_per_cycle,
                                               Dimension::cycles,
                                               Dimension::flop_rate,
                                               Dimension::bit_rate,
                                               Dimension::energy_per_flop,
                                               Dimension::energy_per_byte,
                                               Dimension::energy,
                                               Dimension::power};

/// A value in `dimension`'s base unit in the unit reports write it in, SI: picoseconds as
/// seconds, attojoules as joules (per FLOP, per byte), microwatts as watts; the others as they are.
double in_report_units(std::uint64_t value, Dimension dimension);

/// What a dimension is called in messages ("a size", "a bandwidth") and an example value.
std::string_view describe(Dimension dimension);
std::string_view example(Dimension dimension);

/// Why a text is not a valid quantity; the message names the rule and the accepted units.
class QuantityError : public std::runtime_error {
 public:
  QuantityError(std::string rule, std::string fix)
      : std::runtime_error(rule), fix_(std::move(fix)) {}
  const std::string& fix() const { return fix_; }

 private:
  std::string fix_;
};

/// The value of `text` in the dimension's base unit (bytes, bytes/s, ps, Hz, FLOP/cycle,
/// bytes/cycle, cycles, FLOP/s, bit/s, aJ/FLOP, aJ/B, aJ, uW). Throws QuantityError.
std::uint64_t parse_quantity(std::string_view text, Dimension dimension);

/// A whole number without unit (counts: cores, channels, matrix sizes). Throws QuantityError.
std::uint64_t parse_count(std::string_view text);

}  // namespace ridgeline
