// What a trace player is given and what it counts; the player itself is trace_player_module.hpp.
#pragma once

#include <cstdint>

#include "models/latency_histogram.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct TracePlayerParams {
  std::uint64_t access_bytes = 64;           ///< bytes each access moves
  std::uint64_t max_bytes_in_flight = 0;     ///< as a core's limit; one access always fits
  std::uint32_t max_requests_in_flight = 0;  ///< 0 = no limit
  Time issue_interval;  ///< at most one access per interval; zero: no pacing
  /// Accesses issued as one group and waited for together: a group's room under the in-flight
  /// limits comes back when its last access completes (a warp's loads, which it consumes
  /// together), not access by access. 1: each access on its own.
  std::uint64_t group_accesses = 1;
};

struct TracePlayerStats : StatFields<TracePlayerStats> {
  std::uint64_t reads = 0;        ///< loads issued
  std::uint64_t writes = 0;       ///< stores issued
  std::uint64_t read_bytes = 0;   ///< bytes loaded
  std::uint64_t write_bytes = 0;  ///< bytes stored
  std::uint64_t wakeups = 0;      ///< times the player's process ran
  Time in_flight_limit;           ///< the next access waited for room under the in-flight limits
  Time queue_full;                ///< the last access waited for a full memory queue
  Time finish;                    ///< when the player's last access completed
  LatencyHistogram latency;       ///< issue to last byte, per access

  /// The counters by their rules, and the latency histograms.
  void add(const TracePlayerStats& other);
  static constexpr auto fields() {
    return std::make_tuple(
        counter("reads", &TracePlayerStats::reads, "requests", Merge::sum, "loads issued"),
        counter("writes", &TracePlayerStats::writes, "requests", Merge::sum, "stores issued"),
        counter("read_bytes", &TracePlayerStats::read_bytes, "bytes", Merge::sum, "bytes loaded"),
        counter("write_bytes", &TracePlayerStats::write_bytes, "bytes", Merge::sum, "bytes stored"),
        counter("wakeups", &TracePlayerStats::wakeups, "events", Merge::sum,
                "times a player's process ran"),
        counter("in_flight_limit_s", &TracePlayerStats::in_flight_limit, "s", Merge::sum,
                "summed over players: the next access waited for room under the in-flight limits"),
        counter("queue_full_s", &TracePlayerStats::queue_full, "s", Merge::sum,
                "summed over players: held by a full DRAM controller queue (in-order issue)"),
        counter("finish_s", &TracePlayerStats::finish, "s", Merge::max,
                "when the last access completed"),
        formula(
            "latency_mean_s", +[](const TracePlayerStats& s) { return as_stat(s.latency.mean()); },
            "s", "mean latency, issue to last byte"),
        formula(
            "latency_min_s", +[](const TracePlayerStats& s) { return as_stat(s.latency.min()); },
            "s", "shortest latency"),
        formula(
            "latency_p50_s",
            +[](const TracePlayerStats& s) { return as_stat(s.latency.percentile(0.50)); }, "s",
            "median latency (within 0.8 %)"),
        formula(
            "latency_p90_s",
            +[](const TracePlayerStats& s) { return as_stat(s.latency.percentile(0.90)); }, "s",
            "90th percentile (within 0.8 %)"),
        formula(
            "latency_p99_s",
            +[](const TracePlayerStats& s) { return as_stat(s.latency.percentile(0.99)); }, "s",
            "99th percentile (within 0.8 %)"),
        formula(
            "latency_max_s", +[](const TracePlayerStats& s) { return as_stat(s.latency.max()); },
            "s", "longest latency"));
  }
};

}  // namespace ridgeline
