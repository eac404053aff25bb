// A run's energy: the actions its models counted (the FLOPs its compute units executed, the
// bytes its SRAM ports, cores, L2 and HBM moved, the DRAM's activations in detailed mode) at the
// energy per action of the clock it ran at, and static power over its time.
#pragma once

#include <optional>

#include "models/energy.hpp"
#include "sim/config/run_config.hpp"
#include "sim/run/simulate.hpp"

namespace ridgeline {

/// What the run counted, its time included. Registers are written by loads that land in
/// registers and read by stores; the network carries every byte the cores
/// (or trace players) requested; the L2's port what the cores read and wrote through it; HBM
/// what it served. Activations are the DRAM model's in detailed mode, else the row rule's on the
/// HBM's bytes (activations_counted says which).
EnergyCounts simulated_energy_counts(const RunConfig& config, const SimulationResult& result);

/// Those counts' joules at the energy per action in effect; none without hardware.energy.
std::optional<KernelEnergy> simulated_energy(const RunConfig& config,
                                             const SimulationResult& result);

}  // namespace ridgeline
