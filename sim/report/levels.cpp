#include "sim/report/levels.hpp"

#include <algorithm>

#include "sim/report/run_figures.hpp"

namespace ridgeline {

namespace {

LevelFigures level(std::string name, std::uint64_t flops, std::uint64_t bytes,
                   double bandwidth_bytes_per_s) {
  LevelFigures l;
  l.name = std::move(name);
  l.bytes = bytes;
  l.intensity_flop_per_byte = static_cast<double>(flops) / static_cast<double>(bytes);
  l.bandwidth_bytes_per_s = bandwidth_bytes_per_s;
  l.roof_flop_per_s = bandwidth_bytes_per_s * l.intensity_flop_per_byte;
  l.time_s = static_cast<double>(bytes) / bandwidth_bytes_per_s;
  return l;
}

void add_if_any(std::vector<LevelFigures>& levels, LevelFigures&& figures) {
  if (figures.bytes > 0) levels.push_back(std::move(figures));
}

// The lowest roof binds: the resource whose lower bound on the time (F issued / P, or Q_level /
// BW_level) is the longest; compute when no level's is longer. Time rather than FLOP/s, so that a
// memory trace (no FLOPs, every roof 0) is bound by a level all the same. The compute units'
// time is that of the FLOPs they issue, edge tiles' predicated lanes included, or of the warp
// instructions that issue them where that is longer; their roof, in useful FLOP/s like the
// levels', is P scaled by the useful share.
void bind(Levels& l, std::uint64_t flops, std::uint64_t issued_flops, std::uint64_t vector_flops,
          std::uint64_t warp_instructions, const Roof& roof) {
  l.binding = "compute";
  l.bound_s = l.peak_flop_per_s > 0
                  ? compute_time_s(issued_flops, vector_flops, roof, warp_instructions)
                  : 0;
  // FLOPs on the vector units (their own, lower peak), or instructions' issue, count at their
  // time.
  const bool issue = issue_binds(issued_flops, vector_flops, roof, warp_instructions);
  l.compute_roof_flop_per_s =
      (vector_flops > 0 || issue) && l.bound_s > 0 ? static_cast<double>(flops) / l.bound_s
      : issued_flops > flops
          ? l.peak_flop_per_s * static_cast<double>(flops) / static_cast<double>(issued_flops)
          : l.peak_flop_per_s;
  for (const LevelFigures& level : l.levels) {
    if (level.time_s > l.bound_s) {
      l.bound_s = level.time_s;
      l.binding = level.name;
    }
  }
}

}  // namespace

Levels analytical_levels(const RunConfig& config) {
  const HardwareParams& hw = config.hardware;
  const Analysis& a = config.analysis;
  Levels l;
  l.peak_flop_per_s = a.roof.peak_flop_per_s;
  add_if_any(l.levels, level("hbm", a.flops, a.hbm_bytes(), a.roof.hbm_bytes_per_s));
  // The shared levels, outermost first: walking inwards from HBM.
  const std::vector<HardwareParams::SharedLevel> shared = hw.shared_levels();
  for (auto it = shared.rbegin(); it != shared.rend(); ++it) {
    add_if_any(l.levels, level(it->name, a.flops, a.hbm_bytes(),
                               static_cast<double>(it->port_bandwidth.bytes_per_second)));
  }
  const std::uint64_t sram = a.sram_read_bytes + a.sram_write_bytes;
  if (sram > 0) {
    l.levels.push_back(
        level("sram", a.flops, sram, hw.sram_bytes_per_s(a.sram_read_bytes, a.sram_write_bytes)));
  }
  bind(l, a.flops, a.issued_flops, a.vector_flops, a.warp_instructions, a.roof);
  return l;
}

Levels simulated_levels(const RunConfig& config, const SimulationResult& r,
                        const RunFigures& figures) {
  const HardwareParams& hw = config.hardware;
  const std::uint64_t flops = figures.flops;
  const double time_s = figures.time_s;
  Levels l;
  l.peak_flop_per_s = config.analysis.roof.peak_flop_per_s;
  l.compute_busy_fraction = figures.compute_busy;

  LevelFigures hbm = level("hbm", flops, figures.hbm_bytes, hw.hbm_bytes_per_s());
  if (time_s > 0) hbm.busy_fraction = figures.hbm_busy;
  add_if_any(l.levels, std::move(hbm));
  // The shared levels, outermost first: walking inwards from HBM.
  for (auto it = r.levels.rbegin(); it != r.levels.rend(); ++it) {
    LevelFigures shared = level(it->name, flops, it->traffic.requested_bytes,
                                static_cast<double>(it->port_bandwidth.bytes_per_second));
    if (time_s > 0) shared.busy_fraction = it->traffic.port_busy.seconds() / time_s;
    add_if_any(l.levels, std::move(shared));
  }
  const SramStats& sram = figures.sram;
  if (sram.read_bytes + sram.write_bytes > 0) {
    LevelFigures s = level("sram", flops, sram.read_bytes + sram.write_bytes,
                           hw.sram_bytes_per_s(sram.read_bytes, sram.write_bytes));
    if (time_s > 0) {
      const Time busy = hw.core.sram.shared_port ? sram.read_busy + sram.write_busy
                                                 : max(sram.read_busy, sram.write_busy);
      s.busy_fraction = busy.seconds() / figures.core_time_s;
    }
    l.levels.push_back(std::move(s));
  }

  // The run executes the analytical vector FLOPs and issues the analytical warp instructions
  // exactly (the invariants count both).
  bind(l, figures.flops, figures.issued_flops, config.analysis.vector_flops,
       figures.compute.warp_instructions, config.analysis.roof);
  return l;
}

}  // namespace ridgeline
