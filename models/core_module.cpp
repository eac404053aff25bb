#include "models/core_module.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

#include "models/sc_time.hpp"

namespace ridgeline {

namespace {
constexpr std::uint64_t kNotWaiting = std::numeric_limits<std::uint64_t>::max();
}  // namespace

Core::Core(sc_core::sc_module_name name, std::uint32_t index, const CoreParams& params, Clock clock,
           const Kernel& kernel, WakeupQueue& wakeups)
    : sc_module(name),
      memory("memory"),
      blocks("blocks"),
      compute("compute", params.compute, clock),
      sram("sram", params.sram, clock),
      registers("registers", params.registers),
      index_(index),
      params_(params),
      clock_(clock),
      kernel_(kernel),
      wakeups_(wakeups),
      wakeup_index_(wakeups.add(*this)) {
  launch_time_ = clock.duration(
      Cycles{params.block_launch.count + kernel.warps_per_block * params.warp_launch.count});
  payload_.set_extension(&request_);
  payload_.set_streaming_width(0);
  payload_.set_byte_enable_ptr(nullptr);
  request_.initiator = index_;
}

Core::~Core() { payload_.clear_extension(&request_); }

void Core::observe(ActivityObserver* observer) {
  observer_ = observer;
  sram.timing.observe(observer, index_);
}

void Core::report_op(UnitKind unit, std::uint32_t slot, std::uint32_t op, Time issue, Time start,
                     Time end, Time ready) const {
  const BlockSlot& block = slots_[slot];
  const Op& o = block.program->ops()[op];
  Activity a(unit, index_, issue, start, end);
  a.ready = ready;
  a.bytes = o.is_memory() ? o.hbm_bytes(block.coord) : 0;
  a.flops = o.flops;
  a.write = o.kind == OpKind::store;
  a.program = block.program;
  a.op = op;
  a.slot = slot;
  a.block = block.coord;
  observer_->activity(a);
}

void Core::report_levels(Time t) {
  if (memory_queue_.size() != reported_queue_) {
    reported_queue_ = memory_queue_.size();
    observer_->level(index_, LevelKind::queued_requests, t, reported_queue_);
  }
  if (active_blocks_ != reported_blocks_) {
    reported_blocks_ = active_blocks_;
    observer_->level(index_, LevelKind::resident_blocks, t, reported_blocks_);
  }
}

void Core::wake(Time t) {
  ++stats_.wakeups;
  account_until(t);
  for (;;) {
    while (!completions_.empty() && completions_.top().time_ps <= t.ps()) {
      const Completion done = completions_.top();
      completions_.pop();
      if (done.op == kPostedStoreOp) store_accepted(done.posted_bytes, t);
      completed(done.slot, done.op, t);
    }
    block_retired_ = false;
    admit_blocks(t);
    issue_memory_requests(t);
    // A posted store may have retired its block: its slot takes the next block now.
    if (block_retired_) continue;
    if (completions_.empty() || completions_.top().time_ps > t.ps()) break;
  }
  if (observing(observer_)) report_levels(t);
  // Sleep until the first completion that changes what the core does; apply the others now.
  while (!completions_.empty()) {
    const Completion next = completions_.top();
    if (actionable(next)) {
      wakeups_.wake_at(wakeup_index_, Time::from_ps(next.time_ps));
      return;
    }
    completions_.pop();
    complete_quietly(next);
  }
}

bool Core::actionable(const Completion& completion) const {
  // A launch makes ops ready; a posted store may be the core's last activity (its finish).
  if (completion.op == kLaunchOp || completion.op == kPostedStoreOp) return true;
  const BlockSlot& block = slots_[completion.slot];
  if (block.ops_left == 1) return true;  // retires the block
  const Program& program = *block.program;
  if (program.ops()[completion.op].is_memory() && queue_blocked_by_limit_) return true;
  for (const Successor* s = program.successors_begin(completion.op);
       s != program.successors_end(completion.op); ++s) {
    if (s->kind == EdgeKind::issue_order) continue;
    if (block.pending_done[s->op] == 1 && block.pending_issue[s->op] == 0) return true;
  }
  return false;
}

void Core::complete_quietly(const Completion& completion) {
  assert(completion.op != kLaunchOp && completion.op != kPostedStoreOp && "always actionable");
  BlockSlot& block = slots_[completion.slot];
  const Op& o = block.program->ops()[completion.op];
  const Time at = Time::from_ps(completion.time_ps);
  // Room in flight matters only to the next issue decision, at the next wake-up; the
  // statistics see the request (or barrier) end at its own time.
  if (o.is_memory()) bytes_in_flight_ -= o.hbm_bytes(block.coord);
  if (o.kind != OpKind::compute) deferred_releases_.push_back(DeferredRelease{at, release_of(o)});
  release_successors(block, completion.slot, completion.op, at);
  ++stats_.ops;
  --block.ops_left;
}

void Core::account_until(Time t) {
  while (!deferred_releases_.empty() && deferred_releases_.front().at <= t) {
    account_span(deferred_releases_.front().at);
    release_counts(deferred_releases_.front().what);
    deferred_releases_.pop_front();
  }
  account_span(t);
}

Core::Release Core::release_of(const Op& op) {
  switch (op.kind) {
    case OpKind::load:
      return op.local ? Release::local_load : Release::load;
    case OpKind::store:
      return Release::store;
    case OpKind::barrier:
      return Release::barrier;
    case OpKind::wait:
      return Release::wait;
    case OpKind::compute:
    case OpKind::signal:
      break;
  }
  return Release::none;
}

void Core::release_counts(Release what) {
  switch (what) {
    case Release::local_load:
      --local_loads_in_flight_;
      [[fallthrough]];
    case Release::load:
      --loads_in_flight_;
      [[fallthrough]];
    case Release::store:
      --requests_in_flight_;
      break;
    case Release::barrier:
      --barriers_in_progress_;
      break;
    case Release::wait:
      --waits_in_progress_;
      break;
    case Release::none:
      break;
  }
}

void Core::account_span(Time t) {
  if (t <= accounted_until_) return;
  const Time from = accounted_until_;
  const Time span = t - from;
  Time busy;
  while (!compute_intervals_.empty()) {
    const BusyInterval& interval = compute_intervals_.front();
    if (interval.start >= t) break;
    busy += min(interval.end, t) - max(interval.start, from);
    if (interval.end > t) break;
    compute_intervals_.pop_front();
  }
  stats_.compute_busy += busy;
  if (requests_in_flight_ > 0) {
    stats_.memory_active += span;
    stats_.overlap += busy;
  }
  const Time idle = span - busy;
  if (barriers_in_progress_ > 0) {
    stats_.barrier_wait += idle;
  } else if (local_loads_in_flight_ > 0 || queued_local_loads_ > 0) {
    stats_.spill_wait += idle;
  } else if (loads_in_flight_ > 0 || queued_loads_ > 0) {
    stats_.waiting_data += idle;
    if (queue_blocked_by_limit_) stats_.waiting_data_limited += idle;
  } else if (waits_in_progress_ > 0) {
    stats_.waiting_blocks += idle;
  } else if (launching_blocks_ > 0) {
    stats_.launching += idle;
  } else if (active_blocks_ > 0) {
    stats_.draining += idle;
  } else {
    stats_.no_work += idle;
  }
  if (queue_blocked_by_limit_) stats_.in_flight_limit += span;
  stats_.resident_block_time += Time::from_ps(span.ps() * active_blocks_);
  stats_.resident_warp_time += Time::from_ps(span.ps() * active_warps_);
  if (!no_more_blocks_) {
    switch (refused_by_) {
      case Refusal::none:
        break;
      case Refusal::blocks:
        stats_.full_by_blocks += span;
        break;
      case Refusal::warps:
        stats_.full_by_warps += span;
        break;
      case Refusal::sram:
        stats_.full_by_sram += span;
        break;
      case Refusal::registers:
        stats_.full_by_registers += span;
        break;
    }
  }
  accounted_until_ = t;
}

void Core::admit_blocks(Time t) {
  refused_by_ = Refusal::none;
  // Breadth-first: the first admission takes only this core's share of the grid, the rest is
  // other cores'. A grid smaller than the machine places every block then, so a core whose share
  // is nothing gets no work at all.
  const std::uint64_t share =
      placed_ ? std::numeric_limits<std::uint64_t>::max() : blocks->initial_share(index_);
  if (share == 0) no_more_blocks_ = true;
  placed_ = true;
  while (!no_more_blocks_ && active_blocks_ < share) {
    if (active_blocks_ >= params_.max_resident_blocks) {
      refused_by_ = Refusal::blocks;
      break;
    }
    if (params_.max_warps != 0 && active_warps_ + kernel_.warps_per_block > params_.max_warps) {
      refused_by_ = Refusal::warps;
      break;
    }
    if (!sram.timing.allocate(kernel_.sram_bytes_per_block)) {
      refused_by_ = Refusal::sram;
      break;
    }
    if (!registers.timing.allocate(kernel_.register_bytes_per_block)) {
      sram.timing.release(kernel_.sram_bytes_per_block);
      refused_by_ = Refusal::registers;
      break;
    }
    const std::optional<BlockCoord> coord = blocks->next_block();
    if (!coord) {
      sram.timing.release(kernel_.sram_bytes_per_block);
      registers.timing.release(kernel_.register_bytes_per_block);
      no_more_blocks_ = true;
      break;
    }
    // Slots grow with the blocks actually resident, not with max_resident_blocks (up to 65536 a
    // core): memory follows what the run uses.
    std::uint32_t slot = 0;
    while (slot < slots_.size() && slots_[slot].active) ++slot;
    if (slot == slots_.size()) slots_.emplace_back();
    BlockSlot& block = slots_[slot];
    const Program& program = kernel_.program_for(*coord);
    block.active = true;
    block.coord = *coord;
    block.program = &program;
    block.ops_left = program.size();
    block.pending_done = program.initial_pending_completions();
    block.pending_buffer = program.initial_pending_buffers();
    block.pending_issue = program.initial_pending_issues();
    block.buffer_wait_since_ps.assign(program.size(), kNotWaiting);
    block.admitted = t;
    ++active_blocks_;
    active_warps_ += kernel_.warps_per_block;
    stats_.peak_resident_blocks = std::max(stats_.peak_resident_blocks, active_blocks_);
    if (launch_time_ == Time{}) {
      start_block(block, slot, t);
    } else {
      ++launching_blocks_;
      schedule(t + launch_time_, slot, kLaunchOp);
    }
  }
  assert((active_blocks_ > 0 || no_more_blocks_) &&
         "configuration checks one block fits a core's SRAM and register file");
}

void Core::start_block(BlockSlot& block, std::uint32_t slot, Time t) {
  for (std::uint32_t op = 0; op < block.program->size(); ++op) check_ready(block, slot, op, t);
}

void Core::check_ready(BlockSlot& block, std::uint32_t slot, std::uint32_t op, Time t) {
  if (block.pending_issue[op] != 0) return;
  if (block.pending_done[op] == 0) {
    if (block.buffer_wait_since_ps[op] != kNotWaiting) {
      stats_.buffer_wait += t - Time::from_ps(block.buffer_wait_since_ps[op]);
      ++stats_.buffer_waits;
      block.buffer_wait_since_ps[op] = kNotWaiting;
    }
    start_op(slot, op, t);
  } else if (block.pending_done[op] == block.pending_buffer[op] &&
             block.buffer_wait_since_ps[op] == kNotWaiting) {
    block.buffer_wait_since_ps[op] = t.ps();  // ready but for a buffer still in use
  }
}

void Core::start_op(std::uint32_t slot, std::uint32_t op, Time t) {
  const Op& o = slots_[slot].program->ops()[op];
  switch (o.kind) {
    case OpKind::load:
      ++queued_loads_;
      if (o.local) ++queued_local_loads_;
      [[fallthrough]];
    case OpKind::store:
      memory_queue_.push_back(QueuedRequest{slot, op});
      break;
    case OpKind::compute:
      issue_compute(slot, op, t);
      issued(slot, op, t);
      break;
    case OpKind::barrier: {
      const Time wait = clock_.duration(o.cycles);
      ++stats_.barriers;
      ++barriers_in_progress_;
      stats_.barrier_time += wait;
      if (observing(observer_)) report_op(UnitKind::barrier, slot, op, t, t, t + wait, t + wait);
      schedule(t + wait, slot, op);
      issued(slot, op, t);
      break;
    }
    case OpKind::signal: {
      const BlockSlot& block = slots_[slot];
      assert(flags_ && "a kernel with signals has a flag board");
      flags_->signal(o.flag.for_block(block.coord), t);
      schedule(t, slot, op);
      issued(slot, op, t);
      break;
    }
    case OpKind::wait: {
      const BlockSlot& block = slots_[slot];
      assert(flags_ && "a kernel with waits has a flag board");
      ++waits_in_progress_;
      ++stats_.flag_waits;
      const std::uint64_t token = (std::uint64_t{slot} << 32) | op;
      if (flags_->wait(o.flag.for_block(block.coord), o.flag_count, *this, token)) {
        schedule(t, slot, op);
      }
      issued(slot, op, t);
      break;
    }
  }
}

void Core::flag_reached(std::uint64_t token, Time at) {
  const auto slot = static_cast<std::uint32_t>(token >> 32);
  const auto op = static_cast<std::uint32_t>(token & 0xffffffffu);
  schedule(at, slot, op);
  // The signal came from a core running now (`at` is the present): this core runs again at
  // once, after it, in the wake-up queue's order.
  wakeups_.wake_at(wakeup_index_, at);
}

void Core::issue_compute(std::uint32_t slot, std::uint32_t op, Time t) {
  const Op& o = slots_[slot].program->ops()[op];
  SramTiming& operands = sram.timing;
  const Time operand_time = o.sram_read_bytes > 0 ? operands.read_time(o.sram_read_bytes) : Time{};
  // The compute starts when its unit and its operand reads can both start (the latter found from
  // the unit's free time, so that the read's slot is the one the compute takes).
  const Time unit_free = max(t, compute.timing.free());
  const Time earliest =
      o.sram_read_bytes > 0 ? operands.read_start(unit_free, o.sram_read_bytes) : unit_free;
  const auto run =
      compute.timing.execute(earliest, o.flops, o.compute_type.value_or(kernel_.compute_type),
                             operand_time, o.warp_instructions);
  if (o.sram_read_bytes > 0) operands.occupy_read(run.start, o.sram_read_bytes);
  compute_intervals_.push_back(BusyInterval{run.start, run.end});
  const Time ready = run.end + compute.timing.pipeline_latency();
  if (observing(observer_)) report_op(UnitKind::compute, slot, op, t, run.start, run.end, ready);
  schedule(ready, slot, op);
}

void Core::issue_memory_requests(Time t) {
  queue_blocked_by_limit_ = false;
  while (!memory_queue_.empty()) {
    const QueuedRequest next = memory_queue_.front();
    BlockSlot& block = slots_[next.slot];
    const Op& o = block.program->ops()[next.op];
    request_.region = o.address.for_block(block.coord);
    const std::uint64_t bytes = request_.region.bytes();
    const bool bytes_fit =
        bytes_in_flight_ == 0 || bytes_in_flight_ + bytes <= params_.max_bytes_in_flight;
    const bool requests_fit =
        params_.max_requests_in_flight == 0 || requests_in_flight_ < params_.max_requests_in_flight;
    if (!bytes_fit || !requests_fit) {
      queue_blocked_by_limit_ = true;
      return;
    }
    memory_queue_.pop_front();

    const bool is_load = o.kind == OpKind::load;
    payload_.set_command(is_load ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    payload_.set_address(request_.region.base);
    payload_.set_data_length(static_cast<unsigned int>(std::min<std::uint64_t>(bytes, UINT32_MAX)));
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    memory->b_transport(payload_, delay);
    assert(payload_.is_response_ok());
    Time done = t + to_time(delay);

    bytes_in_flight_ += bytes;
    ++requests_in_flight_;
    if (is_load) {
      --queued_loads_;
      ++loads_in_flight_;
      ++stats_.loads;
      stats_.load_bytes += bytes;
      if (o.sram_write_bytes > 0) {
        done = sram.timing.write_streaming(t, done, o.sram_write_bytes);
      } else {
        stats_.register_load_bytes += bytes;
      }
      stats_.load_time += done - t;
      if (o.local) {
        --queued_local_loads_;
        ++local_loads_in_flight_;
        ++stats_.local_loads;
        stats_.local_load_bytes += bytes;
      }
    } else {
      ++stats_.stores;
      stats_.store_bytes += bytes;
      if (o.local) {
        ++stats_.local_stores;
        stats_.local_store_bytes += bytes;
      }
    }
    if (observing(observer_)) report_op(UnitKind::dma, next.slot, next.op, t, t, done, done);
    if (!is_load && block.program->posted(next.op)) {
      completions_.push(Completion{done.ps(), next_sequence_++, next.slot, kPostedStoreOp, bytes});
      issued(next.slot, next.op, t);
      ++stats_.ops;
      if (--block.ops_left == 0) retire(next.slot, t);
      continue;
    }
    schedule(done, next.slot, next.op);
    issued(next.slot, next.op, t);
  }
}

void Core::store_accepted(std::uint64_t bytes, Time t) {
  bytes_in_flight_ -= bytes;
  release_counts(Release::store);
  stats_.finish = max(stats_.finish, t);
}

void Core::schedule(Time when, std::uint32_t slot, std::uint32_t op) {
  completions_.push(Completion{when.ps(), next_sequence_++, slot, op});
}

void Core::issued(std::uint32_t slot, std::uint32_t op, Time t) {
  BlockSlot& block = slots_[slot];
  const Program& program = *block.program;
  for (const Successor* s = program.successors_begin(op); s != program.successors_end(op); ++s) {
    if (s->kind != EdgeKind::issue_order) continue;
    --block.pending_issue[s->op];
    check_ready(block, slot, s->op, t);
  }
}

void Core::completed(std::uint32_t slot, std::uint32_t op, Time t) {
  BlockSlot& block = slots_[slot];
  if (op == kPostedStoreOp) return;  // store_accepted did what there is to do
  if (op == kLaunchOp) {
    --launching_blocks_;
    start_block(block, slot, t);
    return;
  }
  const Program& program = *block.program;
  const Op& o = program.ops()[op];
  if (o.is_memory()) bytes_in_flight_ -= o.hbm_bytes(block.coord);
  if (o.kind != OpKind::compute) release_counts(release_of(o));
  release_successors(block, slot, op, t);
  ++stats_.ops;
  if (--block.ops_left == 0) retire(slot, t);
}

void Core::release_successors(BlockSlot& block, std::uint32_t slot, std::uint32_t op, Time at) {
  const Program& program = *block.program;
  for (const Successor* s = program.successors_begin(op); s != program.successors_end(op); ++s) {
    if (s->kind == EdgeKind::issue_order) continue;
    --block.pending_done[s->op];
    if (s->kind == EdgeKind::buffer_reuse) --block.pending_buffer[s->op];
    check_ready(block, slot, s->op, at);
  }
}

void Core::retire(std::uint32_t slot, Time t) {
  if (observing(observer_))
    observer_->block(index_, slot, slots_[slot].coord, slots_[slot].admitted, t);
  slots_[slot].active = false;
  --active_blocks_;
  active_warps_ -= kernel_.warps_per_block;
  sram.timing.release(kernel_.sram_bytes_per_block);
  registers.timing.release(kernel_.register_bytes_per_block);
  ++stats_.blocks;
  stats_.finish = max(stats_.finish, t);
  block_retired_ = true;
}

}  // namespace ridgeline
