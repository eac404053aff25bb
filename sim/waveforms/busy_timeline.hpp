// A coarse picture of unit busy time over a run, for the HTML report's timeline chart and a
// graph's timeline (sim/waveforms/busy_profile.hpp): per core, how much of each time bucket it
// had a load in flight, computed, had a store in flight; how busy the L2's port was (the first
// shared level, where there is one) and the HBM's channels. Collected by observing the run
// (models/activity.hpp) when a report is asked for, in a fixed number of buckets whose width
// doubles whenever the run outgrows them, so it costs O(cores x buckets) memory whatever the run's
// length.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/activity.hpp"

namespace ridgeline {

class BusyTimeline : public ActivityObserver {
 public:
  static constexpr std::size_t kBuckets = 240;

  enum Row : std::uint8_t { loads, compute, stores };
  static constexpr std::size_t kRows = 3;

  /// `requesters` cores (or trace players) in front of `hbm_units` channels (pseudo-channels).
  BusyTimeline(std::uint32_t requesters, std::uint32_t hbm_units);

  void activity(const Activity& a) override;
  void level(std::uint32_t, LevelKind, Time, std::uint64_t) override {}
  void block(std::uint32_t, std::uint32_t, BlockCoord, Time, Time) override {}

  /// Widens the buckets, if need be, so that they cover [0, end): the run's end, which can come
  /// after the last activity seen (a last barrier, a compute's pipeline latency).
  void cover(Time end) { widen_to(end); }

  Time bucket_width() const { return Time::from_ps(width_ps_); }
  /// Buckets that cover [0, end).
  std::size_t buckets_until(Time end) const;
  std::uint32_t requesters() const { return static_cast<std::uint32_t>(busy_.size()); }
  /// Time requester `index` had `row` busy in `bucket` (loads, stores: at least one in flight).
  Time busy(std::uint32_t index, Row row, std::size_t bucket) const;
  /// Channel-time the HBM transferred in `bucket`, summed over its channels.
  Time hbm_busy(std::size_t bucket) const;
  /// Time the first shared level's port (the L2's) transferred in `bucket`; none without one.
  Time level_port_busy(std::size_t bucket) const;
  std::uint32_t hbm_units() const { return hbm_units_; }

 private:
  using Buckets = std::array<std::uint64_t, kBuckets>;
  void add(Buckets& buckets, Time from, Time to);
  void widen_to(Time end);

  std::uint64_t width_ps_ = 1000;  // 1 ns until the run outgrows it
  std::uint32_t hbm_units_;
  std::vector<std::array<Buckets, kRows>> busy_;
  std::vector<std::array<std::uint64_t, kRows>> covered_ps_;  // loads and stores seen up to here
  Buckets hbm_{};
  Buckets level_port_{};
};

}  // namespace ridgeline
