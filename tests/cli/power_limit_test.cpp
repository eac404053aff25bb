// `ridgeline run` under a power limit: where the analytical model's clock would leave the run
// above the limit (an L2 that serves reuse makes the run faster than the note's Q allows, so it
// draws more), runs at trial clocks, in child processes, settle the clock the run is made at;
// where the run at the nominal clock is within the limit, that one run keeps the clock.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.hpp"
#include "tests/energy_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;

// The seed machine with its L2: 10 W static and 5 pJ a FLOP, nothing else, under `limit`. The
// 2048^3 GEMM of t = 64 is bound at HBM by the note's Q (1.09 ms), 88.8 W; with the L2 the run
// takes its compute's time instead (about 0.87 ms) and draws about 109 W. Its `run --json` report.
nlohmann::json gemm_under(const std::string& limit) {
  test::ScratchFiles files;
  const std::string hardware = test::with_energy(
      files, "hardware/seed-l2.yaml",
      test::energy_section("10W", "5pJ/FLOP", test::kNoHbmEnergy,
                           "    l2: {read: 0pJ/B, write: 0pJ/B}\n  power_limit: " + limit + "\n"));
  // A file of its own for each limit: ctest runs the tests at once.
  const std::string json = ::testing::TempDir() + "ridgeline_power_limit_" + limit + ".json";
  const test::Outcome o = test::ridgeline(
      "run " + hardware + " " + config_path("workloads/seed/gemm-4096-t64-double.yaml") +
      " --set workload.m=2048 --set workload.n=2048 --set workload.k=2048 --quiet --json " + json);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  if (o.exit_code != 0) return nlohmann::json::object();
  const nlohmann::json report = nlohmann::json::parse(test::slurp(json));
  std::remove(json.c_str());
  return report;
}

TEST(PowerLimitRuns, SettleTheClockWhereTheAnalyticalModelMisses) {
  // Above the limit of 95 W at the nominal clock.
  const nlohmann::json report = gemm_under("95W");
  ASSERT_FALSE(report.empty());
  const nlohmann::json& limit = report["analytical"]["power_limit"];
  // The analytical model alone would keep the nominal clock...
  EXPECT_EQ(limit["analytical_clock_hz"].get<std::uint64_t>(), 1'250'000'000u);
  EXPECT_NEAR(limit["nominal_average_power_w"].get<double>(), 88.769231, 1e-5);
  // ...the first trial, at it, draws above the limit, and the run is made at a lower clock,
  // within it: the highest whole MHz the trials' time model allows, checked by a run.
  const nlohmann::json& energy = report["simulated"]["energy"];
  const nlohmann::json& trials = energy["power_limit_trials"];
  ASSERT_GE(trials.size(), 2u);
  EXPECT_EQ(trials[0]["clock_hz"].get<std::uint64_t>(), 1'250'000'000u);
  EXPECT_GT(trials[0]["average_power_w"].get<double>(), 95.0);
  const std::uint64_t clock = report["hardware"]["clock_hz"].get<std::uint64_t>();
  EXPECT_LT(clock, 1'250'000'000u);
  EXPECT_EQ(clock % 1'000'000, 0u);
  EXPECT_EQ(limit["clock_hz"].get<std::uint64_t>(), clock);
  EXPECT_LE(energy["average_power_w"].get<double>(), 95.0);
  EXPECT_GE(energy["power_limit_margin_w"].get<double>(), 0.0);
  // The trial at the clock run is the report's run: the same simulation, the same figures.
  bool found = false;
  for (const nlohmann::json& trial : trials) {
    if (trial["clock_hz"].get<std::uint64_t>() != clock) continue;
    found = true;
    EXPECT_DOUBLE_EQ(trial["time_s"].get<double>(), report["simulated"]["time_s"].get<double>());
    EXPECT_DOUBLE_EQ(trial["average_power_w"].get<double>(),
                     energy["average_power_w"].get<double>());
  }
  EXPECT_TRUE(found);
}

TEST(PowerLimitRuns, OneRunWithinTheLimitKeepsTheClock) {
  // The run at the nominal clock draws about 109 W, within 120 W.
  const nlohmann::json report = gemm_under("120W");
  ASSERT_FALSE(report.empty());
  const nlohmann::json& energy = report["simulated"]["energy"];
  ASSERT_EQ(energy["power_limit_trials"].size(), 1u);
  EXPECT_EQ(energy["power_limit_trials"][0]["clock_hz"].get<std::uint64_t>(), 1'250'000'000u);
  EXPECT_EQ(report["hardware"]["clock_hz"].get<std::uint64_t>(), 1'250'000'000u);
  EXPECT_DOUBLE_EQ(energy["power_limit_margin_w"].get<double>(),
                   120.0 - energy["average_power_w"].get<double>());
  EXPECT_GT(energy["power_limit_margin_w"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report["analytical"]["power_limit"]["time_cost_s"].get<double>(), 0.0);
}

}  // namespace
}  // namespace ridgeline
