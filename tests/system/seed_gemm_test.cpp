// Whole runs on the seed machine against the seed note's analytical figures. Each test runs in
// its own process (gtest_discover_tests), as SystemC elaborates once per process.
#include <gtest/gtest.h>

#include "sim/run/simulate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

struct Outcome {
  RunConfig config;
  SimulationResult result;
  double ratio_to_ideal() const {
    return result.time.seconds() / config.analysis.roofline.t_ideal_s;
  }
};

Outcome run(const std::string& workload, const std::string& hardware = "hardware/seed.yaml") {
  Outcome outcome{seed_config("workloads/seed/" + workload + ".yaml", {}, hardware), {}};
  outcome.result = simulate(outcome.config);
  return outcome;
}

void expect_counts_exact(const Outcome& o) {
  EXPECT_EQ(o.result.flops(), o.config.analysis.flops);
  EXPECT_EQ(o.result.hbm.read_bytes, o.config.analysis.hbm_read_bytes);
  EXPECT_EQ(o.result.hbm.write_bytes, o.config.analysis.hbm_write_bytes);
  EXPECT_EQ(o.result.hbm_bytes(), o.config.analysis.hbm_bytes());
  // What the cores asked for is what the HBM served.
  const CoreStats cores = o.result.core_total();
  EXPECT_EQ(cores.load_bytes, o.result.hbm.read_bytes);
  EXPECT_EQ(cores.store_bytes, o.result.hbm.write_bytes);
}

// The note's table: double buffering reaches T_ideal = max(T_compute, T_memory) within 2 %.
TEST(SeedGemm, DoubleBufferedT32WithinTwoPercentOfIdeal) {
  const Outcome o = run("gemm-4096-t32-double");
  expect_counts_exact(o);
  EXPECT_GE(o.ratio_to_ideal(), 1.0);  // T_ideal is a lower bound
  EXPECT_LE(o.ratio_to_ideal(), 1.02);
}

TEST(SeedGemm, DoubleBufferedT64WithinTwoPercentOfIdeal) {
  const Outcome o = run("gemm-4096-t64-double");
  expect_counts_exact(o);
  EXPECT_GE(o.ratio_to_ideal(), 1.0);
  EXPECT_LE(o.ratio_to_ideal(), 1.02);
}

TEST(SeedGemm, DoubleBufferedT128WithinTwoPercentOfIdealAndComputeBound) {
  const Outcome o = run("gemm-4096-t128-double");
  expect_counts_exact(o);
  EXPECT_GE(o.ratio_to_ideal(), 1.0);
  EXPECT_LE(o.ratio_to_ideal(), 1.02);
  const CoreStats cores = o.result.core_total();
  // Compute-bound: the compute units were busy nearly all the time, HBM was not.
  const double core_time = o.result.time.seconds() * o.config.hardware.cores;
  EXPECT_GT(cores.compute_busy.seconds() / core_time, 0.97);
  EXPECT_LT(o.result.hbm.channel_busy.seconds() / (o.result.time.seconds() * 8), 0.7);
}

TEST(SeedGemm, NoReuseWithinTwoPercentOfIdeal) {
  const Outcome o = run("gemm-4096-no-reuse");
  expect_counts_exact(o);
  EXPECT_GE(o.ratio_to_ideal(), 1.0);
  EXPECT_LE(o.ratio_to_ideal(), 1.02);
}

// On one sequential pipeline (one core with all of P, no latency), single buffering costs
// T_compute + T_memory: every load waits for the previous compute and every compute for its load.
TEST(SeedGemm, SingleBufferedOnOnePipelineTakesComputePlusMemory) {
  const Outcome o = run("gemm-4096-t128-single", "hardware/seed-sequential.yaml");
  expect_counts_exact(o);
  const Roofline& r = o.config.analysis.roofline;
  // Expected: T_compute + T_memory = 11.234024 ms; each block's store and first load add a little.
  EXPECT_NEAR(o.result.time.seconds() / (r.t_compute_s + r.t_memory_s), 1.0, 0.01);
  EXPECT_EQ(o.result.core_total().overlap.ps(), 0u);
}

TEST(SeedGemm, DoubleBufferedOnOnePipelineOverlaps) {
  const Outcome o = run("gemm-4096-t64-double", "hardware/seed-sequential.yaml");
  expect_counts_exact(o);
  // Memory-bound: the loads run back to back under compute, T = T_memory within 2 %.
  EXPECT_NEAR(o.ratio_to_ideal(), 1.0, 0.02);
}

// On the 128-core seed machine a core that single-buffers still never overlaps its own loads and
// compute, but the cores overlap one another: the machine lands between T_ideal and
// T_compute + T_memory, above T_compute + (exposed latency and transfer of each K-step).
TEST(SeedGemm, SingleBufferedOnManyCoresExposesEachStepsLatency) {
  const Outcome o = run("gemm-4096-t128-single");
  expect_counts_exact(o);
  const Roofline& r = o.config.analysis.roofline;
  const double steps_per_core = 1024.0 / 128 * (4096 / 128);  // blocks per core x K-steps
  const double stage_bytes = 2 * 128 * 128 * 4;
  const double floor = r.t_compute_s + steps_per_core * (500e-9 + stage_bytes / 1e12);  // 7.033 ms
  const double t = o.result.time.seconds();
  EXPECT_GE(t, floor);
  EXPECT_LE(t, floor * 1.05);
  EXPECT_LT(t, r.t_compute_s + r.t_memory_s);
  // A block's loads never overlap its own compute; what overlaps is the next block's first
  // compute with the last one's posted C store (64 KiB, at most its 500 ns latency plus its
  // transfer at the whole HBM's 1 TB/s, once a block).
  const double store_s = 500e-9 + 128.0 * 128 * 4 / 1e12;
  EXPECT_LE(o.result.core_total().overlap.seconds(), 1024 * store_s);
}

}  // namespace
}  // namespace ridgeline
