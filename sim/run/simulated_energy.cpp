#include "sim/run/simulated_energy.hpp"

namespace ridgeline {

EnergyCounts simulated_energy_counts(const RunConfig& config, const SimulationResult& r) {
  EnergyCounts c;
  c.flop_type = compute_type(config.workload);
  if (r.trace) {
    c.network_read_bytes = r.trace->read_bytes;
    c.network_write_bytes = r.trace->write_bytes;
  } else {
    const CoreStats cores = r.core_total();
    const SramStats sram = r.sram_total();
    c.flops = r.flops();
    c.register_write_bytes = cores.register_load_bytes;
    c.register_read_bytes = cores.store_bytes;
    c.sram_read_bytes = sram.read_bytes;
    c.sram_write_bytes = sram.write_bytes;
    c.network_read_bytes = cores.load_bytes;
    c.network_write_bytes = cores.store_bytes;
  }
  if (const L2CacheStats* l2 = r.cache_stats(kL2Name)) {
    c.l2_read_bytes = l2->read_bytes;
    c.l2_write_bytes = l2->write_bytes;
  }
  c.hbm_read_bytes = r.hbm.read_bytes;
  c.hbm_write_bytes = r.hbm.write_bytes;
  if (r.dram) {
    c.hbm_activations = r.dram->activations;
    c.activations_counted = true;
  } else if (config.hardware.energy) {
    c.hbm_activations =
        activations_by_row_rule(r.hbm_bytes(), config.hardware.energy->hbm.row_bytes);
  }
  c.time = r.time;
  return c;
}

std::optional<KernelEnergy> simulated_energy(const RunConfig& config, const SimulationResult& r) {
  const std::optional<EnergyParams> energy = energy_in_effect(config);
  if (!energy) return std::nullopt;
  KernelEnergy kernel;
  kernel.counts = simulated_energy_counts(config, r);
  kernel.breakdown = energy_of(*energy, kernel.counts);
  return kernel;
}

}  // namespace ridgeline
