// A core (an SM): runs resident thread blocks' programs on its compute unit, SRAM and register
// file, and moves their data to and from memory through a TLM-2.0 socket.
//
// The core runs when the WakeupQueue wakes it. Every op it starts has a known completion time
// (memory and compute are reservation models), so a wake-up processes the completions due now,
// starts whatever became ready, and asks to be woken at the next completion that can change what
// the core does: one that makes an op ready, retires a block or frees room for a request held back
// by the in-flight limit. Completions before it (load A_k when compute_k still waits for B_k) are
// applied quietly, at their own times as far as the statistics go. No thread switches, and fewer
// wake-ups than ops.
//
// Issue rules:
// - loads and stores wait in one in-order queue and leave it while the core's bytes (and
//   requests) in flight stay under its limits; a single request larger than the byte limit goes
//   alone, so achieved bandwidth follows Little's law (bytes in flight / latency) until the memory
//   saturates;
// - compute ops go to the compute unit, first come first served, as soon as they are ready;
// - a block is admitted while the core holds fewer than `max_resident_blocks` and its warps, SRAM
//   buffers and registers fit; it retires when its last op completes;
// - a barrier holds its block for its cycles; other resident blocks keep the compute unit busy
//   meanwhile, which is how more resident blocks hide one block's synchronisation and latency.
//
// Compute-idle time is attributed to the first of these that holds: a barrier in progress, a
// spilled-register reload outstanding, a data load outstanding or queued (and, within that, the
// queue held by the in-flight limit), resident blocks with nothing to wait for (draining), no
// block at all.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/compute_unit.hpp"
#include "models/kernel.hpp"
#include "models/memory_request.hpp"
#include "models/register_file.hpp"
#include "models/scheduler.hpp"
#include "models/sram.hpp"
#include "models/stats.hpp"
#include "models/units.hpp"
#include "models/wakeup_queue.hpp"

namespace ridgeline {

struct CoreParams {
  std::uint32_t max_resident_blocks = 1;     ///< thread blocks held at once
  std::uint64_t max_bytes_in_flight = 0;     ///< memory bytes outstanding per core
  std::uint32_t max_requests_in_flight = 0;  ///< memory requests outstanding; 0 = no limit
  std::uint32_t max_warps = 0;               ///< resident warps (all blocks); 0 = no limit
  SramParams sram;
  RegisterFileParams registers;
  ComputeUnitParams compute;
};

/// Where a core's time went. Every interval of the core's run is classified once: the compute
/// unit was busy, or idle for one named reason; memory activity and overlap are counted beside it.
struct CoreStats {
  std::uint64_t blocks = 0;                ///< thread blocks run to completion
  std::uint64_t loads = 0;                 ///< load requests issued
  std::uint64_t stores = 0;                ///< store requests issued
  std::uint64_t barriers = 0;              ///< barriers executed
  std::uint64_t load_bytes = 0;            ///< bytes requested by loads
  std::uint64_t store_bytes = 0;           ///< bytes requested by stores
  std::uint64_t ops = 0;                   ///< program ops completed
  std::uint64_t wakeups = 0;               ///< times the core's process ran (SystemC events)
  std::uint32_t peak_resident_blocks = 0;  ///< most blocks resident at once
  std::uint64_t local_loads = 0;           ///< of `loads`: spilled registers reloaded
  std::uint64_t local_stores = 0;          ///< of `stores`: spilled registers written back
  std::uint64_t local_load_bytes = 0;      ///< of `load_bytes`: local memory
  std::uint64_t local_store_bytes = 0;     ///< of `store_bytes`: local memory

  Time compute_busy;     ///< the compute unit was occupied
  Time memory_active;    ///< at least one load or store was in flight
  Time overlap;          ///< both at once
  Time waiting_data;     ///< compute idle while loads were outstanding (data not yet there)
  Time draining;         ///< compute idle, blocks resident, no load outstanding (stores, syncs)
  Time no_work;          ///< compute idle, no block resident
  Time buffer_wait;      ///< summed over blocks: next load ready but its buffer still in use
  Time in_flight_limit;  ///< the next memory request waited for the in-flight limit
  Time finish;           ///< when the core's last block retired

  Time barrier_wait;          ///< compute idle while a barrier was in progress
  Time spill_wait;            ///< compute idle while a spilled-register reload was outstanding
  Time waiting_data_limited;  ///< of `waiting_data`: the queue was held by the in-flight limit
  Time barrier_time;          ///< summed over barriers: their duration (block-time)
  Time load_time;             ///< summed over loads: from issue to the data's arrival
  Time resident_block_time;   ///< resident blocks integrated over time (block-time)
  Time resident_warp_time;    ///< resident warps integrated over time (warp-time)
  /// Time the core could not admit another block, by the resource that refused it (in the order
  /// blocks, warps, SRAM, registers); counted until the core finds the scheduler empty.
  Time full_by_blocks;
  Time full_by_warps;
  Time full_by_sram;
  Time full_by_registers;

  void visit(const StatVisitor& v) const;
};

class Core : public sc_core::sc_module, public Wakeable {
 public:
  tlm_utils::simple_initiator_socket<Core> memory;
  sc_core::sc_port<BlockSourceIf> blocks;

  /// The core registers itself with `wakeups`, which runs it from time 0.
  Core(sc_core::sc_module_name name, std::uint32_t index, const CoreParams& params, Clock clock,
       const Kernel& kernel, WakeupQueue& wakeups);
  ~Core() override;

  void wake(Time now) override;

  ComputeUnit compute;
  Sram sram;
  RegisterFile registers;

  const CoreStats& stats() const { return stats_; }
  const CoreParams& params() const { return params_; }

 private:
  struct Completion {
    std::uint64_t time_ps;
    std::uint64_t sequence;  // ties resolve in issue order, so runs are repeatable
    std::uint32_t slot;
    std::uint32_t op;
    bool operator>(const Completion& other) const {
      return time_ps != other.time_ps ? time_ps > other.time_ps : sequence > other.sequence;
    }
  };
  struct BlockSlot {
    bool active = false;
    BlockCoord coord;
    const Program* program = nullptr;
    std::size_t ops_left = 0;
    std::vector<std::uint16_t> pending_done;
    std::vector<std::uint16_t> pending_buffer;
    std::vector<std::uint16_t> pending_issue;
    std::vector<std::uint64_t> buffer_wait_since_ps;  // kNotWaiting unless waiting on a buffer
  };
  struct QueuedRequest {
    std::uint32_t slot;
    std::uint32_t op;
  };
  struct BusyInterval {
    Time start;
    Time end;
  };
  enum class Release : std::uint8_t { load, local_load, store, barrier };
  struct DeferredRelease {  // a memory request or barrier that completed between wake-ups
    Time at;
    Release what;
  };
  enum class Refusal : std::uint8_t { none, blocks, warps, sram, registers };

  void account_until(Time now);
  void account_span(Time until);
  bool actionable(const Completion& completion) const;
  void complete_quietly(const Completion& completion);
  void release_successors(BlockSlot& block, std::uint32_t slot, std::uint32_t op, Time at);
  void admit_blocks(Time now);
  void check_ready(BlockSlot& block, std::uint32_t slot, std::uint32_t op, Time now);
  void start_op(std::uint32_t slot, std::uint32_t op, Time now);
  void issued(std::uint32_t slot, std::uint32_t op, Time now);
  void completed(std::uint32_t slot, std::uint32_t op, Time now);
  void issue_memory_requests(Time now);
  void issue_compute(std::uint32_t slot, std::uint32_t op, Time now);
  void schedule(Time when, std::uint32_t slot, std::uint32_t op);
  void retire(std::uint32_t slot, Time now);
  void release_counts(Release what);
  static Release release_of(const Op& op);

  std::uint32_t index_;
  CoreParams params_;
  Clock clock_;
  const Kernel& kernel_;
  CoreStats stats_;

  WakeupQueue& wakeups_;
  std::uint32_t wakeup_index_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  std::uint64_t next_sequence_ = 0;
  std::vector<BlockSlot> slots_;
  std::uint32_t active_blocks_ = 0;
  std::uint64_t active_warps_ = 0;
  Refusal refused_by_ = Refusal::none;  // why the last admission attempt stopped
  bool no_more_blocks_ = false;
  std::deque<QueuedRequest> memory_queue_;
  std::uint64_t bytes_in_flight_ = 0;
  std::uint32_t requests_in_flight_ = 0;
  std::uint32_t loads_in_flight_ = 0;
  std::uint32_t queued_loads_ = 0;
  std::uint32_t local_loads_in_flight_ = 0;
  std::uint32_t queued_local_loads_ = 0;
  std::uint32_t barriers_in_progress_ = 0;
  bool queue_blocked_by_limit_ = false;
  std::deque<BusyInterval> compute_intervals_;     // not yet accounted
  std::deque<DeferredRelease> deferred_releases_;  // not yet accounted
  Time accounted_until_;

  tlm::tlm_generic_payload payload_;
  MemoryRequest request_;
};

}  // namespace ridgeline
