// The L2 timing core alone, over a memory that records what it is asked: hits and misses, LRU,
// associativity, write policies, fills merged while in flight, and the shape of HBM requests.
#include "models/l2_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

namespace ridgeline {
namespace {

// Memory below the cache: 1 byte/ps after a fixed latency, every request recorded.
struct RecordingMemory : MemoryBelow {
  struct Request {
    Time at;
    Region region;
    bool is_write;
  };
  Time access(Time now, const Region& region, bool is_write) override {
    requests.push_back(Request{now, region, is_write});
    return now + kLatency + Time::from_ps(region.bytes());
  }
  static constexpr Time kLatency = Time::from_ps(1000);
  std::vector<Request> requests;
};

constexpr std::uint64_t kLine = 128;
constexpr Time kHitLatency = Time::from_ps(100);

// A cache of `sets` x `ways` lines of 128 B; its port moves 1 byte/ps. Line n goes to set
// n % sets unless the index is folded.
L2CacheParams cache(std::uint64_t sets, std::uint32_t ways,
                    L2WritePolicy policy = L2WritePolicy::write_back,
                    L2SetIndex index = L2SetIndex::modulo) {
  L2CacheParams p;
  p.capacity_bytes = sets * ways * kLine;
  p.line_bytes = kLine;
  p.associativity = ways;
  p.bandwidth.bytes_per_second = 1'000'000'000'000;
  p.hit_latency = kHitLatency;
  p.write_policy = policy;
  p.set_index = index;
  return p;
}

Region contiguous(std::uint64_t base, std::uint64_t bytes) {
  return Region{base, 1, bytes, bytes, 1};
}
Time at(std::uint64_t ps) { return Time::from_ps(ps); }

void expect_region(const Region& actual, const Region& expected) {
  EXPECT_EQ(actual.base, expected.base);
  EXPECT_EQ(actual.rows, expected.rows);
  EXPECT_EQ(actual.row_bytes, expected.row_bytes);
  if (expected.rows > 1) {
    EXPECT_EQ(actual.pitch_bytes, expected.pitch_bytes);
  }
  EXPECT_EQ(actual.repeat, expected.repeat);
}

// Two rows of two lines, 4 KiB apart: lines 0, 1, 32, 33.
const Region kTile{0, 2, 256, 4096, 1};

TEST(L2CacheTiming, MissFetchesTheTileOnceThenHits) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(16, 2), memory);
  // Port: 512 B in 512 ps. Fill: one 2-D request, data at 1000 + 512. The later path wins.
  EXPECT_EQ(l2.access(at(0), kTile, false).ps(), 1512u);
  ASSERT_EQ(memory.requests.size(), 1u);
  expect_region(memory.requests[0].region, kTile);
  EXPECT_FALSE(memory.requests[0].is_write);
  EXPECT_EQ(l2.stats().miss_lines, 4u);
  EXPECT_EQ(l2.stats().miss_bytes, 512u);
  EXPECT_EQ(l2.stats().fill_requests, 1u);
  EXPECT_EQ(l2.stats().fill_bytes, 512u);

  // Later, every line is there: the port and the hit latency alone.
  EXPECT_EQ(l2.access(at(2000), kTile, false).ps(), 2000u + 512 + 100);
  EXPECT_EQ(memory.requests.size(), 1u);
  EXPECT_EQ(l2.stats().hit_lines, 4u);
  EXPECT_EQ(l2.stats().hit_bytes, 512u);
  EXPECT_EQ(l2.stats().read_bytes, 1024u);
  EXPECT_EQ(l2.stats().read_requests, 2u);
  EXPECT_EQ(l2.stats().port_busy.ps(), 1024u);
}

TEST(L2CacheTiming, ARequestForALineBeingFilledWaitsForThatFill) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(16, 2), memory);
  EXPECT_EQ(l2.access(at(0), kTile, false).ps(), 1512u);
  // At 100 ps the fill is on its way: no second fetch; the port is busy until 512, so its path
  // ends at 512 + 512 + 100 = 1124, and the data arrives at 1512.
  EXPECT_EQ(l2.access(at(100), kTile, false).ps(), 1512u);
  EXPECT_EQ(memory.requests.size(), 1u);
  EXPECT_EQ(l2.stats().pending_hit_lines, 4u);
  EXPECT_EQ(l2.stats().pending_hit_bytes, 512u);
  EXPECT_EQ(l2.stats().hit_lines, 0u);
  EXPECT_EQ(l2.stats().fill_bytes, 512u);
  EXPECT_EQ(l2.stats().port_queue_delay.ps(), 412u);
  // Once it has arrived the lines are plain hits.
  EXPECT_EQ(l2.access(at(1512), kTile, false).ps(), 1512u + 512 + 100);
  EXPECT_EQ(l2.stats().hit_lines, 4u);
}

TEST(L2CacheTiming, LeastRecentlyUsedLineIsReplaced) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(2, 2), memory);  // lines 0, 2, 4 (bytes 0, 256, 512) share set 0
  l2.access(at(0), contiguous(0, kLine), false);
  l2.access(at(10'000), contiguous(256, kLine), false);
  l2.access(at(20'000), contiguous(0, kLine), false);  // line 0 becomes the most recent
  l2.access(at(30'000), contiguous(512, kLine), false);
  EXPECT_TRUE(l2.contains(0));
  EXPECT_FALSE(l2.contains(256));
  EXPECT_TRUE(l2.contains(512));
  EXPECT_EQ(l2.stats().evictions, 1u);
  EXPECT_EQ(l2.stats().hit_lines, 1u);
  EXPECT_EQ(l2.stats().miss_lines, 3u);
  // Now line 0 is the least recent of set 0.
  l2.access(at(40'000), contiguous(256, kLine), false);
  EXPECT_FALSE(l2.contains(0));
  EXPECT_TRUE(l2.contains(512));
  // Set 1 was never touched: a line there evicts nothing.
  l2.access(at(50'000), contiguous(128, kLine), false);
  EXPECT_EQ(l2.stats().evictions, 2u);
}

TEST(L2CacheTiming, LinesOfOneSetConflictWhenWaysRunOut) {
  // 512 B either way: direct-mapped (4 sets x 1 way) or 2-way (2 sets x 2 ways). Bytes 0 and 512
  // fall in set 0 of both.
  for (const std::uint32_t ways : {1u, 2u}) {
    RecordingMemory memory;
    L2CacheTiming l2(cache(4 / ways, ways), memory);
    for (std::uint64_t i = 0; i < 4; ++i) {
      l2.access(at(i * 10'000), contiguous(i % 2 == 0 ? 0 : 512, kLine), false);
    }
    if (ways == 1) {
      EXPECT_EQ(l2.stats().miss_lines, 4u);  // each evicts the other
      EXPECT_EQ(l2.stats().evictions, 3u);
    } else {
      EXPECT_EQ(l2.stats().miss_lines, 2u);
      EXPECT_EQ(l2.stats().hit_lines, 2u);
      EXPECT_EQ(l2.stats().evictions, 0u);
    }
    EXPECT_EQ(l2.stats().fill_bytes, l2.stats().miss_lines * kLine);
  }
}

TEST(L2CacheTiming, WriteBackAllocatesDirtyLinesAndWritesThemBackWhenEvicted) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(4, 1), memory);
  // A whole-line store needs nothing from HBM: port and hit latency only.
  EXPECT_EQ(l2.access(at(0), contiguous(0, kLine), true).ps(), 128u + 100);
  EXPECT_TRUE(memory.requests.empty());
  EXPECT_TRUE(l2.is_dirty(0));
  EXPECT_EQ(l2.stats().miss_lines, 1u);
  EXPECT_EQ(l2.stats().write_bytes, kLine);

  // A load of byte 512 (set 0) evicts it: the fill, then the write-back of line 0.
  l2.access(at(10'000), contiguous(512, kLine), false);
  ASSERT_EQ(memory.requests.size(), 2u);
  EXPECT_FALSE(memory.requests[0].is_write);
  expect_region(memory.requests[0].region, contiguous(512, kLine));
  EXPECT_TRUE(memory.requests[1].is_write);
  expect_region(memory.requests[1].region, contiguous(0, kLine));
  EXPECT_EQ(l2.stats().writeback_requests, 1u);
  EXPECT_EQ(l2.stats().writeback_bytes, kLine);
  EXPECT_FALSE(l2.is_dirty(512));

  // A store of part of a line fetches the rest (write-allocate) and waits for it; a clean line
  // evicted on the way costs no write-back.
  EXPECT_EQ(l2.access(at(20'000), contiguous(1024, 64), true).ps(), 20'000u + 1000 + 128);
  ASSERT_EQ(memory.requests.size(), 3u);
  expect_region(memory.requests[2].region, contiguous(1024, kLine));
  EXPECT_TRUE(l2.is_dirty(1024));
  EXPECT_EQ(l2.stats().writeback_bytes, kLine);
  EXPECT_EQ(l2.stats().hbm_read_bytes(), 2 * kLine);
}

// The cache above with 32 B sectors, four a line, as NVIDIA's L2 keeps them.
L2CacheParams sectored(std::uint64_t sets, std::uint32_t ways) {
  L2CacheParams p = cache(sets, ways);
  p.sector_bytes = 32;
  return p;
}

TEST(L2CacheTiming, ASectoredLoadFetchesOnlyTheSectorsItTouchesThatAreMissing) {
  RecordingMemory memory;
  L2CacheTiming l2(sectored(16, 2), memory);
  // Bytes 40..95 touch sectors 1 and 2 of line 0: one 64 B fill, data at 1000 + 64.
  EXPECT_EQ(l2.access(at(0), contiguous(40, 56), false).ps(), 1064u);
  ASSERT_EQ(memory.requests.size(), 1u);
  expect_region(memory.requests[0].region, contiguous(32, 64));
  EXPECT_EQ(l2.stats().miss_lines, 1u);
  EXPECT_EQ(l2.stats().sector_miss_lines, 0u);

  // The whole line later: sectors 0 and 3 are missing, not adjacent: two fills of 32 B. The
  // second arrives at 10'000 + 1000 + 32.
  EXPECT_EQ(l2.access(at(10'000), contiguous(0, kLine), false).ps(), 11'032u);
  ASSERT_EQ(memory.requests.size(), 3u);
  expect_region(memory.requests[1].region, contiguous(0, 32));
  expect_region(memory.requests[2].region, contiguous(96, 32));
  EXPECT_EQ(l2.stats().miss_lines, 2u);
  EXPECT_EQ(l2.stats().sector_miss_lines, 1u);
  EXPECT_EQ(l2.stats().fill_bytes, kLine);  // each sector once

  // Now every sector is there: a hit.
  EXPECT_EQ(l2.access(at(20'000), contiguous(0, kLine), false).ps(), 20'000u + 128 + 100);
  EXPECT_EQ(memory.requests.size(), 3u);
  EXPECT_EQ(l2.stats().hit_lines, 1u);
}

TEST(L2CacheTiming, ASectorMissAlsoWaitsForTheSectorsAnEarlierFillStillBrings) {
  RecordingMemory memory;
  L2CacheTiming l2(sectored(16, 2), memory);
  // Sectors 0..2 at 0: data at 1000 + 96. The whole line at 10: sector 3 is fetched (data at
  // 10 + 1000 + 32 = 1042), but sectors 0..2 are still on their way until 1096.
  EXPECT_EQ(l2.access(at(0), contiguous(0, 96), false).ps(), 1096u);
  EXPECT_EQ(l2.access(at(10), contiguous(0, kLine), false).ps(), 1096u);
  ASSERT_EQ(memory.requests.size(), 2u);
  expect_region(memory.requests[1].region, contiguous(96, 32));
}

TEST(L2CacheTiming, ASectoredStoreOfWholeSectorsReadsNothingAndOnlyDirtySectorsAreWrittenBack) {
  RecordingMemory memory;
  L2CacheTiming l2(sectored(4, 1), memory);
  // 64 B stores over lines 0 and 1, each covering two whole sectors: nothing from HBM, and the
  // store is done after the port (64 B) and the hit latency, even on a line not there.
  for (std::uint64_t at_byte = 0; at_byte < 2 * kLine; at_byte += 64) {
    EXPECT_EQ(l2.access(at(at_byte * 10), contiguous(at_byte, 64), true).ps(),
              at_byte * 10 + 64 + 100);
  }
  EXPECT_TRUE(memory.requests.empty());
  EXPECT_EQ(l2.stats().fill_bytes, 0u);
  // Line 2's first half: sectors 0 and 1 dirty, 2 and 3 neither valid nor dirty.
  l2.access(at(5000), contiguous(2 * kLine, 64), true);
  EXPECT_TRUE(l2.is_dirty(2 * kLine + 32));
  EXPECT_FALSE(l2.is_dirty(2 * kLine + 64));

  // Loading lines 4, 5 and 6 evicts lines 0, 1 and 2: three fills, then the write-back of the
  // dirty sectors, adjacent ones coalesced: lines 0 and 1 whole with line 2's first half, 320 B.
  l2.access(at(10'000), contiguous(4 * kLine, 3 * kLine), false);
  ASSERT_EQ(memory.requests.size(), 2u);
  EXPECT_FALSE(memory.requests[0].is_write);
  expect_region(memory.requests[0].region, contiguous(4 * kLine, 3 * kLine));
  EXPECT_TRUE(memory.requests[1].is_write);
  expect_region(memory.requests[1].region, contiguous(0, 2 * kLine + 64));
  EXPECT_EQ(l2.stats().writeback_bytes, 2 * kLine + 64);

  // A store of part of a sector fetches that sector alone and waits for it.
  EXPECT_EQ(l2.access(at(20'000), contiguous(kLine + 8, 16), true).ps(), 20'000u + 1000 + 32);
  ASSERT_EQ(memory.requests.size(), 3u);
  expect_region(memory.requests[2].region, contiguous(kLine, 32));
  EXPECT_TRUE(l2.is_dirty(kLine + 8));
  EXPECT_FALSE(l2.is_dirty(kLine + 32));

  // At the end, the dirty sectors are counted, not the lines' bytes: line 1's first sector.
  l2.end_of_run();
  EXPECT_EQ(l2.stats().dirty_at_end_lines, 1u);
  EXPECT_EQ(l2.stats().dirty_at_end_bytes, 32u);
}

TEST(L2CacheTiming, TheKernelsEndCountsDirtyLinesAndWritesNone) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(16, 2), memory);
  l2.access(at(0), contiguous(0, 4 * kLine), true);
  l2.access(at(1000), contiguous(8 * kLine, kLine), true);
  l2.access(at(2000), contiguous(4096, kLine), false);  // clean: not counted
  memory.requests.clear();
  const std::uint64_t written = l2.stats().hbm_write_bytes();
  l2.end_of_run();
  EXPECT_TRUE(memory.requests.empty());  // nothing goes to HBM: a GPU keeps its L2 across kernels
  EXPECT_EQ(l2.stats().dirty_at_end_lines, 5u);
  EXPECT_EQ(l2.stats().dirty_at_end_bytes, 5 * kLine);
  EXPECT_EQ(l2.stats().hbm_write_bytes(), written);  // not in Q
  EXPECT_TRUE(l2.is_dirty(0));
  EXPECT_TRUE(l2.is_dirty(8 * kLine));
  EXPECT_FALSE(l2.is_dirty(4096));
  l2.end_of_run();  // counting twice counts the same lines
  EXPECT_EQ(l2.stats().dirty_at_end_lines, 5u);
}

TEST(L2CacheTiming, WriteThroughPassesStoresOnAndAllocatesNothing) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(16, 2, L2WritePolicy::write_through), memory);
  // Absent: the store goes to HBM as it is; the cache keeps nothing. Done when HBM has it.
  EXPECT_EQ(l2.access(at(0), kTile, true).ps(), 1000u + 512);
  ASSERT_EQ(memory.requests.size(), 1u);
  EXPECT_TRUE(memory.requests[0].is_write);
  expect_region(memory.requests[0].region, kTile);
  EXPECT_FALSE(l2.contains(0));
  EXPECT_EQ(l2.stats().miss_lines, 4u);
  EXPECT_EQ(l2.stats().fill_bytes, 0u);

  // Present: the lines take the data and stay clean; HBM gets the store all the same.
  l2.access(at(10'000), kTile, false);
  l2.access(at(20'000), kTile, true);
  EXPECT_EQ(l2.stats().hit_lines, 4u);
  EXPECT_FALSE(l2.is_dirty(0));
  EXPECT_EQ(l2.stats().write_through_requests, 2u);
  EXPECT_EQ(l2.stats().write_through_bytes, 1024u);
  EXPECT_EQ(l2.stats().hbm_write_bytes(), 1024u);
  l2.end_of_run();
  EXPECT_EQ(l2.stats().dirty_at_end_bytes, 0u);  // write-through leaves nothing dirty
}

TEST(L2CacheTiming, MissesGoBelowAsContiguousRunsAndTwoDimensionalRuns) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(64, 4), memory);
  l2.access(at(0), contiguous(2 * kLine, kLine), false);
  l2.access(at(0), contiguous(5 * kLine, kLine), false);
  memory.requests.clear();
  // Lines 0..7 with 2 and 5 present: three runs.
  l2.access(at(10'000), contiguous(0, 8 * kLine), false);
  ASSERT_EQ(memory.requests.size(), 3u);
  expect_region(memory.requests[0].region, contiguous(0, 2 * kLine));
  expect_region(memory.requests[1].region, contiguous(3 * kLine, 2 * kLine));
  expect_region(memory.requests[2].region, contiguous(6 * kLine, 2 * kLine));
  EXPECT_EQ(l2.stats().hit_lines, 2u);

  // A tile of 4 rows of 3 lines, the middle line of row 2 present: rows 0-1 merge into one 2-D
  // request, row 2 splits in two, row 3 starts another 2-D run.
  memory.requests.clear();
  l2.access(at(20'000), contiguous(65536 + 2 * 4096 + kLine, kLine), false);
  memory.requests.clear();
  l2.access(at(30'000), Region{65536, 4, 3 * kLine, 4096, 1}, false);
  ASSERT_EQ(memory.requests.size(), 4u);
  expect_region(memory.requests[0].region, Region{65536, 2, 3 * kLine, 4096, 1});
  expect_region(memory.requests[1].region, contiguous(65536 + 2 * 4096, kLine));
  expect_region(memory.requests[2].region, contiguous(65536 + 2 * 4096 + 2 * kLine, kLine));
  expect_region(memory.requests[3].region, contiguous(65536 + 3 * 4096, 3 * kLine));
}

TEST(L2CacheTiming, ARegionReadManyTimesIsFetchedOnce) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(16, 2), memory);
  Region thrice = kTile;
  thrice.repeat = 3;
  // Port: 1536 B. Fill: 512 B once, at 1512; the second and third passes wait for it.
  EXPECT_EQ(l2.access(at(0), thrice, false).ps(), 1536u + 100);
  ASSERT_EQ(memory.requests.size(), 1u);
  expect_region(memory.requests[0].region, kTile);
  EXPECT_EQ(l2.stats().miss_lines, 4u);
  EXPECT_EQ(l2.stats().pending_hit_lines, 8u);
  EXPECT_EQ(l2.stats().read_bytes, 1536u);
  // All there: three passes of hits.
  l2.access(at(10'000), thrice, false);
  EXPECT_EQ(l2.stats().hit_lines, 12u);
  EXPECT_EQ(memory.requests.size(), 1u);
}

TEST(L2CacheTiming, ThePortIsSharedFirstComeFirstServed) {
  RecordingMemory memory;
  L2CacheTiming l2(cache(16, 2), memory);
  l2.access(at(0), kTile, false);
  // Two hits at the same time: the second waits for the first's 512 ps on the port.
  EXPECT_EQ(l2.access(at(5000), kTile, false).ps(), 5000u + 512 + 100);
  EXPECT_EQ(l2.access(at(5000), kTile, false).ps(), 5000u + 1024 + 100);
  EXPECT_EQ(l2.stats().port_queue_delay.ps(), 512u);
}

TEST(L2CacheTiming, FoldedIndexSpreadsPowerOfTwoStrides) {
  // 16 lines 2 KiB apart (matrix rows with a power-of-two pitch) in a direct-mapped cache of 16
  // sets: modulo puts them all in set 0, so a second pass misses again; folded, they fill all 16.
  for (const L2SetIndex index : {L2SetIndex::modulo, L2SetIndex::xor_folded}) {
    RecordingMemory memory;
    L2CacheTiming l2(cache(16, 1, L2WritePolicy::write_back, index), memory);
    const Region rows{0, 16, kLine, 16 * kLine, 1};
    l2.access(at(0), rows, false);
    l2.access(at(100'000), rows, false);
    EXPECT_EQ(l2.stats().hit_lines, index == L2SetIndex::modulo ? 0u : 16u);
    EXPECT_EQ(l2.stats().miss_lines, index == L2SetIndex::modulo ? 32u : 16u);
  }
}

TEST(SetIndex, ModuloMatchesTheRemainderAndFoldingStaysInRange) {
  const SetIndex modulo(20480, L2SetIndex::modulo);
  const SetIndex folded(20480, L2SetIndex::xor_folded);
  const SetIndex folded_power(4096, L2SetIndex::xor_folded);
  for (std::uint64_t line : {0ull, 1ull, 20479ull, 20480ull, 123456789ull, 0xffffffffull,
                             0x100000000ull, 0x123456789abcdefull, ~0ull}) {
    EXPECT_EQ(modulo(line), line % 20480) << line;
    EXPECT_LT(folded(line), 20480u) << line;
    EXPECT_LT(folded_power(line), 4096u) << line;
  }
  // Within an aligned run of 4096 lines the folded index is a permutation of the sets.
  std::vector<bool> seen(4096);
  for (std::uint64_t line = 7 * 4096; line < 8 * 4096; ++line) seen[folded_power(line)] = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 4096);
  EXPECT_EQ(SetIndex(1, L2SetIndex::xor_folded)(12345), 0u);
}

TEST(CacheSets, KeepsExactLeastRecentlyUsedOrderAcrossManyWays) {
  CacheSets sets(1, 20);  // more ways than one 16-wide fingerprint step
  for (std::uint32_t i = 0; i < 20; ++i) {
    const std::uint32_t way = sets.victim(0);
    EXPECT_FALSE(sets.flags(0, way) & CacheSets::kValid) << "empty ways go first";
    sets.install(0, way, 1000 + i, CacheSets::kValid, 1, 0);
  }
  // Installed 1000..1019 in order; each is found, and the least recent is 1000's way.
  for (std::uint64_t line = 1000; line < 1020; ++line) {
    ASSERT_NE(sets.find(0, line), CacheSets::kNoWay) << line;
    EXPECT_EQ(sets.tag(0, sets.find(0, line)), line);
  }
  EXPECT_EQ(sets.find(0, 999), CacheSets::kNoWay);
  EXPECT_EQ(sets.tag(0, sets.victim(0)), 1000u);
  sets.touch(0, sets.find(0, 1000));
  EXPECT_EQ(sets.tag(0, sets.victim(0)), 1001u);
}

// ---------------------------------------------------------------- partitions

constexpr Time kFarHitLatency = Time::from_ps(300);

// The cache above in two partitions, cores 0 to 3 near partition 0 and 4 to 7 near 1.
L2CacheParams partitioned(std::uint64_t sets, std::uint32_t ways) {
  L2CacheParams p = cache(sets, ways);
  p.partitions = 2;
  p.far_hit_latency = kFarHitLatency;
  return p;
}

constexpr std::uint32_t kCores = 8;

// The first line numbers at or above `from` whose home is partition 0 and partition 1.
std::array<std::uint64_t, 2> lines_in_each_partition(const L2CacheTiming& l2, std::uint64_t from) {
  std::array<std::uint64_t, 2> found{~0ULL, ~0ULL};
  for (std::uint64_t line = from; found[0] == ~0ULL || found[1] == ~0ULL; ++line) {
    std::uint64_t& slot = found[l2.home_partition(line * kLine)];
    if (slot == ~0ULL) slot = line;
  }
  return found;
}

TEST(L2CacheTiming, CoresAreSplitIntoConsecutiveEqualSharesOfThePartitions) {
  const L2CacheParams p = partitioned(16, 2);
  for (std::uint32_t core = 0; core < 8; ++core)
    EXPECT_EQ(p.partition_of_core(core, kCores), core < 4 ? 0u : 1u) << core;
  L2CacheParams three = p;
  three.partitions = 3;
  EXPECT_EQ(three.partition_of_core(43, 132), 0u);  // 43 x 3 / 132 = 0.98
  EXPECT_EQ(three.partition_of_core(44, 132), 1u);
  EXPECT_EQ(three.partition_of_core(131, 132), 2u);
}

TEST(L2CacheTiming, EachPartitionHoldsAnEqualShareOfTheSetsOnePerGroup) {
  for (const std::uint32_t partitions : {2u, 3u, 4u}) {
    L2CacheParams p = cache(12 * 64, 2);
    p.partitions = partitions;
    std::vector<std::uint64_t> sets_in(partitions, 0);
    for (std::uint64_t set = 0; set < p.sets(); ++set) {
      const std::uint32_t home = p.partition_of_set(set);
      ++sets_in[home];
      // Each partition's set of the group is in the group, and is the set itself for its own.
      EXPECT_EQ(p.set_in_partition(set, home), set);
      for (std::uint32_t other = 0; other < partitions; ++other) {
        const std::uint64_t there = p.set_in_partition(set, other);
        EXPECT_EQ(there / partitions, set / partitions);
        EXPECT_EQ(p.partition_of_set(there), other);
      }
    }
    for (const std::uint64_t count : sets_in) EXPECT_EQ(count, p.sets() / partitions);
  }
}

TEST(L2CacheTiming, LinesSpreadEvenlyOverThePartitionsSequentialOrStrided) {
  // Sequential lines and lines 2^k apart (a matrix's rows): half in each partition, within 1 %
  // of 2^16 lines, with the XOR-folded index a GPU's L2 has.
  RecordingMemory memory;
  L2CacheParams p = cache(1024, 16, L2WritePolicy::write_back, L2SetIndex::xor_folded);
  p.partitions = 2;
  p.far_hit_latency = kFarHitLatency;
  const L2CacheTiming l2(p, memory, kCores);
  for (std::uint64_t stride : {1ULL, 2ULL, 64ULL, 1024ULL, 1ULL << 20}) {
    std::uint64_t in_first = 0;
    constexpr std::uint64_t kLines = 1 << 16;
    for (std::uint64_t i = 0; i < kLines; ++i)
      in_first += l2.home_partition(i * stride * kLine) == 0;
    EXPECT_NEAR(static_cast<double>(in_first) / kLines, 0.5, 0.01) << "stride " << stride;
  }
}

TEST(L2CacheTiming, AFarLineIsReachedOnceAndThenServedByTheCopyItLeaves) {
  RecordingMemory memory;
  const L2CacheParams p = partitioned(16, 2);
  L2CacheTiming l2(p, memory, kCores);
  const auto [near_line, far_line] = lines_in_each_partition(l2, 0);  // for cores 0 to 3
  const Region near_region = contiguous(near_line * kLine, kLine);
  const Region far_region = contiguous(far_line * kLine, kLine);
  // Core 0 brings both from HBM: the far one at its home, with a copy in partition 0.
  l2.access(at(0), near_region, false, 0);
  l2.access(at(0), far_region, false, 0);
  EXPECT_EQ(l2.stats().far_requests, 1u);
  EXPECT_EQ(l2.stats().copy_fill_lines, 1u);
  EXPECT_TRUE(l2.has_copy(far_line * kLine, 0));
  EXPECT_FALSE(l2.has_copy(near_line * kLine, 1));
  // The port's 128 ps, then 100 ps near: core 3 finds the far line's copy in its partition.
  EXPECT_EQ(l2.access(at(10'000), near_region, false, 3).ps(), 10'000u + 128 + 100);
  EXPECT_EQ(l2.access(at(20'000), far_region, false, 3).ps(), 20'000u + 128 + 100);
  EXPECT_EQ(l2.stats().copy_hit_lines, 1u);
  // Core 4 is near partition 1: the far line is at home there, the near one is 300 ps away
  // the first time and then copied.
  EXPECT_EQ(l2.access(at(30'000), far_region, false, 4).ps(), 30'000u + 128 + 100);
  EXPECT_EQ(l2.access(at(40'000), near_region, false, 7).ps(), 40'000u + 128 + 300);
  EXPECT_EQ(l2.access(at(50'000), near_region, false, 4).ps(), 50'000u + 128 + 100);
  EXPECT_EQ(l2.stats().far_requests, 2u);
  EXPECT_EQ(l2.stats().copy_hit_lines, 2u);
  // A store goes to the line's home: far from core 0, though its partition holds a copy, which
  // stays (updated) while the line stays clean there and dirty at home.
  EXPECT_EQ(l2.access(at(60'000), far_region, true, 0).ps(), 60'000u + 128 + 300);
  EXPECT_EQ(l2.stats().far_requests, 3u);
  EXPECT_TRUE(l2.is_dirty(far_line * kLine));
  EXPECT_TRUE(l2.has_copy(far_line * kLine, 0));
  // A store of part of a sector cannot be merged into the copy, which goes.
  EXPECT_EQ(l2.access(at(70'000), contiguous(far_line * kLine, 8), true, 0).ps(),
            70'000u + 8 + 300);
  EXPECT_FALSE(l2.has_copy(far_line * kLine, 0));
  // Two misses, the first reads; HBM saw their fills and nothing else (the store is held).
  EXPECT_EQ(l2.stats().miss_lines, 2u);
  EXPECT_EQ(memory.requests.size(), 2u);
}

TEST(L2CacheTiming, ARequestWithOneLineInAFarPartitionWaitsForIt) {
  RecordingMemory memory;
  const L2CacheParams p = partitioned(64, 2);
  L2CacheTiming l2(p, memory, kCores);
  // Eight consecutive lines: some homed far from core 0 and some far from core 4 (checked).
  const Region tile = contiguous(0, 8 * kLine);
  std::array<bool, 2> homes{};
  for (std::uint64_t line = 0; line < 8; ++line) homes[l2.home_partition(line * kLine)] = true;
  ASSERT_TRUE(homes[0] && homes[1]);
  // Core 0 fetches them (far: a line of them is in partition 1), then finds them all near.
  l2.access(at(0), tile, false, 0);
  EXPECT_EQ(l2.stats().far_requests, 1u);
  EXPECT_EQ(l2.access(at(10'000), tile, false, 0).ps(), 10'000u + 1024 + 100);
  EXPECT_EQ(l2.stats().far_requests, 1u);
  // Core 4 has no copies yet of those homed in partition 0: its request's data is all there
  // only at the far latency.
  EXPECT_EQ(l2.access(at(20'000), tile, false, 4).ps(), 20'000u + 1024 + 300);
  EXPECT_EQ(l2.stats().far_requests, 2u);
}

// Copies use what home lines leave: a copy takes an empty way or another copy's, never a home
// line's, and a home line's fill takes a copy's way before it evicts a home line.
TEST(L2CacheTiming, CopiesGiveWayToHomeLines) {
  RecordingMemory memory;
  const L2CacheParams p = partitioned(2, 2);  // one group: one set in each partition, 2 ways
  L2CacheTiming l2(p, memory, kCores);
  // Lines homed in partition 0 (for cores 0 to 3) and in partition 1.
  std::array<std::vector<std::uint64_t>, 2> homed;
  for (std::uint64_t line = 0; homed[0].size() < 3 || homed[1].size() < 2; ++line) {
    homed[l2.home_partition(line * kLine)].push_back(line);
  }
  const auto read = [&](std::uint64_t line, std::uint32_t core, std::uint64_t t) {
    return l2.access(at(t), contiguous(line * kLine, kLine), false, core).ps() - t;
  };
  // Partition 0's set: one home line and a copy of a line homed in partition 1.
  read(homed[0][0], 0, 0);
  read(homed[1][0], 0, 10'000);
  EXPECT_TRUE(l2.has_copy(homed[1][0] * kLine, 0));
  // A second home line takes the copy's way, not the first home line's (the least recent).
  read(homed[0][1], 0, 20'000);
  EXPECT_FALSE(l2.has_copy(homed[1][0] * kLine, 0));
  EXPECT_TRUE(l2.contains(homed[0][0] * kLine));
  EXPECT_TRUE(l2.contains(homed[0][1] * kLine));
  EXPECT_EQ(l2.stats().evictions, 1u);  // the copy
  // The set is all home lines now: a far read leaves no copy, and stays far.
  const std::uint64_t copies = l2.stats().copy_fill_lines;
  EXPECT_EQ(read(homed[1][0], 0, 30'000), 128u + 300);
  EXPECT_EQ(read(homed[1][0], 0, 40'000), 128u + 300);
  EXPECT_EQ(l2.stats().copy_fill_lines, copies);
  EXPECT_FALSE(l2.has_copy(homed[1][0] * kLine, 0));
  EXPECT_EQ(memory.requests.size(), 3u);  // three fills: the copy evicted wrote nothing back
}

// With three partitions a store leaves the copy of its own core's partition and drops the
// other's, stale now.
TEST(L2CacheTiming, AStoreDropsTheCopiesOfPartitionsOtherThanItsOwn) {
  RecordingMemory memory;
  L2CacheParams p = cache(6, 2);
  p.partitions = 3;
  p.far_hit_latency = kFarHitLatency;
  L2CacheTiming l2(p, memory, 6);  // cores 0, 1 near partition 0; 2, 3 near 1; 4, 5 near 2
  std::uint64_t line = 0;
  while (l2.home_partition(line * kLine) != 0) ++line;
  const Region region = contiguous(line * kLine, kLine);
  l2.access(at(0), region, false, 2);
  l2.access(at(10'000), region, false, 4);
  EXPECT_TRUE(l2.has_copy(line * kLine, 1));
  EXPECT_TRUE(l2.has_copy(line * kLine, 2));
  EXPECT_EQ(l2.access(at(20'000), region, true, 3).ps(), 20'000u + 128 + 300);
  EXPECT_TRUE(l2.has_copy(line * kLine, 1));
  EXPECT_FALSE(l2.has_copy(line * kLine, 2));
  // Core 4 reaches the home again, and copies the line anew.
  EXPECT_EQ(l2.access(at(30'000), region, false, 4).ps(), 30'000u + 128 + 300);
  EXPECT_TRUE(l2.has_copy(line * kLine, 2));
  // A store from the home's own partition drops both.
  l2.access(at(40'000), region, true, 0);
  EXPECT_FALSE(l2.has_copy(line * kLine, 1));
  EXPECT_FALSE(l2.has_copy(line * kLine, 2));
}

// Preloaded lines are at home and, where there is room, copied into each partition near a core
// of the run: a warm chase finds them all near.
TEST(L2CacheTiming, PreloadingCopiesTheLinesIntoThePartitionsNearTheRunsCores) {
  RecordingMemory memory;
  const L2CacheParams p = partitioned(64, 4);
  L2CacheTiming one_core(p, memory, 1), every_core(p, memory, kCores);
  for (L2CacheTiming* l2 : {&one_core, &every_core}) l2->preload(0, 32 * kLine);
  for (std::uint64_t line = 0; line < 32; ++line) {
    const std::uint32_t home = one_core.home_partition(line * kLine);
    EXPECT_TRUE(one_core.contains(line * kLine));
    EXPECT_EQ(one_core.has_copy(line * kLine, 0), home == 1) << line;
    EXPECT_FALSE(one_core.has_copy(line * kLine, 1)) << line;  // no core near it
    EXPECT_EQ(every_core.has_copy(line * kLine, 1 - home), true) << line;
  }
  EXPECT_EQ(one_core.access(at(0), contiguous(0, 32 * kLine), false, 0).ps(), 4096u + 100);
  EXPECT_EQ(one_core.stats().far_requests, 0u);
  EXPECT_EQ(memory.requests.size(), 0u);
}

TEST(L2CacheTiming, LinesAKernelWroteArePreloadedAtHomeOnly) {
  // Stores go to a line's home: a kernel that wrote the range and read nothing of it left no
  // copies, so core 0 reaches the lines homed in partition 1 across the chip, once, and copies
  // them then.
  RecordingMemory memory;
  L2CacheTiming l2(partitioned(64, 4), memory, kCores);
  l2.preload(0, 32 * kLine, L2CacheTiming::LeftBy::writes);
  std::uint64_t far_lines = 0;
  for (std::uint64_t line = 0; line < 32; ++line) {
    EXPECT_TRUE(l2.contains(line * kLine));
    EXPECT_FALSE(l2.has_copy(line * kLine, 0) || l2.has_copy(line * kLine, 1)) << line;
    far_lines += l2.home_partition(line * kLine) == 1 ? 1 : 0;
  }
  ASSERT_GT(far_lines, 0u);
  EXPECT_EQ(l2.access(at(0), contiguous(0, 32 * kLine), false, 0).ps(), 4096u + 300);
  EXPECT_EQ(l2.stats().copy_fill_lines, far_lines);
  EXPECT_EQ(l2.access(at(10'000), contiguous(0, 32 * kLine), false, 0).ps(), 10'000u + 4096 + 100);
  EXPECT_EQ(memory.requests.size(), 0u);
}

// A range longer than the cache leaves its last lines at home, filling every way: the copies
// placed before them gave way.
TEST(L2CacheTiming, PreloadingARangeLongerThanAPartitionedCacheLeavesOnlyItsLastHomeLines) {
  RecordingMemory memory;
  L2CacheParams p = cache(20, 4, L2WritePolicy::write_back, L2SetIndex::xor_folded);  // 80 lines
  p.partitions = 2;
  p.far_hit_latency = kFarHitLatency;
  L2CacheTiming l2(p, memory, kCores);
  l2.preload(1'000'000 * kLine, 300 * kLine);
  std::uint64_t held = 0;
  for (std::uint64_t line = 1'000'000; line < 1'000'300; ++line) {
    held += l2.contains(line * kLine) ? 1 : 0;
    EXPECT_FALSE(l2.has_copy(line * kLine, 0) || l2.has_copy(line * kLine, 1)) << line;
  }
  EXPECT_EQ(held, 80u);
  for (std::uint64_t line = 1'000'290; line < 1'000'300; ++line) {
    EXPECT_TRUE(l2.contains(line * kLine)) << line;
  }
}

TEST(L2CacheTiming, OnePartitionIsNeverFar) {
  RecordingMemory memory;
  L2CacheParams p = cache(16, 2);
  p.far_hit_latency = kFarHitLatency;  // not read with one partition
  L2CacheTiming l2(p, memory, kCores);
  for (std::uint64_t line = 0; line < 16; ++line)
    l2.access(at(0), contiguous(line * kLine, kLine), false, 7);
  EXPECT_EQ(l2.access(at(100'000), contiguous(0, 16 * kLine), false, 7).ps(),
            100'000u + 16 * 128 + 100);
  EXPECT_EQ(l2.stats().far_requests, 0u);
}

// A range longer than the cache is placed from where every set still gets its ways' worth of
// lines: the same lines stay, in the same order, as when every line is placed one by one.
TEST(L2CacheTiming, PreloadingARangeLongerThanTheCacheLeavesWhatPlacingEveryLineWould) {
  for (const L2SetIndex index : {L2SetIndex::modulo, L2SetIndex::xor_folded}) {
    SCOPED_TRACE(index == L2SetIndex::modulo ? "modulo" : "xor");
    RecordingMemory memory;
    const L2CacheParams p = cache(20, 4, L2WritePolicy::write_back, index);  // 80 lines
    L2CacheTiming whole(p, memory), by_line(p, memory);
    // Lines there before, one of them dirty.
    for (L2CacheTiming* l2 : {&whole, &by_line}) {
      l2->access(at(0), contiguous(1'000'000, 40 * kLine), false);
      l2->access(at(100'000), contiguous(1'000'000, 64), true);
    }
    const std::uint64_t start = 4096 + 37, end = start + 50 * 80 * kLine + 11;
    whole.preload(start, end - start);
    for (std::uint64_t from = start; from < end;) {
      const std::uint64_t to = std::min(end, (from / kLine + 1) * kLine);
      by_line.preload(from, to - from);
      from = to;
    }
    const auto same = [&](const char* when) {
      for (std::uint64_t a = 0; a < end + kLine; a += kLine)
        ASSERT_EQ(whole.contains(a), by_line.contains(a)) << when << " " << a;
      for (std::uint64_t a = 1'000'000; a < 1'000'000 + 40 * kLine; a += kLine) {
        ASSERT_EQ(whole.contains(a), by_line.contains(a)) << when << " " << a;
        ASSERT_EQ(whole.is_dirty(a), by_line.is_dirty(a)) << when << " " << a;
      }
    };
    same("after the preload");
    // The order within each set is the same too: the same later lines push out the same ones.
    for (L2CacheTiming* l2 : {&whole, &by_line}) l2->preload(0, 2 * 20 * kLine);
    same("after more lines");
  }
}

}  // namespace
}  // namespace ridgeline
