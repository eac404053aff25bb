// The HBM timing core with the DRAM's organisation given: simple mode placing bytes by the address
// map, and detailed mode adding the fixed latency to the DRAM's timing.
#include <gtest/gtest.h>

#include "models/hbm.hpp"
#include "tests/hbm3_stack.hpp"

namespace ridgeline {
namespace {

HbmParams stack(HbmMode mode, std::string_view mapping) {
  HbmParams p;
  p.peak_bandwidth.bytes_per_second = 819'200'000'000;  // 25.6 GB/s a pseudo-channel
  p.access_latency = Time::from_ps(10'000);
  p.channels = 16;
  p.pseudo_channels = 2;
  p.interleave_bytes = 256;
  p.mode = mode;
  p.dram = test::hbm3_dram();
  p.dram->mapping = test::named_mapping(mapping);
  return p;
}

const Region kTile{0, 1, 65536, 65536, 1};  // 64 KiB from address 0

TEST(HbmModes, SimpleModeSpreadsOrConcentratesByTheMap) {
  // Interleaved: 2 KiB on each of 32 pseudo-channels, 80 ns each in parallel.
  HbmTiming spread(stack(HbmMode::simple, "bank_group_interleave"));
  EXPECT_EQ(spread.access(Time{}, kTile, false).ps(), 80'000u + 10'000);
  // Contiguous: all 64 KiB on pseudo-channel 0, 32 times longer.
  HbmTiming narrow(stack(HbmMode::simple, "channel_contiguous"));
  EXPECT_EQ(narrow.split(kTile)[0], 65536u);
  EXPECT_EQ(narrow.access(Time{}, kTile, false).ps(), 32 * 80'000u + 10'000);
  EXPECT_EQ(narrow.stats().channel_busy.ps(), 32 * 80'000u);
  EXPECT_EQ(narrow.dram(), nullptr);
}

TEST(HbmModes, DetailedModeAddsTheLatencyToTheDramTiming) {
  HbmTiming hbm(stack(HbmMode::detailed, "bank_group_interleave"));
  ASSERT_NE(hbm.dram(), nullptr);
  // The DramSystem test's first tile: data on the bus by 112.5 ns; then the 10 ns outside.
  EXPECT_EQ(hbm.access(Time{}, kTile, false).ps(), 112'500u + 10'000);
  EXPECT_EQ(hbm.stats().read_bytes, 65536u);
  EXPECT_EQ(hbm.stats().reads, 1u);
  EXPECT_EQ(hbm.stats().channel_busy, test::ns(2048 * 1.25));
  EXPECT_EQ(hbm.dram()->stats().read_bursts, 2048u);
}

}  // namespace
}  // namespace ridgeline
