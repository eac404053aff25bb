// What a trace player is given and what it counts; the player itself is trace_player_module.hpp.
#pragma once

#include <cstdint>

#include "models/latency_histogram.hpp"
#include "models/stats.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct TracePlayerParams {
  std::uint64_t access_bytes = 64;           ///< bytes each access moves
  std::uint64_t max_bytes_in_flight = 0;     ///< as a core's limit; one access always fits
  std::uint32_t max_requests_in_flight = 0;  ///< 0 = no limit
};

struct TracePlayerStats {
  std::uint64_t reads = 0;        ///< loads issued
  std::uint64_t writes = 0;       ///< stores issued
  std::uint64_t read_bytes = 0;   ///< bytes loaded
  std::uint64_t write_bytes = 0;  ///< bytes stored
  std::uint64_t wakeups = 0;      ///< times the player's process ran
  Time in_flight_limit;           ///< the next access waited for room under the in-flight limits
  Time finish;                    ///< when the player's last access completed
  LatencyHistogram latency;       ///< issue to last byte, per access

  void add(const TracePlayerStats& other);
  void visit(const StatVisitor& v) const;
};

}  // namespace ridgeline
