#include "tests/invariants/invariant_runs.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "sim/util/child_process.hpp"
#include "tests/invariants/report_checks.hpp"

namespace ridgeline::test {

namespace {

// User and system time of the children this process has waited for.
double children_cpu_s() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// "min 0.010 s, median 0.120 s, p90 0.900 s, max 2.100 s, total 12.3 s" of `values`, sorted.
std::string distribution(const std::vector<double>& sorted) {
  double total = 0;
  for (double value : sorted) total += value;
  const auto at = [&](double q) {
    return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(q * sorted.size()))];
  };
  return fmt::format("total {:.2f} s, min {:.3f} s, median {:.3f} s, p90 {:.3f} s, max {:.3f} s",
                     total, sorted.front(), at(0.5), at(0.9), sorted.back());
}

}  // namespace

std::string CheckedRun::first_error_line() const {
  return error_text.substr(0, error_text.find('\n'));
}

namespace {

// `ridgeline ARGUMENTS`, with its command line, exit, stderr and times (no report read yet).
CheckedRun run_ridgeline(const std::vector<std::string>& arguments,
                         double time_limit_s = kRunTimeLimitS) {
  CheckedRun run;
  run.command = RIDGELINE_BINARY;
  for (const std::string& argument : arguments) run.command += " " + argument;
  ChildPool pool(RIDGELINE_BINARY, 1, time_limit_s);
  const double cpu_before = children_cpu_s();
  pool.start(0, arguments);
  const ChildResult result = pool.wait().second;
  run.cpu_s = children_cpu_s() - cpu_before;
  run.exit_code = result.exit_code;
  run.error_text = result.error_text;
  run.wall_s = result.wall_s;
  if (!result.ok()) run.outcome = result.failure();
  return run;
}

}  // namespace

CheckedRun run_and_check(const std::string& hardware, const std::string& workload,
                         const std::string& json_path, double time_limit_s) {
  CheckedRun run =
      run_ridgeline({"run", hardware, workload, "--quiet", "--json", json_path}, time_limit_s);
  if (run.exit_code == 0) {
    std::ifstream file(json_path);
    try {
      run.failures = check_report(nlohmann::json::parse(file));
    } catch (const nlohmann::json::exception& error) {
      run.failures = {std::string("the report is not JSON: ") + error.what()};
    }
  }
  std::remove(json_path.c_str());
  return run;
}

std::optional<std::string> refusal_of(const std::string& hardware, const std::string& workload) {
  const CheckedRun run = run_ridgeline({"analyze", hardware, workload, "--quiet"});
  if (run.refused()) return run.first_error_line();
  if (run.exit_code != 0) {
    throw std::runtime_error("ridgeline analyze neither accepted nor refused: " + run.command +
                             ": " + run.outcome);
  }
  return std::nullopt;
}

void RunTimes::add(std::string label, const CheckedRun& run) {
  runs_.push_back(Times{run.wall_s, run.cpu_s, std::move(label)});
}

std::string RunTimes::summary(std::size_t slowest) const {
  if (runs_.empty()) return "no runs";
  std::vector<Times> sorted = runs_;
  std::sort(sorted.begin(), sorted.end(),
            [](const Times& a, const Times& b) { return a.cpu_s < b.cpu_s; });
  std::vector<double> wall;
  std::vector<double> cpu;
  for (const Times& run : sorted) {
    wall.push_back(run.wall_s);
    cpu.push_back(run.cpu_s);
  }
  std::sort(wall.begin(), wall.end());
  std::string out = fmt::format("{} runs; wall {}; CPU {}; slowest (CPU):", sorted.size(),
                                distribution(wall), distribution(cpu));
  const std::size_t shown = std::min(slowest, sorted.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const Times& run = sorted[sorted.size() - 1 - i];
    out += fmt::format(" {} ({:.2f} s CPU, {:.2f} s wall){}", run.label, run.cpu_s, run.wall_s,
                       i + 1 < shown ? "," : "");
  }
  return out;
}

}  // namespace ridgeline::test
