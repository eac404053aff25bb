// Statistics declared once: visiting and merging follow each Stats struct's fields() list.
#include "models/stat_fields.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "models/compute_unit.hpp"
#include "models/core.hpp"
#include "models/dram_channel.hpp"
#include "models/hbm.hpp"
#include "models/l2_cache.hpp"
#include "models/register_file.hpp"
#include "models/scheduler.hpp"
#include "models/sram.hpp"
#include "models/trace_player.hpp"

namespace ridgeline {
namespace {

struct Visited {
  std::string name;
  double value;
  std::string unit;
};

template <class Stats>
std::vector<Visited> visited(const Stats& stats) {
  std::vector<Visited> out;
  stats.visit([&](std::string_view name, double value, std::string_view unit, std::string_view) {
    out.push_back({std::string(name), value, std::string(unit)});
  });
  return out;
}

TEST(StatFields, SumsCountersAndTakesTheLargestPeakAndFinish) {
  CoreStats a;
  a.blocks = 3;
  a.load_bytes = 1000;
  a.peak_resident_blocks = 2;
  a.compute_busy = Time::from_ps(500);
  a.finish = Time::from_ps(9000);
  CoreStats b;
  b.blocks = 4;
  b.load_bytes = 24;
  b.peak_resident_blocks = 5;
  b.compute_busy = Time::from_ps(250);
  b.finish = Time::from_ps(7000);
  a.add(b);
  EXPECT_EQ(a.blocks, 7u);
  EXPECT_EQ(a.load_bytes, 1024u);
  EXPECT_EQ(a.peak_resident_blocks, 5u);
  EXPECT_EQ(a.compute_busy.ps(), 750u);
  EXPECT_EQ(a.finish.ps(), 9000u);
}

TEST(StatFields, VisitsInListOrderWithValuesInBaseUnits) {
  SramStats s;
  s.read_bytes = 4096;
  s.write_bytes = 512;
  s.read_busy = Time::from_ps(2'000'000);  // 2 us
  s.peak_allocated_bytes = 65536;
  const auto fields = visited(s);
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0].name, "read_bytes");
  EXPECT_EQ(fields[0].value, 4096.0);
  EXPECT_EQ(fields[2].name, "read_busy_s");
  EXPECT_DOUBLE_EQ(fields[2].value, 2e-6);
  EXPECT_EQ(fields[2].unit, "s");
  EXPECT_EQ(fields[4].name, "peak_allocated_bytes");
  EXPECT_EQ(fields[4].value, 65536.0);
}

TEST(StatFields, FormulasAreComputedFromTheMergedCounters) {
  L2CacheStats a;
  a.fill_bytes = 128;
  a.dirty_at_end_bytes = 64;
  L2CacheStats b;
  b.fill_bytes = 256;
  b.writeback_bytes = 32;
  a.add(b);
  for (const Visited& f : visited(a)) {
    if (f.name == "hbm_bytes") {
      EXPECT_EQ(f.value, 128.0 + 256 + 32);  // what is left dirty at the end is no HBM traffic
    }
  }
  TracePlayerStats p;
  p.latency.add(Time::from_ps(1000));
  TracePlayerStats q;
  q.latency.add(Time::from_ps(3000));
  p.add(q);
  EXPECT_EQ(p.latency.count(), 2u);
  EXPECT_EQ(p.latency.max().ps(), 3000u);
}

// Every statistic's name says its unit, as the JSON and CSV columns need, and names are unique
// within a component.
template <class Stats>
void expect_names_carry_units(const char* component) {
  std::set<std::string> names;
  for (const Visited& f : visited(Stats{})) {
    EXPECT_TRUE(names.insert(f.name).second) << component << "." << f.name << " twice";
    const auto ends_with = [&](const std::string& suffix) {
      return f.name.size() >= suffix.size() &&
             f.name.compare(f.name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (f.unit == "s") {
      EXPECT_TRUE(ends_with("_s")) << component << "." << f.name;
    }
    if (f.unit == "bytes") {
      EXPECT_TRUE(ends_with("bytes")) << component << "." << f.name;
    }
  }
  EXPECT_FALSE(names.empty()) << component;
}

TEST(StatFields, NamesCarryTheirUnits) {
  expect_names_carry_units<CoreStats>("core");
  expect_names_carry_units<ComputeUnitStats>("compute");
  expect_names_carry_units<SramStats>("sram");
  expect_names_carry_units<RegisterFileStats>("registers");
  expect_names_carry_units<HbmStats>("hbm");
  expect_names_carry_units<L2CacheStats>("l2");
  expect_names_carry_units<DramStats>("dram");
  expect_names_carry_units<TracePlayerStats>("trace");
  expect_names_carry_units<SchedulerStats>("scheduler");
}

}  // namespace
}  // namespace ridgeline
