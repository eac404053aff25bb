#include "sim/report/compute_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/config/quantity.hpp"
#include "sim/report/levels.hpp"
#include "sim/report/report.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

// F / bytes, or null where nothing crossed the level (an infinite intensity).
Json intensity_or_null(std::uint64_t flops, std::uint64_t bytes) {
  if (bytes == 0) return nullptr;
  return static_cast<double>(flops) / static_cast<double>(bytes);
}

std::string intensity_text(std::uint64_t flops, std::uint64_t bytes) {
  if (bytes == 0) return "no traffic";
  return fmt::format("{:.6f} FLOP/B", static_cast<double>(flops) / static_cast<double>(bytes));
}

}  // namespace

Limiter find_limiter(const RunConfig& config, const SimulationResult& r, const RunFigures& f) {
  const CoreStats& c = f.cores;
  Limiter l;
  const double time_s = f.time_s;
  // With a shared level (an L2) the note's roof (from its Q, no reuse across output tiles) bounds
  // nothing: HBM carries less. The roof is then the lowest of P and each level's roof at its
  // simulated I.
  const Roofline& roofline = config.analysis.roofline;
  double roof_flop_per_s = roofline.roof_flop_per_s;
  std::string roof_cause = roofline.bound == Bound::compute ? "compute" : "hbm_bandwidth";
  const bool has_shared_levels = !r.levels.empty();
  if (has_shared_levels) {
    const Levels& levels = f.levels;
    roof_flop_per_s = levels.peak_flop_per_s;
    roof_cause = "compute";
    for (const LevelFigures& level : levels.levels) {
      if (level.roof_flop_per_s < roof_flop_per_s) {
        roof_flop_per_s = level.roof_flop_per_s;
        roof_cause = level.name + "_bandwidth";
      }
    }
  }
  if (time_s > 0) {
    l.percent_of_roof = 100.0 * static_cast<double>(f.compute.flops) / time_s / roof_flop_per_s;
  }
  l.lost_s = f.core_time_s - (f.compute.busy - f.compute.operand_limited).seconds();
  l.synchronisation_s = c.barrier_wait.seconds();
  l.register_spill_s = c.spill_wait.seconds();
  l.in_flight_limit_s = c.waiting_data_limited.seconds();
  // The rest of the wait for data is either latency (too little in flight to cover it: too few
  // resident blocks or stages) or queueing behind other requests; split it by the share of a
  // load's time the memory spent queueing, on average.
  const double waiting = (c.waiting_data - c.waiting_data_limited).seconds();
  const std::uint64_t requests = r.hbm.reads + r.hbm.writes;
  const double queue_mean = requests ? r.hbm.queue_delay.seconds() / requests : 0;
  const double load_mean = c.loads ? c.load_time.seconds() / c.loads : 0;
  const double queue_share = load_mean > 0 ? std::min(1.0, queue_mean / load_mean) : 0;
  l.hbm_queueing_s = waiting * queue_share;
  l.low_occupancy_s = waiting - l.hbm_queueing_s;
  l.sram_bandwidth_s = f.compute.operand_limited.seconds();
  l.input_supply_s = l.in_flight_limit_s + l.hbm_queueing_s + l.sram_bandwidth_s;
  l.tail_s = (c.draining + c.no_work).seconds();

  auto share = [&](double seconds) { return percent(seconds / f.core_time_s); };
  if (l.percent_of_roof >= 100 * kAtRoofFraction && has_shared_levels) {
    l.cause = roof_cause;
    l.summary = fmt::format(
        "at the roof: {:.1f} % of {}, the lowest of P and the memory levels' roofs at the "
        "intensities the L2 left them",
        l.percent_of_roof, engineering(roof_flop_per_s, "FLOP/s"));
    return l;
  }
  if (l.percent_of_roof >= 100 * kAtRoofFraction) {
    l.cause = roof_cause;
    l.summary = fmt::format(
        "at the roof: {:.1f} % of {} ({} bound, I = {:.3f} FLOP/B against a "
        "ridge of {:.3f})",
        l.percent_of_roof, engineering(roofline.roof_flop_per_s, "FLOP/s"), name_of(roofline.bound),
        roofline.intensity_flop_per_byte, roofline.ridge_flop_per_byte);
    return l;
  }
  const std::vector<std::pair<const char*, double>> causes = {
      {"synchronisation", l.synchronisation_s},
      {"register_spill", l.register_spill_s},
      {"low_occupancy", l.low_occupancy_s},
      {"input_supply", l.input_supply_s},
      {"tail", l.tail_s}};
  const auto worst =
      std::max_element(causes.begin(), causes.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  l.cause = worst->first;
  const std::uint32_t stages = config.analysis.footprint.stages;
  const std::uint64_t barriers = c.barriers;
  if (l.cause == "synchronisation") {
    l.summary = fmt::format(
        "compute idle {} of core time in barriers ({} barriers of {} cycles), with {:.2f} resident "
        "blocks per core to work meanwhile",
        share(l.synchronisation_s), with_commas(barriers), config.hardware.threads.barrier.count,
        f.resident_blocks_mean);
  } else if (l.cause == "register_spill") {
    const std::uint64_t local = c.local_load_bytes + c.local_store_bytes;
    l.summary = fmt::format(
        "compute idle {} of core time reloading spilled registers ({} of {} per thread in local "
        "memory; {} bytes of local traffic, {} of the memory traffic)",
        share(l.register_spill_s), config.analysis.footprint.spilled_registers_per_thread,
        config.analysis.footprint.registers_per_thread, with_commas(local),
        percent(static_cast<double>(local) / static_cast<double>(c.load_bytes + c.store_bytes)));
  } else if (l.cause == "low_occupancy") {
    l.summary = fmt::format(
        "compute idle {} of core time on loads in flight with nothing else to run: {:.2f} "
        "resident blocks per core, {}; a load takes {} on average (memory latency {})",
        share(l.low_occupancy_s), f.resident_blocks_mean, counted(stages, "stage"),
        engineering(load_mean, "s"),
        engineering(config.hardware.hbm.access_latency.seconds(), "s"));
  } else if (l.cause == "input_supply") {
    const std::vector<std::pair<const char*, double>> parts = {
        {"in_flight_limit", l.in_flight_limit_s},
        {"hbm_queueing", l.hbm_queueing_s},
        {"sram_bandwidth", l.sram_bandwidth_s}};
    l.detail = std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
                 return a.second < b.second;
               })->first;
    l.summary = fmt::format(
        "compute short of operands {} of core time: held back by the in-flight limit {}, "
        "queued at memory {}, stretched by SRAM operand bandwidth {}",
        share(l.input_supply_s), share(l.in_flight_limit_s), share(l.hbm_queueing_s),
        share(l.sram_bandwidth_s));
  } else {
    l.summary = fmt::format(
        "compute idle {} of core time with no load to wait for (draining, the last blocks)",
        share(l.tail_s));
  }
  return l;
}

void add_hardware_compute(Json& hardware, const RunConfig& config) {
  const KernelTarget& limits = config.hardware.threads;
  hardware["warp_size"] = limits.warp_size;
  hardware["max_warps"] = config.hardware.core.max_warps;
  hardware["max_threads_per_block"] = limits.max_threads_per_block;
  hardware["max_registers_per_thread"] = limits.max_registers_per_thread;
  hardware["barrier_latency_cycles"] = limits.barrier.count;
}

void add_analytical_compute(Json& analytical, const RunConfig& config) {
  const Analysis& a = config.analysis;
  const Footprint& f = a.footprint;
  Json& footprint = analytical["footprint"];
  footprint["threads_per_block"] = f.threads;
  footprint["warps_per_block"] = f.warps;
  footprint["registers_per_thread"] = f.registers_per_thread;
  footprint["allocated_registers_per_thread"] = f.allocated_registers_per_thread;
  footprint["spilled_registers_per_thread"] = f.spilled_registers_per_thread;
  Json& occupancy = analytical["occupancy"];
  occupancy["warps_per_block"] = f.warps;
  occupancy["active_warps"] = config.occupancy.active_warps;
  occupancy["max_warps"] = config.occupancy.max_warps;
  occupancy["fraction"] =
      config.occupancy.max_warps ? Json(config.occupancy.fraction()) : Json(nullptr);
  analytical["sram"] = {
      {"read_bytes", a.sram_read_bytes},
      {"write_bytes", a.sram_write_bytes},
      {"bytes", a.sram_traffic_bytes()},
      {"intensity_flop_per_byte", intensity_or_null(a.flops, a.sram_traffic_bytes())}};
  analytical["local_memory"] = {{"read_bytes", a.local_read_bytes},
                                {"write_bytes", a.local_write_bytes},
                                {"bytes", a.local_traffic_bytes()}};
}

void add_simulated_compute(Json& simulated, const RunConfig& config, const SimulationResult& r,
                           const RunFigures& f) {
  const CoreStats& c = f.cores;
  const std::uint32_t max_warps = config.hardware.core.max_warps;
  Json& stalls = simulated["stalls"];
  stalls["barrier_s"] = c.barrier_wait.seconds();
  stalls["spill_reload_s"] = c.spill_wait.seconds();
  stalls["waiting_data_in_flight_limit_s"] = c.waiting_data_limited.seconds();
  simulated["occupancy"] = {
      {"resident_blocks_peak", c.peak_resident_blocks},
      {"resident_blocks_mean", f.resident_blocks_mean},
      {"active_warps_mean", f.active_warps_mean},
      {"achieved_fraction", max_warps ? Json(f.active_warps_mean / max_warps) : Json(nullptr)},
      {"full_s",
       {{"max_resident_blocks", c.full_by_blocks.seconds()},
        {"warps", c.full_by_warps.seconds()},
        {"sram", c.full_by_sram.seconds()},
        {"registers", c.full_by_registers.seconds()}}},
      {"limited_by", f.full_by}};
  simulated["barriers"] = {{"count", c.barriers},
                           {"time_s", c.barrier_time.seconds()},
                           {"compute_idle_s", c.barrier_wait.seconds()}};
  simulated["local_memory"] = {{"loads", c.local_loads},
                               {"stores", c.local_stores},
                               {"load_bytes", c.local_load_bytes},
                               {"store_bytes", c.local_store_bytes},
                               {"bytes", c.local_load_bytes + c.local_store_bytes}};
  const std::uint64_t sram_bytes = f.sram.read_bytes + f.sram.write_bytes;
  simulated["sram"] = {{"read_bytes", f.sram.read_bytes},
                       {"write_bytes", f.sram.write_bytes},
                       {"bytes", sram_bytes},
                       {"intensity_flop_per_byte", intensity_or_null(f.compute.flops, sram_bytes)}};
  const Limiter l = find_limiter(config, r, f);
  simulated["limiter"] = {{"cause", l.cause},
                          {"detail", l.detail},
                          {"summary", l.summary},
                          {"percent_of_roof", l.percent_of_roof},
                          {"lost_s", l.lost_s},
                          {"by_cause_s",
                           {{"synchronisation", l.synchronisation_s},
                            {"register_spill", l.register_spill_s},
                            {"low_occupancy", l.low_occupancy_s},
                            {"input_supply", l.input_supply_s},
                            {"tail", l.tail_s}}},
                          {"input_supply_s",
                           {{"in_flight_limit", l.in_flight_limit_s},
                            {"hbm_queueing", l.hbm_queueing_s},
                            {"sram_bandwidth", l.sram_bandwidth_s}}}};
}

std::string analytical_compute_text(const RunConfig& config) {
  const Analysis& a = config.analysis;
  const Footprint& f = a.footprint;
  const KernelTarget& limits = config.hardware.threads;
  std::string out =
      fmt::format("  threads: {} per block ({} of {}), {} registers per thread", f.threads,
                  counted(f.warps, "warp"), limits.warp_size, f.registers_per_thread);
  out += thread_registers_note(config.workload).breakdown;
  if (f.spilled_registers_per_thread > 0) {
    out += fmt::format(", {} above the limit of {} spilled to local memory",
                       f.spilled_registers_per_thread, limits.max_registers_per_thread);
  }
  out += '\n';
  if (config.occupancy.max_warps != 0) {
    out += fmt::format("  warps: {} resident of {} per core = {:.1f} % occupancy\n",
                       config.occupancy.active_warps, config.occupancy.max_warps,
                       100 * config.occupancy.fraction());
  }
  out += fmt::format(
      "  SRAM level, analytical: Q = {} bytes (operand reads {}, tile writes {}), I = {}\n",
      with_commas(a.sram_traffic_bytes()), with_commas(a.sram_read_bytes),
      with_commas(a.sram_write_bytes), intensity_text(a.flops, a.sram_traffic_bytes()));
  if (a.local_traffic_bytes() > 0) {
    out +=
        fmt::format("  local memory (spills): {} bytes beside Q ({} reloaded, {} written back)\n",
                    with_commas(a.local_traffic_bytes()), with_commas(a.local_read_bytes),
                    with_commas(a.local_write_bytes));
  }
  return out;
}

std::string simulated_compute_text(const RunConfig& config, const SimulationResult& r,
                                   const RunFigures& f) {
  const CoreStats& c = f.cores;
  auto share = [&](Time t) { return percent(t.seconds() / f.core_time_s); };
  std::string out = fmt::format("  occupancy: {:.2f} resident blocks per core on average (peak {})",
                                f.resident_blocks_mean, c.peak_resident_blocks);
  if (const std::uint32_t max_warps = config.hardware.core.max_warps; max_warps != 0) {
    out += fmt::format(", {:.1f} warps of {} = {:.1f} % achieved occupancy", f.active_warps_mean,
                       max_warps, 100 * f.active_warps_mean / max_warps);
  }
  if (f.full_by_s > 0) {
    out +=
        fmt::format("; full ({}) {} of the time", f.full_by, percent(f.full_by_s / f.core_time_s));
  }
  out += '\n';
  if (c.barriers > 0) {
    out += fmt::format("  barriers: {}, compute idle in them {} of core time\n",
                       with_commas(c.barriers), share(c.barrier_wait));
  }
  if (c.local_loads + c.local_stores > 0) {
    out += fmt::format(
        "  local memory (spills): {} bytes reloaded, {} written back; compute idle on reloads {}\n",
        with_commas(c.local_load_bytes), with_commas(c.local_store_bytes), share(c.spill_wait));
  }
  const std::uint64_t sram_bytes = f.sram.read_bytes + f.sram.write_bytes;
  out += fmt::format("  SRAM level, simulated: Q = {} bytes, I = {}\n", with_commas(sram_bytes),
                     intensity_text(f.compute.flops, sram_bytes));
  const Limiter l = find_limiter(config, r, f);
  out += fmt::format("  limiter: {}{}: {}\n", l.cause,
                     l.detail.empty() ? "" : " (" + l.detail + ")", l.summary);
  return out;
}

}  // namespace ridgeline
