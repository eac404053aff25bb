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
#include <functional>
#include <optional>
#include <vector>

#include "models/energy.hpp"
#include "workloads/violation.hpp"

namespace ridgeline {

struct RunConfig;

/// What the solve found, all analytical (the run's own figures are the report's).
struct PowerLimitSolution {
  double limit_w = 0;
  std::uint64_t nominal_clock_hz = 0;  ///< the hardware file's clock
  std::uint64_t clock_hz = 0;          ///< the clock the kernel runs at: nominal, or lowered
  /// The clock the analytical model alone gives; clock_hz unless runs settled another.
  std::uint64_t analytical_clock_hz = 0;
  double nominal_time_s = 0;   ///< the analytical time at the nominal clock
  double nominal_power_w = 0;  ///< the analytical average power at the nominal clock
  double time_s = 0;           ///< at clock_hz
  double power_w = 0;          ///< at clock_hz
  /// A run of the kernel at a trial clock (sim/commands/power_limit_runs): what it took and drew.
  struct Trial {
    std::uint64_t clock_hz = 0;
    double time_s = 0;
    double power_w = 0;
  };
  /// `ridgeline run`'s trial runs that settled the clock, in the order run; none where the
  /// analytical solve stands alone (analyze, a sweep's rows, simulate() in the tests).
  std::vector<Trial> trials;
  bool throttled() const { return clock_hz < nominal_clock_hz; }
};

/// When `config`'s hardware has a power limit: solves it for `config`'s workload (its analysis at
/// the nominal clock done), sets the hardware's clock to the clock found and analyses the
/// workload again at it, and records the solution in `config.power_limit`. A violation (at
/// hardware.power_limit) when no clock of at least 1 MHz meets the limit.
std::optional<Violation> apply_power_limit(RunConfig& config);

/// The average power of a kernel that counted `counts` and took `time_s` at core clock `hz`, its
/// energies those of `nominal` (at `nominal_hz`) at that clock (EnergyParams::at_clock).
double average_power_w(const EnergyParams& nominal, std::uint64_t nominal_hz, std::uint64_t hz,
                       EnergyCounts counts, double time_s);

/// The highest clock at most `nominal_hz` whose `power_w` is at most `limit_w`: the nominal clock
/// when it is, else the highest whole MHz below it, by bisection (`power_w` must rise with the
/// clock); none when not even 1 MHz is.
std::optional<std::uint64_t> highest_clock_within(
    double limit_w, std::uint64_t nominal_hz,
    const std::function<double(std::uint64_t hz)>& power_w);

/// Runs `config` (solved: `power_limit` set) at core clock `hz`: sets the hardware's clock,
/// analyses the workload at it, and puts the analytical time and power at it in the solution.
void set_power_limit_clock(RunConfig& config, std::uint64_t hz);

/// The energy per action in effect for `config`: the hardware's at the clock it runs at (lowered
/// by a power limit: EnergyParams::at_clock), or none without hardware.energy.
std::optional<EnergyParams> energy_in_effect(const RunConfig& config);

/// The analytical model's energy of `config`'s kernel at the clock it runs at, over the
/// analytical time (analytical_time_s); none without hardware.energy.
std::optional<KernelEnergy> analytical_energy(const RunConfig& config);

}  // namespace ridgeline
