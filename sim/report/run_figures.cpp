#include "sim/report/run_figures.hpp"

#include <utility>

namespace ridgeline {

namespace {

void add_core_figures(RunFigures& f, const SimulationResult& r) {
  f.cores = r.core_total();
  f.compute = r.compute_total();
  f.sram = r.sram_total();
  f.core_time_s = f.time_s * static_cast<double>(r.cores.size());
  if (f.core_time_s > 0) {
    f.resident_blocks_mean = f.cores.resident_block_time.seconds() / f.core_time_s;
    f.active_warps_mean = f.cores.resident_warp_time.seconds() / f.core_time_s;
  }
  for (const auto& [name, span] :
       {std::pair{"max_resident_blocks", f.cores.full_by_blocks},
        std::pair{"warps", f.cores.full_by_warps}, std::pair{"sram", f.cores.full_by_sram},
        std::pair{"registers", f.cores.full_by_registers}}) {
    if (span.seconds() > f.full_by_s) {
      f.full_by = name;
      f.full_by_s = span.seconds();
    }
  }
}

}  // namespace

RunFigures run_figures(const RunConfig& config, const SimulationResult& r) {
  RunFigures f;
  f.time_s = r.time.seconds();
  add_core_figures(f, r);
  f.flops = f.compute.flops;
  f.hbm_bytes = r.hbm_bytes();
  if (f.time_s > 0) {
    f.flop_per_s = static_cast<double>(f.flops) / f.time_s;
    f.hbm_bytes_per_s = static_cast<double>(f.hbm_bytes) / f.time_s;
    f.hbm_busy = r.hbm.channel_busy.seconds() / (f.time_s * r.hbm_units);
    if (f.core_time_s > 0)
      f.compute_busy = f.compute.busy.seconds() / f.core_time_s;  // a trace: none
  }
  f.intensity_flop_per_byte =
      f.hbm_bytes ? static_cast<double>(f.flops) / static_cast<double>(f.hbm_bytes) : 0;
  const double roof = config.analysis.roofline.roof_flop_per_s;
  // Without FLOPs (a memory trace) the roof is the bandwidth: T_ideal over the time says the same.
  f.percent_of_roof =
      roof > 0 ? 100.0 * f.flop_per_s / roof
               : (f.time_s > 0 ? 100.0 * config.analysis.roofline.t_ideal_s / f.time_s : 0);
  const Time shorter = min(f.cores.memory_active, f.cores.compute_busy);
  f.overlap_fraction = shorter.ps() ? f.cores.overlap.seconds() / shorter.seconds() : 0;
  f.bound = f.hbm_busy >= f.compute_busy ? "memory" : "compute";
  f.levels = simulated_levels(config, r, f);
  return f;
}

}  // namespace ridgeline
