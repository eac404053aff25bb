// Ridgeline's speed and memory benchmarks (Google Benchmark).
//
// 1. SystemC/raw_event_rate: the SystemC kernel alone on this machine. As many SC_METHOD
//    processes as the seed machine has cores each re-arm their own event with a spread of delays,
//    the pattern a simulation's completions make; the rate is timed events per second. A fixed
//    delay variant shows the kernel's best case.
// 2. Seed/<case>: `ridgeline run` of one of the seed table's 4096^3 cases, each in a child
//    process (SystemC elaborates once per process). Items are program ops; the child's peak
//    resident memory is a counter.
// 3. L2/<case>: Seed-like cases on the seed machine with its 40 MiB L2
//    (configs/hardware/seed-l2.yaml): what looking every line of every tile up in the cache costs.
// 4. Hbm/<case>/<mode>: `ridgeline run` on one HBM3 stack (configs/hardware/hbm3-stack.yaml) in
//    simple and in detailed mode: memory traces of 2 million 64 B accesses (sequential, random),
//    written to /tmp at start-up, and a vector add of 16 KiB requests. Items are HBM requests.
// 5. Trace/<case>/<mode>: the seed's t = 128 case without traces and with each of them (a VCD, a
//    timeline, both, a VCD of one core and the HBM), files in /tmp: what tracing costs per op.
// 6. Dram/<mapping>-<stream>/<scheduler>: the DRAM comparison's streams (docs/DRAM-VALIDATION.md)
//    on configs/hardware/hbm3-stack-ramulator.yaml: 1,048,576 accesses of 64 B, sequential and
//    uniform over 8 GiB, under MOP4CLXOR and RoBaRaCoCh; and Hbm/gemm-4096-t64 and -t128 on
//    hbm3-stack.yaml in both modes (what the detailed DRAM costs a GEMM).
// 7. Graph/<model>/<phase>/<command>: a transformer's graph (configs/workloads/models/) on the
//    H100 preset, `analyze` and `run -j 1` (every distinct kernel simulated one after another, on
//    one core). Items are the graph's kernels; peak resident memory is the largest process's.
//    And `analyze-in-process`: the same analysis and text report called in this process, the
//    process start left out.
// A child's time is its own, from its start to its end (posix_spawn to wait4), without this
// process's parse of its JSON report.
// At the end a summary prints the medians and the ratio of simulated ops per second to raw
// SystemC events per second, measured in this same run, and what the detailed HBM mode costs.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <systemc>
#include <vector>

#include "bench/bench_support.hpp"
#include "models/sc_main_stub.hpp"
#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_report.hpp"

namespace {

// ---------------------------------------------------------------- raw SystemC event rate

// Whether tickers re-arm with a spread of delays or a fixed one; read at every tick, so one
// elaboration serves both variants.
bool g_spread_delays = true;

class Ticker : public sc_core::sc_module {
 public:
  Ticker(sc_core::sc_module_name name, std::uint64_t seed)
      : sc_module(name), state_(seed * 2654435761u + 1) {
    SC_HAS_PROCESS(Ticker);
    SC_METHOD(tick);
    sensitive << event_;
    dont_initialize();
  }
  void start_of_simulation() override { event_.notify(next_delay()); }
  std::uint64_t ticks = 0;

 private:
  sc_core::sc_time next_delay() {
    if (!g_spread_delays) return sc_core::sc_time::from_value(1000);
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return sc_core::sc_time::from_value(1000 + (state_ >> 40) % 4000);  // 1 to 5 ns
  }
  void tick() {
    ++ticks;
    event_.notify(next_delay());
  }
  sc_core::sc_event event_;
  std::uint64_t state_;
};

constexpr int kProcesses = 128;  // the seed machine's cores

const std::vector<std::unique_ptr<Ticker>>& tickers() {
  static const std::vector<std::unique_ptr<Ticker>> all = [] {
    std::vector<std::unique_ptr<Ticker>> made;
    for (int i = 0; i < kProcesses; ++i) {
      made.push_back(std::make_unique<Ticker>(sc_core::sc_gen_unique_name("ticker"), i));
    }
    return made;
  }();
  return all;
}

std::uint64_t total_ticks() {
  std::uint64_t sum = 0;
  for (const auto& t : tickers()) sum += t->ticks;
  return sum;
}

void RawEventRate(benchmark::State& state, bool spread) {
  g_spread_delays = spread;
  tickers();                                                // elaborates on first use
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));  // warm up in this mode
  const std::uint64_t before = total_ticks();
  for (auto _ : state) sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  state.SetItemsProcessed(static_cast<std::int64_t>(total_ticks() - before));
}

// ---------------------------------------------------------------- seed cases, one process each

struct Child {
  double wall_s = 0;  ///< from its start to its end, nothing of this process's around it
  double peak_rss_mib = 0;
  std::uint64_t ops = 0;
  std::uint64_t hbm_requests = 0;
  std::uint64_t kernels = 0;  ///< a graph's
};

const std::string kSeedHardware = std::string(RIDGELINE_SOURCE_DIR) + "/configs/hardware/seed.yaml";

Child run_ridgeline(const std::string& command, const std::string& workload,
                    const std::vector<std::string>& overrides,
                    const std::string& hardware = kSeedHardware,
                    const std::vector<std::string>& extra = {}) {
  const std::string json = "/tmp/ridgeline_bench_" + std::to_string(getpid()) + ".json";
  std::vector<std::string> arguments{RIDGELINE_BINARY,
                                     command,
                                     hardware,
                                     workload.front() == '/' ? workload
                                                             : std::string(RIDGELINE_SOURCE_DIR) +
                                                                   "/configs/workloads/" + workload,
                                     "--quiet",
                                     "--json",
                                     json};
  for (const auto& o : overrides) {
    arguments.push_back("--set");
    arguments.push_back(o);
  }
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  // posix_spawn, not fork: a fork copies this process's page tables (the in-process cases leave
  // it large), which a child's start would pay in the figure.
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int status = 0;
  rusage usage{};
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return Child{};
  wait4(pid, &status, 0, &usage);
  Child child;
  child.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return Child{};
  child.peak_rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
  std::ifstream file(json);
  const auto report = nlohmann::json::parse(file);
  if (report["analytical"].contains("kernels")) {
    child.kernels = report["analytical"]["kernels"].size();
  } else if (report.contains("simulated")) {
    child.ops = report["simulated"]["ops"].get<std::uint64_t>();
  }
  if (report.contains("components")) {
    const auto& hbm = report["components"]["hbm"];
    child.hbm_requests = static_cast<std::uint64_t>(hbm["reads"].get<double>()) +
                         static_cast<std::uint64_t>(hbm["writes"].get<double>());
  }
  std::remove(json.c_str());
  return child;
}

// `ridgeline run` once an iteration; items are the child's `items` (program ops, HBM requests).
void RunCase(benchmark::State& state, const std::string& hardware, const std::string& workload,
             const std::vector<std::string>& overrides, std::uint64_t Child::*items,
             const char* items_name, const std::vector<std::string>& extra = {},
             const std::string& command = "run") {
  Child child;
  std::int64_t total = 0;
  for (auto _ : state) {
    child = run_ridgeline(command, workload, overrides, hardware, extra);
    if (child.*items == 0) {
      state.SkipWithError("ridgeline run failed");
      return;
    }
    state.SetIterationTime(child.wall_s);  // the child's, not its report's parse here
    total += static_cast<std::int64_t>(child.*items);
  }
  state.SetItemsProcessed(total);
  state.counters["peak_rss_MiB"] = child.peak_rss_mib;
  state.counters[items_name] = static_cast<double>(child.*items);
}

void SeedCase(benchmark::State& state, const std::string& workload,
              const std::vector<std::string>& overrides) {
  RunCase(state, kSeedHardware, workload, overrides, &Child::ops, "ops");
}

const std::string kL2Hardware =
    std::string(RIDGELINE_SOURCE_DIR) + "/configs/hardware/seed-l2.yaml";

// `workload` under configs/questions/q3-l2-reuse/workloads/.
void L2Case(benchmark::State& state, const std::string& workload) {
  RunCase(
      state, kL2Hardware,
      std::string(RIDGELINE_SOURCE_DIR) + "/configs/questions/q3-l2-reuse/workloads/" + workload,
      {}, &Child::ops, "ops");
}

// ---------------------------------------------------------------- HBM modes, one stack

const std::string kStackHardware =
    std::string(RIDGELINE_SOURCE_DIR) + "/configs/hardware/hbm3-stack.yaml";
constexpr std::uint64_t kTraceAccesses = 2'000'000;

// A memory_trace workload of `count` 64 B loads, sequential from 0 or uniformly random over
// `span` bytes, written to /tmp/ridgeline_bench_<name> (about 15 bytes a line) when first asked.
std::string write_trace_workload(const std::string& name, std::uint64_t count, bool random,
                                 std::uint64_t span, std::uint64_t seed) {
  const std::string base = "/tmp/ridgeline_bench_" + name;
  std::ofstream trace(base + ".trace");
  std::uint64_t state = seed;
  char line[32];
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t address = i * 64;
    if (random) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      address = (state >> 30) % (span / 64) * 64;
    }
    std::snprintf(line, sizeof line, "LD 0x%llx\n", static_cast<unsigned long long>(address));
    trace << line;
  }
  std::ofstream(base + ".yaml") << "workload:\n  kind: memory_trace\n  path: " << base
                                << ".trace\n";
  return base + ".yaml";
}
std::string write_trace_workload(bool random) {  // over the stack's 16 GiB
  return write_trace_workload(random ? "random" : "sequential", kTraceAccesses, random, 16ULL << 30,
                              1);
}

// `workload`: a file under configs/workloads/, or "trace:sequential" / "trace:random".
void HbmCase(benchmark::State& state, const std::string& workload,
             const std::vector<std::string>& overrides) {
  static const std::map<std::string, std::string> traces = {
      {"trace:sequential", write_trace_workload(false)},
      {"trace:random", write_trace_workload(true)}};
  const auto trace = traces.find(workload);
  RunCase(state, kStackHardware, trace != traces.end() ? trace->second : workload, overrides,
          &Child::hbm_requests, "requests");
}

// ---------------------------------------------------------------- the DRAM comparison's streams

const std::string kRamulatorHardware =
    std::string(RIDGELINE_SOURCE_DIR) + "/configs/hardware/hbm3-stack-ramulator.yaml";
constexpr std::uint64_t kReferenceAccesses = 1'048'576;

// The reference streams: 64 B loads at 0, 64, 128, ... or uniform over 8 GiB; in /tmp.
std::string write_reference_workload(bool random) {
  return write_trace_workload(random ? "ref_rand" : "ref_seq", kReferenceAccesses, random,
                              8ULL << 30, 7);
}

void DramCase(benchmark::State& state, bool random, const std::vector<std::string>& overrides) {
  static const std::string seq = write_reference_workload(false);
  static const std::string rand = write_reference_workload(true);
  RunCase(state, kRamulatorHardware, random ? rand : seq, overrides, &Child::hbm_requests,
          "requests");
}

// ---------------------------------------------------------------- traces
// The seed's t = 128 case with the trace arguments `traces` (files under /tmp, removed after).
void TraceCase(benchmark::State& state, const std::vector<std::string>& traces) {
  std::vector<std::string> extra;
  const std::string base = "/tmp/ridgeline_bench_trace_" + std::to_string(getpid());
  for (const std::string& a : traces)
    extra.push_back(a == "VCD" ? base + ".vcd" : a == "JSON" ? base + ".trace.json" : a);
  RunCase(state, kSeedHardware, "seed/gemm-4096-t128-double.yaml", {}, &Child::ops, "ops", extra);
  for (const char* suffix : {".vcd", ".gtkw", ".trace.json"}) std::remove((base + suffix).c_str());
}

// The graph's analysis and text report in this process: `analyze` without the process start.
void GraphAnalysisInProcess(benchmark::State& state, const std::string& hardware,
                            const std::string& workload) {
  std::size_t kernels = 0;
  for (auto _ : state) {
    const ridgeline::GraphConfig config =
        ridgeline::load_graph_config(hardware, workload, {}, false);
    benchmark::DoNotOptimize(ridgeline::graph_report_text(config, nullptr));
    kernels = config.kernels.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kernels));
  state.counters["kernels"] = static_cast<double>(kernels);
}

// The same process start, configuration and report without the simulation: what every Seed case
// pays besides simulating.
void Startup(benchmark::State& state) {
  for (auto _ : state) {
    state.SetIterationTime(run_ridgeline("analyze", "seed/gemm-4096-t128-double.yaml", {}).wall_s);
  }
}

// ---------------------------------------------------------------- summary

// Keeps every run's figures so main() can print medians and ratios after the console report.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (!ridgeline::bench::is_sample(run)) continue;
      const auto items = run.counters.find("items_per_second");
      if (items != run.counters.end())
        rates_[run.run_name.function_name].push_back(items->second.value);
      seconds_[run.run_name.function_name].push_back(
          run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit));
      const auto rss = run.counters.find("peak_rss_MiB");
      if (rss != run.counters.end())
        rss_[run.run_name.function_name] =
            std::max(rss_[run.run_name.function_name], rss->second.value);
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void PrintSummary() const {
    const double raw = median(rates_, "SystemC/raw_event_rate/spread");
    const double raw_fixed = median(rates_, "SystemC/raw_event_rate/fixed");
    std::printf("\nsummary (medians of this run)\n");
    if (raw > 0)
      std::printf("  raw SystemC event rate, spread delays: %.2f M events/s\n", raw / 1e6);
    if (raw_fixed > 0)
      std::printf("  raw SystemC event rate, fixed delay:   %.2f M events/s\n", raw_fixed / 1e6);
    const double startup = median(seconds_, "Startup/analyze");
    if (startup > 0) {
      std::printf("  process start, configuration and report (analyze): %.4f s\n", startup);
    }
    std::printf("  %-28s %8s %9s %9s %9s %14s %9s\n", "case", "wall s", "M ops/s", "x spread",
                "x fixed", "M ops/s (sim)", "peak MiB");
    double four = 0;
    for (const auto& [name, rates] : rates_) {
      if (name.rfind("Seed/", 0) != 0 && name.rfind("L2/", 0) != 0) continue;
      const double rate = median(rates_, name);
      const double seconds = median(seconds_, name);
      // The simulation alone: the wall time less what analyze takes for the same start-up.
      const double sim_rate = seconds > startup ? rate * seconds / (seconds - startup) : 0;
      if (name.rfind("Seed/gemm-4096", 0) == 0) four += seconds;
      const auto rss = rss_.find(name);
      std::printf("  %-28s %8.3f %9.2f %9.2f %9.2f %14.2f %9.1f\n",
                  name.c_str() + (name.rfind("Seed/", 0) == 0 ? 5 : 0), seconds, rate / 1e6,
                  raw > 0 ? rate / raw : 0, raw_fixed > 0 ? rate / raw_fixed : 0, sim_rate / 1e6,
                  rss != rss_.end() ? rss->second : 0);
    }
    if (four > 0) std::printf("  the four seed cases together: %.3f s\n", four);

    const std::string trace_case = "Trace/gemm-4096-t128-double/";
    const double off = median(seconds_, trace_case + "off");
    if (off > 0) {
      std::printf("\n  %-40s %8s %12s %10s\n", "traces (seed t = 128, 99,328 ops)", "wall s",
                  "M ops/s", "x off");
      for (const char* mode : {"off", "vcd", "timeline", "vcd+timeline", "vcd-core0-hbm"}) {
        const double seconds = median(seconds_, trace_case + mode);
        if (seconds <= 0) continue;
        std::printf("  %-40s %8.3f %12.3f %10.1f\n", mode, seconds,
                    median(rates_, trace_case + mode) / 1e6, seconds / off);
      }
    }

    PrintDramSummary();
    const bool any_hbm = std::any_of(rates_.begin(), rates_.end(),
                                     [](const auto& r) { return r.first.rfind("Hbm/", 0) == 0; });
    if (!any_hbm) return;
    std::printf("\n  HBM modes on one HBM3 stack (items: HBM requests)\n");
    std::printf("  %-30s %8s %10s %16s %9s\n", "case", "wall s", "M req/s", "ns/req (sim)",
                "peak MiB");
    for (const auto& [name, rates] : rates_) {
      if (name.rfind("Hbm/", 0) != 0) continue;
      const double rate = median(rates_, name);
      const double seconds = median(seconds_, name);
      // The simulation alone: wall time less the start-up, over the requests (rate x wall time).
      const double ns_per_request =
          rate > 0 && seconds > startup ? (seconds - startup) / (rate * seconds) * 1e9 : 0;
      const auto rss = rss_.find(name);
      std::printf("  %-30s %8.3f %10.2f %16.1f %9.1f\n", name.c_str() + 4, seconds, rate / 1e6,
                  ns_per_request, rss != rss_.end() ? rss->second : 0);
    }
    for (const char* workload : {"trace-sequential-2M", "trace-random-2M", "vector-add-64M",
                                 "gemm-4096-t64", "gemm-4096-t128"}) {
      const double simple = median(seconds_, std::string("Hbm/") + workload + "/simple");
      const double detailed = median(seconds_, std::string("Hbm/") + workload + "/detailed");
      if (simple > startup && detailed > startup) {
        std::printf("  %s: detailed takes %.2f x the simple mode's simulation time\n", workload,
                    (detailed - startup) / (simple - startup));
      }
    }
  }

 private:
  void PrintDramSummary() const {
    // Ramulator 2.1 takes 28 to 58 s and DRAMsim3 2 to 10 s for one of these streams on this
    // kind of machine (the figures): the ratios use the fastest of each.
    std::printf("\n  the DRAM comparison's streams, 1,048,576 accesses (hbm3-stack-ramulator)\n");
    std::printf("  %-34s %8s %12s %14s\n", "case", "wall s", "x Ramulator", "x DRAMsim3");
    for (const auto& [name, seconds] : seconds_) {
      if (name.rfind("Dram/", 0) != 0) continue;
      const double s = median(seconds_, name);
      if (s <= 0) continue;
      std::printf("  %-34s %8.3f %12.0f %14.1f\n", name.c_str() + 5, s, 28.0 / s, 2.0 / s);
    }
  }

 private:
  using Series = std::map<std::string, std::vector<double>>;
  static double median(const Series& series, const std::string& name) {
    auto it = series.find(name);
    return it == series.end() ? 0 : ridgeline::bench::median(it->second);
  }
  Series rates_;
  Series seconds_;
  std::map<std::string, double> rss_;
};

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  benchmark::RegisterBenchmark("SystemC/raw_event_rate/spread", RawEventRate, true)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("SystemC/raw_event_rate/fixed", RawEventRate, false)
      ->Unit(benchmark::kMillisecond);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Seed/gemm-4096-no-reuse", "seed/gemm-4096-no-reuse.yaml"},
      {"Seed/gemm-4096-t32-double", "seed/gemm-4096-t32-double.yaml"},
      {"Seed/gemm-4096-t64-double", "seed/gemm-4096-t64-double.yaml"},
      {"Seed/gemm-4096-t128-double", "seed/gemm-4096-t128-double.yaml"},
  };
  benchmark::RegisterBenchmark("Startup/analyze", Startup)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime()
      ->Iterations(1);
  for (const auto& [name, workload] : cases) {
    benchmark::RegisterBenchmark(name.c_str(), SeedCase, workload, std::vector<std::string>{})
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(1);
  }
  // Memory flat in matrix size: the same tile at three sizes.
  for (const char* size : {"1024", "2048", "8192"}) {
    benchmark::RegisterBenchmark((std::string("Seed/gemm-") + size + "-t128-double").c_str(),
                                 SeedCase, std::string("seed/gemm-4096-t128-double.yaml"),
                                 std::vector<std::string>{std::string("workload.m=") + size,
                                                          std::string("workload.n=") + size,
                                                          std::string("workload.k=") + size})
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(1);
  }
  // With the L2: the cheapest and the dearest tile of the seed table, in both block orders.
  for (const char* tile : {"t128", "t32"}) {
    for (const char* order : {"row-major", "grouped"}) {
      const std::string name = std::string("L2/gemm-4096-") + tile + "-" + order;
      benchmark::RegisterBenchmark(name.c_str(), L2Case,
                                   std::string("gemm-4096-") + tile + "-" + order + ".yaml")
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(1);
    }
  }
  // HBM modes: the same workloads on one stack, simple and detailed.
  const std::vector<std::pair<std::string, std::string>> hbm_cases = {
      {"trace-sequential-2M", "trace:sequential"},
      {"trace-random-2M", "trace:random"},
      {"vector-add-64M", "vector-add.yaml"},
  };
  for (const auto& [name, workload] : hbm_cases) {
    for (const char* mode : {"simple", "detailed"}) {
      std::vector<std::string> overrides{std::string("hardware.hbm.mode=") + mode};
      if (name == "vector-add-64M") overrides.push_back("workload.length=67108864");
      benchmark::RegisterBenchmark(("Hbm/" + name + "/" + mode).c_str(), HbmCase, workload,
                                   overrides)
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(1);
    }
  }
  // The detailed DRAM on the seed's GEMMs (t = 64 and 128) on one HBM3 stack, both modes.
  for (const char* tile : {"t64", "t128"}) {
    for (const char* mode : {"simple", "detailed"}) {
      benchmark::RegisterBenchmark(
          (std::string("Hbm/gemm-4096-") + tile + "/" + mode).c_str(), HbmCase,
          std::string("seed/gemm-4096-") + tile + "-double.yaml",
          std::vector<std::string>{std::string("hardware.hbm.mode=") + mode})
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(1);
    }
  }
  // The DRAM comparison's streams: both mappings, fr_fcfs; and fcfs once for what it costs.
  for (const char* mapping : {"MOP4CLXOR", "RoBaRaCoCh"}) {
    for (bool random : {false, true}) {
      for (const char* scheduler : {"fr_fcfs", "fcfs"}) {
        if (std::string(scheduler) == "fcfs" && std::string(mapping) != "MOP4CLXOR") continue;
        std::vector<std::string> overrides{
            std::string("hardware.hbm.address_mapping=") + mapping,
            std::string("hardware.hbm.controller.scheduler=") + scheduler};
        // fcfs has no queue to stall on: bound the player instead.
        if (std::string(scheduler) == "fcfs")
          overrides.push_back("hardware.hbm.max_requests_in_flight_per_core=2048");
        benchmark::RegisterBenchmark(
            (std::string("Dram/") + mapping + "-" + (random ? "rand" : "seq") + "/" + scheduler)
                .c_str(),
            DramCase, random, overrides)
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->Iterations(1);
      }
    }
  }
  // Traces: the cost of each, per op (VCD and JSON stand for the files' paths).
  const std::vector<std::pair<std::string, std::vector<std::string>>> trace_modes = {
      {"off", {}},
      {"vcd", {"--vcd", "VCD"}},
      {"timeline", {"--timeline", "JSON"}},
      {"vcd+timeline", {"--vcd", "VCD", "--timeline", "JSON"}},
      {"vcd-core0-hbm", {"--vcd", "VCD", "--trace", "top.core0", "--trace", "top.hbm"}},
  };
  for (const auto& [mode, traces] : trace_modes) {
    benchmark::RegisterBenchmark(("Trace/gemm-4096-t128-double/" + mode).c_str(), TraceCase, traces)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(1);
  }
  // Graphs: a transformer's analysis, and its run with one kernel simulated at a time.
  const std::string h100 =
      std::string(RIDGELINE_SOURCE_DIR) + "/configs/hardware/h100-sxm5-80gb.yaml";
  for (const char* model : {"llama-2-7b-prefill", "llama-2-7b-decode"}) {
    for (const char* command : {"analyze", "run"}) {
      benchmark::RegisterBenchmark((std::string("Graph/") + model + "/" + command).c_str(),
                                   [=](benchmark::State& state) {
                                     RunCase(state, h100, std::string("models/") + model + ".yaml",
                                             {}, &Child::kernels, "kernels",
                                             std::string(command) == "run"
                                                 ? std::vector<std::string>{"-j", "1"}
                                                 : std::vector<std::string>{},
                                             command);
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(std::string(command) == "run" ? 1 : 20);
    }
    benchmark::RegisterBenchmark(
        (std::string("Graph/") + model + "/analyze-in-process").c_str(), GraphAnalysisInProcess,
        h100, std::string(RIDGELINE_SOURCE_DIR) + "/configs/workloads/models/" + model + ".yaml")
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(20);
  }
  return ridgeline::bench::run_and_summarize<SummaryReporter>(argc, argv);
}
