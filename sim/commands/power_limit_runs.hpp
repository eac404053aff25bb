// `ridgeline run` under a power limit: the clock the analytical model gave is checked against the
// run itself. SystemC elaborates a machine once per process, so each trial is a child process
// (`ridgeline run` at that clock, without the limit) whose counts and time are read back; the
// clock is solved again from them, and the report's run is made at the clock they settle on.
#pragma once

#include "sim/config/run_config.hpp"

namespace ridgeline {

/// At most this many trial runs settle a clock.
inline constexpr unsigned kPowerLimitTrialRuns = 4;

/// When `config` has a power limit (apply_power_limit has solved it from the analytical model):
/// runs the kernel at the solved clock in a child process, costs its counts at that clock, and
/// solves the clock again with the run's time model: T(f) = T_run x B(f) / B(f_run), B the run's
/// own hierarchical bound (F issued / P and the SRAM's bytes over its ports slow with the clock;
/// HBM's and the L2's bytes over their bandwidths do not). It stops when a run's average power is
/// within the limit and the clock solved is the one run, or after kPowerLimitTrialRuns runs, and
/// sets `config` to the highest clock whose run was within the limit (the last one solved if none
/// was; the report then says the run is above it). `config.power_limit->trials` lists the runs.
/// Child processes of `ridgeline` itself: call it from the command, not from a test binary.
void settle_power_limit(RunConfig& config);

}  // namespace ridgeline
