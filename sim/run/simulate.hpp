// Runs one configuration through the SystemC models and collects what they counted.
// SystemC elaborates once per process: call simulate() at most once in a process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/compute_unit.hpp"
#include "models/core.hpp"
#include "models/hbm.hpp"
#include "models/l2_cache.hpp"
#include "models/memory_level.hpp"
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

/// One shared memory level as the run left it (its dirty lines counted, not written).
struct LevelResult {
  std::string name;  ///< e.g. "l2"
  Bandwidth port_bandwidth;
  LevelTraffic traffic;
  /// Its counters as its visit() names them, in that order: what the JSON's components show.
  std::vector<std::pair<std::string, double>> counters;
  /// When the level is a cache, its parameters and statistics.
  struct Cache {
    L2CacheParams params;
    L2CacheStats stats;
  };
  std::optional<Cache> cache;
};

struct SimulationResult {
  /// When the kernel ended: its last block retired (a trace: its last access completed), or, if
  /// later, HBM finished the last transfer the run caused (a write-back of an evicted line).
  Time time;
  HbmStats hbm;
  std::vector<LevelResult> levels;  ///< the shared levels, from the cores outwards
  SchedulerStats scheduler;
  std::vector<CoreResult> cores;
  Time block_critical_path;       ///< one block's program with no contention
  std::uint32_t hbm_units = 1;    ///< independently served parts: channels x pseudo-channels
  Time hbm_busiest_unit_busy;     ///< the longest one channel (pseudo-channel) transferred
  std::optional<DramStats> dram;  ///< detailed HBM mode: summed over pseudo-channels
  std::vector<DramStats> dram_units;  ///< detailed HBM mode: each pseudo-channel's
  std::optional<TracePlayerStats> trace;  ///< a memory trace: summed over players

  // Totals over cores (time spans are summed core-time). Defined here, not in simulate.cpp, so
  // that the report reads a result without linking the SystemC run (the Python module links the
  // report for the analytical path alone).
  CoreStats core_total() const {
    CoreStats total;
    for (const CoreResult& r : cores) {
      total.add(r.core);
      // A core that finished early waited, with nothing to do, for the others.
      total.no_work += time - r.core.finish;
    }
    return total;
  }
  ComputeUnitStats compute_total() const {
    ComputeUnitStats total;
    for (const CoreResult& r : cores) total.add(r.compute);
    return total;
  }
  SramStats sram_total() const {
    SramStats total;
    for (const CoreResult& r : cores) total.add(r.sram);
    return total;
  }

  std::uint64_t flops() const { return compute_total().flops; }
  std::uint64_t hbm_bytes() const { return hbm.read_bytes + hbm.write_bytes; }
  /// The shared level named `name`, or null.
  const LevelResult* level(std::string_view name) const {
    for (const LevelResult& level : levels) {
      if (level.name == name) return &level;
    }
    return nullptr;
  }
  /// The statistics of the cache level named `name`, or null when there is no such cache.
  const L2CacheStats* cache_stats(std::string_view name) const {
    const LevelResult* found = level(name);
    return found && found->cache ? &found->cache->stats : nullptr;
  }
};

/// Simulates `config`, writing the traces `traces` asks for (none by default) and telling `also`
/// (when not null, e.g. the report's busy timeline) what the units do. Observing changes no
/// simulated figure.
SimulationResult simulate(const RunConfig& config, const WaveformOptions& traces = {},
                          ActivityObserver* also = nullptr);

}  // namespace ridgeline
