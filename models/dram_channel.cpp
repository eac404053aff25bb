#include "models/dram_channel.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>

namespace ridgeline {

namespace {
Time times(Time t, std::uint64_t n) { return Time::from_ps(t.ps() * n); }
}  // namespace

// ------------------------------------------------------------------------------------ Timeline

namespace {
// Where a reservation tagged `tag` may go after one tagged `neighbour` ends at `at`.
Time after_turn(Time at, std::uint8_t neighbour, std::uint8_t tag, Time turn) {
  return neighbour == tag ? at : at + turn;
}
}  // namespace

Time DramChannel::Timeline::find(Time earliest, Time length, std::uint8_t tag, Time turn) const {
  Time best = max(used ? after_turn(free, free_tag, tag, turn) : free, earliest);
  for (std::uint32_t i = 0; i < count; ++i) {
    const Gap& g = gaps[i];
    const Time start = max(after_turn(g.start, g.before, tag, turn), earliest);
    const Time end = start + length + (g.after == tag ? Time{} : turn);
    if (end <= g.end && start < best) best = start;
  }
  return best;
}

bool DramChannel::Timeline::fits(Time start, Time end, std::uint8_t tag, Time turn) const {
  if (start >= (used ? after_turn(free, free_tag, tag, turn) : free)) return true;
  for (std::uint32_t i = 0; i < count; ++i) {
    const Gap& g = gaps[i];
    if (after_turn(g.start, g.before, tag, turn) <= start &&
        end + (g.after == tag ? Time{} : turn) <= g.end) {
      return true;
    }
  }
  return false;
}

void DramChannel::Timeline::add_gap(Gap gap) {
  // Full: forget the gap that ends first. Gaps that have passed stay until then (nothing can fit
  // in them any more), so this is the one a forgotten past would have freed.
  if (count == kGaps) {
    std::uint32_t oldest = 0;
    for (std::uint32_t i = 1; i < count; ++i) {
      if (gaps[i].end < gaps[oldest].end) oldest = i;
    }
    gaps[oldest] = gaps[--count];
  }
  gaps[count++] = gap;
}

void DramChannel::Timeline::take(Time start, Time end, bool keep_gaps, std::uint8_t tag) {
  if (start >= free) {
    if (keep_gaps && start > free) add_gap(Gap{free, start, free_tag, tag});
    free = max(free, end);
    free_tag = tag;
    used = true;
    return;
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    Gap& g = gaps[i];
    if (g.start <= start && end <= g.end) {
      const Gap after{end, g.end, tag, g.after};
      g.end = start;
      g.after = tag;
      if (g.end <= g.start) g = gaps[--count];
      if (after.end > after.start) add_gap(after);
      return;
    }
  }
  assert(false && "take() of a span that is not free");
}

// ----------------------------------------------------------------------------------- DramChannel

DramChannel::DramChannel(const DramChannelParams& params)
    : params_(params),
      burst_time_(params.data_rate.time_for(params.burst_bytes)),
      stack_turn_(params.stack_ids > 1 && params.timing.tCCD_R > params.timing.tCCD_S
                      ? params.timing.tCCD_R - params.timing.tCCD_S
                      : Time{}),
      banks_(std::size_t{params.bank_groups} * params.banks_per_group),
      groups_(params.bank_groups),
      next_refresh_(params.first_refresh),
      reorder_(params.controller.scheduler == DramScheduler::fr_fcfs) {
  assert(params.bank_groups > 0 && params.banks_per_group > 0 && params.burst_bytes > 0);
  assert(!params.refresh || params.timing.tRFC < params.timing.tREFI);
  assert(!params.refresh || params.controller.refresh == RefreshPolicy::all_bank ||
         params.timing.tRFCpb < params.timing.tREFI);
  const DramController& c = params.controller;
  assert(c.read_queue_depth > 0 && c.write_queue_depth > 0 &&
         c.write_low_watermark < c.write_high_watermark &&
         c.write_high_watermark <= c.write_queue_depth);
  (void)c;
  write_queue_.reserve(params.controller.write_queue_depth);
  for (std::uint64_t bursts = 0; bursts < kBusTimes; ++bursts) {
    bus_times_[bursts] = bus_time_of(bursts);
  }
}

Time DramChannel::bus_time_of(std::uint64_t bursts) const {
  return max(times(params_.timing.tCCD_S, bursts),
             params_.data_rate.time_for(bursts * params_.burst_bytes));
}

Time DramChannel::ready_to_refresh(const Bank& bank, Time due) {
  // A bank must be precharged first: an open one when tRAS, tRTP and tWR allow, then tRP.
  if (!bank.open) return max(due, bank.act_ready);
  ++stats_.precharges;
  return max(due, bank.pre_ready + params_.timing.tRP);
}

void DramChannel::refresh_banks_until(Time t) {
  // REFpb: one bank, in turn, every tREFI / banks; a bank precharges first if open (tRAS, tRTP,
  // tWR, then tRP) and is busy tRFCpb; the others go on working. Refresh time is counted in
  // pseudo-channel time, tRFCpb / banks a refresh, so that it compares with all-bank refresh.
  const DramTimings& tm = params_.timing;
  const auto banks = static_cast<std::uint64_t>(banks_.size());
  const Time interval = Time::from_ps(tm.tREFI.ps() / banks);
  const Time share = Time::from_ps(tm.tRFCpb.ps() / banks);
  if (next_refresh_ + tm.tREFI + tm.tREFI <= t &&
      std::none_of(banks_.begin(), banks_.end(), [](const Bank& b) { return b.open; })) {
    // Idle for more than a round: whole rounds at once (every bank closed, each refreshed on
    // time), the last one by one.
    const std::uint64_t rounds = (t - next_refresh_).ps() / tm.tREFI.ps() - 1;
    next_refresh_ += times(tm.tREFI, rounds);
    stats_.refreshes += rounds * banks;
    stats_.refresh_busy += times(share, rounds * banks);
  }
  while (next_refresh_ <= t) {
    Bank& bank = banks_[next_refresh_bank_];
    const Time start = ready_to_refresh(bank, next_refresh_);
    bank.open = false;
    bank.previous_open = false;
    bank.act_ready = start + tm.tRFCpb;
    ++stats_.refreshes;
    stats_.refresh_busy += share;
    next_refresh_bank_ = (next_refresh_bank_ + 1) % static_cast<std::uint32_t>(banks);
    next_refresh_ += interval;
  }
}

void DramChannel::refresh_until(Time t) {
  if (!params_.refresh) return;
  if (params_.controller.refresh == RefreshPolicy::per_bank) {
    refresh_banks_until(t);
    return;
  }
  const DramTimings& tm = params_.timing;
  while (next_refresh_ <= t) {
    // Every bank precharged first: the refresh starts when the last is ready.
    Time start = next_refresh_;
    for (Bank& bank : banks_) start = ready_to_refresh(bank, start);
    Time end = start + tm.tRFC;
    std::uint64_t count = 1;
    if (start == next_refresh_ && next_refresh_ + tm.tREFI <= t) {
      // Idle: this one and every later one due by `t` start on schedule (rows closed, tRFC is
      // shorter than tREFI). Count them at once instead of one by one.
      const std::uint64_t more = (t - next_refresh_).ps() / tm.tREFI.ps();
      next_refresh_ = next_refresh_ + times(tm.tREFI, more);
      end = next_refresh_ + tm.tRFC;
      count += more;
    }
    for (Bank& bank : banks_) {
      bank.open = false;
      bank.previous_open = false;
      bank.act_ready = end;
    }
    if (reorder_) {  // nothing goes back before a refresh
      bus_.count = 0;
      for (Group& g : groups_) g.column.count = 0;
    }
    stats_.refreshes += count;
    stats_.refresh_busy += times(tm.tRFC, count);
    horizon_ = max(horizon_, end);
    next_refresh_ += tm.tREFI;
  }
}

Time DramChannel::activate(Time now, Time bank_ready, std::uint32_t group) {
  const DramTimings& tm = params_.timing;
  // The row-command path's capacity, in arrival order: one ACT per tRRD_S, per tRRD_L within a
  // bank group, four per tFAW. A bank that is not ready yet delays its own ACT, not the slot.
  Time slot = max(max(now, act_ready_), groups_[group].act_ready);
  if (activations_seen_ == 4) slot = max(slot, faw_[faw_next_] + tm.tFAW);
  faw_[faw_next_] = slot;
  faw_next_ = (faw_next_ + 1) % 4;
  activations_seen_ = std::min<std::uint32_t>(activations_seen_ + 1, 4);
  act_ready_ = slot + tm.tRRD_S;
  groups_[group].act_ready = slot + tm.tRRD_L;
  ++stats_.activations;
  return max(slot, bank_ready);
}

bool DramChannel::covered_by_queued_write(const RowAccess& a) const {
  const std::uint64_t end = a.column + a.bursts * params_.burst_bytes;
  for (const QueuedWrite& w : write_queue_) {
    const RowAccess& q = w.access;
    if (q.bank == a.bank && q.row == a.row && q.column <= a.column &&
        end <= q.column + q.bursts * params_.burst_bytes) {
      return true;
    }
  }
  return false;
}

void DramChannel::close_idle_row(Time now, std::uint32_t index) {
  // Closed page: the bank precharged as soon as it could, unless a request for its row arrived by
  // then (this one, or a queued write).
  Bank& bank = banks_[index];
  if (params_.controller.page_policy != PagePolicy::closed || !bank.open || now < bank.pre_ready)
    return;
  for (const QueuedWrite& w : write_queue_) {
    if (w.access.bank == index && w.access.row == bank.row) return;
  }
  bank.open = false;
  bank.previous_open = false;
  bank.act_ready = max(bank.act_ready, bank.pre_ready + params_.timing.tRP);
  ++stats_.precharges;
}

void DramChannel::place_columns(Time first, const RowAccess& a, bool reorder,
                                RowAccessTiming& result) {
  // Two capacities, each reserved from when the bank can deliver: the bank group's column path
  // (one burst per tCCD_L) and the data bus (one burst per tCCD_S or burst time). Bursts of
  // different bank groups share the bus and interleave. fcfs reserves each after everything
  // before it; fr_fcfs also takes gaps older accesses left.
  const DramTimings& tm = params_.timing;
  Group& group = groups_[a.bank / params_.banks_per_group];
  const Time bus = bus_time(a.bursts);
  const Time span = times(tm.tCCD_L, a.bursts);
  const std::uint8_t stack = stack_of(a.bank);
  Time group_slot = reorder ? group.column.find(first, span) : max(group.column.free, first);
  // fcfs keeps no gaps, so find() is the end of what is reserved (and a change of stack ID).
  const Time bus_slot = bus_.find(first, bus, stack, stack_turn_);
  const auto last_of = [&](Time g) {
    return max(g + times(tm.tCCD_L, a.bursts - 1), bus_slot + bus_time(a.bursts - 1));
  };
  Time last = last_of(group_slot);
  // The group's next column goes tCCD_L after this access's last one, which the bus may have
  // delayed past the group's own reservation: the gap must hold that too.
  if (reorder && !group.column.fits(group_slot, last + tm.tCCD_L)) {
    group_slot = max(group.column.free, first);
    last = last_of(group_slot);
  }
  const bool in_gap = bus_slot < bus_.free || group_slot < group.column.free;
  group.column.take(group_slot, last + tm.tCCD_L, reorder);
  bus_.take(bus_slot, bus_slot + bus, reorder, stack);
  if (in_gap) {
    ++stats_.ready_first;
  } else {
    ++stats_.in_order;
  }
  // fcfs reports the earliest the bank could deliver (the figures as they were); fr_fcfs when
  // the first column issues, behind the bus, which is what the queues count.
  result.first_column = reorder ? std::min(last, max(group_slot, bus_slot)) : first;
  result.last_column = last;
  result.bus_start = bus_slot;
  stats_.bus_busy += bus;
  stats_.bus_bytes += a.bursts * params_.burst_bytes;
}

void DramChannel::finish_columns(const RowAccess& a, RowAccessTiming& result) {
  const DramTimings& tm = params_.timing;
  Bank& bank = banks_[a.bank];
  Group& group = groups_[a.bank / params_.banks_per_group];
  const Time last = result.last_column;
  horizon_ = max(horizon_, last);
  if (any_access_ && last_was_write_ != a.is_write) ++stats_.turnarounds;
  any_access_ = true;
  last_was_write_ = a.is_write;
  if (a.is_write) {
    const Time data_end = last + tm.tCWL + burst_time_;
    read_after_write_ = max(read_after_write_, data_end + tm.tWTR_S);
    group.read_after_write = max(group.read_after_write, data_end + tm.tWTR_L);
    bank.pre_ready = max(bank.pre_ready, data_end + tm.tWR);
    result.data_done = data_end;
    stats_.write_bursts += a.bursts;
  } else {
    write_ready_ = max(write_ready_, last + tm.tRTW);
    bank.pre_ready = max(bank.pre_ready, last + tm.tRTP);
    result.data_done = last + tm.tCL + burst_time_;
    stats_.read_bursts += a.bursts;
    read_tail_ = max(read_tail_, last);
  }
  last_data_ = max(last_data_, result.data_done);
}

bool DramChannel::try_row_hit_first(Time now, const RowAccess& a, RowAccessTiming& result) {
  // The row a scheduled conflict closes stays open until that PRE: a read whose bursts fit before
  // it (tRTP) is a hit there, and delays nobody.
  const DramTimings& tm = params_.timing;
  Bank& bank = banks_[a.bank];
  if (a.is_write || !bank.previous_open || bank.previous_row != a.row) return false;
  Group& group = groups_[a.bank / params_.banks_per_group];
  const Time first =
      max(max(now, bank.previous_read_ready), max(read_after_write_, group.read_after_write));
  const Time bus = bus_time(a.bursts);
  const std::uint8_t stack = stack_of(a.bank);
  const Time group_slot = group.column.find(first, times(tm.tCCD_L, a.bursts));
  const Time bus_slot = bus_.find(first, bus, stack, stack_turn_);
  const Time last =
      max(group_slot + times(tm.tCCD_L, a.bursts - 1), bus_slot + bus_time(a.bursts - 1));
  if (last + tm.tRTP > bank.previous_close || !group.column.fits(group_slot, last + tm.tCCD_L)) {
    return false;
  }
  group.column.take(group_slot, last + tm.tCCD_L, true);
  bus_.take(bus_slot, bus_slot + bus, true, stack);
  stats_.bus_busy += bus;
  stats_.bus_bytes += a.bursts * params_.burst_bytes;
  ++stats_.row_hits;
  ++stats_.row_hit_first;
  result.outcome = RowOutcome::hit;
  result.first_column = std::min(last, max(group_slot, bus_slot));
  result.first_command = result.first_column;
  result.last_column = last;
  result.bus_start = bus_slot;
  // As any read: the bank's tRTP bound is already met (the new row's ACT follows the PRE that
  // these bursts fit before).
  finish_columns(a, result);
  return true;
}

RowAccessTiming DramChannel::serve(Time now, const RowAccess& a, bool reorder) {
  assert(a.bank < banks_.size() && a.bursts > 0);
  const DramTimings& tm = params_.timing;
  refresh_until(max(now, horizon_));
  close_idle_row(now, a.bank);
  const std::uint32_t g = a.bank / params_.banks_per_group;
  Bank& bank = banks_[a.bank];
  Group& group = groups_[g];
  RowAccessTiming result;
  if (reorder && try_row_hit_first(now, a, result)) return result;

  if (bank.open && bank.row == a.row) {
    result.outcome = RowOutcome::hit;
    ++stats_.row_hits;
  } else {
    Time act_earliest;
    if (bank.open) {
      result.outcome = RowOutcome::conflict;
      ++stats_.row_conflicts;
      const Time pre = max(now, bank.pre_ready);
      ++stats_.precharges;
      result.first_command = pre;
      act_earliest = pre + tm.tRP;
      if (reorder) {
        bank.previous_open = true;
        bank.previous_row = bank.row;
        bank.previous_read_ready = bank.read_ready;
        bank.previous_close = pre;
      }
    } else {
      result.outcome = RowOutcome::miss;
      ++stats_.row_misses;
      act_earliest = max(now, bank.act_ready);
    }
    const Time act = activate(now, act_earliest, g);
    if (result.outcome == RowOutcome::miss) result.first_command = act;
    result.activation = act;
    bank.open = true;
    bank.row = a.row;
    bank.read_ready = act + tm.tRCD_RD;
    bank.write_ready = act + tm.tRCD_WR;
    bank.pre_ready = act + tm.tRAS;
    horizon_ = max(horizon_, act);
  }

  Time first = max(now, a.is_write ? bank.write_ready : bank.read_ready);
  first = a.is_write ? max(first, write_ready_)
                     : max(first, max(read_after_write_, group.read_after_write));
  place_columns(first, a, reorder, result);
  if (result.outcome == RowOutcome::hit) result.first_command = result.first_column;
  finish_columns(a, result);
  return result;
}

// ------------------------------------------------------------------------- fr_fcfs: the queues

std::uint64_t DramChannel::pending_reads(Time now) {
  ReadQueue& q = reads();
  while (!q.heap.empty() && q.heap.front().first_column <= now) {
    q.entries -= q.heap.front().entries;
    std::pop_heap(q.heap.begin(), q.heap.end(), std::greater<>());
    q.heap.pop_back();
  }
  return q.entries;
}

std::uint64_t DramChannel::pending_writes(Time now) {
  while (drained_head_ < drained_columns_.size() &&
         drained_columns_[drained_head_].first_column <= now) {
    drained_entries_ -= drained_columns_[drained_head_].entries;
    ++drained_head_;
  }
  if (drained_head_ > 4096 && drained_head_ * 2 > drained_columns_.size()) {  // forget the issued
    drained_columns_.erase(drained_columns_.begin(),
                           drained_columns_.begin() + static_cast<std::ptrdiff_t>(drained_head_));
    drained_head_ = 0;
  }
  return queued_write_entries_ + drained_entries_;
}

void DramChannel::sample_queues(Time now) {
  const std::uint64_t reads = pending_reads(now);
  const std::uint64_t writes = pending_writes(now);
  ++stats_.queue_samples;
  stats_.read_queue_sum += reads;
  stats_.write_queue_sum += writes;
  stats_.read_queue_max = std::max(stats_.read_queue_max, reads);
  stats_.write_queue_max = std::max(stats_.write_queue_max, writes);
}

std::size_t DramChannel::pick_write() {
  // FR-FCFS among the queued writes: the oldest row hit; with none, the write whose bank can
  // take it first (a bank still busy with an earlier conflict is not ready; the oldest of equals);
  // unless the oldest write has already been passed by `starvation_cap` younger ones: then it.
  if (write_queue_.front().passed >= params_.controller.starvation_cap) {
    ++stats_.starvation_cap_hits;
    return 0;
  }
  const DramTimings& tm = params_.timing;
  std::size_t ready = 0;
  Time ready_at = Time::from_ps(std::numeric_limits<std::uint64_t>::max());
  for (std::size_t i = 0; i < write_queue_.size(); ++i) {
    const RowAccess& w = write_queue_[i].access;
    const Bank& bank = banks_[w.bank];
    if (bank.open && bank.row == w.row) return i;
    // When its WRITE could issue, bank timing alone: PRE (if a row is open), tRP, ACT, tRCD.
    const Time act = bank.open ? bank.pre_ready + tm.tRP : bank.act_ready;
    const Time at = max(act, write_queue_[i].arrival) + tm.tRCD_WR;
    if (at < ready_at) {
      ready_at = at;
      ready = i;
    }
  }
  return ready;
}

void DramChannel::begin_batch() {
  // A batch is a barrier: the reads that arrive after it wait for it (the controller is writing),
  // and nothing goes back into the gaps before it.
  bus_.count = 0;
  for (Group& g : groups_) g.column.count = 0;
  batch_length_ = 0;
}

RowAccessTiming DramChannel::drain_one(Time start) {
  const std::size_t pick = pick_write();
  const QueuedWrite w = write_queue_[pick];
  for (std::size_t i = 0; i < pick; ++i) ++write_queue_[i].passed;
  write_queue_.erase(write_queue_.begin() + static_cast<std::ptrdiff_t>(pick));
  queued_write_entries_ -= entries(w.access);
  const RowAccessTiming t = serve(max(start, w.arrival), w.access, true);
  if (keep_drained_) drained_.push_back(Drained{w.access, w.arrival, t});
  drained_columns_.push_back(Issue{t.first_column, entries(w.access)});
  drained_entries_ += entries(w.access);
  batch_end_ = max(batch_end_, t.last_column);
  ++batch_length_;
  return t;
}

void DramChannel::end_batch() {
  bus_.count = 0;
  for (Group& g : groups_) g.column.count = 0;
  if (batch_length_ == 0) return;
  ++stats_.write_batches;
  stats_.batched_writes += batch_length_;
  stats_.longest_batch = std::max(stats_.longest_batch, batch_length_);
}

void DramChannel::drain(Time start, std::size_t down_to) {
  begin_batch();
  while (queued_write_entries_ > down_to) drain_one(start);
  end_batch();
}

void DramChannel::catch_up(Time now) {
  // Nothing to read since the last read's column: the controller wrote meanwhile. It began when
  // the reads ran out (or the first write came) and went through every write it could start
  // before `now`; once writing, it goes on down to the low watermark.
  if (write_queue_.empty()) return;
  const Time idle = max(max(read_tail_, batch_end_), write_queue_.front().arrival);
  if (idle >= now) return;
  const std::size_t low = params_.controller.write_low_watermark;
  begin_batch();
  while (!write_queue_.empty()) {
    if (drain_one(idle).first_column >= now && queued_write_entries_ <= low) break;
  }
  end_batch();
}

Time DramChannel::finish() {
  if (reorder_) catch_up(Time::from_ps(std::numeric_limits<std::uint64_t>::max()));
  return last_data_;
}

RowAccessTiming DramChannel::write(Time now, const RowAccess& a) {
  const DramController& c = params_.controller;
  RowAccessTiming result;
  result.queued = true;
  if (covered_by_queued_write(a)) {
    ++stats_.writes_merged;
    result.accepted = now;
    result.merged = true;
    return result;
  }
  Time accepted = now;
  std::uint64_t pending = pending_writes(now);
  const std::uint64_t size = entries(a);
  if (pending > 0 && pending + size > c.write_queue_depth) {
    // Full: room as the oldest drained writes issue their columns; with too few drained, a batch
    // drains now. (A write of more transactions than the whole queue enters once it is empty.)
    if (pending - drained_entries_ + size > c.write_queue_depth) {
      drain(now, c.write_low_watermark);
    }
    while (pending > 0 && pending + size > c.write_queue_depth &&
           drained_head_ < drained_columns_.size()) {
      const Issue& issue = drained_columns_[drained_head_++];
      accepted = max(accepted, issue.first_column);
      pending -= issue.entries;
      drained_entries_ -= issue.entries;
    }
    ++stats_.queue_full_waits;
    stats_.queue_full_time += accepted - now;
  }
  write_queue_.push_back(QueuedWrite{a, accepted, 0});
  queued_write_entries_ += size;
  if (queued_write_entries_ >= c.write_high_watermark) {
    drain(accepted, c.write_low_watermark);
  }
  result.accepted = accepted;
  return result;
}

RowAccessTiming DramChannel::read(Time now, const RowAccess& a) {
  if (covered_by_queued_write(a)) {
    ++stats_.forwarded;
    RowAccessTiming result;
    result.queued = true;
    result.accepted = now;
    result.first_command = now;
    result.data_done = now;
    return result;
  }
  Time enter = now;
  ReadQueue& q = reads();
  const std::uint64_t depth = params_.controller.read_queue_depth;
  const std::uint64_t size = entries(a);
  if (pending_reads(now) > 0 && q.entries + size > depth) {
    // Full: room as the oldest queued reads issue (a read of more transactions than the whole
    // queue enters once it is empty).
    while (q.entries > 0 && q.entries + size > depth) {
      enter = max(enter, q.heap.front().first_column);
      q.entries -= q.heap.front().entries;
      std::pop_heap(q.heap.begin(), q.heap.end(), std::greater<>());
      q.heap.pop_back();
    }
    ++stats_.queue_full_waits;
    stats_.queue_full_time += enter - now;
  }
  RowAccessTiming result = serve(enter, a, true);
  result.accepted = enter;
  const auto leave = [&q](Time at, std::uint64_t n) {
    q.heap.push_back(ReadQueue::Entry{at, n});
    std::push_heap(q.heap.begin(), q.heap.end(), std::greater<>());
  };
  if (params_.controller.read_release == ReadRelease::activation &&
      result.outcome != RowOutcome::hit) {
    leave(result.activation, 1);  // the transaction that opened the row waits in its bank
    if (size > 1) leave(result.first_column, size - 1);
  } else {
    leave(result.first_column, size);
  }
  q.entries += size;
  return result;
}

void DramChannel::count_read(const RowAccessTiming& t) {
  // From when the controller took it, as a DRAM simulator counts a request's latency.
  ++stats_.served_reads;
  stats_.read_queueing += t.first_command - t.accepted;
  stats_.read_service += t.data_done - t.first_command;
}

RowAccessTiming DramChannel::access(Time now, const RowAccess& a) {
  if (!reorder_) {
    RowAccessTiming result = serve(now, a, false);
    result.accepted = now;
    if (!a.is_write) count_read(result);
    return result;
  }
  catch_up(now);
  sample_queues(now);
  if (a.is_write) return write(now, a);
  RowAccessTiming result = read(now, a);
  if (!result.queued) count_read(result);
  return result;
}

}  // namespace ridgeline
