// Energy as action counts times energy per action: the FLOPs of each data type, the bytes read and
// written at the registers, the SRAM, the L2 and the on-chip network, the HBM's row activations
// and the bytes through its arrays and its interface, plus static power over the time. The counts
// are what the analytical model or a run counted (sim/config/analytical_energy,
// sim/run/simulated_energy); this file only multiplies and adds, in exact integers.
//
// Units: energies per action in attojoules (aJ, 1e-18 J), so that the configuration's pJ/FLOP,
// pJ/bit and pJ with up to six decimals are whole numbers; static power in microwatts, so that
// static power x time in picoseconds is attojoules exactly. Totals are 128-bit: 2^63 actions of
// 2^64 aJ fit, and the components of a breakdown add up to its total exactly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "models/data_type.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// Joules in attojoules; wide enough that no count times an energy per action overflows.
using Attojoules = unsigned __int128;

inline constexpr double kAttojoulesPerJoule = 1e18;

/// Energy of one byte read and of one byte written at a level, attojoules.
struct ByteEnergy {
  std::uint64_t read_aj = 0;
  std::uint64_t write_aj = 0;
};

/// The HBM split as DRAM power models split it (Micron's, DRAMPower): what opening a row costs,
/// what a byte costs through the DRAM's arrays and datapath (its core), and across the interface
/// between the DRAM and the processor (its I/O), either way.
struct HbmEnergy {
  std::uint64_t activation_aj = 0;  ///< per row activation (the ACT and its precharge)
  ByteEnergy core;                  ///< per byte read from / written to the arrays
  std::uint64_t io_aj = 0;          ///< per byte across the interface, read or written
  /// One row's bytes: the rule for activations where the HBM model counts none (simple mode, and
  /// the analytical model): a stream opens each row once, so bytes / row_bytes, rounded up.
  std::uint64_t row_bytes = 0;
};

/// What the hardware's `energy` section gives: the energy of each action at the nominal clock.
struct EnergyParams {
  /// Per FLOP, by data type (the unit a type runs on: CUDA cores' FMA for fp32, fp64, int32 on
  /// the GPU presets, tensor cores' MMA for the others); 0 where the cores have no such type.
  std::array<std::uint64_t, kDataTypeCount> flop_aj{};
  ByteEnergy registers;          ///< bytes loads write into registers, stores read out of them
  ByteEnergy sram;               ///< the SRAM's reads (operands) and writes (tiles landing)
  std::optional<ByteEnergy> l2;  ///< bytes the cores read and write through the L2's port
  ByteEnergy network;            ///< bytes the cores' requests move across the on-chip network
  HbmEnergy hbm;
  std::uint64_t static_power_uw = 0;  ///< microwatts while the kernel runs, at any clock

  /// These energies at core clock `hz` for a nominal clock of `nominal_hz`. The voltage is taken
  /// to scale with the clock (V ~ f, the straight part of a V-f curve), so the dynamic energy of
  /// an action of the cores' clock domain (FLOPs, registers, SRAM) scales with (hz / nominal)^2,
  /// rounded to the attojoule; the L2, the network and the HBM keep their clocks and energies,
  /// and static power is held (docs/ARCHITECTURE.md, "Energy and the power limit").
  EnergyParams at_clock(std::uint64_t hz, std::uint64_t nominal_hz) const;
};

/// The actions of one kernel that cost energy, as the analytical model or a run counted them.
struct EnergyCounts {
  DataType flop_type = DataType::fp32;
  std::uint64_t flops = 0;                ///< executed, predicated-off lanes of edge tiles included
  std::uint64_t register_read_bytes = 0;  ///< out of registers: what stores carry
  std::uint64_t register_write_bytes = 0;  ///< into registers: loads without an SRAM tile
  std::uint64_t sram_read_bytes = 0;
  std::uint64_t sram_write_bytes = 0;
  std::uint64_t l2_read_bytes = 0;  ///< with an L2: the cores' loads through its port
  std::uint64_t l2_write_bytes = 0;
  std::uint64_t network_read_bytes = 0;  ///< the cores' loads (every byte requested)
  std::uint64_t network_write_bytes = 0;
  std::uint64_t hbm_read_bytes = 0;
  std::uint64_t hbm_write_bytes = 0;
  std::uint64_t hbm_activations = 0;
  bool activations_counted = false;  ///< the DRAM model counted them; else the row rule gave them
  Time time;                         ///< static power is drawn over it
};

/// Where the joules go, in the order reports list them.
enum class EnergyComponent : std::uint8_t {
  flops,
  registers,
  sram,
  l2,
  network,
  hbm_activations,
  hbm_transfers,  ///< the arrays' and the interface's energy of every byte
  static_power,
};
inline constexpr std::size_t kEnergyComponents = 8;
inline constexpr std::array<EnergyComponent, kEnergyComponents> kAllEnergyComponents = {
    EnergyComponent::flops,         EnergyComponent::registers,
    EnergyComponent::sram,          EnergyComponent::l2,
    EnergyComponent::network,       EnergyComponent::hbm_activations,
    EnergyComponent::hbm_transfers, EnergyComponent::static_power};

/// "flops", "registers", "sram", "l2", "network", "hbm_activations", "hbm_transfers", "static".
std::string_view name_of(EnergyComponent component);

struct EnergyBreakdown {
  std::array<Attojoules, kEnergyComponents> aj{};
  bool has_l2 = false;  ///< the machine has an L2 (else its component is left out of reports)

  Attojoules of(EnergyComponent component) const { return aj[static_cast<std::size_t>(component)]; }
  Attojoules total_aj() const;
  /// Attojoules as joules: one conversion of the exact integer (u128 -> double, then / 1e18).
  static double joules(Attojoules aj) { return static_cast<double>(aj) / kAttojoulesPerJoule; }
  double joules(EnergyComponent component) const { return joules(of(component)); }
  double total_j() const { return joules(total_aj()); }
};

/// A kernel's energy: what it counted and what that cost.
struct KernelEnergy {
  EnergyCounts counts;
  EnergyBreakdown breakdown;
};

/// The joules `counts` cost at `params` (already at the clock the kernel ran at: at_clock).
EnergyBreakdown energy_of(const EnergyParams& params, const EnergyCounts& counts);

/// Activations by the row rule: `bytes` moved a row at a time, ceil(bytes / row_bytes).
std::uint64_t activations_by_row_rule(std::uint64_t bytes, std::uint64_t row_bytes);

}  // namespace ridgeline
