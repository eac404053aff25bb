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

// The cores that ran at least one block: fewer than all when the grid has fewer blocks than
// cores (blocks are placed breadth-first, so the grid, not the placement, leaves the rest idle).
std::uint64_t cores_with_blocks(const SimulationResult& r) {
  return static_cast<std::uint64_t>(std::count_if(
      r.cores.begin(), r.cores.end(), [](const CoreResult& c) { return c.core.blocks > 0; }));
}

std::string intensity_text(std::uint64_t flops, std::uint64_t bytes) {
  if (bytes == 0) return "no traffic";
  return fmt::format("{:.6f} FLOP/B", static_cast<double>(flops) / static_cast<double>(bytes));
}

// {in_flight_limit, <level>_queueing..., hbm_queueing, sram_bandwidth}, in core-seconds.
Json input_supply_json(const Limiter& l) {
  Json parts = {{"in_flight_limit", l.in_flight_limit_s}};
  for (const auto& [name, seconds] : l.queueing_s) parts[name + "_queueing"] = seconds;
  parts["sram_bandwidth"] = l.sram_bandwidth_s;
  return parts;
}

}  // namespace

Limiter find_limiter(const RunConfig& config, const SimulationResult& r, const RunFigures& f) {
  const CoreStats& c = f.cores;
  Limiter l;
  const Verdict& verdict = f.verdict;
  l.percent_of_roof = verdict.percent_of_roof;
  l.lost_s = f.core_time_s -
             (f.compute.busy - f.compute.operand_limited - f.compute.issue_limited).seconds();
  l.synchronisation_s = c.barrier_wait.seconds();
  l.block_launch_s = c.launching.seconds();
  l.register_spill_s = c.spill_wait.seconds();
  l.waiting_blocks_s = c.waiting_blocks.seconds();
  l.in_flight_limit_s = c.waiting_data_limited.seconds();
  // The rest of the wait for data is either latency (too little in flight to cover it: too few
  // resident blocks or stages) or queueing behind other requests. Split it by the share of a
  // load's time spent in each queue on the way, on average: each level's port (its queue delay
  // per request), then HBM (its reads' queue delay per load: a load's misses wait there).
  const double waiting = (c.waiting_data - c.waiting_data_limited).seconds();
  const double load_mean = c.loads ? c.load_time.seconds() / static_cast<double>(c.loads) : 0;
  std::vector<std::pair<std::string, double>> queue_mean_s;
  for (const LevelResult& level : r.levels) {
    const LevelTraffic& t = level.traffic;
    queue_mean_s.emplace_back(
        level.name,
        t.requests ? t.port_queue_delay.seconds() / static_cast<double>(t.requests) : 0);
  }
  queue_mean_s.emplace_back(
      "hbm", c.loads ? r.hbm.read_queue_delay.seconds() / static_cast<double>(c.loads) : 0);
  double queued_mean = 0;
  for (const auto& [name, mean] : queue_mean_s) queued_mean += mean;
  // Queues a load passes one after another: together at most the whole of its time.
  const double scale =
      load_mean > 0 && queued_mean > 0 ? std::min(1.0, load_mean / queued_mean) / load_mean : 0;
  double queueing = 0;
  for (const auto& [name, mean] : queue_mean_s) {
    l.queueing_s.emplace_back(name, waiting * mean * scale);
    queueing += l.queueing_s.back().second;
  }
  l.low_occupancy_s = waiting - queueing;
  l.sram_bandwidth_s = f.compute.operand_limited.seconds();
  l.input_supply_s = l.in_flight_limit_s + queueing + l.sram_bandwidth_s;
  l.tail_s = (c.draining + c.no_work).seconds();

  auto share = [&](double seconds) { return percent(seconds / f.core_time_s); };
  if (l.percent_of_roof >= 100 * kAtRoofFraction) {
    l.cause = verdict.limit == "compute" ? "compute" : verdict.limit + "_bandwidth";
    l.summary = fmt::format(
        "at the roof: {:.1f} % of {}, the lowest of P and each memory level's bandwidth x the "
        "intensity measured there ({})",
        l.percent_of_roof, engineering(verdict.roof_flop_per_s, "FLOP/s"),
        verdict.limit == "compute" ? compute_roof_text(config, f) : verdict.limit);
    return l;
  }
  // The issue stretch (issue_stall_fraction) is no cause: where it happens the issue is the
  // compute roof (every op's instructions outlast its FLOPs alike), which the percentage is of.
  const std::vector<std::pair<const char*, double>> causes = {
      {"synchronisation", l.synchronisation_s},
      {"block_launch", l.block_launch_s},
      {"register_spill", l.register_spill_s},
      {"waiting_blocks", l.waiting_blocks_s},
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
  } else if (l.cause == "block_launch") {
    const CoreParams& core = config.hardware.core;
    l.summary = fmt::format(
        "compute idle {} of core time while blocks were launched ({} blocks of {} warps, each "
        "launched in {} + {} x {} cycles), with {:.2f} resident blocks per core to work meanwhile",
        share(l.block_launch_s), with_commas(c.blocks), config.analysis.footprint.warps,
        core.block_launch.count, config.analysis.footprint.warps, core.warp_launch.count,
        f.resident_blocks_mean);
  } else if (l.cause == "register_spill") {
    const std::uint64_t local = c.local_load_bytes + c.local_store_bytes;
    l.summary = fmt::format(
        "compute idle {} of core time reloading spilled registers ({} of {} per thread in local "
        "memory; {} bytes of local traffic, {} of the memory traffic)",
        share(l.register_spill_s), config.analysis.footprint.spilled_registers_per_thread,
        config.analysis.footprint.registers_per_thread, with_commas(local),
        percent(static_cast<double>(local) / static_cast<double>(c.load_bytes + c.store_bytes)));
  } else if (l.cause == "waiting_blocks") {
    l.summary = fmt::format(
        "compute idle {} of core time while blocks waited for the partial sums of other blocks "
        "({} waits for their flags), with {:.2f} resident blocks per core to work meanwhile",
        share(l.waiting_blocks_s), with_commas(c.flag_waits), f.resident_blocks_mean);
  } else if (l.cause == "low_occupancy") {
    l.summary = fmt::format(
        "compute idle {} of core time on loads in flight with nothing else to run: {:.2f} "
        "resident blocks per core, {}; a load takes {} on average (memory latency {})",
        share(l.low_occupancy_s), f.resident_blocks_mean, counted(stages, "stage"),
        engineering(load_mean, "s"),
        engineering(config.hardware.hbm.access_latency.seconds(), "s"));
  } else if (l.cause == "input_supply") {
    std::vector<std::pair<std::string, double>> parts = {{"in_flight_limit", l.in_flight_limit_s}};
    std::string queued;
    for (const auto& [name, seconds] : l.queueing_s) {
      parts.emplace_back(name + "_queueing", seconds);
      queued += fmt::format("{}queued at {} {}", queued.empty() ? "" : ", ",
                            name == "hbm" ? "HBM" : "the " + name + " port", share(seconds));
    }
    parts.emplace_back("sram_bandwidth", l.sram_bandwidth_s);
    l.detail = std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
                 return a.second < b.second;
               })->first;
    l.summary = fmt::format(
        "compute short of operands {} of core time: held back by the in-flight limit {}, {}, "
        "stretched by SRAM operand bandwidth {}",
        share(l.input_supply_s), share(l.in_flight_limit_s), queued, share(l.sram_bandwidth_s));
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
  hardware["block_launch_latency_cycles"] = config.hardware.core.block_launch.count;
  hardware["warp_launch_latency_cycles"] = config.hardware.core.warp_launch.count;
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
  const double issue_s = issue_time_s(a.warp_instructions, a.roof);
  analytical["issue"] = {{"warp_instructions", a.warp_instructions},
                         {"time_s", issue_s > 0 ? Json(issue_s) : Json(nullptr)}};
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
      {"cores_with_blocks", cores_with_blocks(r)},
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
  simulated["issue"] = {{"warp_instructions", f.compute.warp_instructions},
                        {"stretched_compute_s", f.compute.issue_limited.seconds()}};
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
                       {"intensity_flop_per_byte", intensity_or_null(f.flops, sram_bytes)}};
  const Limiter l = find_limiter(config, r, f);
  simulated["limiter"] = {{"cause", l.cause},
                          {"detail", l.detail},
                          {"summary", l.summary},
                          {"percent_of_roof", l.percent_of_roof},
                          {"lost_s", l.lost_s},
                          {"by_cause_s",
                           {{"synchronisation", l.synchronisation_s},
                            {"block_launch", l.block_launch_s},
                            {"register_spill", l.register_spill_s},
                            {"waiting_blocks", l.waiting_blocks_s},
                            {"low_occupancy", l.low_occupancy_s},
                            {"input_supply", l.input_supply_s},
                            {"tail", l.tail_s}}},
                          {"input_supply_s", input_supply_json(l)}};
}

std::string compute_roof_text(const RunConfig& config, const RunFigures& f) {
  const Analysis& a = config.analysis;
  if (!issue_binds(f.issued_flops, a.vector_flops, a.roof, f.compute.warp_instructions)) return "P";
  return fmt::format("P as the issue of {} warp instructions, {} a cycle per core, allows it",
                     with_commas(f.compute.warp_instructions),
                     config.hardware.core.compute.warp_instructions_per_cycle);
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
  // Where the machine issues instructions at a rate (a GPU's SM); elsewhere the count is in the
  // JSON only.
  if (const double issue_s = issue_time_s(a.warp_instructions, a.roof); issue_s > 0) {
    out += fmt::format(
        "  issue: {} warp instructions at {} a cycle per core take {}; the FLOPs at "
        "P, {}\n",
        with_commas(a.warp_instructions), config.hardware.core.compute.warp_instructions_per_cycle,
        engineering(issue_s, "s"),
        engineering(compute_time_s(a.issued_flops, a.vector_flops, a.roof), "s"));
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
  if (const std::uint64_t used = cores_with_blocks(r); used < r.cores.size()) {
    out += fmt::format(
        "  grid: {} blocks for {} cores: {} cores ran no block (a wider grid, or smaller tiles, "
        "would use them)\n",
        with_commas(c.blocks), r.cores.size(), r.cores.size() - used);
  }
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
                     intensity_text(f.flops, sram_bytes));
  const Limiter l = find_limiter(config, r, f);
  out += fmt::format("  limiter: {}{}: {}\n", l.cause,
                     l.detail.empty() ? "" : " (" + l.detail + ")", l.summary);
  return out;
}

}  // namespace ridgeline
