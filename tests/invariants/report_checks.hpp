// Physical bounds a `ridgeline run --json` report must meet, checked from the report alone:
// nothing a real machine could not do (faster than its peaks, busier than always, more bytes or
// FLOPs than the work has) may be printed. Independent of the simulator's own end-of-run
// invariants: these read only the JSON, as a user would.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ridgeline::test {

/// Tolerances of the checks. Counts (FLOPs, bytes) must be equal to the unit. A bound on a rate
/// or a time may be exceeded by a relative 1e-9 (the JSON's doubles and the divisions behind
/// them) plus, where a time is involved, one picosecond (the simulator's time step: durations are
/// rounded to whole picoseconds): "R <= peak" is checked as amount / peak <= T (1 + 1e-9) + 1 ps.
/// A fraction may lie 1e-9 outside [0, 1].
constexpr double kRelativeTolerance = 1e-9;
constexpr double kTimeToleranceS = 1e-12;

/// Every check the report fails, each as a sentence with its numbers; empty when it passes all.
/// The keys read (a key the checks need and the report lacks is itself a failure):
/// - always: simulated.time_s, flops, hbm_bytes, hbm_read_bytes, hbm_write_bytes,
///   achieved_flop_per_s, achieved_hbm_bytes_per_s, hbm_busy_fraction, compute_busy_fraction,
///   levels[] (name, bytes, bandwidth_bytes_per_s, time_s, busy_fraction); hardware.cores,
///   peak_flop_per_s, hbm_bytes_per_s, max_resident_blocks, l2 (present or not);
///   analytical.flops, hbm_bytes, hbm_read_bytes, hbm_write_bytes; workload.kind;
/// - kernels (not memory_trace): simulated.block_critical_path_s, stalls.*, overlap_s,
///   resident_blocks_per_core, occupancy.resident_blocks_peak / _mean, local_memory.bytes,
///   limiter.percent_of_roof, percent_of_roof; analytical.local_memory.read_bytes / write_bytes;
/// - with an L2: components.l2.fill_bytes, writeback_bytes, write_through_bytes and flush_bytes
///   (absent counts as 0: it goes when the L2's end-of-run flush does), simulated.l2.hbm_bytes and
///   requested_bytes;
/// - memory traces: simulated.trace.bytes, accesses, achieved_bytes_per_s, latency_s.*;
/// - every leaf named *_fraction, fraction, *hit_rate or fraction_of_peak_bandwidth (null leaves
///   are skipped), anywhere in the report.
std::vector<std::string> check_report(const nlohmann::json& report);

}  // namespace ridgeline::test
