// The energy's leaves of a report, listed once: the JSON report (report_json) and the sweep's typed
// cells (add_analytical_cells) both walk these lists, so the two cannot disagree.
//
// A visitor has integer(name, std::uint64_t), real(name, double) and text(name, std::string_view);
// names are dotted literals relative to where the caller puts them ("energy.static_power_w" under
// `hardware`, "total_j" under `analytical.energy`). Energies are in joules, powers in watts,
// times in seconds.
#pragma once

#include <array>
#include <cstdint>

#include "models/energy.hpp"
#include "models/hardware.hpp"
#include "sim/config/power_limit.hpp"

namespace ridgeline {

namespace energy_fields {

inline double joules(std::uint64_t attojoules) {
  return static_cast<double>(attojoules) / kAttojoulesPerJoule;
}

/// hardware.energy.flop_j.<type>, as literals.
inline constexpr std::array<const char*, kDataTypeCount> kFlopNames = {
    "energy.flop_j.fp32", "energy.flop_j.tf32", "energy.flop_j.bf16",  "energy.flop_j.fp16",
    "energy.flop_j.fp8",  "energy.flop_j.int8", "energy.flop_j.int32", "energy.flop_j.fp64"};

/// energy.by_component.<component>_j, in kAllEnergyComponents' order, as literals.
inline constexpr std::array<const char*, kEnergyComponents> kComponentNames = {
    "by_component.flops_j",         "by_component.registers_j",
    "by_component.sram_j",          "by_component.l2_j",
    "by_component.network_j",       "by_component.hbm_activations_j",
    "by_component.hbm_transfers_j", "by_component.static_j"};

}  // namespace energy_fields

/// Under `hardware`: the energy per action as the file gives it (at the nominal clock), and the
/// power limit. Nothing without an energy section.
template <class Visitor>
void visit_hardware_energy(const HardwareParams& hw, Visitor& v) {
  using energy_fields::joules;
  if (!hw.energy) return;
  const EnergyParams& e = *hw.energy;
  v.real("energy.static_power_w", static_cast<double>(e.static_power_uw) / 1e6);
  for (DataType type : kAllDataTypes) {
    if (hw.core.compute.flops_per_cycle[index_of(type)] == 0) continue;
    v.real(energy_fields::kFlopNames[index_of(type)], joules(e.flop_aj[index_of(type)]));
  }
  v.real("energy.registers.read_j_per_byte", joules(e.registers.read_aj));
  v.real("energy.registers.write_j_per_byte", joules(e.registers.write_aj));
  v.real("energy.sram.read_j_per_byte", joules(e.sram.read_aj));
  v.real("energy.sram.write_j_per_byte", joules(e.sram.write_aj));
  if (e.l2) {
    v.real("energy.l2.read_j_per_byte", joules(e.l2->read_aj));
    v.real("energy.l2.write_j_per_byte", joules(e.l2->write_aj));
  }
  v.real("energy.network.read_j_per_byte", joules(e.network.read_aj));
  v.real("energy.network.write_j_per_byte", joules(e.network.write_aj));
  v.real("energy.hbm.activation_j", joules(e.hbm.activation_aj));
  v.real("energy.hbm.read_j_per_byte", joules(e.hbm.core.read_aj));
  v.real("energy.hbm.write_j_per_byte", joules(e.hbm.core.write_aj));
  v.real("energy.hbm.io_j_per_byte", joules(e.hbm.io_aj));
  v.integer("energy.hbm.row_bytes", e.hbm.row_bytes);
  if (hw.power_limit_uw) v.real("power_limit_w", static_cast<double>(hw.power_limit_uw) / 1e6);
}

/// Under `analytical.energy` or `simulated.energy`: what the kernel's joules went to, what it
/// counted, its average power, FLOP per joule (of its `useful_flops`) and energy-delay product.
template <class Visitor>
void visit_kernel_energy(const KernelEnergy& energy, std::uint64_t useful_flops, Visitor& v) {
  const EnergyBreakdown& b = energy.breakdown;
  const EnergyCounts& c = energy.counts;
  const double total_j = b.total_j();
  const double time_s = c.time.seconds();
  v.real("total_j", total_j);
  for (std::size_t i = 0; i < kEnergyComponents; ++i) {
    if (kAllEnergyComponents[i] == EnergyComponent::l2 && !b.has_l2) continue;
    v.real(energy_fields::kComponentNames[i], b.joules(kAllEnergyComponents[i]));
  }
  v.real("time_s", time_s);
  v.real("average_power_w", time_s > 0 ? total_j / time_s : 0);
  v.real("flop_per_j", total_j > 0 ? static_cast<double>(useful_flops) / total_j : 0);
  v.real("energy_delay_product_j_s", total_j * time_s);
  v.text("flop_data_type", name_of(c.flop_type));
  v.integer("counts.flops", c.flops);
  v.integer("counts.register_read_bytes", c.register_read_bytes);
  v.integer("counts.register_write_bytes", c.register_write_bytes);
  v.integer("counts.sram_read_bytes", c.sram_read_bytes);
  v.integer("counts.sram_write_bytes", c.sram_write_bytes);
  if (b.has_l2) {
    v.integer("counts.l2_read_bytes", c.l2_read_bytes);
    v.integer("counts.l2_write_bytes", c.l2_write_bytes);
  }
  v.integer("counts.network_read_bytes", c.network_read_bytes);
  v.integer("counts.network_write_bytes", c.network_write_bytes);
  v.integer("counts.hbm_read_bytes", c.hbm_read_bytes);
  v.integer("counts.hbm_write_bytes", c.hbm_write_bytes);
  v.integer("counts.hbm_activations", c.hbm_activations);
  // Never a silent zero: where the activations come from.
  v.text("counts.hbm_activations_from", c.activations_counted ? "dram_model" : "row_rule");
}

/// Under `analytical.energy`, after visit_kernel_energy: the ceilings of the energy roofline at
/// the clock the kernel runs at (`energy` in effect): FLOP per joule of the FLOPs alone, and for
/// each memory level of the hierarchical roofline, bytes per joule of a byte read there alone
/// (HBM: its arrays, its interface and its row's activation shared over the row's bytes). A level
/// whose energy is zero sets no bound and is left out.
template <class Visitor>
void visit_energy_roofline(const HardwareParams& hw, const EnergyParams& energy, DataType type,
                           Visitor& v) {
  const auto per_joule = [&](const char* name, double attojoules) {
    if (attojoules > 0) v.real(name, kAttojoulesPerJoule / attojoules);
  };
  per_joule("roofline.peak_flop_per_j", static_cast<double>(energy.flop_aj[index_of(type)]));
  const HbmEnergy& hbm = energy.hbm;
  per_joule("roofline.hbm_bytes_per_j",
            static_cast<double>(hbm.core.read_aj + hbm.io_aj) +
                static_cast<double>(hbm.activation_aj) / static_cast<double>(hbm.row_bytes));
  if (hw.l2 && energy.l2) {
    per_joule("roofline.l2_bytes_per_j", static_cast<double>(energy.l2->read_aj));
  }
  per_joule("roofline.sram_bytes_per_j", static_cast<double>(energy.sram.read_aj));
}

/// Under `analytical.power_limit`: the limit, the clock it leaves and what that costs.
template <class Visitor>
void visit_power_limit(const PowerLimitSolution& p, Visitor& v) {
  v.real("limit_w", p.limit_w);
  v.integer("nominal_clock_hz", p.nominal_clock_hz);
  v.integer("clock_hz", p.clock_hz);
  v.integer("analytical_clock_hz", p.analytical_clock_hz);
  v.real("nominal_time_s", p.nominal_time_s);
  v.real("time_s", p.time_s);
  v.real("time_cost_s", p.time_s - p.nominal_time_s);
  v.real("nominal_average_power_w", p.nominal_power_w);
  v.real("average_power_w", p.power_w);
}

}  // namespace ridgeline
