// Signals from activity reports, without SystemC: which signals a selection makes, what changes
// an interval makes and when, and rate windows that add up to the amounts moved.
#include "sim/waveforms/activity_signals.hpp"

#include <gtest/gtest.h>

#include <map>

namespace ridgeline {
namespace {

using Changes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

struct Recorder : SignalSink {
  std::map<std::string, Changes> changes;
  const std::vector<Signal>* signals = nullptr;
  void change(std::uint32_t signal, Time at, std::uint64_t value) override {
    changes[(*signals)[signal].name].emplace_back(at.ps(), value);
  }
};

WaveformLayout two_cores() {
  WaveformLayout layout;
  layout.cores = {"top.core0", "top.core1"};
  layout.channels = 2;
  layout.pseudo_channels = 2;
  return layout;
}

Time ps(std::uint64_t value) { return Time::from_ps(value); }

// The signals `patterns` select on two cores, rates over windows of 100 ps, and what they
// released.
struct Traced {
  WaveformOptions options;
  ActivitySignals signals;
  Recorder sink;
  explicit Traced(std::vector<std::string> patterns)
      : options(with(std::move(patterns))), signals(two_cores(), options, ps(100)) {
    sink.signals = &signals.signals();
  }
  static WaveformOptions with(std::vector<std::string> patterns) {
    WaveformOptions o;
    o.patterns = std::move(patterns);
    return o;
  }
  Changes& operator[](const std::string& name) { return sink.changes[name]; }
};

TEST(ActivitySignals, SelectionDecidesTheSignals) {
  WaveformOptions options;
  options.patterns = {"top.core1.dma", "top.hbm.ch1.pc0"};
  options.level = WaveformLevel::counters;
  const ActivitySignals signals(two_cores(), options, ps(100));
  std::vector<std::string> names;
  for (const Signal& s : signals.signals()) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "top.core1.dma.busy", "top.core1.dma.in_flight_requests",
                       "top.core1.dma.in_flight_bytes", "top.core1.dma.queued_requests",
                       "top.hbm.ch1.pc0.busy", "top.hbm.ch1.pc0.queued_requests"}));
  EXPECT_EQ(signals.signals()[2].leaf, "dma.in_flight_bytes");
  EXPECT_EQ(signals.signals()[2].group, two_cores().core_group(1));
}

// Each shared level in the chain is a group after the HBM's, in chain order, and a port's
// activity reaches the signals of the level its index names.
TEST(ActivitySignals, EachSharedLevelHasItsOwnPortSignalsInChainOrder) {
  WaveformLayout layout = two_cores();
  layout.levels = {"top.l2", "top.l3"};
  EXPECT_EQ(layout.groups(), layout.hbm_group() + 3);
  EXPECT_EQ(layout.group_name(layout.level_group(0)), "top.l2");
  EXPECT_EQ(layout.group_name(layout.level_group(1)), "top.l3");
  EXPECT_EQ(layout.unit_path(UnitKind::level_port, 1), "top.l3.port");

  WaveformOptions options;
  options.patterns = {"top.l2.port", "top.l3.port"};
  options.level = WaveformLevel::busy;
  ActivitySignals signals(layout, options, ps(100));
  std::vector<std::string> names;
  for (const Signal& s : signals.signals()) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"top.l2.port.busy", "top.l3.port.busy"}));
  Recorder sink;
  sink.signals = &signals.signals();
  signals.activity(Activity(UnitKind::level_port, 1, ps(0), ps(10), ps(50)), ps(0));
  signals.advance(ps(1000), sink);
  EXPECT_TRUE(sink.changes["top.l2.port.busy"].empty());
  EXPECT_EQ(sink.changes["top.l3.port.busy"], (Changes{{10, 1}, {50, 0}}));
}

TEST(ActivitySignals, OverlappingRequestsAddUpAndBusyHoldsAcrossThem) {
  Traced t({"top.core0.dma", "top.core0.compute.busy"});
  ActivitySignals& signals = t.signals;
  Activity load(UnitKind::dma, 0, ps(0), ps(0), ps(100));
  load.bytes = 64;
  signals.activity(load, ps(0));
  Activity store(UnitKind::dma, 0, ps(50), ps(50), ps(150));
  store.bytes = 32;
  store.write = true;
  signals.activity(store, ps(50));
  // Back-to-back computes: busy does not drop between them.
  signals.activity(Activity(UnitKind::compute, 0, ps(0), ps(10), ps(100)), ps(0));
  signals.activity(Activity(UnitKind::compute, 0, ps(0), ps(100), ps(120)), ps(0));
  EXPECT_EQ(signals.next_change()->ps(), 0u);
  signals.advance(ps(1000), t.sink);
  EXPECT_FALSE(signals.next_change());
  EXPECT_EQ(t["top.core0.dma.in_flight_bytes"], (Changes{{0, 64}, {50, 96}, {100, 32}, {150, 0}}));
  EXPECT_EQ(t["top.core0.dma.in_flight_requests"], (Changes{{0, 1}, {50, 2}, {100, 1}, {150, 0}}));
  EXPECT_EQ(t["top.core0.dma.busy"], (Changes{{0, 1}, {150, 0}}));
  EXPECT_EQ(t["top.core0.compute.busy"], (Changes{{10, 1}, {120, 0}}));
}

TEST(ActivitySignals, RateWindowsAddUpToTheAmountMoved) {
  Traced t({"top.hbm.ch0.pc1.bytes_per_s", "top.hbm.bytes_per_s"});
  Activity transfer(UnitKind::hbm, 1, ps(20), ps(20), ps(320));
  transfer.bytes = 1000;
  t.signals.activity(transfer, ps(20));
  t.signals.advance(ps(10'000), t.sink);
  // 1000 bytes over [20, 320): 266, 334, 333 and 67 in the windows of 100 ps; a window's value
  // (bytes x 10^12 / 100 ps) is released at its end, and the rate drops to 0 after the last.
  const Changes expected{{100, 2'660'000'000'000},
                         {200, 3'340'000'000'000},
                         {300, 3'330'000'000'000},
                         {400, 670'000'000'000},
                         {500, 0}};
  EXPECT_EQ(t["top.hbm.ch0.pc1.bytes_per_s"], expected);
  EXPECT_EQ(t["top.hbm.bytes_per_s"], expected);
  std::uint64_t total = 0;
  for (std::uint64_t end = 100; end <= 500; end += 100) {
    std::uint64_t value = 0;
    for (const auto& [at, v] : expected) {
      if (at <= end) value = v;
    }
    total += value / 10'000'000'000;
  }
  EXPECT_EQ(total, 1000u);
}

TEST(ActivitySignals, LevelsSetTheValueAtTheirTime) {
  Traced t({"top.core0.blocks", "top.core0.dma.queued_requests"});
  t.signals.level(0, LevelKind::resident_blocks, ps(0), 2);
  t.signals.level(0, LevelKind::queued_requests, ps(0), 5);
  t.signals.level(0, LevelKind::queued_requests, ps(40), 3);
  t.signals.advance(ps(40), t.sink);
  EXPECT_EQ(t["top.core0.blocks.resident"], (Changes{{0, 2}}));
  EXPECT_EQ(t["top.core0.dma.queued_requests"], (Changes{{0, 5}, {40, 3}}));
}

}  // namespace
}  // namespace ridgeline
