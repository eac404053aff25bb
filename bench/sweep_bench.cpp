// Sweep speed (Google Benchmark); docs/PERFORMANCE.md records the figures.
//
// 1. Sweep/analytical_evaluate: SweepEvaluator::evaluate over bench/sweeps/analytical-1m.yaml in
//    this process: configuration (typed fields set, every rule checked), the analytical model,
//    the row of results. CPU time, so other load on the machine does not count. The bar: at
//    least a million points per second on one core.
// 2. Sweep/analytical_rows: the same, plus each point's JSON and CSV lines as the results files
//    get them (no disk).
// 3. Sweep/analytical_command: `ridgeline sweep ... --analytical --shard 1/10` (100,000 points)
//    as a user runs it, files written; wall time.
// 4. Sweep/simulated_jobs: `ridgeline sweep bench/sweeps/short-points.yaml` (24 short simulated
//    points) at -j 1, then at -j 2, in each iteration; the ratio of the two wall times is taken
//    per iteration so that load that comes and goes falls on both. The bar: -j 2 at least 1.8
//    times -j 1 on 2 cores.
#include <benchmark/benchmark.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "models/sc_main_stub.hpp"
#include "sim/sweep/sweep_evaluator.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace {

using namespace ridgeline;

const std::string kSource = RIDGELINE_SOURCE_DIR;
const std::string kMillion = kSource + "/bench/sweeps/analytical-1m.yaml";
const std::string kShortPoints = kSource + "/bench/sweeps/short-points.yaml";

void AnalyticalEvaluate(benchmark::State& state, bool rows) {
  const SweepSpec spec = load_sweep(kMillion);
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  RowWriter writer(columns);
  Row row;
  std::string json, csv;
  std::uint64_t point = 0;
  std::uint64_t ok = 0;
  for (auto _ : state) {
    ok += evaluator.evaluate(point, row) == PointStatus::ok;
    if (rows) {
      columns.place(row);
      json.clear();
      csv.clear();
      writer.write(row, &json, &csv);
      benchmark::DoNotOptimize(json.data());
    }
    point = point + 1 == spec.points ? 0 : point + 1;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["ok_fraction"] =
      static_cast<double>(ok) / static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
  state.counters["slow_documents"] = static_cast<double>(evaluator.slow_documents());
}

// Runs `ridgeline ARGUMENTS` to its end; its wall time in seconds, or -1 when it failed.
double run_ridgeline(const std::vector<std::string>& arguments) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    std::vector<char*> argv{const_cast<char*>(RIDGELINE_BINARY)};
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(RIDGELINE_BINARY, argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Where the sweeps write: /tmp, or $RIDGELINE_BENCH_DIR (e.g. /dev/shm, to see what the file
// system costs).
std::string scratch(const std::string& name) {
  const char* folder = std::getenv("RIDGELINE_BENCH_DIR");
  return std::string(folder ? folder : "/tmp") + "/ridgeline_sweep_bench_" +
         std::to_string(getpid()) + "_" + name;
}

void AnalyticalCommand(benchmark::State& state) {
  const std::string out = scratch("analytical");
  const SweepSpec spec = load_sweep(kMillion);
  const std::uint64_t points = (spec.points + 9) / 10;
  for (auto _ : state) {
    std::filesystem::remove_all(out);
    const double seconds =
        run_ridgeline({"sweep", kMillion, "--analytical", "--shard", "1/10", "--out", out});
    if (seconds < 0) {
      state.SkipWithError("ridgeline sweep failed");
      break;
    }
    state.SetIterationTime(seconds);
  }
  state.counters["output_MiB"] =
      static_cast<double>(std::filesystem::file_size(out + "/results.jsonl") +
                          std::filesystem::file_size(out + "/results.csv")) /
      (1024.0 * 1024.0);
  std::filesystem::remove_all(out);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(points));
}

void SimulatedJobs(benchmark::State& state) {
  const std::string out = scratch("simulated");
  double one = 0, two = 0;
  for (auto _ : state) {
    std::filesystem::remove_all(out);
    one = run_ridgeline({"sweep", kShortPoints, "-j", "1", "--out", out});
    std::filesystem::remove_all(out);
    two = run_ridgeline({"sweep", kShortPoints, "-j", "2", "--out", out});
    if (one < 0 || two < 0) {
      state.SkipWithError("ridgeline sweep failed");
      break;
    }
    state.SetIterationTime(one + two);
  }
  std::filesystem::remove_all(out);
  state.counters["j1_s"] = one;
  state.counters["j2_s"] = two;
  state.counters["speedup"] = one / two;
}

// Medians of the repetitions, printed after the console report.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (!ridgeline::bench::is_sample(run)) continue;
      for (const auto& [name, counter] : run.counters)
        values_[run.run_name.function_name + "." + name].push_back(counter.value);
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void PrintSummary() const {
    std::printf("\nsweep summary (medians of this run)\n");
    const double evaluate = median("Sweep/analytical_evaluate.items_per_second");
    const double rows = median("Sweep/analytical_rows.items_per_second");
    const double command = median("Sweep/analytical_command.items_per_second");
    if (evaluate > 0)
      std::printf("  analytical points evaluated, one core (CPU time): %.2f M/s\n", evaluate / 1e6);
    if (rows > 0)
      std::printf("  ... with their JSON and CSV lines formatted:      %.2f M/s\n", rows / 1e6);
    if (command > 0) {
      std::printf(
          "  ridgeline sweep --analytical, 100,000 points, files written: %.0f k/s "
          "(%.0f MiB written)\n",
          command / 1e3, median("Sweep/analytical_command.output_MiB"));
    }
    const double speedup = median("Sweep/simulated_jobs.speedup");
    if (speedup > 0) {
      std::printf("  24 short simulated points: -j 1 %.3f s, -j 2 %.3f s, speedup %.2f\n",
                  median("Sweep/simulated_jobs.j1_s"), median("Sweep/simulated_jobs.j2_s"),
                  speedup);
    }
  }

 private:
  double median(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? 0 : ridgeline::bench::median(it->second);
  }
  std::map<std::string, std::vector<double>> values_;
};

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  benchmark::RegisterBenchmark("Sweep/analytical_evaluate", AnalyticalEvaluate, false)
      ->MinTime(2.0);
  benchmark::RegisterBenchmark("Sweep/analytical_rows", AnalyticalEvaluate, true)->MinTime(2.0);
  benchmark::RegisterBenchmark("Sweep/analytical_command", AnalyticalCommand)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime()
      ->Iterations(1);
  benchmark::RegisterBenchmark("Sweep/simulated_jobs", SimulatedJobs)
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime()
      ->Iterations(1);
  return ridgeline::bench::run_and_summarize<SummaryReporter>(argc, argv);
}
