// The HBM timing core alone: channel mapping, first-come-first-served reservation, latency.
#include "models/hbm.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

HbmParams params(std::uint32_t channels) {
  HbmParams p;
  p.peak_bandwidth.bytes_per_second = 1'000'000'000'000;  // 1 byte per ps
  p.access_latency = Time::from_ps(500'000);
  p.channels = channels;
  p.interleave_bytes = 256;
  return p;
}

Region contiguous(std::uint64_t base, std::uint64_t bytes) {
  return Region{base, 1, bytes, bytes, 1};
}

TEST(HbmTiming, SplitsRegionsOverChannelsByInterleave) {
  HbmTiming hbm(params(4));
  EXPECT_EQ(hbm.split(contiguous(0, 1024)), (std::vector<std::uint64_t>{256, 256, 256, 256}));
  EXPECT_EQ(hbm.split(contiguous(128, 256)), (std::vector<std::uint64_t>{128, 128, 0, 0}));
  EXPECT_EQ(hbm.split(contiguous(256, 3 * 1024)), (std::vector<std::uint64_t>{768, 768, 768, 768}));
  // 2-D: rows a stripe (4 x 256 B) apart land alike; rows 256 B apart rotate.
  EXPECT_EQ(hbm.split(Region{0, 8, 256, 1024, 1}), (std::vector<std::uint64_t>{2048, 0, 0, 0}));
  EXPECT_EQ(hbm.split(Region{0, 8, 256, 256, 1}), (std::vector<std::uint64_t>{512, 512, 512, 512}));
  EXPECT_EQ(hbm.split(Region{0, 1, 256, 256, 3}), (std::vector<std::uint64_t>{768, 0, 0, 0}));
}

TEST(HbmTiming, LoneRequestTakesLatencyPlusTransfer) {
  HbmTiming hbm(params(1));
  const Time done = hbm.access(Time::from_ps(1000), contiguous(0, 4096), false);
  EXPECT_EQ(done.ps(), 1000u + 4096 + 500'000);
  EXPECT_EQ(hbm.stats().read_bytes, 4096u);
  EXPECT_EQ(hbm.stats().reads, 1u);
  EXPECT_EQ(hbm.stats().channel_busy.ps(), 4096u);
}

TEST(HbmTiming, RequestsQueueFirstComeFirstServed) {
  HbmTiming hbm(params(1));
  const Time first = hbm.access(Time{}, contiguous(0, 1000), false);
  const Time second = hbm.access(Time{}, contiguous(0, 1000), true);
  EXPECT_EQ(first.ps(), 1000u + 500'000);
  EXPECT_EQ(second.ps(), 2000u + 500'000);  // waited 1000 ps for the channel
  EXPECT_EQ(hbm.stats().queue_delay.ps(), 1000u);
  EXPECT_EQ(hbm.stats().write_bytes, 1000u);
  // A request after the channel is free does not wait.
  const Time third = hbm.access(Time::from_ps(10'000), contiguous(0, 1000), false);
  EXPECT_EQ(third.ps(), 11'000u + 500'000);
}

TEST(HbmTiming, EachChannelHasItsShareOfBandwidth) {
  // 8 channels: 1/8 byte per ps each. A 2 KiB stripe over all of them takes 256 ps x 8 = 2048 ps
  // of each channel in parallel; the same bytes on one channel take 8 times longer.
  HbmTiming spread(params(8));
  EXPECT_EQ(spread.access(Time{}, contiguous(0, 2048), false).ps(), 2048u + 500'000);
  HbmTiming narrow(params(8));
  EXPECT_EQ(narrow.access(Time{}, Region{0, 8, 256, 2048, 1}, false).ps(), 8u * 2048 + 500'000);
}

TEST(HbmTiming, NonIntegralRatesRoundUpPerRequest) {
  HbmParams p = params(3);
  HbmTiming hbm(p);  // 1/3 byte per ps per channel
  EXPECT_EQ(hbm.access(Time{}, contiguous(0, 256), false).ps(), 768u + 500'000);
}

}  // namespace
}  // namespace ridgeline
