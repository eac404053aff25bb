// workload kind memory_trace: its keys, and the pass over the trace file that checks every line
// and counts loads and stores. The reference of every key is docs/CONFIG.md.
#pragma once

#include <functional>
#include <vector>

#include "models/hardware.hpp"
#include "sim/config/config_node.hpp"
#include "sim/config/workload_config.hpp"
#include "workloads/memory_trace.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<MemoryTraceSpec> {
  /// Reads `path` (relative to the workload file's folder, or to the working directory when
  /// given with --set) or `pattern` (a generated stream), and `access_bytes`.
  static MemoryTraceSpec parse(const ConfigNode& workload);

  /// Reads the whole trace once, streaming: a bad line is a ConfigError naming the trace file,
  /// line and column; counts loads and stores; in detailed HBM mode checks every access lies
  /// within the memory's capacity. A pattern's counts and reach are worked out, not read.
  static void check_inputs(const std::function<ConfigNode()>& document, MemoryTraceSpec& spec,
                           const HardwareParams& hardware);

  /// The trace, at `workload.path`; none for a pattern.
  static std::vector<WorkloadInputFile> input_files(const MemoryTraceSpec& spec);
};

}  // namespace ridgeline
