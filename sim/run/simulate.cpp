#include "sim/run/simulate.hpp"

#include <systemc>

#include "sim/run/accelerator.hpp"
#include "sim/run/run_limits.hpp"
#include "sim/waveforms/activity_fanout.hpp"
#include "sim/waveforms/tracer.hpp"

namespace ridgeline {

CoreStats SimulationResult::core_total() const {
  CoreStats total;
  for (const CoreResult& r : cores) {
    const CoreStats& c = r.core;
    total.blocks += c.blocks;
    total.loads += c.loads;
    total.stores += c.stores;
    total.barriers += c.barriers;
    total.load_bytes += c.load_bytes;
    total.store_bytes += c.store_bytes;
    total.ops += c.ops;
    total.wakeups += c.wakeups;
    total.peak_resident_blocks = std::max(total.peak_resident_blocks, c.peak_resident_blocks);
    total.compute_busy += c.compute_busy;
    total.memory_active += c.memory_active;
    total.overlap += c.overlap;
    total.waiting_data += c.waiting_data;
    total.draining += c.draining;
    // A core that finished early waited, with nothing to do, for the others.
    total.no_work += c.no_work + (time - c.finish);
    total.buffer_wait += c.buffer_wait;
    total.in_flight_limit += c.in_flight_limit;
    total.finish = max(total.finish, c.finish);
    total.local_loads += c.local_loads;
    total.local_stores += c.local_stores;
    total.local_load_bytes += c.local_load_bytes;
    total.local_store_bytes += c.local_store_bytes;
    total.barrier_wait += c.barrier_wait;
    total.spill_wait += c.spill_wait;
    total.waiting_data_limited += c.waiting_data_limited;
    total.barrier_time += c.barrier_time;
    total.load_time += c.load_time;
    total.resident_block_time += c.resident_block_time;
    total.resident_warp_time += c.resident_warp_time;
    total.full_by_blocks += c.full_by_blocks;
    total.full_by_warps += c.full_by_warps;
    total.full_by_sram += c.full_by_sram;
    total.full_by_registers += c.full_by_registers;
  }
  return total;
}

ComputeUnitStats SimulationResult::compute_total() const {
  ComputeUnitStats total;
  for (const CoreResult& r : cores) {
    total.flops += r.compute.flops;
    total.ops += r.compute.ops;
    total.busy += r.compute.busy;
    total.operand_limited += r.compute.operand_limited;
  }
  return total;
}

SramStats SimulationResult::sram_total() const {
  SramStats total;
  for (const CoreResult& r : cores) {
    total.read_bytes += r.sram.read_bytes;
    total.write_bytes += r.sram.write_bytes;
    total.read_busy += r.sram.read_busy;
    total.write_busy += r.sram.write_busy;
    total.peak_allocated_bytes = std::max(total.peak_allocated_bytes, r.sram.peak_allocated_bytes);
  }
  return total;
}

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
  // What the run left dirty in the levels reaches HBM eventually: count it in Q (not in the
  // time). A level's flush passes through the levels below it, so flush from the cores outwards.
  for (const auto& level : accelerator.levels) level->flush();
  for (const auto& level : accelerator.levels)
    result.levels.push_back(level_result(level->level()));
  const HbmTiming& hbm = accelerator.hbm.timing();
  result.hbm = hbm.stats();
  result.hbm_units = hbm.params().units();
  if (hbm.dram()) result.dram = hbm.dram()->stats();
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
  accelerator.observe(nullptr);  // what follows (the L2's flush) is not the run's
  if (tracer) tracer->finish();
}

// A trace has no blocks: its players replay it, streaming, and the time is the last completion.
SimulationResult simulate_trace(const RunConfig& config, const MemoryTraceSpec& spec,
                                const WaveformOptions& traces, ActivityObserver* also) {
  check_simulated_time_fits(config, simulated_time_bound_ps(config, spec));
  TraceReader reader(spec.path);
  Accelerator accelerator("top", config.hardware, reader, spec.access_bytes);
  run_traced(accelerator, config, traces, also);
  SimulationResult result;
  collect_memory(accelerator, result);
  TracePlayerStats total;
  for (const auto& player : accelerator.players) total.add(player->stats());
  result.time = total.finish;
  result.trace = std::move(total);
  return result;
}

}  // namespace

SimulationResult simulate(const RunConfig& config, const WaveformOptions& traces,
                          ActivityObserver* also) {
  if (const auto* trace = std::get_if<MemoryTraceSpec>(&config.workload)) {
    return simulate_trace(config, *trace, traces, also);
  }
  const Kernel kernel = build_kernel(config.workload, config.hardware.threads);
  check_simulated_time_fits(config, simulated_time_bound_ps(config, kernel));
  Accelerator accelerator("top", config.hardware, kernel);
  run_traced(accelerator, config, traces, also);

  SimulationResult result;
  collect_memory(accelerator, result);
  result.scheduler = accelerator.scheduler.stats();
  for (const auto& core : accelerator.cores) {
    result.cores.push_back(CoreResult{core->stats(), core->compute.timing.stats(),
                                      core->sram.timing.stats(), core->registers.timing.stats()});
    result.time = max(result.time, core->stats().finish);
  }

  // The uncontended time of one block: each op alone on its unit, memory at full bandwidth.
  const HardwareParams& hw = config.hardware;
  const ComputeUnitTiming compute(hw.core.compute, hw.core_clock);
  const SramTiming sram(hw.core.sram, hw.core_clock);
  result.block_critical_path = kernel.program.critical_path([&](const Op& op) -> Program::OpTiming {
    switch (op.kind) {
      case OpKind::load:
      case OpKind::store: {
        const Time transfer = hw.hbm.peak_bandwidth.transfer_time(op.hbm_bytes());
        return {transfer, transfer + hw.hbm.access_latency};
      }
      case OpKind::compute: {
        const Time busy = max(compute.execution_time(op.flops, kernel.compute_type),
                              sram.read_time(op.sram_read_bytes));
        return {busy, busy + compute.pipeline_latency()};
      }
      case OpKind::barrier: {
        const Time wait = hw.core_clock.duration(op.cycles);
        return {wait, wait};
      }
    }
    return {};
  });
  return result;
}

}  // namespace ridgeline
