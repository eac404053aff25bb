// One DRAM pseudo-channel's timing core alone: issue row accesses at given times and check when
// each command could go and when the data is done, to the picosecond, against the timing rules.
#include "models/dram_channel.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

Time ps(std::uint64_t value) { return Time::from_ps(value); }

// 2 bank groups of 4 banks; a 32 B burst takes 1 ns (32 GB/s); timings distinct enough that each
// expected figure names the rule that set it.
DramChannelParams params(bool refresh = false) {
  DramChannelParams p;
  p.bank_groups = 2;
  p.banks_per_group = 4;
  p.burst_bytes = 32;
  p.data_rate = TransferRate(Bandwidth{32'000'000'000}, 1);
  DramTimings& t = p.timing;
  t.tRCD_RD = ps(10'000);
  t.tRCD_WR = ps(6'000);
  t.tRP = ps(8'000);
  t.tRAS = ps(20'000);
  t.tCL = ps(12'000);
  t.tCWL = ps(4'000);
  t.tCCD_S = ps(1'000);
  t.tCCD_L = ps(2'000);
  t.tRRD_S = ps(3'000);
  t.tRRD_L = ps(5'000);
  t.tFAW = ps(20'000);
  t.tWR = ps(7'000);
  t.tRTP = ps(2'500);
  t.tWTR_S = ps(3'500);
  t.tWTR_L = ps(6'500);
  t.tRTW = ps(9'000);
  t.tREFI = ps(1'000'000);
  t.tRFC = ps(100'000);
  p.refresh = refresh;
  p.first_refresh = ps(1'000'000);
  p.controller.scheduler = DramScheduler::fcfs;  // the controller's own tests ask for fr_fcfs
  return p;
}

RowAccess read(std::uint32_t bank, std::uint64_t row, std::uint64_t bursts) {
  return RowAccess{bank, row, bursts, false};
}
RowAccess write(std::uint32_t bank, std::uint64_t row, std::uint64_t bursts) {
  return RowAccess{bank, row, bursts, true};
}

TEST(DramChannel, MissActivatesThenBurstsTccdLApart) {
  DramChannel dram(params());
  const RowAccessTiming t = dram.access(ps(1'000), read(0, 7, 4));
  EXPECT_EQ(t.outcome, RowOutcome::miss);
  EXPECT_EQ(t.first_command.ps(), 1'000u);  // ACT on arrival
  EXPECT_EQ(t.first_column.ps(), 11'000u);  // + tRCD_RD
  EXPECT_EQ(t.last_column.ps(), 17'000u);   // 3 x tCCD_L later: one bank group
  EXPECT_EQ(t.data_done.ps(), 30'000u);     // + tCL + one burst
  EXPECT_TRUE(dram.row_open(0, 7));
  EXPECT_EQ(dram.stats().activations, 1u);
  EXPECT_EQ(dram.stats().read_bursts, 4u);
  EXPECT_EQ(dram.stats().bus_busy.ps(), 4'000u);
}

TEST(DramChannel, HitSkipsTheActivationButWaitsForItsBankGroup) {
  DramChannel dram(params());
  dram.access(ps(1'000), read(0, 7, 4));
  const RowAccessTiming t = dram.access(ps(1'000), read(0, 7, 2));
  EXPECT_EQ(t.outcome, RowOutcome::hit);
  EXPECT_EQ(t.last_column.ps(), 21'000u);  // group free at 17000 + tCCD_L; then one tCCD_L
  EXPECT_EQ(t.data_done.ps(), 34'000u);
  EXPECT_EQ(dram.stats().row_hits, 1u);
  EXPECT_EQ(dram.stats().activations, 1u);
}

TEST(DramChannel, DifferentBankGroupsInterleaveOnTheBus) {
  // Two misses of 4 bursts at t = 0, to bank groups 0 and 1: ACTs tRRD_S apart, bursts share the
  // bus. The same in one bank group: ACTs tRRD_L apart and the bursts wait for tCCD_L.
  DramChannel spread(params());
  EXPECT_EQ(spread.access(ps(0), read(0, 1, 4)).data_done.ps(), 29'000u);
  const RowAccessTiming other_group = spread.access(ps(0), read(4, 1, 4));
  EXPECT_EQ(other_group.first_command.ps(), 3'000u);  // tRRD_S
  EXPECT_EQ(other_group.last_column.ps(), 19'000u);   // 13000 + 3 tCCD_L; the bus had room
  EXPECT_EQ(other_group.data_done.ps(), 32'000u);

  DramChannel same(params());
  same.access(ps(0), read(0, 1, 4));
  const RowAccessTiming same_group = same.access(ps(0), read(1, 1, 4));
  EXPECT_EQ(same_group.first_command.ps(), 5'000u);  // tRRD_L
  EXPECT_EQ(same_group.last_column.ps(), 24'000u);   // after bank 0's bursts + tCCD_L
  EXPECT_EQ(same_group.data_done.ps(), 37'000u);
}

TEST(DramChannel, BankGroupSpacingHoldsWhenTheBusIsBacklogged) {
  // A long access of bank group 1 backlogs the bus; bank group 0's next accesses are delayed by
  // the bus, and the one after must still go tCCD_L after their last column, not tCCD_S.
  DramChannel dram(params());
  dram.access(ps(0), read(4, 1, 1));                                       // g1: ACT 0, column 10
  EXPECT_EQ(dram.access(ps(0), read(0, 1, 1)).last_column.ps(), 13'000u);  // g0: ACT 3 (tRRD_S)
  // g1, 16 bursts: group from 12 (tCCD_L after 10), bus from 14 for 16 ns; last = 12 + 15 x 2.
  EXPECT_EQ(dram.access(ps(0), read(4, 1, 16)).last_column.ps(), 42'000u);
  // g0, 2 bursts: the group is free at 15 but the bus only at 30: last = 30 + 1 (bus time).
  EXPECT_EQ(dram.access(ps(0), read(0, 1, 2)).last_column.ps(), 31'000u);
  // g0 again: the bus is free at 32, the group only tCCD_L after 31.
  const RowAccessTiming t = dram.access(ps(0), read(0, 1, 1));
  EXPECT_EQ(t.last_column.ps(), 33'000u);
  EXPECT_EQ(t.data_done.ps(), 46'000u);  // + tCL + one burst
}

TEST(DramChannel, FifthActivationWaitsForTheFourActivationWindow) {
  DramChannel dram(params());
  const std::uint32_t banks[] = {0, 4, 1, 5, 2};  // alternate groups: tRRD_S, tRRD_L both met
  const std::uint64_t expected_act[] = {0, 3'000, 6'000, 9'000, 20'000};  // the fifth: tFAW
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(dram.access(ps(0), read(banks[i], 1, 1)).first_command.ps(), expected_act[i]) << i;
  }
}

TEST(DramChannel, ConflictPrechargesAfterTrasThenActivates) {
  DramChannel dram(params());
  dram.access(ps(0), read(0, 1, 1));  // ACT at 0
  const RowAccessTiming t = dram.access(ps(0), read(0, 2, 1));
  EXPECT_EQ(t.outcome, RowOutcome::conflict);
  EXPECT_EQ(t.first_command.ps(), 20'000u);  // PRE at tRAS
  EXPECT_EQ(t.first_column.ps(), 38'000u);   // + tRP + tRCD_RD
  EXPECT_EQ(t.data_done.ps(), 51'000u);
  EXPECT_EQ(dram.stats().precharges, 1u);
  EXPECT_EQ(dram.stats().row_conflicts, 1u);
}

TEST(DramChannel, WriteRecoveryDelaysThePrecharge) {
  DramChannel dram(params());
  const RowAccessTiming w = dram.access(ps(0), write(0, 1, 8));
  EXPECT_EQ(w.first_column.ps(), 6'000u);  // tRCD_WR
  EXPECT_EQ(w.last_column.ps(), 20'000u);
  EXPECT_EQ(w.data_done.ps(), 25'000u);  // + tCWL + one burst
  const RowAccessTiming r = dram.access(ps(0), read(0, 2, 1));
  EXPECT_EQ(r.first_command.ps(), 32'000u);  // write data end + tWR, after tRAS
}

TEST(DramChannel, ReadAfterWriteWaitsTwtrLongerInTheSameGroup) {
  DramChannel same(params());
  same.access(ps(0), write(0, 0, 1));  // write data ends at 11000
  EXPECT_EQ(same.access(ps(0), read(0, 0, 1)).first_column.ps(), 17'500u);  // + tWTR_L
  DramChannel other(params());
  other.access(ps(0), write(0, 0, 1));
  EXPECT_EQ(other.access(ps(0), read(4, 0, 1)).first_column.ps(), 14'500u);  // + tWTR_S
  EXPECT_EQ(other.stats().turnarounds, 1u);
}

TEST(DramChannel, WriteAfterReadWaitsTrtw) {
  DramChannel dram(params());
  dram.access(ps(0), read(0, 0, 1));  // READ at 10000
  EXPECT_EQ(dram.access(ps(0), write(4, 0, 1)).first_column.ps(), 19'000u);
}

TEST(DramChannel, RefreshClosesRowsAndBlocksTheBanksForTrfc) {
  DramChannel dram(params(true));
  dram.access(ps(0), read(0, 0, 1));
  const RowAccessTiming t = dram.access(ps(1'000'000), read(0, 0, 1));
  EXPECT_EQ(t.outcome, RowOutcome::miss);       // the refresh closed the row
  EXPECT_EQ(t.first_command.ps(), 1'100'000u);  // ACT after tRFC
  EXPECT_EQ(t.data_done.ps(), 1'123'000u);
  EXPECT_EQ(dram.stats().refreshes, 1u);
  EXPECT_EQ(dram.stats().precharges, 1u);  // bank 0 closed for the refresh
  EXPECT_EQ(dram.next_refresh().ps(), 2'000'000u);

  // Idle for nine more intervals: every refresh on schedule, counted without a step each.
  const RowAccessTiming later = dram.access(ps(10'500'000), read(0, 0, 1));
  EXPECT_EQ(dram.stats().refreshes, 10u);
  EXPECT_EQ(dram.stats().refresh_busy.ps(), 10u * 100'000);
  EXPECT_EQ(later.first_command.ps(), 10'500'000u);
  EXPECT_EQ(dram.next_refresh().ps(), 11'000'000u);
}

TEST(DramChannel, RefreshDueDuringWorkIsTakenAfterIt) {
  DramChannel dram(params(true));
  // Work that runs past the refresh time: the refresh is postponed until the banks can close.
  dram.access(ps(990'000), read(0, 0, 16));  // ACT 990000, bursts to 1030000
  const RowAccessTiming t = dram.access(ps(995'000), read(0, 0, 1));
  EXPECT_EQ(t.outcome, RowOutcome::miss);
  // PRE when tRAS and tRTP allow: last burst 1030000 + 2500; + tRP; refresh tRFC; ACT.
  EXPECT_EQ(t.first_command.ps(), 1'032'500u + 8'000 + 100'000);
}

TEST(DramChannel, PerBankRefreshTakesOneBankAndLeavesTheOthers) {
  // 8 banks: one refresh every tREFI / 8 = 125 ns from 1 us, bank 0 first, busy tRFCpb = 50 ns.
  DramChannelParams p = params(true);
  p.controller.refresh = RefreshPolicy::per_bank;
  p.timing.tRFCpb = ps(50'000);
  DramChannel dram(p);
  dram.access(ps(0), read(0, 1, 1));  // row 1 of bank 0 open; its PRE allowed from 20 (tRAS)
  // Bank 1 is not refreshing: ACT on arrival, column tRCD later.
  EXPECT_EQ(dram.access(ps(1'001'000), read(1, 1, 1)).first_column.ps(), 1'011'000u);
  // Bank 0 was closed by its refresh at 1 us and is busy until 1.05 us.
  const RowAccessTiming t = dram.access(ps(1'001'000), read(0, 1, 1));
  EXPECT_EQ(t.outcome, RowOutcome::miss);
  EXPECT_EQ(t.first_command.ps(), 1'050'000u);
  EXPECT_EQ(t.first_column.ps(), 1'060'000u);
  EXPECT_EQ(dram.stats().refreshes, 1u);
  EXPECT_EQ(dram.stats().refresh_busy.ps(), 50'000u / 8);  // in pseudo-channel time
  // Idle for 10 us: every bank refreshed once a tREFI, 8 a microsecond.
  dram.access(ps(11'000'000), read(2, 1, 1));
  EXPECT_EQ(dram.stats().refreshes, 1u + 10 * 8);
}

TEST(DramChannel, AColumnToAnotherStackIdWaitsTccdR) {
  // Banks 0 and 4 are in bank groups 0 and 1: one stack ID, or stack IDs 0 and 1 of two. Their
  // rows opened, two hits at once: the second burst follows the first on the bus (tCCD_S = the
  // 1 ns burst), or tCCD_R = 4 ns after it on the other stack ID.
  for (const std::uint32_t stack_ids : {1u, 2u}) {
    DramChannelParams p = params();
    p.stack_ids = stack_ids;
    p.timing.tCCD_R = ps(4'000);
    DramChannel dram(p);
    dram.access(ps(0), read(0, 1, 1));
    dram.access(ps(0), read(4, 1, 1));
    EXPECT_EQ(dram.access(ps(100'000), read(0, 1, 1)).last_column.ps(), 100'000u);
    const RowAccessTiming t = dram.access(ps(100'000), read(4, 1, 1));
    EXPECT_EQ(t.outcome, RowOutcome::hit);
    EXPECT_EQ(t.last_column.ps(), stack_ids == 1 ? 101'000u : 104'000u) << stack_ids;
    EXPECT_EQ(t.data_done.ps(), stack_ids == 1 ? 114'000u : 117'000u) << stack_ids;
  }
}

TEST(DramChannel, WithoutRefreshTheRowStaysOpen) {
  DramChannel dram(params(false));
  dram.access(ps(0), read(0, 0, 1));
  EXPECT_EQ(dram.access(ps(5'000'000), read(0, 0, 1)).outcome, RowOutcome::hit);
  EXPECT_EQ(dram.stats().refreshes, 0u);
}

// ------------------------------------------------------------------ the controller (fr_fcfs)

RowAccess write_at(std::uint32_t bank, std::uint64_t row, std::uint64_t column) {
  RowAccess a = write(bank, row, 1);
  a.column = column;
  return a;
}

DramChannelParams fr_fcfs(std::uint32_t read_depth = 32, std::uint32_t write_depth = 8,
                          std::uint32_t high = 6, std::uint32_t low = 2) {
  DramChannelParams p = params();
  p.controller.scheduler = DramScheduler::fr_fcfs;
  p.controller.read_queue_depth = read_depth;
  p.controller.write_queue_depth = write_depth;
  p.controller.write_high_watermark = high;
  p.controller.write_low_watermark = low;
  return p;
}

TEST(DramController, WritesArePostedAndDrainedInBatchesAtTheHighWatermark) {
  DramChannel dram(fr_fcfs());
  for (std::uint32_t i = 0; i < 5; ++i) {
    const RowAccessTiming t = dram.access(ps(0), write(i % 8, 3, 1));
    EXPECT_TRUE(t.queued);
    EXPECT_EQ(t.accepted.ps(), 0u);
  }
  EXPECT_EQ(dram.stats().write_bursts, 0u);  // all five still queued
  dram.access(ps(0), write(5, 3, 1));        // the sixth reaches the high watermark
  EXPECT_EQ(dram.stats().write_batches, 1u);
  EXPECT_EQ(dram.stats().batched_writes, 4u);  // down to the low watermark, 2
  EXPECT_EQ(dram.stats().write_bursts, 4u);
  EXPECT_EQ(dram.queued_writes(), 2u);
}

TEST(DramController, AReadCoveredByAQueuedWriteIsServedFromIt) {
  DramChannel dram(fr_fcfs());
  RowAccess w = write(2, 9, 2);
  w.column = 64;
  dram.access(ps(0), w);
  RowAccess r = read(2, 9, 1);
  r.column = 96;  // the write's second burst; at once (later, with nothing to read, it drains)
  const RowAccessTiming t = dram.access(ps(0), r);
  EXPECT_TRUE(t.queued);
  EXPECT_EQ(t.data_done.ps(), 0u);
  EXPECT_EQ(dram.stats().forwarded, 1u);
  EXPECT_EQ(dram.stats().activations, 0u);
  r.column = 128;  // past the write: the DRAM serves it
  EXPECT_FALSE(dram.access(ps(0), r).queued);
  // A request later: the write queue drained meanwhile (nothing to read), one batch.
  dram.access(ps(100'000), read(5, 1, 1));
  EXPECT_EQ(dram.stats().write_batches, 1u);
  EXPECT_EQ(dram.queued_writes(), 0u);
}

TEST(DramController, AReadyAccessTakesTheBusGapAnOlderOneLeft) {
  // Bank 0: row 1 read at 10 (ACT 0), then row 2: PRE at tRAS (20), ACT 28, column 38. A read of
  // bank 4 (the other group) activated at 8 is ready at 18: fr_fcfs puts it in the bus gap
  // before 38; fcfs behind the conflict.
  for (bool reorder : {false, true}) {
    DramChannel dram(reorder ? fr_fcfs() : params());
    dram.access(ps(0), read(0, 1, 1));
    EXPECT_EQ(dram.access(ps(0), read(0, 2, 1)).first_column.ps(), 38'000u);
    const RowAccessTiming t = dram.access(ps(0), read(4, 1, 1));
    EXPECT_EQ(t.first_command.ps(), 8'000u) << reorder;
    EXPECT_EQ(t.last_column.ps(), reorder ? 18'000u : 39'000u) << reorder;
    EXPECT_EQ(t.data_done.ps(), reorder ? 31'000u : 52'000u) << reorder;
    EXPECT_EQ(dram.stats().ready_first, reorder ? 1u : 0u);
  }
}

TEST(DramController, ARowHitGoesBeforeThePrechargeOfAnOlderConflict) {
  // Row 1 of bank 0 is open until the conflict's PRE at 20: a later read of row 1 fits before it
  // (column 12: the group is free after 10 + tCCD_L; 12 + tRTP <= 20). fcfs makes it a conflict
  // after row 2: PRE at row 2's ACT (28) + tRAS, ACT at 56, column 66.
  for (bool reorder : {false, true}) {
    DramChannel dram(reorder ? fr_fcfs() : params());
    dram.access(ps(0), read(0, 1, 1));
    dram.access(ps(0), read(0, 2, 1));
    const RowAccessTiming t = dram.access(ps(0), read(0, 1, 1));
    EXPECT_EQ(t.outcome, reorder ? RowOutcome::hit : RowOutcome::conflict) << reorder;
    EXPECT_EQ(t.last_column.ps(), reorder ? 12'000u : 66'000u) << reorder;
    EXPECT_EQ(t.data_done.ps(), reorder ? 25'000u : 79'000u) << reorder;
    EXPECT_EQ(dram.stats().row_hit_first, reorder ? 1u : 0u);
  }
}

TEST(DramController, AFullReadQueueHoldsTheNextReadUntilTheOldestIssues) {
  DramChannel dram(fr_fcfs(2));
  EXPECT_EQ(dram.access(ps(0), read(0, 1, 1)).first_column.ps(), 10'000u);  // ACT 0
  EXPECT_EQ(dram.access(ps(0), read(4, 1, 1)).first_column.ps(), 13'000u);  // ACT 3
  const RowAccessTiming t = dram.access(ps(0), read(1, 1, 1));
  EXPECT_EQ(t.accepted.ps(), 10'000u);       // two queued: room when the first issues
  EXPECT_EQ(t.first_command.ps(), 10'000u);  // its ACT (tRRD_L after 0 was 5) from then on
  EXPECT_EQ(dram.stats().queue_full_waits, 1u);
  EXPECT_EQ(dram.stats().queue_full_time.ps(), 10'000u);
}

TEST(DramController, TransactionQueueUnitsCountEveryBurst) {
  // A read of two bursts takes one entry of a two-entry queue as a request, both as transactions:
  // then the next read waits until it issues (its first column, tRCD_RD after its ACT).
  for (const QueueUnit unit : {QueueUnit::request, QueueUnit::transaction}) {
    DramChannelParams p = fr_fcfs(2);
    p.controller.queue_unit = unit;
    DramChannel dram(p);
    EXPECT_EQ(dram.access(ps(0), read(0, 1, 2)).first_column.ps(), 10'000u);
    const bool bursts = unit == QueueUnit::transaction;
    EXPECT_EQ(dram.access(ps(0), read(4, 1, 1)).accepted.ps(), bursts ? 10'000u : 0u);
    EXPECT_EQ(dram.stats().queue_full_waits, bursts ? 1u : 0u);
  }
}

TEST(DramController, ActivationReleaseFreesTheOpeningTransactionAtItsAct) {
  // A two-burst read of bank 0 (ACT 0, columns from 10) fills a two-entry transaction queue.
  // Released at the column, the next read waits until 10. Released at the activation, the burst
  // that opened the row leaves at its ACT (0), so a read of bank 4 enters at once (ACT 3, tRRD_S
  // after 0); a third read (sent once the second was taken, as an in-order front end sends) then
  // waits for the earliest of what is left: that read's ACT (3).
  for (const ReadRelease release : {ReadRelease::column, ReadRelease::activation}) {
    DramChannelParams p = fr_fcfs(2);
    p.controller.queue_unit = QueueUnit::transaction;
    p.controller.read_release = release;
    DramChannel dram(p);
    const RowAccessTiming first = dram.access(ps(0), read(0, 1, 2));
    EXPECT_EQ(first.activation.ps(), 0u);
    EXPECT_EQ(first.first_column.ps(), 10'000u);
    const bool at_act = release == ReadRelease::activation;
    const RowAccessTiming second = dram.access(ps(0), read(4, 1, 1));
    EXPECT_EQ(second.accepted.ps(), at_act ? 0u : 10'000u);
    EXPECT_EQ(second.activation.ps(), at_act ? 3'000u : 10'000u);
    const RowAccessTiming third = dram.access(second.accepted, read(1, 1, 1));
    EXPECT_EQ(third.accepted.ps(), at_act ? 3'000u : 10'000u);
    EXPECT_EQ(dram.stats().queue_full_waits, 1u);
  }
}

TEST(DramController, MixedReadsAndWritesPayTurnaroundsPerBatch) {
  // Reads of bank 0 and writes of bank 4 in turn, 100 each: fcfs switches 199 times; fr_fcfs
  // once a batch each way.
  std::uint64_t turnarounds[2];
  for (int reorder = 0; reorder < 2; ++reorder) {
    DramChannel dram(reorder ? fr_fcfs(32, 32, 25, 6) : params());
    for (std::uint64_t i = 0; i < 100; ++i) {
      dram.access(ps(i * 2'000), read(0, 1 + i / 32, 1));
      dram.access(ps(i * 2'000 + 1'000), write_at(4, 1 + i / 32, i % 32 * 32));
    }
    turnarounds[reorder] = dram.stats().turnarounds;
    if (reorder) {
      EXPECT_EQ(dram.stats().turnarounds, 2 * dram.stats().write_batches);
    }
  }
  EXPECT_EQ(turnarounds[0], 199u);
  EXPECT_LE(turnarounds[1], 20u);
}

TEST(DramController, ClosedPagePrechargesWhenNothingWaitsForTheRow) {
  for (PagePolicy policy : {PagePolicy::open, PagePolicy::closed}) {
    DramChannelParams p = fr_fcfs();
    p.controller.page_policy = policy;
    DramChannel dram(p);
    dram.access(ps(0), read(0, 1, 1));  // PRE allowed from 20 (tRAS)
    // Arriving before that, the same row is still a hit under both policies.
    EXPECT_EQ(dram.access(ps(15'000), read(0, 1, 1)).outcome, RowOutcome::hit);
    const RowAccessTiming later = dram.access(ps(100'000), read(0, 1, 1));
    EXPECT_EQ(later.outcome, policy == PagePolicy::closed ? RowOutcome::miss : RowOutcome::hit);
    // Another row: open page pays the precharge now, closed page did it long ago.
    const RowAccessTiming other = dram.access(ps(200'000), read(0, 2, 1));
    EXPECT_EQ(other.outcome,
              policy == PagePolicy::closed ? RowOutcome::miss : RowOutcome::conflict);
    // closed: ACT at once, tRCD; open: PRE, tRP, ACT, tRCD.
    EXPECT_EQ(other.first_column.ps(), policy == PagePolicy::closed ? 210'000u : 218'000u);
  }
}

TEST(DramController, TheStarvationCapLetsTheOldestWriteGo) {
  // Bank 0 has row 1 open; queued: a write to row 2 (oldest), then hits to row 1. With a cap of
  // 2, two hits pass it, then it goes.
  DramChannelParams p = fr_fcfs(32, 8, 6, 0);
  p.controller.starvation_cap = 2;
  DramChannel dram(p);
  dram.access(ps(0), read(0, 1, 1));
  dram.access(ps(0), write(0, 2, 1));
  for (std::uint64_t i = 0; i < 5; ++i) dram.access(ps(0), write_at(0, 1, 32 * i));
  EXPECT_EQ(dram.stats().write_batches, 1u);
  EXPECT_EQ(dram.stats().starvation_cap_hits, 1u);
  EXPECT_EQ(dram.stats().row_conflicts, 2u);  // row 2 after two hits, back to row 1 after it
}

TEST(DramController, WithNoRowHitTheWriteWhoseBankIsReadyDrainsFirst) {
  // Bank 0 has row 1 open (its read: ACT 0, PRE allowed from tRAS = 20). Queued: a write to its
  // row 2 (oldest: PRE 20, ACT 28, WRITE from 34), then writes to closed banks 4 and 5 (WRITE
  // from tRCD_WR = 6). The third reaches the watermark: the closed banks drain first, in age
  // order, then the conflict.
  DramChannel dram(fr_fcfs(32, 8, 3, 0));
  dram.keep_drained(true);
  dram.access(ps(0), read(0, 1, 1));
  dram.access(ps(0), write(0, 2, 1));
  dram.access(ps(0), write(4, 1, 1));
  dram.access(ps(0), write(5, 1, 1));
  const std::vector<DramChannel::Drained>& drained = dram.drained();
  ASSERT_EQ(drained.size(), 3u);
  EXPECT_EQ(drained[0].access.bank, 4u);
  EXPECT_EQ(drained[1].access.bank, 5u);
  EXPECT_EQ(drained[2].access.bank, 0u);
  EXPECT_EQ(drained[2].timing.outcome, RowOutcome::conflict);
  EXPECT_EQ(drained[2].timing.first_command.ps(), 20'000u);  // PRE at tRAS
  EXPECT_EQ(dram.stats().starvation_cap_hits, 0u);
}

TEST(DramController, FinishDrainsTheWritesStillQueued) {
  // Three writes below the watermark, nothing to read: at the end the controller writes them,
  // banks 0, 1, 2 of one group: ACT 0, 5, 10 (tRRD_L), WRITE + tRCD_WR, data + tCWL + a burst.
  DramChannel dram(fr_fcfs());
  for (std::uint32_t bank = 0; bank < 3; ++bank) dram.access(ps(0), write(bank, 1, 1));
  EXPECT_EQ(dram.stats().write_bursts, 0u);
  EXPECT_EQ(dram.finish().ps(), 10'000u + 6'000 + 4'000 + 1'000);
  EXPECT_EQ(dram.queued_writes(), 0u);
  EXPECT_EQ(dram.stats().write_bursts, 3u);
  EXPECT_EQ(dram.stats().write_batches, 1u);
}

}  // namespace
}  // namespace ridgeline
