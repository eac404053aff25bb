#include "models/dram_system.hpp"

#include <algorithm>
#include <cassert>

namespace ridgeline {

DramSystem::DramSystem(const DramParams& dram, const AddressGeometry& geometry, Bandwidth peak)
    : map_(geometry, dram.mapping),
      burst_bytes_(dram.burst_bytes),
      requesters_stall_(dram.controller.requesters_stall),
      last_request_(geometry.units(), 0) {
  assert(geometry.interleave_bytes % dram.burst_bytes == 0 && "a burst lies within one granule");
  const std::uint32_t count = geometry.units();
  units_.reserve(count);
  const bool shared = dram.controller.channel_queues && geometry.pseudo_channels > 1;
  if (shared) channel_reads_.resize(geometry.channels);
  // Shared queues: the read queue is the channel's; writes, queued per pseudo-channel, take
  // their share of the channel's depth and watermarks.
  DramController controller = dram.controller;
  if (shared) {
    const std::uint32_t pcs = geometry.pseudo_channels;
    controller.write_queue_depth = std::max<std::uint32_t>(1, controller.write_queue_depth / pcs);
    controller.write_high_watermark = std::min(
        controller.write_queue_depth,
        std::max<std::uint32_t>(1, controller.write_high_watermark / pcs));
    controller.write_low_watermark =
        std::min(controller.write_low_watermark / pcs, controller.write_high_watermark - 1);
  }
  for (std::uint32_t u = 0; u < count; ++u) {
    DramChannelParams p;
    p.bank_groups = dram.bank_groups;
    p.banks_per_group = dram.banks_per_group;
    p.stack_ids = dram.stack_ids;
    p.burst_bytes = dram.burst_bytes;
    p.data_rate = TransferRate(peak, count);
    p.timing = dram.timing;
    p.refresh = dram.refresh;
    p.controller = controller;
    // Controllers stagger refreshes so that the stack never stops at once: unit u's first is due
    // (u + 1) / count of an interval in; or, not staggered, every unit's at one interval.
    p.first_refresh = dram.controller.staggered_refresh
                          ? Time::from_ps(dram.timing.tREFI.ps() / count * (u + 1))
                          : dram.timing.tREFI;
    units_.emplace_back(p);
    if (shared) units_.back().share_read_queue(&channel_reads_[u / geometry.pseudo_channels]);
  }
}

DramSystem::Served DramSystem::access(Time now, const Region& region, bool is_write) {
  Served served;
  served.data_done = now;
  served.accepted = now;
  pieces_.clear();
  // The DRAM moves whole bursts: round each row of the region out to burst boundaries.
  for (std::uint64_t row = 0; row < region.rows; ++row) {
    const std::uint64_t start = region.base + row * region.pitch_bytes;
    const std::uint64_t first = start / burst_bytes_ * burst_bytes_;
    const std::uint64_t end =
        (start + region.row_bytes + burst_bytes_ - 1) / burst_bytes_ * burst_bytes_;
    if (region.row_bytes > 0) map_.split(first, end - first, pieces_);
  }
  if (region.rows > 1) merge_row_pieces();
  ++request_;
  for (std::uint64_t pass = 0; pass < region.repeat; ++pass) {
    for (const RowPiece& piece : pieces_) {
      DramChannel& unit = units_[piece.unit];
      const RowAccessTiming t = unit.access(
          now, RowAccess{piece.bank, piece.row, piece.bytes / burst_bytes_, is_write, piece.column});
      // The writes this access drained (a batch it filled, or one the unit took while idle).
      if (observing(observer_)) report_drained(piece.unit);
      served.accepted = max(served.accepted, t.accepted);
      if (t.queued) {  // a posted write, or a read served from one: no DRAM command now
        if (last_request_[piece.unit] != request_) {
          last_request_[piece.unit] = request_;
          served.queue_delay = max(served.queue_delay, t.accepted - now);
        }
        served.data_done = max(served.data_done, t.accepted);
        // A merged write's bursts go with the write that holds them: its bus time is theirs.
        if (is_write && !t.merged) served.bus_busy += unit.bus_time(piece.bytes / burst_bytes_);
        continue;
      }
      if (last_request_[piece.unit] != request_) {
        last_request_[piece.unit] = request_;
        served.queue_delay = max(served.queue_delay, t.first_command - now);
      }
      if (!is_write) {  // as DramChannel counts a served read's sums
        read_queueing_latency_.add(t.first_command - t.accepted);
        read_service_latency_.add(t.data_done - t.first_command);
      }
      served.data_done = max(served.data_done, t.data_done);
      served.bus_busy += unit.bus_time(piece.bytes / burst_bytes_);
      if (observing(observer_)) report(piece.unit, now, piece.bytes, is_write, t);
    }
  }
  if (!requesters_stall_) served.accepted = now;
  return served;
}

void DramSystem::merge_row_pieces() {
  // A 2-D request's rows often fall into one DRAM row side by side (a tile's rows a few granules
  // apart): those pieces are one row access, as a controller holding them all serves them. The
  // pieces come in address order, so within a DRAM row in column order: each extends the last
  // piece of its row when it starts where that one ends. Rows are found in a small open-addressed
  // table (a slot holds a kept piece's index + 1), the accesses keep the order of their first
  // piece.
  std::size_t slots = 1;
  while (slots < pieces_.size() * 2) slots <<= 1;
  merge_slots_.assign(slots, 0);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    const RowPiece next = pieces_[i];
    std::uint64_t hash = (next.row * 0x9E3779B97F4A7C15ull) ^ (next.bank * 0xC2B2AE3D27D4EB4Full) ^
                         (std::uint64_t{next.unit} << 32);
    std::size_t slot = (hash ^ (hash >> 29)) & (slots - 1);
    for (;; slot = (slot + 1) & (slots - 1)) {
      const std::uint32_t held = merge_slots_[slot];
      if (held == 0) {
        pieces_[kept] = next;
        merge_slots_[slot] = static_cast<std::uint32_t>(++kept);
        break;
      }
      RowPiece& last = pieces_[held - 1];
      if (last.unit == next.unit && last.bank == next.bank && last.row == next.row) {
        if (next.column == last.column + last.bytes) {
          last.bytes += next.bytes;
        } else {  // not side by side (a region row skipped part of it): an access of its own
          pieces_[kept] = next;
          merge_slots_[slot] = static_cast<std::uint32_t>(++kept);
        }
        break;
      }
    }
  }
  pieces_.resize(kept);
}

Time DramSystem::finish() {
  Time last;
  for (std::uint32_t u = 0; u < units(); ++u) {
    last = max(last, units_[u].finish());
    if (observing(observer_)) report_drained(u);
  }
  return last;
}

void DramSystem::observe(ActivityObserver* observer) {
  observer_ = observer;
  for (DramChannel& unit : units_) unit.keep_drained(observer != nullptr);
}

void DramSystem::report(std::uint32_t unit, Time issued, std::uint64_t bytes, bool is_write,
                        const RowAccessTiming& t) {
  const Time bus = units_[unit].bus_time((bytes + burst_bytes_ - 1) / burst_bytes_);
  Activity a(UnitKind::hbm, unit, issued, t.bus_start, t.bus_start + bus);
  a.ready = t.data_done;
  a.bytes = bytes;
  a.write = is_write;
  a.detail = t.outcome == RowOutcome::hit    ? "row hit"
             : t.outcome == RowOutcome::miss ? "row miss"
                                             : "row conflict";
  observer_->activity(a);
}

void DramSystem::report_drained(std::uint32_t unit) {
  // Activities are told in the order they are decided, not in time order, as for reads.
  std::vector<DramChannel::Drained>& drained = units_[unit].drained();
  for (const DramChannel::Drained& w : drained) {
    report(unit, w.arrival, w.access.bursts * burst_bytes_, true, w.timing);
  }
  drained.clear();
}

std::vector<DramStats> DramSystem::unit_stats() const {
  std::vector<DramStats> all;
  all.reserve(units_.size());
  for (const DramChannel& unit : units_) all.push_back(unit.stats());
  return all;
}

DramStats DramSystem::stats() const {
  DramStats total;
  for (const DramChannel& unit : units_) total.add(unit.stats());
  total.read_queueing_latency = read_queueing_latency_;
  total.read_service_latency = read_service_latency_;
  return total;
}

}  // namespace ridgeline
