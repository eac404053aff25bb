// The detailed HBM's DRAM alone: a request cut into row accesses over the pseudo-channels of one
// HBM3 stack, to the picosecond.
#include "models/dram_system.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

Time ns(double value) { return Time::from_ps(static_cast<std::uint64_t>(value * 1000 + 0.5)); }

// configs/hardware/hbm3-stack.yaml: 16 x 2 pseudo-channels of 25.6 GB/s, 8 x 4 banks, 1 KiB rows,
// 32 B bursts, 256 B interleave, bank groups alternating (bank_group_interleave).
DramParams hbm3() {
  DramParams d;
  d.bank_groups = 8;
  d.banks_per_group = 4;
  d.rows = 16384;
  d.row_bytes = 1024;
  d.burst_bytes = 32;
  d.mapping = named_address_mappings()[1].order;
  DramTimings& t = d.timing;
  t.tRCD_RD = ns(16.25);
  t.tRCD_WR = ns(8.75);
  t.tRP = ns(16.25);
  t.tRAS = ns(30);
  t.tCL = ns(16.25);
  t.tCWL = ns(5);
  t.tCCD_S = ns(1.25);
  t.tCCD_L = ns(2.5);
  t.tRRD_S = ns(5);
  t.tRRD_L = ns(5);
  t.tFAW = ns(15);
  t.tWR = ns(15);
  t.tRTP = ns(3.75);
  t.tWTR_S = ns(5);
  t.tWTR_L = ns(7.5);
  t.tRTW = ns(13.75);
  t.tREFI = ns(3900);
  t.tRFC = ns(350);
  d.refresh = false;  // for figures to the picosecond; refresh has its own tests
  return d;
}

AddressGeometry geometry() {
  AddressGeometry g;
  g.channels = 16;
  g.pseudo_channels = 2;
  g.bank_groups = 8;
  g.banks_per_group = 4;
  g.rows = 16384;
  g.row_bytes = 1024;
  g.interleave_bytes = 256;
  return g;
}

TEST(DramSystem, ATileSpreadsOverEveryPseudoChannelAndBankGroup) {
  ASSERT_EQ(named_address_mappings()[1].name, "bank_group_interleave");
  DramSystem dram(hbm3(), geometry(), Bandwidth{819'200'000'000});
  // 64 KiB from 0: each of the 32 pseudo-channels gets one 256 B granule in each bank group.
  const DramSystem::Served first = dram.access(Time{}, Region{0, 1, 65536, 65536, 1}, false);
  // On each: ACTs tRRD_S apart (5k ns), reads from 5k + 16.25 ns, 8 bursts a row access; the bus
  // carries 10 ns a row access from 16.25 ns on, so the 8th's last burst starts at
  // 16.25 + 70 + 8.75 = 95 ns, its data ends tCL + 1.25 ns later.
  EXPECT_EQ(first.data_done, ns(112.5));
  EXPECT_EQ(first.bus_busy, ns(32 * 64 * 1.25));
  EXPECT_EQ(first.queue_delay, Time{});
  const DramStats s = dram.stats();
  EXPECT_EQ(s.activations, 32u * 8);
  EXPECT_EQ(s.row_misses, 32u * 8);
  EXPECT_EQ(s.read_bursts, 2048u);

  // The next 64 KiB at the same time: rows still open (the next granule of each row), behind
  // the first on the bus.
  const DramSystem::Served second = dram.access(Time{}, Region{65536, 1, 65536, 65536, 1}, false);
  EXPECT_EQ(dram.stats().row_hits, 32u * 8);
  EXPECT_EQ(second.data_done, ns(96.25 + 70 + 8.75 + 16.25 + 1.25));
  EXPECT_EQ(second.queue_delay, ns(16.25));  // the first column waits for its ACT's tRCD
}

TEST(DramSystem, TwoDimensionalRegionsRoundOutToBursts) {
  DramSystem dram(hbm3(), geometry(), Bandwidth{819'200'000'000});
  // 4 rows of 40 B at a pitch of 8 KiB (the next bank group each): each row touches 2 bursts.
  dram.access(Time{}, Region{16, 4, 40, 8192, 1}, true);
  EXPECT_EQ(dram.stats().write_bursts, 8u);
  EXPECT_EQ(dram.stats().activations, 4u);
  // Repeated regions move their bursts again, as a kernel without reuse reads its tiles.
  dram.access(Time{}, Region{16, 4, 40, 8192, 3}, true);
  EXPECT_EQ(dram.stats().write_bursts, 8u + 24);
  EXPECT_EQ(dram.stats().row_hits, 12u);
}

}  // namespace
}  // namespace ridgeline
