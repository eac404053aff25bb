// A core that replays a stream of memory accesses instead of running thread blocks: a request
// generator for memory studies.
//
// Every player pulls the next access from one shared AccessSource whenever it has room under its
// in-flight limits (bytes and requests, as a core's), so the stream is issued in its own order, as
// fast as the limits and the memory allow, spread over the players (at one time, in player
// order). With groups (TracePlayerParams::group_accesses), the room an access takes comes back
// only when the last access of its group completes, as a warp that waits for all of its loads
// before it issues more. Each access is one TLM request
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
#include "models/activity.hpp"
#include "models/sc_memory_request.hpp"
#include "models/trace_player.hpp"
#include "models/wakeup_queue_module.hpp"

namespace ridgeline {

class TracePlayer : public sc_core::sc_module, public Wakeable {
 public:
  tlm_utils::simple_initiator_socket<TracePlayer> memory;

  /// The player registers itself with `wakeups`, which runs it from time 0.
  TracePlayer(sc_core::sc_module_name name, std::uint32_t index, const TracePlayerParams& params,
              AccessSource& source, WakeupQueue& wakeups);
  ~TracePlayer() override;

  void wake(Time now) override;

  const TracePlayerStats& stats() const { return stats_; }

  /// Tells `observer` (null: nobody) each access, issue to data, as unit UnitKind::player.
  void observe(ActivityObserver* observer) { observer_ = observer; }

 private:
  bool room() const;
  void issue(Time now);

  std::uint32_t index_;
  TracePlayerParams params_;
  AccessSource& source_;
  WakeupQueue& wakeups_;
  std::uint32_t wakeup_index_;
  TracePlayerStats stats_;

  // When each access issued gives its room back (a group's, all at its last completion).
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> completions_ps_;
  std::uint64_t bytes_in_flight_ = 0;
  std::uint64_t group_issued_ = 0;  // accesses of the open group (not yet in completions_ps_)
  Time group_done_;                 // the latest completion of the open group's accesses
  MemoryAccess next_;
  bool ended_ = false;
  bool blocked_ = false;
  Time blocked_since_;
  Time next_issue_;  // the issue interval after the last access
  Time held_until_;  // a full memory queue took the last access only then: issue nothing before
  ActivityObserver* observer_ = nullptr;

  tlm::tlm_generic_payload payload_;
  MemoryRequest request_;
};

}  // namespace ridgeline
