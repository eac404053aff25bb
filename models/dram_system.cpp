#include "models/dram_system.hpp"

#include <cassert>

namespace ridgeline {

DramSystem::DramSystem(const DramParams& dram, const AddressGeometry& geometry, Bandwidth peak)
    : map_(geometry, dram.mapping),
      burst_bytes_(dram.burst_bytes),
      last_request_(geometry.units(), 0) {
  assert(geometry.interleave_bytes % dram.burst_bytes == 0 && "a burst lies within one granule");
  const std::uint32_t count = geometry.units();
  units_.reserve(count);
  for (std::uint32_t u = 0; u < count; ++u) {
    DramChannelParams p;
    p.bank_groups = dram.bank_groups;
    p.banks_per_group = dram.banks_per_group;
    p.burst_bytes = dram.burst_bytes;
    p.data_rate = TransferRate(peak, count);
    p.timing = dram.timing;
    p.refresh = dram.refresh;
    // Controllers stagger refreshes so that the stack never stops at once: unit u's first is due
    // (u + 1) / count of an interval in.
    p.first_refresh = Time::from_ps(dram.timing.tREFI.ps() / count * (u + 1));
    units_.emplace_back(p);
  }
}

DramSystem::Served DramSystem::access(Time now, const Region& region, bool is_write) {
  Served served;
  served.data_done = now;
  pieces_.clear();
  // The DRAM moves whole bursts: round each row of the region out to burst boundaries.
  for (std::uint64_t row = 0; row < region.rows; ++row) {
    const std::uint64_t start = region.base + row * region.pitch_bytes;
    const std::uint64_t first = start / burst_bytes_ * burst_bytes_;
    const std::uint64_t end =
        (start + region.row_bytes + burst_bytes_ - 1) / burst_bytes_ * burst_bytes_;
    if (region.row_bytes > 0) map_.split(first, end - first, pieces_);
  }
  ++request_;
  for (std::uint64_t pass = 0; pass < region.repeat; ++pass) {
    for (const RowPiece& piece : pieces_) {
      DramChannel& unit = units_[piece.unit];
      const RowAccessTiming t =
          unit.access(now, RowAccess{piece.bank, piece.row, piece.bytes / burst_bytes_, is_write});
      if (last_request_[piece.unit] != request_) {
        last_request_[piece.unit] = request_;
        served.queue_delay = max(served.queue_delay, t.first_command - now);
      }
      served.data_done = max(served.data_done, t.data_done);
      served.bus_busy += unit.bus_time(piece.bytes / burst_bytes_);
    }
  }
  return served;
}

DramStats DramSystem::stats() const {
  DramStats total;
  for (const DramChannel& unit : units_) total.add(unit.stats());
  return total;
}

}  // namespace ridgeline
