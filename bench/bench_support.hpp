// What the benchmarks' summaries share: which reported runs are samples, and their median.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

namespace ridgeline::bench {

/// Repetitions arrive as iterations, or, with --benchmark_report_aggregates_only, as their
/// median: either way a summary takes the median of these.
inline bool is_sample(const benchmark::BenchmarkReporter::Run& run) {
  using Run = benchmark::BenchmarkReporter::Run;
  const bool median_aggregate = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
  return (run.run_type == Run::RT_Iteration || median_aggregate) && !run.error_occurred;
}

/// The median of `values`; 0 when there are none.
inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Runs the benchmarks registered (as the command line selects), then prints the summary that
/// `Reporter` (a ConsoleReporter with PrintSummary) gathered from them.
template <typename Reporter>
int run_and_summarize(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  Reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintSummary();
  benchmark::Shutdown();
  return 0;
}

}  // namespace ridgeline::bench
