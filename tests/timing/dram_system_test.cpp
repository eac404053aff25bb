// The detailed HBM's DRAM alone: a request cut into row accesses over the pseudo-channels of one
// HBM3 stack, to the picosecond.
#include "models/dram_system.hpp"

#include <gtest/gtest.h>

#include "tests/hbm3_stack.hpp"

namespace ridgeline {
namespace {

using test::ns;

// Refresh off: figures to the picosecond (refresh has its own tests).
DramSystem stack() {
  return DramSystem(test::hbm3_dram(), test::hbm3_geometry(), Bandwidth{819'200'000'000});
}

TEST(DramSystem, ATileSpreadsOverEveryPseudoChannelAndBankGroup) {
  DramSystem dram = stack();
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
  DramSystem dram = stack();
  // 4 rows of 40 B at a pitch of 8 KiB (the next bank group each): each row touches 2 bursts.
  const DramSystem::Served served = dram.access(Time{}, Region{16, 4, 40, 8192, 1}, true);
  EXPECT_EQ(dram.stats().write_bursts, 8u);
  // The bus carries, and is timed for, whole bursts: 8 x 32 B for the 160 B asked.
  EXPECT_EQ(dram.stats().bus_bytes, 256u);
  EXPECT_EQ(served.bus_busy, ns(8 * 1.25));
  EXPECT_EQ(dram.stats().activations, 4u);
  // Repeated regions move their bursts again, as a kernel without reuse reads its tiles.
  dram.access(Time{}, Region{16, 4, 40, 8192, 3}, true);
  EXPECT_EQ(dram.stats().write_bursts, 8u + 24);
  EXPECT_EQ(dram.stats().row_hits, 12u);
}

}  // namespace
}  // namespace ridgeline
