#include "sim/config/energy_config.hpp"

#include <fmt/format.h>

#include "sim/util/text_format.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

double watts(std::uint64_t microwatts) { return static_cast<double>(microwatts) / 1e6; }

// {read: E, write: E}, both required, per byte (or bit).
ByteEnergy byte_energy(const ConfigNode& level) {
  ByteEnergy energy;
  energy.read_aj = level.required("read").quantity(Dimension::energy_per_byte);
  energy.write_aj = level.required("write").quantity(Dimension::energy_per_byte);
  level.reject_unknown_keys();
  return energy;
}

// A figure for each data type the cores run, and a warning for one they do not.
void parse_flops(const ConfigNode& flop, const ComputeUnitParams& compute, EnergyParams& energy) {
  for (DataType type : kAllDataTypes) {
    const bool runs = compute.flops_per_cycle[index_of(type)] != 0;
    if (!runs) {
      if (auto unused = flop.optional(name_of(type))) {
        unused->ignored(
            fmt::format("the cores run no {} (hardware.cores.compute.throughput)", name_of(type)),
            "remove it, or give the cores a throughput for it");
      }
      continue;
    }
    energy.flop_aj[index_of(type)] =
        flop.required(name_of(type)).quantity(Dimension::energy_per_flop);
  }
  flop.reject_unknown_keys();
}

HbmEnergy parse_hbm_energy(const ConfigNode& hbm, const HbmParams& memory) {
  HbmEnergy energy;
  energy.activation_aj = hbm.required("activation").quantity(Dimension::energy);
  energy.core.read_aj = hbm.required("read").quantity(Dimension::energy_per_byte);
  energy.core.write_aj = hbm.required("write").quantity(Dimension::energy_per_byte);
  energy.io_aj = hbm.required("io").quantity(Dimension::energy_per_byte);
  const std::optional<ConfigNode> row = hbm.optional("row_bytes");
  if (memory.dram) {
    // One figure, one place: the DRAM's page is its row.
    if (row) {
      row->fail(fmt::format("hbm.dram.row_bytes gives the row already ({})",
                            format_bytes(memory.dram->row_bytes)),
                "leave row_bytes out where the hardware has hbm.dram");
    }
    energy.row_bytes = memory.dram->row_bytes;
  } else if (row) {
    energy.row_bytes = row->positive_quantity(Dimension::bytes);
  } else {
    hbm.fail(
        "row_bytes is needed without hbm.dram: where no DRAM model counts activations, a "
        "row is opened for each row_bytes of HBM traffic",
        "give the DRAM's page, e.g. row_bytes: 1KiB (an HBM pseudo-channel's)");
  }
  hbm.reject_unknown_keys();
  return energy;
}

}  // namespace

void parse_energy(const ConfigNode& hardware, HardwareParams& params) {
  const std::optional<ConfigNode> section = hardware.optional("energy");
  const std::optional<ConfigNode> limit = hardware.optional("power_limit");
  if (section) {
    EnergyParams energy;
    energy.static_power_uw = section->required("static_power").quantity(Dimension::power);
    parse_flops(section->required("flop"), params.core.compute, energy);
    energy.registers = byte_energy(section->required("registers"));
    energy.sram = byte_energy(section->required("sram"));
    if (params.l2) {
      energy.l2 = byte_energy(section->required("l2"));
    } else if (auto l2 = section->optional("l2")) {
      l2->ignored("the hardware has no L2 (hardware.l2)", "remove it, or give the hardware an L2");
    }
    energy.network = byte_energy(section->required("network"));
    energy.hbm = parse_hbm_energy(section->required("hbm"), params.hbm);
    section->reject_unknown_keys();
    params.energy = energy;
  }
  if (!limit) return;
  params.power_limit_uw = limit->positive_quantity(Dimension::power);
  if (!params.energy) {
    limit->fail("a power limit needs the energy model: hardware.energy is not given",
                "add an energy section (docs/CONFIG.md), or remove power_limit");
  }
  if (params.power_limit_uw <= params.energy->static_power_uw) {
    limit->fail(
        fmt::format("no clock can meet it: the limit of {} is not above the static power of {} "
                    "(hardware.energy.static_power), which a lower clock does not reduce",
                    engineering(watts(params.power_limit_uw), "W"),
                    engineering(watts(params.energy->static_power_uw), "W")),
        fmt::format("give a limit above {}, or a lower static_power",
                    engineering(watts(params.energy->static_power_uw), "W")));
  }
}

}  // namespace ridgeline
