// A core that replays a stream of memory accesses instead of running thread blocks: a request
// generator for memory studies.
//
// Every player pulls the next access from one shared AccessSource whenever it has room under its
// in-flight limits (bytes and requests, as a core's), so the stream is issued in its own order, as
// fast as the limits and the memory allow, spread over the players (at one time, in player
// order). Each access is one TLM request
// of `access_bytes`; its latency (issue to last byte) goes into a histogram. A player without room
// sleeps until its first completion; once it has seen the stream end it does not wake again.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/access_source.hpp"
#include "models/latency_histogram.hpp"
#include "models/memory_request.hpp"
#include "models/stats.hpp"
#include "models/units.hpp"
#include "models/wakeup_queue.hpp"

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

class TracePlayer : public sc_core::sc_module, public Wakeable {
 public:
  tlm_utils::simple_initiator_socket<TracePlayer> memory;

  /// The player registers itself with `wakeups`, which runs it from time 0.
  TracePlayer(sc_core::sc_module_name name, std::uint32_t index, const TracePlayerParams& params,
              AccessSource& source, WakeupQueue& wakeups);
  ~TracePlayer() override;

  void wake(Time now) override;

  const TracePlayerStats& stats() const { return stats_; }

 private:
  bool room() const;
  void issue(Time now);

  std::uint32_t index_;
  TracePlayerParams params_;
  AccessSource& source_;
  WakeupQueue& wakeups_;
  std::uint32_t wakeup_index_;
  TracePlayerStats stats_;

  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> completions_ps_;
  std::uint64_t bytes_in_flight_ = 0;
  MemoryAccess next_;
  bool ended_ = false;
  bool blocked_ = false;
  Time blocked_since_;

  tlm::tlm_generic_payload payload_;
  MemoryRequest request_;
};

}  // namespace ridgeline
