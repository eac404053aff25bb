#include "sim/report/run_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "sim/run/invariants.hpp"
#include "sim/run/simulated_energy.hpp"
#include "sim/util/internal_error.hpp"
#include "sim/util/text_format.hpp"

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

Verdict verdict_of(const RunFigures& f) {
  Verdict v;
  v.limit = f.levels.binding;
  v.bound = v.limit == "compute" ? "compute" : "memory";
  v.roof_s = f.levels.bound_s;
  if (f.time_s > 0) v.percent_of_roof = 100.0 * v.roof_s / f.time_s;
  if (v.roof_s > 0 && f.flops > 0) v.roof_flop_per_s = static_cast<double>(f.flops) / v.roof_s;
  // The invariants bound every resource's time by the run's, so this cannot pass 100 %.
  if (v.percent_of_roof > 100.0 * (1 + kInvariantTolerance)) {
    throw InternalError(fmt::format(
        "the run came to {:.6f} % of its {} roof ({} at the roof, {} simulated), above 100 %",
        v.percent_of_roof, v.limit, duration(v.roof_s), duration(f.time_s)));
  }
  return v;
}

}  // namespace

RunFigures run_figures(const RunConfig& config, const SimulationResult& r) {
  RunFigures f;
  f.time_s = r.time.seconds();
  add_core_figures(f, r);
  f.issued_flops = f.compute.flops;
  // Of what the units executed, the predicated-off lanes of edge tiles did no useful work. The run
  // issues exactly the analytical issued F (the invariants check it to the FLOP), so the useful
  // FLOPs are the issued ones less the analytical waste: the problem's F.
  const Analysis& a = config.analysis;
  f.flops = f.issued_flops - std::min(f.issued_flops, a.issued_flops - a.flops);
  f.hbm_bytes = r.hbm_bytes();
  if (f.time_s > 0) {
    f.flop_per_s = static_cast<double>(f.flops) / f.time_s;
    f.hbm_bytes_per_s = static_cast<double>(f.hbm_bytes) / f.time_s;
    f.hbm_busy = r.hbm.channel_busy.seconds() / (f.time_s * r.hbm_units);
    if (f.core_time_s > 0) {  // a trace: none
      f.compute_busy =
          (f.compute.busy - f.compute.operand_limited - f.compute.issue_limited).seconds() /
          f.core_time_s;
      f.operand_stall = f.compute.operand_limited.seconds() / f.core_time_s;
      f.issue_stall = f.compute.issue_limited.seconds() / f.core_time_s;
    }
  }
  f.intensity_flop_per_byte =
      f.hbm_bytes ? static_cast<double>(f.flops) / static_cast<double>(f.hbm_bytes) : 0;
  // The note's roof: without FLOPs (a memory trace) the bandwidth, as T_ideal over the time.
  const double note_roof = config.analysis.roofline.roof_flop_per_s;
  if (f.time_s > 0) {
    f.percent_of_note_roof = note_roof > 0 ? 100.0 * f.flop_per_s / note_roof
                                           : 100.0 * config.analysis.roofline.t_ideal_s / f.time_s;
  }
  const Time shorter = min(f.cores.memory_active, f.cores.compute_busy);
  f.overlap_fraction = shorter.ps() ? f.cores.overlap.seconds() / shorter.seconds() : 0;
  f.levels = simulated_levels(config, r, f);
  f.verdict = verdict_of(f);
  f.energy = simulated_energy(config, r);
  return f;
}

}  // namespace ridgeline
