// The seed note's question 2 on the H100-class preset (configs/questions/q2-tile-under-limits/):
// "Is t = 128 still best once storage is enforced?" Whole runs, checked against the analytical
// bounds of the tiles they are compared with. Tests that compare several simulations run each in a
// child process (test::run_report); the others simulate once, in their own process.
#include <gtest/gtest.h>

#include "sim/report/compute_report.hpp"
#include "sim/run/simulate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

const std::string kQ2 = "questions/q2-tile-under-limits/";
const std::string kH100 = "hardware/h100-sxm5-80gb.yaml";
const std::string kNoL2 = kQ2 + "hardware/h100-sxm5-no-l2.yaml";

std::string workload(const std::string& name) { return kQ2 + "workloads/" + name + ".yaml"; }

double simulated_time_s(const nlohmann::json& report) {
  return report["simulated"]["time_s"].get<double>();
}

// Without the L2 (the note's no-reuse assumption) the largest output tile that fits wins: 256 x
// 128 with K-steps of 32, one block an SM (registers), double-buffered. The note's t = 128 fits
// only single-buffered (SRAM) and waits for every load; 128 x 128 x 32 fits three an SM but
// ends ragged; t = 64 and t = 32 are below the ridge, so no run of theirs beats T_memory.
TEST(Question2, WithoutTheL2TheLargestTileThatFitsWins) {
  const nlohmann::json winner = test::run_report(kNoL2, workload("256x128x32-2stages"));
  const nlohmann::json note_t128 = test::run_report(kNoL2, workload("t128-1stage"));
  const nlohmann::json t128_k32 = test::run_report(kNoL2, workload("128x128x32-2stages"));
  // 2.369020 ms: its warp instructions' issue, 4 a cycle an SM (the FLOPs at P: 2.222516 ms).
  const double t_compute = winner["analytical"]["t_compute_s"].get<double>();

  EXPECT_LT(simulated_time_s(winner), 1.05 * t_compute);
  EXPECT_LT(simulated_time_s(winner), simulated_time_s(note_t128));
  EXPECT_LT(simulated_time_s(winner), simulated_time_s(t128_k32));
  for (const char* memory_bound : {"t64-2stages", "t32-1stage"}) {
    const RunConfig c = test::seed_config(workload(memory_bound), {}, kNoL2);
    ASSERT_EQ(c.analysis.roofline.bound, Bound::memory) << memory_bound;
    EXPECT_LT(simulated_time_s(winner), c.analysis.roofline.t_memory_s) << memory_bound;
  }
  // The note's t = 128: one block of 8 warps an SM, one buffer; latency shows: the compute unit
  // waits for every K-step's loads (6.5 % of core time), and no load overlaps its compute.
  EXPECT_EQ(note_t128["analytical"]["occupancy"]["blocks_per_core"], 1);
  EXPECT_EQ(note_t128["analytical"]["occupancy"]["limited_by"], "sram");
  EXPECT_GT(simulated_time_s(note_t128), 1.10 * t_compute);
  const double core_time_s =
      simulated_time_s(note_t128) * note_t128["hardware"]["cores"].get<double>();
  EXPECT_GT(note_t128["simulated"]["stalls"]["compute_waiting_data_s"].get<double>(),
            0.05 * core_time_s);
  EXPECT_LT(note_t128["simulated"]["overlap_fraction"].get<double>(), 0.01);
}

struct Simulated {
  RunConfig config;
  SimulationResult result;
  nlohmann::ordered_json compute;  ///< the report's compute part: occupancy, limiter
};

Simulated simulate_once(const std::string& hardware, const std::string& name) {
  Simulated run{test::seed_config(workload(name), {}, hardware), {}, {}};
  run.result = simulate(run.config);
  add_simulated_compute(run.compute, run.config, run.result, run_figures(run.config, run.result));
  return run;
}

// With the preset's 50 MiB L2 the HBM carries a few percent of the note's Q and every tile that
// keeps its SM busy reaches the compute roof; the note's t = 128 still waits for its loads.
TEST(Question2, WithTheL2TheNotesT128IsHeldByLowOccupancy) {
  const Simulated run = simulate_once(kH100, "t128-1stage");
  const double t_compute = run.config.analysis.roofline.t_compute_s;
  EXPECT_GT(run.result.time.seconds(), 1.10 * t_compute);
  EXPECT_EQ(run.compute["limiter"]["cause"], "low_occupancy");
  EXPECT_EQ(run.result.core_total().peak_resident_blocks, 1u);
}

TEST(Question2, WithTheL2ASmallerKStepReachesTheRoof) {
  const Simulated run = simulate_once(kH100, "128x128x32-2stages");
  const double t_compute = run.config.analysis.roofline.t_compute_s;
  EXPECT_LT(run.result.time.seconds(), 1.05 * t_compute);
  EXPECT_EQ(run.compute["limiter"]["cause"], "compute");
  EXPECT_EQ(run.result.core_total().peak_resident_blocks, 3u);
  // The L2 served all but a tenth of the note's Q: HBM carried under 10 % of it.
  EXPECT_LT(run.result.hbm_bytes(), run.config.analysis.hbm_bytes() / 10);
}

}  // namespace
}  // namespace ridgeline
