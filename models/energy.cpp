#include "models/energy.hpp"

#include <cmath>

namespace ridgeline {

namespace {

Attojoules times(std::uint64_t count, std::uint64_t aj) {
  return static_cast<Attojoules>(count) * static_cast<Attojoules>(aj);
}

Attojoules bytes_energy(const ByteEnergy& energy, std::uint64_t read_bytes,
                        std::uint64_t write_bytes) {
  return times(read_bytes, energy.read_aj) + times(write_bytes, energy.write_aj);
}

// An energy of the cores' clock domain at `scale` = f / f_nominal: x scale^2 (V ~ f), to the
// nearest attojoule. The ratio is a double: the rounding is the same on every run.
std::uint64_t scaled(std::uint64_t aj, double scale) {
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(aj) * scale * scale));
}

ByteEnergy scaled(const ByteEnergy& energy, double scale) {
  return ByteEnergy{scaled(energy.read_aj, scale), scaled(energy.write_aj, scale)};
}

}  // namespace

EnergyParams EnergyParams::at_clock(std::uint64_t hz, std::uint64_t nominal_hz) const {
  if (hz == nominal_hz || nominal_hz == 0) return *this;
  const double scale = static_cast<double>(hz) / static_cast<double>(nominal_hz);
  EnergyParams at = *this;
  for (std::uint64_t& flop : at.flop_aj) flop = scaled(flop, scale);
  at.registers = scaled(registers, scale);
  at.sram = scaled(sram, scale);
  return at;
}

std::string_view name_of(EnergyComponent component) {
  switch (component) {
    case EnergyComponent::flops:
      return "flops";
    case EnergyComponent::registers:
      return "registers";
    case EnergyComponent::sram:
      return "sram";
    case EnergyComponent::l2:
      return "l2";
    case EnergyComponent::network:
      return "network";
    case EnergyComponent::hbm_activations:
      return "hbm_activations";
    case EnergyComponent::hbm_transfers:
      return "hbm_transfers";
    case EnergyComponent::static_power:
      return "static";
  }
  return "?";
}

Attojoules EnergyBreakdown::total_aj() const {
  Attojoules total = 0;
  for (Attojoules part : aj) total += part;
  return total;
}

EnergyBreakdown energy_of(const EnergyParams& p, const EnergyCounts& c) {
  EnergyBreakdown b;
  b.has_l2 = p.l2.has_value();
  const auto set = [&](EnergyComponent component, Attojoules aj) {
    b.aj[static_cast<std::size_t>(component)] = aj;
  };
  set(EnergyComponent::flops, times(c.flops, p.flop_aj[index_of(c.flop_type)]));
  set(EnergyComponent::registers,
      bytes_energy(p.registers, c.register_read_bytes, c.register_write_bytes));
  set(EnergyComponent::sram, bytes_energy(p.sram, c.sram_read_bytes, c.sram_write_bytes));
  if (p.l2) set(EnergyComponent::l2, bytes_energy(*p.l2, c.l2_read_bytes, c.l2_write_bytes));
  set(EnergyComponent::network,
      bytes_energy(p.network, c.network_read_bytes, c.network_write_bytes));
  set(EnergyComponent::hbm_activations, times(c.hbm_activations, p.hbm.activation_aj));
  set(EnergyComponent::hbm_transfers,
      bytes_energy(p.hbm.core, c.hbm_read_bytes, c.hbm_write_bytes) +
          times(c.hbm_read_bytes + c.hbm_write_bytes, p.hbm.io_aj));
  set(EnergyComponent::static_power, times(c.time.ps(), p.static_power_uw));
  return b;
}

std::uint64_t activations_by_row_rule(std::uint64_t bytes, std::uint64_t row_bytes) {
  return row_bytes == 0 ? 0 : ceil_div(bytes, row_bytes);
}

}  // namespace ridgeline
