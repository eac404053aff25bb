// Vector add streams at HBM's peak when enough bytes are in flight, and at
// bytes-in-flight / latency (Little's law) when the in-flight limit is small.
#include <gtest/gtest.h>

#include "sim/report/levels.hpp"
#include "sim/report/report.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/run/simulate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

TEST(VectorAdd, ReachesPeakBandwidthWithEnoughInFlight) {
  const RunConfig config = seed_config("workloads/vector-add.yaml");
  const SimulationResult result = simulate(config);
  EXPECT_EQ(result.hbm_bytes(), config.analysis.hbm_bytes());
  EXPECT_EQ(result.flops(), config.analysis.flops);
  const double achieved = static_cast<double>(result.hbm_bytes()) / result.time.seconds();
  EXPECT_GE(achieved, 0.95 * 1e12);
  EXPECT_LE(achieved, 1e12);
}

TEST(VectorAdd, SmallInFlightLimitFollowsLittlesLaw) {
  // 2 KiB in flight per core x 128 cores / 500 ns = 524.288 GB/s, about half the peak.
  const RunConfig config =
      seed_config("workloads/vector-add.yaml",
                  {"hardware.hbm.max_bytes_in_flight_per_core=2KiB", "workload.chunk_elements=256",
                   "workload.block_elements=65536", "workload.stages=4"});
  const SimulationResult result = simulate(config);
  EXPECT_EQ(result.hbm_bytes(), config.analysis.hbm_bytes());
  const double achieved = static_cast<double>(result.hbm_bytes()) / result.time.seconds();
  const double littles_law = 128 * 2048 / 500e-9;
  EXPECT_NEAR(achieved / littles_law, 1.0, 0.02);
  EXPECT_GT(result.core_total().in_flight_limit.seconds(), 0.5 * result.time.seconds() * 128);
}

TEST(VectorAdd, UnevenLengthRunsItsShortLastBlock) {
  const RunConfig config = seed_config("workloads/vector-add.yaml", {"workload.length=1000003"});
  const SimulationResult result = simulate(config);
  EXPECT_EQ(result.flops(), 1000003u);
  EXPECT_EQ(result.hbm_bytes(), 12u * 1000003);
  EXPECT_EQ(result.core_total().blocks, (1000003u + 65535) / 65536);
}

TEST(VectorAdd, LevelsTableAndReportAgreeOnHbmBusyWithPseudoChannels) {
  // The H100 preset serves HBM by pseudo-channels (channels x 2): the levels table and the
  // report's headline both divide the channels' busy time by every unit that transfers.
  const RunConfig config = seed_config("workloads/vector-add.yaml", {"workload.length=4194304"},
                                       "hardware/h100-sxm5-80gb.yaml");
  ASSERT_GT(config.hardware.hbm.pseudo_channels, 1u);
  const SimulationResult result = simulate(config);
  EXPECT_EQ(result.hbm_units, config.hardware.hbm.channels * config.hardware.hbm.pseudo_channels);
  const Levels levels = run_figures(config, result).levels;
  ASSERT_FALSE(levels.levels.empty());
  ASSERT_EQ(levels.levels.front().name, "hbm");
  const double report_busy =
      report_json(config, &result)["simulated"]["hbm_busy_fraction"].get<double>();
  EXPECT_GT(report_busy, 0.5);
  EXPECT_DOUBLE_EQ(levels.levels.front().busy_fraction, report_busy);
  const double by_hand = result.hbm.channel_busy.seconds() /
                         (result.time.seconds() * config.hardware.hbm.channels *
                          config.hardware.hbm.pseudo_channels);
  EXPECT_DOUBLE_EQ(report_busy, by_hand);
}

}  // namespace
}  // namespace ridgeline
