// The analytical model's side of energy: the actions a kernel takes by the workload's formulas
// (the seed note's Q at HBM and the L2, the SRAM level's reads and writes, the FLOPs it issues)
// and the time it takes at best, which static power is drawn over and which the power limit is
// solved against.
#pragma once

#include "models/energy.hpp"
#include "models/hardware.hpp"
#include "workloads/analysis.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

/// The actions of `workload` by its analysis on `hardware`, `time` unset. Registers are written
/// by loads that land in registers (kernels without SRAM tiles, spill reloads) and read by
/// stores (operands the SRAM delivers are the SRAM reads' energy, operands an FMA or MMA reads
/// from registers the FLOP's); the cores' requests cross the network and the L2's port,
/// and reach HBM as the note's Q (no reuse across output tiles) plus spill traffic; activations
/// follow the row rule (EnergyParams' hbm.row_bytes).
EnergyCounts analytical_energy_counts(const HardwareParams& hardware, const WorkloadSpec& workload,
                                      const Analysis& analysis);

/// The analytical model's time of the kernel at `hardware`'s clock: the hierarchical roofline's
/// lower bound, the longest of F issued / P, Q / BW at HBM and each shared level, and the SRAM
/// level's traffic over its ports (analytical_levels' bound_s, sim/report/levels).
double analytical_time_s(const HardwareParams& hardware, const WorkloadSpec& workload,
                         const Analysis& analysis);

/// `seconds` as whole picoseconds, rounded up (as every duration of the models is).
Time time_of_seconds(double seconds);

}  // namespace ridgeline
