#include "sim/config/analytical_energy.hpp"

#include <algorithm>
#include <cmath>

namespace ridgeline {

EnergyCounts analytical_energy_counts(const HardwareParams& hw, const WorkloadSpec& workload,
                                      const Analysis& a) {
  EnergyCounts c;
  c.flop_type = compute_type(workload);
  c.flops = a.issued_flops;
  const std::uint64_t loaded = a.hbm_read_bytes + a.local_read_bytes;
  const std::uint64_t stored = a.hbm_write_bytes + a.local_write_bytes;
  if (runs_on(workload) == Runner::cores) {
    // A kernel's loads land in SRAM when it has SRAM tiles (a tiled GEMM), but for those it
    // reads into registers beside them (a split-K's partial sums), else in registers; spilled
    // registers are reloaded into registers either way. The run counts the same bytes load by
    // load (CoreStats::register_load_bytes); the invariants hold the two equal.
    const std::uint64_t into_registers =
        (a.sram_write_bytes > 0 ? a.hbm_register_read_bytes : a.hbm_read_bytes) +
        a.local_read_bytes;
    c.register_write_bytes = into_registers;
    c.register_read_bytes = stored;
    c.sram_read_bytes = a.sram_read_bytes;
    c.sram_write_bytes = a.sram_write_bytes;
  }
  c.network_read_bytes = loaded;
  c.network_write_bytes = stored;
  if (hw.l2) {
    c.l2_read_bytes = loaded;
    c.l2_write_bytes = stored;
  }
  c.hbm_read_bytes = loaded;
  c.hbm_write_bytes = stored;
  if (hw.energy) {
    c.hbm_activations = activations_by_row_rule(loaded + stored, hw.energy->hbm.row_bytes);
  }
  return c;
}

double analytical_time_s(const HardwareParams& hw, const WorkloadSpec& workload,
                         const Analysis& a) {
  // At this machine's clock, which a power limit may have lowered from the analysis's roof's.
  const Roof roof = roof_of(hw, compute_type(workload));
  double time =
      roof.peak_flop_per_s > 0 ? compute_time_s(a.issued_flops, 0, roof, a.warp_instructions) : 0;
  const double q = static_cast<double>(a.hbm_bytes());
  time = std::max(time, q / hw.hbm_bytes_per_s());
  for (const HardwareParams::SharedLevel& level : hw.shared_levels()) {
    time = std::max(time, q / static_cast<double>(level.port_bandwidth.bytes_per_second));
  }
  if (const std::uint64_t sram = a.sram_traffic_bytes(); sram > 0) {
    time = std::max(time, static_cast<double>(sram) /
                              hw.sram_bytes_per_s(a.sram_read_bytes, a.sram_write_bytes));
  }
  return time;
}

Time time_of_seconds(double seconds) {
  return Time::from_ps(static_cast<std::uint64_t>(std::ceil(seconds * 1e12)));
}

}  // namespace ridgeline
