// The tracer on the one-core machine of core_test.cpp, whose double-buffered timeline is known to
// the picosecond: the VCD's scopes and value changes and the timeline's slices at those times.
//
// A_0 on the channel 0..4096, data at 5096; B_0 4096..8192, data 9192; A_1 8192..12288, data
// 13288; B_1 12288..16384, data 17384; compute_0 9192..665192, compute_1 665192..1321192; store C
// on the channel 1321192..1325288, done 1326288.
#include "sim/waveforms/tracer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <systemc>

#include "sim/run/accelerator.hpp"
#include "tests/tiny_machine.hpp"
#include "tests/vcd_reader.hpp"

namespace ridgeline {
namespace {

using Changes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "ridgeline_tracer_" + std::to_string(::getpid()) + "_" + name;
}

// Runs the double-buffered two-step GEMM with `options` and returns the core's finish time.
Time run_traced(WaveformOptions options) {
  const HardwareParams hw = test::machine();
  const Kernel kernel = test::two_step_gemm(2);
  Accelerator top("top", hw, kernel);
  Tracer tracer("tracer", top.waveform_layout(), options, *options.rate_window);
  top.observe(&tracer);
  sc_core::sc_start();
  top.observe(nullptr);
  tracer.finish();
  return top.cores[0]->stats().finish;
}

constexpr std::uint64_t kWindowPs = 100'000;  // 100 ns: 10^7 per-second units per unit amount

WaveformOptions options_for(const std::string& name) {
  WaveformOptions options;
  options.vcd_path = temp_path(name + ".vcd");
  options.timeline_path = temp_path(name + ".json");
  options.rate_window = Time::from_ps(kWindowPs);
  return options;
}

// The sum over the rate windows of the amount each shows: Σ value x window.
std::uint64_t windows_total(const test::VcdVariable& rate, std::uint64_t last_ps) {
  std::uint64_t per_second_sum = 0;
  for (std::uint64_t t = kWindowPs; t <= last_ps + kWindowPs; t += kWindowPs) {
    per_second_sum += rate.at(t);
  }
  return per_second_sum / (kPicosecondsPerSecond / kWindowPs);
}

TEST(Tracer, VcdChangesAtTheSimulatedTimes) {
  const WaveformOptions options = options_for("timeline");
  EXPECT_EQ(run_traced(options).ps(), 1'326'288u);  // as without the tracer (core_test.cpp)
  const test::Vcd vcd = test::read_vcd(options.vcd_path);
  EXPECT_EQ(vcd.timescale, "1ps");
  for (const char* scope :
       {"SystemC.top", "SystemC.top.core0", "SystemC.top.core0.compute", "SystemC.top.core0.dma",
        "SystemC.top.core0.sram.read", "SystemC.top.core0.blocks", "SystemC.top.hbm.ch0"}) {
    EXPECT_EQ(vcd.scopes.count(scope), 1u) << scope;
  }
  const auto changes = [&](const std::string& name) {
    return vcd.var("SystemC.top." + name).changes;
  };
  // Computes back to back: busy from the first data to the last compute's end.
  EXPECT_EQ(changes("core0.compute.busy"), (Changes{{0, 0}, {9192, 1}, {1'321'192, 0}}));
  EXPECT_EQ(changes("core0.dma.busy"),
            (Changes{{0, 1}, {17'384, 0}, {1'321'192, 1}, {1'326'288, 0}}));
  EXPECT_EQ(
      changes("core0.dma.in_flight_requests"),
      (Changes{
          {0, 4}, {5096, 3}, {9192, 2}, {13'288, 1}, {17'384, 0}, {1'321'192, 1}, {1'326'288, 0}}));
  EXPECT_EQ(changes("core0.dma.in_flight_bytes"), (Changes{{0, 16'384},
                                                           {5096, 12'288},
                                                           {9192, 8192},
                                                           {13'288, 4096},
                                                           {17'384, 0},
                                                           {1'321'192, 4096},
                                                           {1'326'288, 0}}));
  // Every request leaves the core's queue as soon as it is ready: the limit never holds it.
  EXPECT_EQ(changes("core0.dma.queued_requests"), (Changes{{0, 0}}));
  // A stage is full from its second tile's landing until its compute is done with it.
  EXPECT_EQ(changes("core0.sram.stages_full"),
            (Changes{{0, 0}, {9192, 1}, {17'384, 2}, {665'192, 1}, {1'321'192, 0}}));
  // The store is posted: the block retires as it leaves the queue, before the HBM takes it.
  EXPECT_EQ(changes("core0.blocks.resident"), (Changes{{0, 1}, {1'321'192, 0}}));
  EXPECT_EQ(changes("hbm.ch0.busy"),
            (Changes{{0, 1}, {16'384, 0}, {1'321'192, 1}, {1'325'288, 0}}));
  // B_0, A_1 and B_1 arrive with A_0 and wait for the channel in turn.
  EXPECT_EQ(changes("hbm.ch0.queued_requests"),
            (Changes{{0, 3}, {4096, 2}, {8192, 1}, {12'288, 0}}));
  // The rates' windows add up to the run's FLOPs and HBM bytes.
  EXPECT_EQ(windows_total(vcd.var("SystemC.top.core0.compute.flop_per_s"), 1'326'288), 2u * 65'536);
  EXPECT_EQ(windows_total(vcd.var("SystemC.top.flop_per_s"), 1'326'288), 2u * 65'536);
  EXPECT_EQ(windows_total(vcd.var("SystemC.top.hbm.bytes_per_s"), 1'326'288), 5u * 4096);
  // The file ends after the last change.
  EXPECT_GT(vcd.times.back(), 1'326'288u);
  std::remove(options.vcd_path.c_str());
  std::remove(options.timeline_path.c_str());
}

TEST(Tracer, TimelineSlicesAreTheOps) {
  const WaveformOptions options = options_for("slices");
  run_traced(options);
  std::ifstream file(options.timeline_path);
  const nlohmann::json timeline = nlohmann::json::parse(file);
  // (name, ts, dur) of every slice, in microseconds, by track.
  std::map<std::string, std::vector<std::tuple<std::string, double, double>>> slices;
  std::map<std::pair<int, int>, std::string> threads;
  std::map<int, std::string> processes;
  for (const auto& e : timeline["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") {
      threads[{e["pid"], e["tid"]}] = e["args"]["name"];
    } else if (e["ph"] == "M" && e["name"] == "process_name") {
      processes[e["pid"]] = e["args"]["name"];
    }
  }
  for (const auto& e : timeline["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string track = processes[e["pid"]] + "." + threads[{e["pid"], e["tid"]}];
    slices[track].emplace_back(e["name"], e["ts"], e["dur"]);
  }
  using Slices = std::vector<std::tuple<std::string, double, double>>;
  EXPECT_EQ(slices["top.core0.compute"],
            (Slices{{"compute 0", 0.009192, 0.656}, {"compute 1", 0.665192, 0.656}}));
  // Four loads in flight at once: four lanes, each in time order.
  EXPECT_EQ(slices["top.core0.dma"],
            (Slices{{"load A_0", 0.0, 0.005096}, {"store C_0", 1.321192, 0.005096}}));
  EXPECT_EQ(slices["top.core0.dma 1"], (Slices{{"load B_0", 0.0, 0.009192}}));
  EXPECT_EQ(slices["top.core0.dma 3"], (Slices{{"load B_1", 0.0, 0.017384}}));
  EXPECT_EQ(slices["top.hbm.ch0"].size(), 5u);
  EXPECT_EQ(slices["top.core0.block slot 0"], (Slices{{"block (0, 0)", 0.0, 1.321192}}));
  std::remove(options.vcd_path.c_str());
  std::remove(options.timeline_path.c_str());
}

// A window shows the state at its start, then the changes inside it, and ends at its end.
TEST(Tracer, WindowStartsFromTheStateAndEndsTheFile) {
  WaveformOptions options = options_for("window");
  options.start = Time::from_ps(10'000);
  options.end = Time::from_ps(700'000);
  run_traced(options);
  const test::Vcd vcd = test::read_vcd(options.vcd_path);
  const auto changes = [&](const std::string& name) {
    return vcd.var("SystemC.top." + name).changes;
  };
  // Zero before the window; at its start the values that held then (2 loads in flight).
  EXPECT_EQ(changes("core0.dma.in_flight_requests"),
            (Changes{{0, 0}, {10'000, 2}, {13'288, 1}, {17'384, 0}}));
  EXPECT_EQ(changes("core0.compute.busy"), (Changes{{0, 0}, {10'000, 1}}));
  EXPECT_EQ(changes("core0.sram.stages_full"),
            (Changes{{0, 0}, {10'000, 1}, {17'384, 2}, {665'192, 1}}));
  EXPECT_EQ(vcd.times.back(), 700'000u);  // closed at the window's end
  std::ifstream file(options.timeline_path);
  const nlohmann::json timeline = nlohmann::json::parse(file);
  for (const auto& e : timeline["traceEvents"]) {
    if (e["ph"] == "X") {
      EXPECT_GE(e["ts"].get<double>(), 0.01) << e.dump();
      EXPECT_LT(e["ts"].get<double>(), 0.7) << e.dump();
    }
  }
  std::remove(options.vcd_path.c_str());
  std::remove(options.timeline_path.c_str());
}

}  // namespace
}  // namespace ridgeline
