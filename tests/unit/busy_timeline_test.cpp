// The report's busy timeline: intervals into buckets, the union of requests in flight, and
// buckets that widen as the run grows without losing a picosecond.
#include "sim/waveforms/busy_timeline.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/waveforms/busy_profile.hpp"

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

// A run's profile goes from a graph's kernel to the graph as JSON: read back whole, and refused
// where its series do not have a value for every bucket.
TEST(BusyProfile, ReadsBackWhatItWroteAndRefusesSeriesOfOtherLengths) {
  BusyTimeline busy(2, 4);
  busy.activity(Activity(UnitKind::compute, 1, ps(0), ps(500), ps(2500)));
  const BusyProfile written = busy_profile(busy, ps(3000), true);
  ASSERT_EQ(written.hbm.size(), 3u);
  EXPECT_DOUBLE_EQ(written.compute[1], 0.5);  // one of the two cores, the whole bucket
  const BusyProfile read = read_busy_profile(busy_profile_json(written));
  EXPECT_EQ(read.compute, written.compute);
  EXPECT_EQ(read.l2_port, written.l2_port);
  EXPECT_EQ(read.bucket_s, written.bucket_s);

  BusyProfile short_loads = written;
  short_loads.loads.pop_back();
  EXPECT_THROW(read_busy_profile(busy_profile_json(short_loads)), std::runtime_error);
  BusyProfile short_port = written;
  short_port.l2_port.pop_back();
  EXPECT_THROW(read_busy_profile(busy_profile_json(short_port)), std::runtime_error);
  BusyProfile without_l2 = written;  // a machine without an L2 has no port series
  without_l2.l2_port.clear();
  EXPECT_TRUE(read_busy_profile(busy_profile_json(without_l2)).l2_port.empty());
}

}  // namespace
}  // namespace ridgeline
