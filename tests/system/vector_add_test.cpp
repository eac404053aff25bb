// Vector add streams at HBM's peak when enough bytes are in flight, and at
// bytes-in-flight / latency (Little's law) when the in-flight limit is small.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ridgeline
