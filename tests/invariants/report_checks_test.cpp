// check_report on reports written by hand: one within every bound passes, and each bound broken
// alone fails with its numbers.
#include "tests/invariants/report_checks.hpp"

#include <gtest/gtest.h>

namespace ridgeline::test {
namespace {

using nlohmann::json;

// 1e6 FLOPs at P = 1e12 FLOP/s in exactly 1 us: compute-bound at the peak, 30 kB at HBM.
json within_bounds() {
  return json::parse(R"({
    "hardware": {"cores": 2, "peak_flop_per_s": 1e12, "hbm_bytes_per_s": 1e11,
                 "max_resident_blocks": 2},
    "workload": {"kind": "gemm"},
    "analytical": {"flops": 1000000, "hbm_bytes": 30000, "hbm_read_bytes": 20000,
                   "hbm_write_bytes": 10000, "occupancy": {"fraction": null},
                   "local_memory": {"read_bytes": 0, "write_bytes": 0, "bytes": 0}},
    "simulated": {
      "time_s": 1e-6, "flops": 1000000, "hbm_bytes": 30000, "hbm_read_bytes": 20000,
      "hbm_write_bytes": 10000, "achieved_flop_per_s": 1e12, "achieved_hbm_bytes_per_s": 3e10,
      "percent_of_roof": 100, "hbm_busy_fraction": 0.3, "compute_busy_fraction": 1.0,
      "overlap_fraction": 0.3, "overlap_s": 6e-7,
      "stalls": {"compute_waiting_data_s": 0, "hbm_queueing_s": 5e-6, "draining_s": 2e-6},
      "resident_blocks_per_core": 2, "block_critical_path_s": 5e-7,
      "occupancy": {"resident_blocks_peak": 2, "resident_blocks_mean": 1.5,
                    "achieved_fraction": null},
      "barriers": {"count": 0, "time_s": 0, "compute_idle_s": 0},
      "local_memory": {"bytes": 0},
      "limiter": {"percent_of_roof": 100},
      "levels": [
        {"name": "hbm", "bytes": 30000, "bandwidth_bytes_per_s": 1e11, "time_s": 3e-7,
         "busy_fraction": 0.3},
        {"name": "sram", "bytes": 500000, "bandwidth_bytes_per_s": 1e12, "time_s": 5e-7,
         "busy_fraction": 0.5}]},
    "components": {"hbm": {"read_bytes": 20000, "write_bytes": 10000}}
  })");
}

// The same run behind an L2 that served 10 kB of the reads: HBM read 10 kB, wrote 10 kB.
json with_l2() {
  json r = within_bounds();
  r["hardware"]["l2"] = {{"bandwidth_bytes_per_s", 1e12}};
  r["simulated"]["hbm_bytes"] = 20000;
  r["simulated"]["hbm_read_bytes"] = 10000;
  r["simulated"]["levels"][0]["bytes"] = 20000;
  r["simulated"]["l2"] = {{"hit_rate", 0.5}, {"requested_bytes", 30000}, {"hbm_bytes", 20000}};
  r["components"]["l2"] = {{"fill_bytes", 10000.0},
                           {"writeback_bytes", 10000.0},
                           {"write_through_bytes", 0.0},
                           {"dirty_at_end_bytes", 4000.0}};
  return r;
}

bool mentions(const std::vector<std::string>& failures, const std::string& text) {
  for (const std::string& failure : failures) {
    if (failure.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& failures) {
  std::string out;
  for (const std::string& failure : failures) out += "\n" + failure;
  return out;
}

TEST(ReportChecks, PassAReportWithinEveryBound) {
  EXPECT_TRUE(check_report(within_bounds()).empty()) << joined(check_report(within_bounds()));
  EXPECT_TRUE(check_report(with_l2()).empty()) << joined(check_report(with_l2()));
}

TEST(ReportChecks, AllowAPicosecondOfRounding) {
  json r = within_bounds();
  r["simulated"]["time_s"] = 1e-6 - 0.9e-12;
  r["simulated"]["achieved_flop_per_s"] = 1e6 / (1e-6 - 0.9e-12);
  EXPECT_TRUE(check_report(r).empty()) << joined(check_report(r));
  r["simulated"]["time_s"] = 1e-6 - 2e-12;
  EXPECT_TRUE(mentions(check_report(r), "hardware.peak_flop_per_s"));
}

TEST(ReportChecks, FailARunFasterThanItsPeaks) {
  json r = within_bounds();
  r["simulated"]["achieved_hbm_bytes_per_s"] = 1.006e11;
  const auto failures = check_report(r);
  EXPECT_TRUE(mentions(failures,
                       "simulated.achieved_hbm_bytes_per_s = 100600000000 is above "
                       "hardware.hbm_bytes_per_s = 100000000000: 100.6000 %"))
      << joined(failures);

  r = within_bounds();
  r["simulated"]["levels"][1]["bytes"] = 2e6;  // 2 MB over a 1 TB/s port in 1 us
  EXPECT_TRUE(mentions(check_report(r), "simulated.levels.sram.bytes = 2000000"));

  r = within_bounds();
  r["simulated"]["block_critical_path_s"] = 2e-6;
  EXPECT_TRUE(mentions(check_report(r), "simulated.block_critical_path_s = 2e-06 s is longer"));

  r = within_bounds();
  r["simulated"]["stalls"]["draining_s"] = 3e-6;  // 2 cores x 1 us is 2e-6 core-seconds
  EXPECT_TRUE(mentions(check_report(r), "simulated.stalls.draining_s / hardware.cores"));
  r["simulated"]["stalls"]["draining_s"] = 0;
  r["simulated"]["stalls"]["hbm_queueing_s"] = 1;  // summed over requests: no bound
  EXPECT_TRUE(check_report(r).empty()) << joined(check_report(r));
}

TEST(ReportChecks, FailCountsThatDisagree) {
  json r = within_bounds();
  r["simulated"]["flops"] = 999999;
  EXPECT_TRUE(mentions(check_report(r), "simulated.flops = 999999 but analytical.flops = 1000000"));

  r = within_bounds();
  r["simulated"]["hbm_read_bytes"] = 20064;
  r["simulated"]["hbm_bytes"] = 30064;
  r["simulated"]["levels"][0]["bytes"] = 30064;
  EXPECT_TRUE(mentions(check_report(r), "simulated.hbm_bytes (no L2) = 30064"));

  r = with_l2();
  EXPECT_TRUE(check_report(r).empty()) << joined(check_report(r));
  r["components"]["l2"]["writeback_bytes"] = 6000.0;  // dirty lines left at the end are not HBM's
  EXPECT_TRUE(mentions(check_report(r), "simulated.hbm_write_bytes = 10000 but components.l2"));
}

TEST(ReportChecks, FailSharesOutsideZeroToOne) {
  json r = within_bounds();
  r["simulated"]["occupancy"]["achieved_fraction"] = 1.02;
  r["simulated"]["levels"][0]["busy_fraction"] = -0.1;
  const auto failures = check_report(r);
  EXPECT_TRUE(mentions(failures, "simulated.occupancy.achieved_fraction = 1.02 is a fraction"));
  EXPECT_TRUE(mentions(failures, "simulated.levels.hbm.busy_fraction = -0.1"));
}

TEST(ReportChecks, FailAReportWithoutTheKeysTheyRead) {
  json r = within_bounds();
  r["simulated"].erase("time_s");
  EXPECT_TRUE(mentions(check_report(r), "no number at simulated.time_s"));
  EXPECT_TRUE(mentions(check_report(json::object()), "no simulated section"));
}

}  // namespace
}  // namespace ridgeline::test
