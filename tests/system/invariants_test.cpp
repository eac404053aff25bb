// The end-of-run invariants (sim/run/invariants.cpp): they hold on a real run, and each figure
// tampered with, as a defect of the simulator would leave it, is named with its numbers. A check
// that could not fail would guard nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/run/invariants.hpp"
#include "sim/run/simulate.hpp"
#include "sim/util/internal_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

// 1024^3 FP32 in 64 x 64 tiles on the seed machine with its L2: cores, an L2 and HBM all work.
RunConfig small_l2_run() {
  return test::seed_config("workloads/seed/gemm-4096-t64-double.yaml",
                           {"workload.m=1024", "workload.n=1024", "workload.k=1024"},
                           "hardware/seed-l2.yaml");
}

bool names(const std::vector<std::string>& violations, const std::string& part) {
  for (const std::string& v : violations) {
    if (v.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(Invariants, HoldOnARunAndNameEveryFigureTamperedWith) {
  const RunConfig config = small_l2_run();
  const SimulationResult run = simulate(config);  // checks them itself: it would have thrown
  ASSERT_FALSE(run.levels.empty());
  EXPECT_TRUE(invariant_violations(config, run).empty());

  {  // HBM served a byte nobody sent it
    SimulationResult r = run;
    ++r.hbm.read_bytes;
    const auto v = invariant_violations(config, r);
    EXPECT_TRUE(names(v, "HBM read bytes")) << ::testing::PrintToString(v);
    EXPECT_TRUE(names(v, "the l2's bytes below")) << ::testing::PrintToString(v);
  }
  {  // the same work in half the time: faster than HBM, the L2 port and P allow
    SimulationResult r = run;
    r.time = Time::from_ps(run.time.ps() / 4);
    for (CoreResult& core : r.cores) core.core.finish = r.time;
    const auto v = invariant_violations(config, r);
    EXPECT_TRUE(names(v, "longer than the run's")) << ::testing::PrintToString(v);
    EXPECT_TRUE(names(v, "FLOPs at P =")) << ::testing::PrintToString(v);
  }
  {  // a span of a core's time counted twice
    SimulationResult r = run;
    r.cores[3].core.no_work += Time::from_ps(1);
    EXPECT_TRUE(names(invariant_violations(config, r), "core 3's time shared out"));
  }
  {  // a FLOP the workload does not have
    SimulationResult r = run;
    ++r.cores[0].compute.flops;
    EXPECT_TRUE(names(invariant_violations(config, r), "differs from the analytical F"));
  }
  {  // a compute unit stretched for longer than it was busy
    SimulationResult r = run;
    r.cores[1].compute.operand_limited = r.cores[1].compute.busy + Time::from_ps(1);
    EXPECT_TRUE(names(invariant_violations(config, r), "stretched by SRAM operands"));
  }
  {  // a load counted into registers that landed in SRAM (the energy charges registers for it)
    SimulationResult r = run;
    r.cores[2].core.register_load_bytes += 128;
    EXPECT_TRUE(names(invariant_violations(config, r), "bytes loaded into registers"));
  }
  {  // one HBM channel busy past the run's end
    SimulationResult r = run;
    r.hbm_busiest_unit_busy = r.time + Time::from_ps(1000);
    EXPECT_TRUE(names(invariant_violations(config, r), "busiest of"));
  }
  {  // and the run stops: an internal error, with every violation and the sentence for the user
    SimulationResult r = run;
    ++r.cores[0].compute.flops;
    try {
      check_invariants(config, r);
      FAIL() << "no internal error";
    } catch (const InternalError& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find("broke 1 of its invariants"), std::string::npos) << what;
      EXPECT_NE(what.find("this is a bug in Ridgeline"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace ridgeline
