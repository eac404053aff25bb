// hardware.power_limit: the highest core clock at which the kernel's average power stays under
// the limit, solved before the run from the analytical model, since SystemC elaborates a machine
// once per process and its clock must be known before (docs/ARCHITECTURE.md, "Energy and the
// power limit").
//
// At clock f (s = f / f_nominal) the kernel takes T(s) = max(T_clocked / s, T_fixed): the compute
// units and the SRAM slow with the clock, the L2's port and HBM (given in bytes/s) do not. With
// the voltage taken proportional to the clock, the dynamic energy of the cores' domain (FLOPs,
// registers, SRAM) scales with s^2 and the rest stays, so the average power
//   P(s) = static + (E_clocked s^2 + E_fixed) / T(s)
// rises with s in both the compute- and the memory-bound part. The solve takes the highest whole
// MHz clock, at most the nominal one, whose P is at most the limit, by bisection over whole MHz,
// each candidate's energy counted as the report counts it (energy_of at that clock).
#pragma once

#include <cstdint>
#include <optional>

#include "models/energy.hpp"
#include "workloads/violation.hpp"

namespace ridgeline {

struct RunConfig;

/// What the solve found, all analytical (the run's own figures are the report's).
struct PowerLimitSolution {
  double limit_w = 0;
  std::uint64_t nominal_clock_hz = 0;  ///< the hardware file's clock
  std::uint64_t clock_hz = 0;          ///< the clock the kernel runs at: nominal, or lowered
  double nominal_time_s = 0;           ///< the analytical time at the nominal clock
  double nominal_power_w = 0;          ///< the analytical average power at the nominal clock
  double time_s = 0;                   ///< at clock_hz
  double power_w = 0;                  ///< at clock_hz: at most the limit
  bool throttled() const { return clock_hz < nominal_clock_hz; }
};

/// When `config`'s hardware has a power limit: solves it for `config`'s workload (its analysis at
/// the nominal clock done), sets the hardware's clock to the clock found and analyses the
/// workload again at it, and records the solution in `config.power_limit`. A violation (at
/// hardware.power_limit) when no clock of at least 1 MHz meets the limit.
std::optional<Violation> apply_power_limit(RunConfig& config);

/// The energy per action in effect for `config`: the hardware's at the clock it runs at (lowered
/// by a power limit: EnergyParams::at_clock), or none without hardware.energy.
std::optional<EnergyParams> energy_in_effect(const RunConfig& config);

/// The analytical model's energy of `config`'s kernel at the clock it runs at, over the
/// analytical time (analytical_time_s); none without hardware.energy.
std::optional<KernelEnergy> analytical_energy(const RunConfig& config);

}  // namespace ridgeline
