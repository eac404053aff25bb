// The report's busy timeline: intervals into buckets, the union of requests in flight, and
// buckets that widen as the run grows without losing a picosecond.
#include "sim/waveforms/busy_timeline.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

Time ps(std::uint64_t value) { return Time::from_ps(value); }

std::uint64_t total(const BusyTimeline& busy, std::uint32_t core, BusyTimeline::Row row) {
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < BusyTimeline::kBuckets; ++b) sum += busy.busy(core, row, b).ps();
  return sum;
}

TEST(BusyTimeline, ComputeFillsItsBucketsExactly) {
  BusyTimeline busy(2, 4);
  busy.activity(Activity(UnitKind::compute, 1, ps(0), ps(500), ps(2500)));
  EXPECT_EQ(busy.bucket_width().ps(), 1000u);
  EXPECT_EQ(busy.busy(1, BusyTimeline::compute, 0).ps(), 500u);
  EXPECT_EQ(busy.busy(1, BusyTimeline::compute, 1).ps(), 1000u);
  EXPECT_EQ(busy.busy(1, BusyTimeline::compute, 2).ps(), 500u);
  EXPECT_EQ(total(busy, 0, BusyTimeline::compute), 0u);
  EXPECT_EQ(busy.buckets_until(ps(2500)), 3u);
}

TEST(BusyTimeline, RequestsInFlightCountOnceWhileTheyOverlap) {
  BusyTimeline busy(1, 1);
  Activity a(UnitKind::dma, 0, ps(0), ps(0), ps(800));
  Activity b(UnitKind::dma, 0, ps(100), ps(100), ps(600));  // inside a
  Activity c(UnitKind::dma, 0, ps(700), ps(700), ps(1500));
  for (const Activity& x : {a, b, c}) busy.activity(x);
  EXPECT_EQ(total(busy, 0, BusyTimeline::loads), 1500u);  // [0, 1500), once
  Activity store(UnitKind::dma, 0, ps(200), ps(200), ps(300));
  store.write = true;
  busy.activity(store);
  EXPECT_EQ(total(busy, 0, BusyTimeline::stores), 100u);
}

TEST(BusyTimeline, BucketsWidenAsTheRunGrows) {
  BusyTimeline busy(1, 2);
  busy.activity(Activity(UnitKind::hbm, 0, ps(0), ps(0), ps(1000)));
  busy.activity(Activity(UnitKind::hbm, 1, ps(0), ps(0), ps(1000)));
  // A transfer far beyond 240 buckets of 1 ns: widths double until it fits, sums are kept.
  busy.activity(Activity(UnitKind::hbm, 0, ps(0), ps(999'000), ps(1'000'000)));
  EXPECT_EQ(busy.bucket_width().ps(), 8000u);  // 240 x 8 ns = 1.92 us >= 1 us
  EXPECT_EQ(busy.hbm_busy(0).ps(), 2000u);
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < BusyTimeline::kBuckets; ++b) sum += busy.hbm_busy(b).ps();
  EXPECT_EQ(sum, 3000u);
  EXPECT_EQ(busy.buckets_until(ps(1'000'000)), 125u);
}

}  // namespace
}  // namespace ridgeline
