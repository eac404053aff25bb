// `ridgeline run` under a power limit: the clock the analytical model gave is checked against the
// run itself. The command's own run, at that clock, is the first trial; SystemC elaborates a
// machine once per process, so each further trial is a child process (`ridgeline run` at that
// clock, without the limit) whose counts and time are read back; the clock is solved again from
// them, and where it settles away from the first run's, the report's run is made at it by the
// command re-executed (sim/commands/main.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "models/energy.hpp"
#include "sim/config/run_config.hpp"
#include "sim/util/json.hpp"

namespace ridgeline {

/// At most this many trial runs settle a clock.
inline constexpr unsigned kPowerLimitTrialRuns = 4;

/// What a run of the kernel at one clock counted and took: one trial of the power limit's clock.
struct PowerLimitTrialRun {
  std::uint64_t clock_hz = 0;
  EnergyCounts counts;
  double time_s = 0;
};

/// The trial that `report`, a `run` report (report_json) of the kernel at `clock_hz`, is.
PowerLimitTrialRun trial_of_report(const Json& report, std::uint64_t clock_hz);

/// When `config` has a power limit (apply_power_limit has solved it from the analytical model):
/// `first` is the command's own run, made at the solved clock. Costs its counts at that clock,
/// and solves the clock again with the run's time model: T(f) = T_run x B(f) / B(f_run), B the
/// run's own hierarchical bound (F issued / P and the SRAM's bytes over its ports slow with the
/// clock; HBM's and the L2's bytes over their bandwidths do not); each further trial is a child
/// process (`ridgeline run` at that clock, without the limit). It stops when a run's average
/// power is within the limit and the clock solved is the one run, or after kPowerLimitTrialRuns
/// runs, and sets `config` to the highest clock whose run was within the limit (the last one
/// solved if none was; the report then says the run is above it). `config.power_limit->trials`
/// lists the runs. True when the clock settled on is `first`'s, whose run is then the report's.
/// Child processes of `ridgeline` itself: call it from the command, not from a test binary.
bool settle_power_limit(RunConfig& config, const PowerLimitTrialRun& first);

/// Writes the clock `config`'s power limit settled on and its trials to a new temporary file, for
/// the process that makes the report's run at that clock (SystemC elaborates once a process):
/// its path.
std::string save_settled_power_limit(const RunConfig& config);

/// Sets `config` (the same files and overrides, its limit solved) to the clock and trials in
/// `path`, which save_settled_power_limit wrote, and removes it.
void resume_settled_power_limit(RunConfig& config, const std::string& path);

}  // namespace ridgeline
