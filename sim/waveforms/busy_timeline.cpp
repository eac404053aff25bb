#include "sim/waveforms/busy_timeline.hpp"

#include <algorithm>

namespace ridgeline {

BusyTimeline::BusyTimeline(std::uint32_t requesters, std::uint32_t hbm_units)
    : hbm_units_(hbm_units), busy_(requesters), covered_ps_(requesters) {
  for (auto& rows : busy_) {
    for (Buckets& b : rows) b.fill(0);
  }
  for (auto& covered : covered_ps_) covered.fill(0);
}

void BusyTimeline::widen_to(Time end) {
  // Double the width, merging pairs of buckets, until `end` fits.
  while (end.ps() > width_ps_ * kBuckets) {
    const auto merge = [](Buckets& b) {
      for (std::size_t i = 0; i < kBuckets / 2; ++i) b[i] = b[2 * i] + b[2 * i + 1];
      std::fill(b.begin() + kBuckets / 2, b.end(), 0);
    };
    for (auto& rows : busy_) {
      for (Buckets& b : rows) merge(b);
    }
    merge(hbm_);
    merge(level_port_);
    width_ps_ *= 2;
  }
}

void BusyTimeline::add(Buckets& buckets, Time from, Time to) {
  if (to <= from) return;
  widen_to(to);
  for (std::uint64_t t = from.ps(); t < to.ps();) {
    const std::uint64_t bucket = t / width_ps_;
    const std::uint64_t end = std::min(to.ps(), (bucket + 1) * width_ps_);
    buckets[bucket] += end - t;
    t = end;
  }
}

void BusyTimeline::activity(const Activity& a) {
  switch (a.unit) {
    case UnitKind::compute:
      add(busy_[a.index][compute], a.start, a.end);
      break;
    case UnitKind::dma:
    case UnitKind::player: {
      // A requester's requests are told in issue order: the part of each past what the earlier
      // ones covered is new busy time (their union, not their sum).
      const Row row = a.write ? stores : loads;
      std::uint64_t& covered = covered_ps_[a.index][row];
      add(busy_[a.index][row], max(a.issue, Time::from_ps(covered)), a.end);
      covered = std::max(covered, a.end.ps());
      break;
    }
    case UnitKind::hbm:
      add(hbm_, a.start, a.end);
      break;
    case UnitKind::level_port:
      if (a.index == 0) add(level_port_, a.start, a.end);
      break;
    default:
      break;
  }
}

std::size_t BusyTimeline::buckets_until(Time end) const {
  return std::min<std::size_t>(kBuckets, (end.ps() + width_ps_ - 1) / width_ps_);
}

Time BusyTimeline::busy(std::uint32_t index, Row row, std::size_t bucket) const {
  return Time::from_ps(busy_[index][row][bucket]);
}

Time BusyTimeline::hbm_busy(std::size_t bucket) const { return Time::from_ps(hbm_[bucket]); }

Time BusyTimeline::level_port_busy(std::size_t bucket) const {
  return Time::from_ps(level_port_[bucket]);
}

}  // namespace ridgeline
