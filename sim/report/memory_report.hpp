// The parts of the report that belong to memory studies: a memory trace's replay (bandwidth,
// latency distribution) and the detailed HBM mode's DRAM counters. Every figure is derived here,
// once, from the counters.
#pragma once

#include <string>

#include "sim/report/report.hpp"

namespace ridgeline {

/// simulated.trace: accesses, bytes, achieved bandwidth, latency mean and percentiles.
Json memory_trace_json(const RunConfig& config, const SimulationResult& result);
std::string memory_trace_text(const RunConfig& config, const SimulationResult& result);

/// components.dram: the detailed mode's counters and the row-buffer hit rate.
Json dram_json(const SimulationResult& result);
std::string dram_text(const SimulationResult& result);

}  // namespace ridgeline
