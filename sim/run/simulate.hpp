// Runs one configuration through the SystemC models and collects what they counted.
// SystemC elaborates once per process: call simulate() at most once in a process.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/compute_unit.hpp"
#include "models/core.hpp"
#include "models/hbm.hpp"
#include "models/l2_cache.hpp"
#include "models/register_file.hpp"
#include "models/scheduler.hpp"
#include "models/sram.hpp"
#include "models/trace_player.hpp"
#include "sim/config/run_config.hpp"
#include "sim/waveforms/waveform_options.hpp"

namespace ridgeline {

/// One core's counters, as its modules left them.
struct CoreResult {
  CoreStats core;
  ComputeUnitStats compute;
  SramStats sram;
  RegisterFileStats registers;
};

struct SimulationResult {
  Time time;  ///< when the last block retired
  HbmStats hbm;
  std::optional<L2CacheStats> l2;  ///< when the hardware has an L2; dirty lines flushed at the end
  SchedulerStats scheduler;
  std::vector<CoreResult> cores;
  Time block_critical_path;        ///< one block's program with no contention
  std::uint32_t hbm_units = 1;  ///< independently served parts: channels x pseudo-channels
  std::optional<DramStats> dram;   ///< detailed HBM mode: summed over pseudo-channels
  std::optional<TracePlayerStats> trace;  ///< a memory trace: summed over players

  // Totals over cores (time spans are summed core-time).
  CoreStats core_total() const;
  ComputeUnitStats compute_total() const;
  SramStats sram_total() const;

  std::uint64_t flops() const { return compute_total().flops; }
  std::uint64_t hbm_bytes() const { return hbm.read_bytes + hbm.write_bytes; }
};

/// Simulates `config`, writing the traces `traces` asks for (none by default) and telling `also`
/// (when not null, e.g. the report's busy timeline) what the units do. Observing changes no
/// simulated figure.
SimulationResult simulate(const RunConfig& config, const WaveformOptions& traces = {},
                          ActivityObserver* also = nullptr);

}  // namespace ridgeline
