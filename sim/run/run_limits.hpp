// Limits of one simulation that depend on the whole run rather than on one value: simulated time is
// an integer count of picoseconds (64 bits, as SystemC's), so a run that could outlast it is
// refused before it starts instead of wrapping around to a small, wrong time.
#pragma once

#include "models/kernel.hpp"
#include "sim/config/run_config.hpp"

namespace ridgeline {

/// The largest simulated time a run may reach: 2^63 ps (about 107 days), half of what 64 bits
/// hold, so that sums of a few such spans stay exact too.
inline constexpr std::uint64_t kMaxSimulatedPs = std::uint64_t{1} << 63;

/// An upper bound on the simulated time of `kernel` on `config`'s machine, in picoseconds, capped
/// at 2^100: every op of every block one after another, each as long as it can take alone. A
/// memory request: all its bytes on one HBM channel (pseudo-channel), the latency, and in the
/// detailed mode every burst as its own row conflict after a refresh with every DRAM timing in
/// turn; through an L2, its port and hit latency and every line it touches filled and written
/// back as requests of their own. A compute: its FLOPs, operand reads and pipeline latency back
/// to back. It holds because the machine is never idle while work remains: at any moment a
/// channel, a bank, a port, a compute unit or a latency is running for some op.
unsigned __int128 simulated_time_bound_ps(const RunConfig& config, const Kernel& kernel);
/// The same for a memory trace: every access one after another.
unsigned __int128 simulated_time_bound_ps(const RunConfig& config, const MemoryTraceSpec& trace);

/// Throws a ConfigError (at the workload) when `bound_ps` exceeds kMaxSimulatedPs.
void check_simulated_time_fits(const RunConfig& config, unsigned __int128 bound_ps);
/// Builds what the bound needs (the kernel, unless a trace) and checks it.
void check_simulated_time_fits(const RunConfig& config);

}  // namespace ridgeline
