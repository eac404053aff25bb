#include "sim/run/simulate.hpp"

#include <fmt/format.h>

#include <systemc>

#include "models/l2_cache_module.hpp"
#include "sim/run/accelerator.hpp"
#include "sim/run/invariants.hpp"
#include "sim/run/run_limits.hpp"
#include "sim/util/internal_error.hpp"
#include "sim/waveforms/activity_fanout.hpp"
#include "sim/waveforms/tracer.hpp"

namespace ridgeline {

namespace {

LevelResult level_result(const MemoryLevel& level) {
  LevelResult result;
  result.name = level.name();
  result.port_bandwidth = level.port_bandwidth();
  result.traffic = level.traffic();
  level.visit([&](std::string_view name, double value, std::string_view, std::string_view) {
    result.counters.emplace_back(std::string(name), value);
  });
  if (const auto* cache = dynamic_cast<const L2CacheTiming*>(&level)) {
    result.cache = LevelResult::Cache{cache->params(), cache->stats()};
  }
  return result;
}

void collect_memory(Accelerator& accelerator, SimulationResult& result) {
  // The kernel ends with the last block: what the levels still hold dirty stays there, counted
  // beside Q (MemoryLevel::end_of_run).
  for (const auto& level : accelerator.levels) level->end_of_run();
  for (const auto& level : accelerator.levels)
    result.levels.push_back(level_result(level->level()));
  const HbmTiming& hbm = accelerator.hbm.timing();
  result.hbm = hbm.stats();
  result.hbm_units = hbm.params().units();
  result.hbm_busiest_unit_busy = hbm.busiest_unit_busy();
  if (hbm.dram()) result.dram = hbm.dram()->stats();
  if (hbm.dram()) result.dram_units = hbm.dram()->unit_stats();
}

// Runs the elaborated `accelerator` to its end, traced when `traces` asks for it, observed by
// `also` when not null.
void run_traced(Accelerator& accelerator, const RunConfig& config, const WaveformOptions& traces,
                ActivityObserver* also) {
  std::unique_ptr<Tracer> tracer;
  std::vector<ActivityObserver*> observers;
  if (traces.any()) {
    const Time window = traces.rate_window.value_or(rate_window_for(
        Time::from_ps(static_cast<std::uint64_t>(config.analysis.roofline.t_ideal_s * 1e12))));
    tracer = std::make_unique<Tracer>("tracer", accelerator.waveform_layout(), traces, window);
    observers.push_back(tracer.get());
  }
  if (also) observers.push_back(also);
  ActivityFanout fanout(observers);
  if (observers.size() == 1) accelerator.observe(observers.front());
  if (observers.size() > 1) accelerator.observe(&fanout);
  sc_core::sc_start();
  // The controllers drain the writes they still hold (traced too): a run's stores are in memory
  // at its end.
  accelerator.hbm.end_of_run();
  accelerator.observe(nullptr);
  if (tracer) tracer->finish();
}

// The tensors a kernel before this one left in the L2, read (RunConfig::l2_resident: copies in
// the partitions near the cores too) or written (l2_written: at home only), in their order; a
// trace's, the bytes it touches (run --l2-resident data).
void preload_l2(Accelerator& accelerator, const RunConfig& config) {
  if (config.l2_resident.empty() && config.l2_written.empty()) return;
  auto* l2 =
      accelerator.levels.empty() ? nullptr : dynamic_cast<L2Cache*>(accelerator.levels[0].get());
  if (!l2) throw InternalError("L2-resident tensors asked of a machine without an L2");
  for (const TensorRef& tensor : workload_tensors(config.workload)) {
    for (const auto& [names, left_by] :
         {std::pair{&config.l2_resident, L2CacheTiming::LeftBy::reads},
          std::pair{&config.l2_written, L2CacheTiming::LeftBy::writes}}) {
      for (const std::string& name : *names) {
        if (name == tensor.name) l2->timing().preload(tensor.address, tensor.bytes(), left_by);
      }
    }
  }
}

// A trace has no blocks: its players replay it, streaming, and the time is the last completion.
SimulationResult simulate_trace(const RunConfig& config, const MemoryTraceSpec& spec,
                                const WaveformOptions& traces, ActivityObserver* also) {
  check_simulated_time_fits(config, simulated_time_bound_ps(config, spec));
  const std::unique_ptr<AccessSource> accesses = open_accesses(spec);
  Accelerator accelerator("top", config.hardware, *accesses, spec);
  preload_l2(accelerator, config);
  run_traced(accelerator, config, traces, also);
  SimulationResult result;
  collect_memory(accelerator, result);
  TracePlayerStats total;
  for (const auto& player : accelerator.players) total.add(player->stats());
  result.time = max(total.finish, result.hbm.last_transfer);
  result.trace = std::move(total);
  check_invariants(config, result);
  return result;
}

// Blocks of a kernel on the cores: the time is the last core's finish.
SimulationResult simulate_kernel(const RunConfig& config, const Kernel& kernel,
                                 const WaveformOptions& traces, ActivityObserver* also) {
  check_simulated_time_fits(config, simulated_time_bound_ps(config, kernel));
  Accelerator accelerator("top", config.hardware, kernel);
  preload_l2(accelerator, config);
  run_traced(accelerator, config, traces, also);
  if (accelerator.flags.waiting() > 0) {
    throw InternalError(fmt::format(
        "the simulation of {} on {} ended with {} waits for other blocks' flags never met: the "
        "kernel's blocks wait for a block that cannot run (this is a bug in its program)",
        config.workload_path, config.hardware.name, accelerator.flags.waiting()));
  }

  SimulationResult result;
  collect_memory(accelerator, result);
  result.scheduler = accelerator.scheduler.stats();
  for (const auto& core : accelerator.cores) {
    result.cores.push_back(CoreResult{core->stats(), core->compute.timing.stats(),
                                      core->sram.timing.stats(), core->registers.timing.stats()});
    result.time = max(result.time, core->stats().finish);
  }
  result.time = max(result.time, result.hbm.last_transfer);

  // The uncontended time of one block: each op alone on its unit, memory at full bandwidth. With
  // an L2 a request can do no better than to hit: its bytes through the port, then the hit
  // latency (an HBM latency would overstate it: the invariants found the path longer than runs).
  const HardwareParams& hw = config.hardware;
  const ComputeUnitTiming compute(hw.core.compute, hw.core_clock);
  const SramTiming sram(hw.core.sram, hw.core_clock);
  result.block_critical_path = kernel.program.critical_path([&](const Op& op) -> Program::OpTiming {
    switch (op.kind) {
      case OpKind::load:
      case OpKind::store: {
        if (hw.l2) {
          const Time transfer = hw.l2->bandwidth.transfer_time(op.hbm_bytes());
          return {transfer, transfer + hw.l2->hit_latency};
        }
        const Time transfer = hw.hbm.peak_bandwidth.transfer_time(op.hbm_bytes());
        return {transfer, transfer + hw.hbm.access_latency};
      }
      case OpKind::compute: {
        const Time busy =
            max(compute.execution_time(op.flops, op.compute_type.value_or(kernel.compute_type)),
                max(sram.read_time(op.sram_read_bytes), compute.issue_time(op.warp_instructions)));
        return {busy, busy + compute.pipeline_latency()};
      }
      case OpKind::barrier: {
        const Time wait = hw.core_clock.duration(op.cycles);
        return {wait, wait};
      }
      case OpKind::signal:
      case OpKind::wait:
        break;  // alone, a block waits for no other
    }
    return {};
  });
  check_invariants(config, result);
  return result;
}

}  // namespace

SimulationResult simulate(const RunConfig& config, const WaveformOptions& traces,
                          ActivityObserver* also) {
  return std::visit(
      [&](const auto& spec) {
        if constexpr (KindOf<decltype(spec)>::runs_on == Runner::trace_players) {
          return simulate_trace(config, spec, traces, also);
        } else {
          return simulate_kernel(
              config, KindOf<decltype(spec)>::build_kernel(spec, config.hardware.threads), traces,
              also);
        }
      },
      config.workload);
}

}  // namespace ridgeline
