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
// - a store that no op waits for is posted: its block counts it done when it leaves the queue
//   (its bytes stay in flight until the memory has taken them), so a block may retire with its
//   stores outstanding, and the core's finish is its last block's or its last store's, the later;
// - an admitted block starts `block_launch` + warps x `warp_launch` cycles later (its launch):
//   its first ops become ready then, as if a completion of the block's launch released them.
//
// - a signal adds one to a flag of the kernel's FlagBoard when it starts (after the store it
//   publishes has completed); a wait completes when its flag has been signalled the times it
//   needs, at once if it has, else when the signal that completes the count comes (from any
//   core, which wakes this one at that time).
//
// Compute-idle time is attributed to the first of these that holds: a barrier in progress, a
// spilled-register reload outstanding, a data load outstanding or queued (and, within that, the
// queue held by the in-flight limit), a block waiting for other blocks' flags, a block being
// launched, resident blocks with nothing to wait for (draining), no block at all.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/activity.hpp"
#include "models/compute_unit_module.hpp"
#include "models/core.hpp"
#include "models/flag_board.hpp"
#include "models/kernel.hpp"
#include "models/register_file_module.hpp"
#include "models/sc_memory_request.hpp"
#include "models/scheduler_module.hpp"
#include "models/sram_module.hpp"
#include "models/units.hpp"
#include "models/wakeup_queue_module.hpp"

namespace ridgeline {

class Core : public sc_core::sc_module, public Wakeable, public FlagWaiter {
 public:
  tlm_utils::simple_initiator_socket<Core> memory;
  sc_core::sc_port<BlockSourceIf> blocks;

  /// The core registers itself with `wakeups`, which runs it from time 0.
  Core(sc_core::sc_module_name name, std::uint32_t index, const CoreParams& params, Clock clock,
       const Kernel& kernel, WakeupQueue& wakeups);
  ~Core() override;

  void wake(Time now) override;
  void flag_reached(std::uint64_t token, Time at) override;

  /// The flags the kernel's signals and waits use (null: it has none).
  void use_flags(FlagBoard* flags) { flags_ = flags; }

  ComputeUnit compute;
  Sram sram;
  RegisterFile registers;

  const CoreStats& stats() const { return stats_; }
  const CoreParams& params() const { return params_; }

  /// Tells `observer` (null: nobody) every op, block and level change of this core and its SRAM.
  void observe(ActivityObserver* observer);

 private:
  /// The op index of a block's launch completing: its first ops become ready.
  static constexpr std::uint32_t kLaunchOp = ~std::uint32_t{0};
  /// The op index of a posted store's data accepted by the memory: the block that issued it may
  /// be gone; only the bytes and request it held in flight are released.
  static constexpr std::uint32_t kPostedStoreOp = kLaunchOp - 1;
  struct Completion {
    std::uint64_t time_ps;
    std::uint64_t sequence;  // ties resolve in issue order, so runs are repeatable
    std::uint32_t slot;
    std::uint32_t op;
    std::uint64_t posted_bytes = 0;  // kPostedStoreOp: the store's bytes
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
    Time admitted;
  };
  struct QueuedRequest {
    std::uint32_t slot;
    std::uint32_t op;
  };
  struct BusyInterval {
    Time start;
    Time end;
  };
  enum class Release : std::uint8_t { load, local_load, store, barrier, wait, none };
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
  void start_block(BlockSlot& block, std::uint32_t slot, Time now);
  void check_ready(BlockSlot& block, std::uint32_t slot, std::uint32_t op, Time now);
  void start_op(std::uint32_t slot, std::uint32_t op, Time now);
  void issued(std::uint32_t slot, std::uint32_t op, Time now);
  void completed(std::uint32_t slot, std::uint32_t op, Time now);
  void issue_memory_requests(Time now);
  void issue_compute(std::uint32_t slot, std::uint32_t op, Time now);
  void schedule(Time when, std::uint32_t slot, std::uint32_t op);
  void store_accepted(std::uint64_t bytes, Time now);
  void retire(std::uint32_t slot, Time now);
  void release_counts(Release what);
  static Release release_of(const Op& op);
  [[gnu::cold, gnu::noinline]] void report_op(UnitKind unit, std::uint32_t slot, std::uint32_t op,
                                              Time issue, Time start, Time end, Time ready) const;
  [[gnu::cold, gnu::noinline]] void report_levels(Time now);

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
  std::uint32_t launching_blocks_ = 0;  // admitted, their launch not yet done
  bool block_retired_ = false;          // since the wake-up loop last admitted blocks
  Time launch_time_;                    // block_launch + warps x warp_launch
  std::uint64_t active_warps_ = 0;
  Refusal refused_by_ = Refusal::none;  // why the last admission attempt stopped
  bool no_more_blocks_ = false;
  bool placed_ = false;  // the first admission, limited to the core's share of the grid, is done
  std::deque<QueuedRequest> memory_queue_;
  std::uint64_t bytes_in_flight_ = 0;
  std::uint32_t requests_in_flight_ = 0;
  std::uint32_t loads_in_flight_ = 0;
  std::uint32_t queued_loads_ = 0;
  std::uint32_t local_loads_in_flight_ = 0;
  std::uint32_t queued_local_loads_ = 0;
  std::uint32_t barriers_in_progress_ = 0;
  std::uint32_t waits_in_progress_ = 0;  // waits for other blocks' flags
  FlagBoard* flags_ = nullptr;
  bool queue_blocked_by_limit_ = false;
  std::deque<BusyInterval> compute_intervals_;     // not yet accounted
  std::deque<DeferredRelease> deferred_releases_;  // not yet accounted
  Time accounted_until_;

  ActivityObserver* observer_ = nullptr;
  std::uint64_t reported_queue_ = 0;  // the levels the observer last heard
  std::uint32_t reported_blocks_ = 0;

  tlm::tlm_generic_payload payload_;
  MemoryRequest request_;
};

}  // namespace ridgeline
