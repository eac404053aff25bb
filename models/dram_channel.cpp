#include "models/dram_channel.hpp"

#include <algorithm>
#include <cassert>

namespace ridgeline {

namespace {
Time times(Time t, std::uint64_t n) { return Time::from_ps(t.ps() * n); }
}  // namespace

DramChannel::DramChannel(const DramChannelParams& params)
    : params_(params),
      burst_time_(params.data_rate.time_for(params.burst_bytes)),
      banks_(std::size_t{params.bank_groups} * params.banks_per_group),
      groups_(params.bank_groups),
      next_refresh_(params.first_refresh) {
  assert(params.bank_groups > 0 && params.banks_per_group > 0 && params.burst_bytes > 0);
  assert(!params.refresh || params.timing.tRFC < params.timing.tREFI);
}

Time DramChannel::bus_time(std::uint64_t bursts) const {
  return max(times(params_.timing.tCCD_S, bursts),
             params_.data_rate.time_for(bursts * params_.burst_bytes));
}

void DramChannel::refresh_until(Time t) {
  if (!params_.refresh) return;
  const DramTimings& tm = params_.timing;
  while (next_refresh_ <= t) {
    // Every bank must be precharged: an open one when tRAS, tRTP and tWR allow, then tRP.
    Time start = next_refresh_;
    for (Bank& bank : banks_) {
      if (bank.open) {
        start = max(start, bank.pre_ready + tm.tRP);
        ++stats_.precharges;
      } else {
        start = max(start, bank.act_ready);
      }
    }
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
      bank.act_ready = end;
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

RowAccessTiming DramChannel::access(Time now, const RowAccess& a) {
  assert(a.bank < banks_.size() && a.bursts > 0);
  const DramTimings& tm = params_.timing;
  refresh_until(max(now, horizon_));
  const std::uint32_t g = a.bank / params_.banks_per_group;
  Bank& bank = banks_[a.bank];
  Group& group = groups_[g];
  RowAccessTiming result;

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
    } else {
      result.outcome = RowOutcome::miss;
      ++stats_.row_misses;
      act_earliest = max(now, bank.act_ready);
    }
    const Time act = activate(now, act_earliest, g);
    if (result.outcome == RowOutcome::miss) result.first_command = act;
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
  // Two capacities, each reserved in arrival order from when the bank can deliver: the bank
  // group's column path (one burst per tCCD_L) and the data bus (one burst per tCCD_S or burst
  // time). Bursts of different bank groups share the bus and interleave.
  const Time group_slot = max(group.column_ready, first);
  const Time bus_slot = max(bus_free_, first);
  const Time bus = bus_time(a.bursts);
  bus_free_ = bus_slot + bus;
  const Time last =
      max(group_slot + times(tm.tCCD_L, a.bursts - 1), bus_slot + bus_time(a.bursts - 1));
  // The group's next column goes tCCD_L after this access's last one, which the bus may have
  // delayed past the group's own reservation.
  group.column_ready = last + tm.tCCD_L;
  horizon_ = max(horizon_, last);
  if (result.outcome == RowOutcome::hit) result.first_command = first;
  result.first_column = first;
  result.last_column = last;
  result.bus_start = bus_slot;

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
  }
  stats_.bus_busy += bus;
  stats_.bus_bytes += a.bursts * params_.burst_bytes;
  return result;
}

}  // namespace ridgeline
