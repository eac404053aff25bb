// Trace players alone with a simple HBM: issue as fast as the in-flight limit allows, latency per
// access, to the picosecond.
#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "sim/run/accelerator.hpp"

namespace ridgeline {
namespace {

class ListSource : public AccessSource {
 public:
  explicit ListSource(std::vector<MemoryAccess> accesses) : accesses_(std::move(accesses)) {}
  bool next(MemoryAccess& access) override {
    if (next_ == accesses_.size()) return false;
    access = accesses_[next_++];
    return true;
  }

 private:
  std::vector<MemoryAccess> accesses_;
  std::size_t next_ = 0;
};

// One channel of 1 byte/ps, 1 ns latency; players keep at most `requests` in flight.
HardwareParams machine(std::uint32_t players, std::uint32_t requests) {
  HardwareParams hw;
  hw.name = "test";
  hw.core_clock = Clock(1'000'000'000);
  hw.cores = players;
  hw.core.max_bytes_in_flight = 1 << 20;
  hw.core.max_requests_in_flight = requests;
  hw.hbm.peak_bandwidth.bytes_per_second = 1'000'000'000'000;
  hw.hbm.access_latency = Time::from_ps(1000);
  hw.hbm.channels = 1;
  hw.hbm.interleave_bytes = 256;
  return hw;
}

TEST(TracePlayer, IssuesAsFastAsTheInFlightLimitAllows) {
  std::vector<MemoryAccess> accesses;
  for (std::uint64_t i = 0; i < 10; ++i) accesses.push_back(MemoryAccess{i * 64, i == 9});
  ListSource source(accesses);
  Accelerator top("top", machine(1, 4), source, MemoryTraceSpec{});
  sc_core::sc_start();
  const TracePlayerStats& s = top.players[0]->stats();
  // Four at 0 (done 1064, 1128, 1192, 1256: each 64 ps on the channel, then 1 ns); each later
  // one issues when one completes and finds the channel free: 1064 ps after its issue.
  // Issues at 1064, 1128, 1192, 1256, then 2128 and 2192: the last done at 3256.
  EXPECT_EQ(s.finish.ps(), 3'256u);
  EXPECT_EQ(s.reads, 9u);
  EXPECT_EQ(s.writes, 1u);
  EXPECT_EQ(s.read_bytes, 9u * 64);
  EXPECT_EQ(s.write_bytes, 64u);
  EXPECT_EQ(s.latency.count(), 10u);
  EXPECT_EQ(s.latency.min().ps(), 1'064u);
  EXPECT_EQ(s.latency.max().ps(), 1'256u);
  EXPECT_EQ(s.latency.mean().ps(), 1'102u);   // (1064 + 1128 + 1192 + 1256 + 6 x 1064) / 10
  EXPECT_EQ(s.in_flight_limit.ps(), 2'192u);  // an access waited from 0 to the last issue
  EXPECT_EQ(s.wakeups, 8u);  // 0, six completions that made room, one that found the end
  EXPECT_EQ(top.hbm.timing().stats().writes, 1u);
}

TEST(TracePlayer, AGroupGivesItsRoomBackWhenItsLastAccessCompletes) {
  // Groups of two, four requests in flight: as a warp waits for all of its loads. Alone the
  // first access would make room at 1064 ps (the test above); here its group's room comes back
  // only at 1128, when its second is done.
  std::vector<MemoryAccess> accesses;
  for (std::uint64_t i = 0; i < 8; ++i) accesses.push_back(MemoryAccess{i * 64, false});
  ListSource source(accesses);
  MemoryTraceSpec spec;
  spec.group_accesses = 2;
  Accelerator top("top", machine(1, 4), source, spec);
  sc_core::sc_start();
  const TracePlayerStats& s = top.players[0]->stats();
  // At 0: groups {0, 1} and {2, 3}, done 1064 and 1128, 1192 and 1256. At 1128 the first group's
  // room: 4 and 5, on the channel from 1128 (done 2192, 2256). At 1256 the second's: 6 and 7
  // (done 2320, 2384).
  EXPECT_EQ(s.finish.ps(), 2'384u);  // without groups 2320: each issues as one completes
  EXPECT_EQ(s.reads, 8u);
  EXPECT_EQ(s.latency.mean().ps(),
            1'128u);  // (1064 + 1128 + 1192 + 1256 + 2 x 1064 + 2 x 1128) / 8
  EXPECT_EQ(s.latency.max().ps(), 1'256u);
  EXPECT_EQ(s.in_flight_limit.ps(), 1'256u);  // held from 0 to 1128, then from 1128 to 1256
  EXPECT_EQ(s.wakeups, 4u);                   // 0, 1128, 1256, and 2256 to find the end
}

TEST(TracePlayer, PlayersShareOneStreamInOrder) {
  std::vector<MemoryAccess> accesses;
  for (std::uint64_t i = 0; i < 1000; ++i) accesses.push_back(MemoryAccess{i * 64, false});
  ListSource source(accesses);
  Accelerator top("top", machine(3, 8), source, MemoryTraceSpec{});
  sc_core::sc_start();
  std::uint64_t reads = 0;
  Time finish;
  for (const auto& player : top.players) {
    reads += player->stats().reads;
    finish = max(finish, player->stats().finish);
    EXPECT_GT(player->stats().reads, 300u);  // each takes its turn
  }
  EXPECT_EQ(reads, 1000u);
  EXPECT_EQ(top.hbm.timing().stats().read_bytes, 64'000u);
  // 24 in flight cover the 1064 ps a lone access takes (17 x 64 ps): the channel never idles.
  EXPECT_EQ(finish.ps(), 64'000u + 1'000);
}

}  // namespace
}  // namespace ridgeline
