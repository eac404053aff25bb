// The simulated-time bound that guards 64-bit time really bounds: a run never takes longer than
// every op of every block one after another, whether one block runs alone or many contend.
#include "sim/run/run_limits.hpp"

#include <gtest/gtest.h>

#include "sim/run/simulate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

const std::string kSmall = test::source_path("tests/bad_input/files/hardware/valid.yaml");
const std::string kSmallGemm = test::source_path("tests/bad_input/files/workload/valid-gemm.yaml");

void expect_within_bound(const RunConfig& config) {
  const auto* trace = std::get_if<MemoryTraceSpec>(&config.workload);
  const auto bound = static_cast<std::uint64_t>(
      trace ? simulated_time_bound_ps(config, *trace)
            : simulated_time_bound_ps(config,
                                      build_kernel(config.workload, config.hardware.threads)));
  const SimulationResult result = simulate(config);
  EXPECT_GT(result.time.ps(), 0u);
  EXPECT_LE(result.time.ps(), bound);
  // And the bound is no lower bound in disguise: the run is at least T_ideal.
  EXPECT_GE(result.time.seconds(), config.analysis.roofline.t_ideal_s * (1 - 1e-12));
}

TEST(SimulatedTimeBound, HoldsForOneBlockAlone) {
  expect_within_bound(load_config(
      kSmall, test::config_path("workloads/vector-add.yaml"),
      {"workload.length=4096", "workload.chunk_elements=4096", "workload.block_elements=4096"}));
}

TEST(SimulatedTimeBound, HoldsWhenBlocksContendForHbm) {
  // 64 blocks on 4 cores, two resident each, double-buffered: channels and ports are shared.
  expect_within_bound(
      load_config(kSmall, kSmallGemm, {"workload.m=512", "workload.n=512", "workload.k=512"}));
}

TEST(SimulatedTimeBound, HoldsOnTheSeedMachine) {
  expect_within_bound(test::seed_config("workloads/seed/gemm-4x4-tiled.yaml"));
}

// Detailed DRAM: banks, row conflicts, refresh; 16 channels of 2 pseudo-channels.
TEST(SimulatedTimeBound, HoldsWithDetailedDram) {
  expect_within_bound(load_config(test::config_path("hardware/hbm3-stack.yaml"), kSmallGemm,
                                  {"workload.m=512", "workload.n=512", "workload.k=512"}));
}

TEST(SimulatedTimeBound, HoldsForARandomTraceOnDetailedDram) {
  expect_within_bound(load_config(test::config_path("hardware/hbm3-stack.yaml"),
                                  test::config_path("workloads/memory/random-trace.yaml"), {}));
}

// Through an L2 a small one (64 KiB) evicts dirty lines: fills, write-backs and the port.
TEST(SimulatedTimeBound, HoldsThroughAnL2) {
  expect_within_bound(test::seed_config(
      "workloads/seed/gemm-4096-t64-double.yaml",
      {"workload.m=512", "workload.n=512", "workload.k=512", "hardware.l2.capacity=64KiB"},
      "hardware/seed-l2.yaml"));
}

}  // namespace
}  // namespace ridgeline
