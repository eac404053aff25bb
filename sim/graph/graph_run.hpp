// A graph's simulation: each distinct kernel (GraphRun) simulated once, in a process of its own
// (SystemC elaborates once a process), as many at once as `jobs` allows; kernels that are the
// same run reuse its figures. Each run's figures come back through its JSON report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/graph/graph_config.hpp"
#include "sim/waveforms/busy_profile.hpp"

namespace ridgeline {

/// What one kernel's simulation gave, as its report says it.
struct KernelSimulation {
  double time_s = 0;
  std::uint64_t flops = 0;
  std::uint64_t issued_flops = 0;
  std::uint64_t hbm_read_bytes = 0;
  std::uint64_t hbm_write_bytes = 0;
  /// Written by the kernel but still dirty in the L2 at its end: HBM receives them later, when
  /// a later kernel's traffic evicts them (counted in the graph's HBM bytes, not in its time).
  std::uint64_t l2_dirty_at_end_bytes = 0;
  double l2_hit_rate = 0;      ///< of the bytes the cores asked of the L2; 0 without one
  double percent_of_roof = 0;  ///< of the kernel's own roof
  std::string bound;           ///< "memory" or "compute", by the simulation's own figures
  /// What bound it by the simulated hierarchical roofline: "hbm", "l2", "sram", "compute", ...
  std::string limit;
  std::string limiter;  ///< what held it below its roof ("tail", "low_occupancy", ...)
  /// What it used of the machine (KernelDemand): block slots (its blocks over the cores'
  /// resident blocks, at most 1), the compute units' and the HBM's busy fractions.
  KernelDemand demand;
  /// Its units' busy time over its run, where the graph's timeline asked for it.
  std::optional<BusyProfile> busy;

  std::uint64_t hbm_bytes() const { return hbm_read_bytes + hbm_write_bytes; }
};

/// Simulates every distinct kernel of `config`, `jobs` at a time; the result's i-th entry is
/// runs[i]'s. `busy_profiles`: each with its units' busy time over its run (for the timeline).
std::vector<KernelSimulation> simulate_graph(const GraphConfig& config, unsigned jobs,
                                             bool busy_profiles);

}  // namespace ridgeline
