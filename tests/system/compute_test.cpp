// Occupancy, barriers, register spills, the SRAM level and the limiter in whole runs, with the
// machines of configs/questions/. Tests that compare several simulations run each in a child
// process (test::run_report); the others simulate once, in their own process.
#include <gtest/gtest.h>

#include "sim/report/compute_report.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/run/simulate.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

const std::string kQ4 = "questions/q4-slow-past-ridge/";
const std::string kQ4Machine = kQ4 + "machine.yaml";
const std::string kQ1 = "questions/q1-local-vs-shared/";

struct Simulated {
  RunConfig config;
  SimulationResult result;
};

Simulated simulate_once(const std::string& hardware, const std::string& workload,
                        const std::vector<std::string>& overrides = {}) {
  Simulated run{test::seed_config(workload, overrides, hardware), {}};
  run.result = simulate(run.config);
  return run;
}

// --- occupancy: the simulated cores hold what the model says, limited by the same resource ---

// A 1024^2 x 256 GEMM on the question-4 machine: 4 blocks per core to admit.
std::vector<std::string> small_gemm(std::vector<std::string> overrides) {
  overrides.insert(overrides.begin(), {"workload.m=1024", "workload.n=1024", "workload.k=256"});
  return overrides;
}

void expect_occupancy(const std::vector<std::string>& overrides, const char* limited_by,
                      std::uint64_t blocks) {
  const Simulated run = simulate_once(kQ4Machine, kQ4 + "baseline.yaml", small_gemm(overrides));
  EXPECT_EQ(run.config.occupancy.limited_by, limited_by);
  EXPECT_EQ(run.config.occupancy.blocks_per_core, blocks);
  const CoreStats cores = run.result.core_total();
  EXPECT_EQ(cores.peak_resident_blocks, blocks);
  nlohmann::ordered_json simulated;
  add_simulated_compute(simulated, run.config, run.result, run_figures(run.config, run.result));
  EXPECT_EQ(simulated["occupancy"]["limited_by"], limited_by);
  // The core was full for most of the run (it waits only for the first and last blocks).
  EXPECT_GT(simulated["occupancy"]["full_s"][limited_by].get<double>(),
            0.5 * run.result.time.seconds() * run.config.hardware.cores);
}

TEST(Occupancy, LimitedBySram) {
  // 2 stages of 32 KiB of tiles: 2 blocks in 160 KiB; 80 registers x 256 threads: 3 would fit.
  expect_occupancy({"workload.stages=2", "workload.register_overhead=0"}, "sram", 2);
}

TEST(Occupancy, LimitedByRegisters) {
  // 130 registers x 256 threads = 130 KiB of the 256 KiB register file; SRAM would hold 2.
  expect_occupancy({"workload.stages=2"}, "registers", 1);
}

TEST(Occupancy, LimitedByWarps) {
  // 64 x 64 tiles with 2 x 2 outputs per thread: 1024 threads, 32 of the core's 64 warps.
  expect_occupancy({"workload.tile={m: 64, n: 64, k: 32}", "workload.register_tile={m: 2, n: 2}",
                    "workload.stages=2", "workload.register_overhead=0"},
                   "warps", 2);
}

TEST(Occupancy, LimitedByMaxResidentBlocks) {
  expect_occupancy(
      {"workload.stages=2", "workload.register_overhead=0", "hardware.cores.max_resident_blocks=1"},
      "max_resident_blocks", 1);
}

// --- placement: one block on each core before any core gets a second, as a GPU places them ---

// A grid of m/128 x n/128 blocks of the small GEMM, with room for 2 blocks on each of the 16 cores.
Simulated placed(std::uint64_t m, std::uint64_t n) {
  return simulate_once(kQ4Machine, kQ4 + "baseline.yaml",
                       {"workload.m=" + std::to_string(m), "workload.n=" + std::to_string(n),
                        "workload.k=256", "workload.stages=2", "workload.register_overhead=0"});
}

TEST(Placement, AGridOfOneBlockPerCoreRunsOnEveryCore) {
  const Simulated run = placed(512, 512);  // 16 blocks
  ASSERT_EQ(run.config.occupancy.blocks_per_core, 2u);
  for (const CoreResult& core : run.result.cores) {
    EXPECT_EQ(core.core.blocks, 1u);  // not two each on the first eight
    EXPECT_EQ(core.core.peak_resident_blocks, 1u);
  }
  // A grid that uses every core says nothing of idle ones.
  EXPECT_EQ(simulated_compute_text(run.config, run.result, run_figures(run.config, run.result))
                .find("ran no block"),
            std::string::npos);
}

TEST(Placement, AGridBetweenOneAndTwoBlocksPerCoreDoublesUpOnlyWhereItMust) {
  const Simulated run = placed(640, 512);  // 20 blocks: 16 + 4
  for (std::size_t i = 0; i < run.result.cores.size(); ++i) {
    EXPECT_EQ(run.result.cores[i].core.blocks, i < 4 ? 2u : 1u) << "core " << i;
  }
}

TEST(Placement, AGridSmallerThanTheMachineSaysHowManyCoresItLeavesIdle) {
  const Simulated run = placed(512, 256);  // 8 blocks on 16 cores
  std::uint64_t idle = 0;
  for (const CoreResult& core : run.result.cores) idle += core.core.blocks == 0 ? 1 : 0;
  EXPECT_EQ(idle, 8u);
  const RunFigures figures = run_figures(run.config, run.result);
  nlohmann::ordered_json simulated;
  add_simulated_compute(simulated, run.config, run.result, figures);
  EXPECT_EQ(simulated["occupancy"]["cores_with_blocks"], 8);
  EXPECT_NE(simulated_compute_text(run.config, run.result, figures)
                .find("grid: 8 blocks for 16 cores: 8 cores ran no block"),
            std::string::npos);
}

// One buffer, one block per core: every K-step waits the memory latency. A second and a third
// resident block compute while it waits. 1536^2: 9 blocks per core, so no resident count leaves
// a ragged last wave that the others do not.
TEST(Occupancy, TimeFallsAsResidentBlocksRise) {
  double previous_time = 1e9, previous_exposed = 1e9;
  for (int blocks : {1, 2, 3}) {
    SCOPED_TRACE(blocks);
    const auto report =
        test::run_report(kQ4Machine, kQ4 + "low-occupancy.yaml",
                         {"workload.m=1536", "workload.n=1536", "workload.register_overhead=0",
                          "hardware.cores.max_resident_blocks=" + std::to_string(blocks)});
    const auto& s = report["simulated"];
    const double time = s["time_s"].get<double>();
    const double exposed = s["limiter"]["by_cause_s"]["low_occupancy"].get<double>();
    EXPECT_NEAR(s["occupancy"]["resident_blocks_mean"].get<double>(), blocks, 0.2 * blocks);
    EXPECT_LT(time, 0.9 * previous_time);
    EXPECT_LT(exposed, previous_exposed);
    if (blocks == 1) {
      EXPECT_EQ(s["limiter"]["cause"], "low_occupancy");
      // One block alone computes each 1024-cycle step, then waits at least the 800 ns latency.
      EXPECT_GT(exposed, 0.35 * time * 16);
    }
    previous_time = time;
    previous_exposed = exposed;
  }
}

// --- barriers ---

// On one sequential pipeline, compute-bound and double-buffered, each of a block's K-steps waits
// for its barrier after the previous compute: 64 blocks x 8 steps x 100 cycles x 0.8 ns.
TEST(Barriers, CostAddsTheExpectedTime) {
  const std::vector<std::string> gemm = {"workload.m=1024", "workload.n=1024", "workload.k=1024"};
  auto with_barrier = [&](const char* cycles) {
    std::vector<std::string> overrides = gemm;
    overrides.push_back(std::string("hardware.cores.barrier_latency=") + cycles);
    return test::run_report("hardware/seed-sequential.yaml",
                            "workloads/seed/gemm-4096-t128-double.yaml", overrides);
  };
  const auto free = with_barrier("0cycles");
  const auto costly = with_barrier("100cycles");
  const double added =
      costly["simulated"]["time_s"].get<double>() - free["simulated"]["time_s"].get<double>();
  EXPECT_NEAR(added, 64 * 8 * 100 * 0.8e-9, 1e-12);
  EXPECT_EQ(costly["simulated"]["barriers"]["count"], 64 * 8);
  EXPECT_EQ(free["simulated"]["barriers"]["count"], 0);
  EXPECT_NEAR(costly["simulated"]["barriers"]["compute_idle_s"].get<double>(), added, 1e-12);
  // Barriers move no data and no FLOP.
  EXPECT_EQ(costly["simulated"]["hbm_bytes"], free["simulated"]["hbm_bytes"]);
  EXPECT_EQ(costly["simulated"]["flops"], free["simulated"]["flops"]);
}

// --- register spills: local memory traffic, counted as such, through the memory ---

TEST(Spills, BytesAreCountedAsLocalMemoryTraffic) {
  const Simulated run = simulate_once(kQ4Machine, kQ4 + "register-spill.yaml");
  const Analysis& a = run.config.analysis;
  const CoreStats cores = run.result.core_total();
  // 256 blocks x 63 K-steps after the first x 64 threads x 83 registers x 4 bytes, each way.
  EXPECT_EQ(a.local_read_bytes, 256u * 63 * 64 * 83 * 4);
  EXPECT_EQ(cores.local_load_bytes, a.local_read_bytes);
  EXPECT_EQ(cores.local_store_bytes, a.local_write_bytes);
  // HBM served the kernel's Q and the spills beside it, nothing else.
  EXPECT_EQ(run.result.hbm.read_bytes, a.hbm_read_bytes + a.local_read_bytes);
  EXPECT_EQ(run.result.hbm.write_bytes, a.hbm_write_bytes + a.local_write_bytes);
  EXPECT_EQ(run.result.flops(), a.flops);
}

// Like CUDA local memory, spilled registers go through the L2 when there is one: every spilled
// byte crosses the L2's port, and the L2 keeps the blocks' few KiB of spills between the write-back
// of one K-step and the reload of the next, so HBM serves less than Q and the spills together.
TEST(Spills, GoThroughTheL2LikeLocalMemory) {
  const Simulated run = simulate_once(
      kQ4Machine, kQ4 + "register-spill.yaml",
      {"hardware.l2={capacity: 4MiB, line_size: 128B, associativity: 16, bandwidth: 1TB/s, "
       "hit_latency: 200ns}"});
  const Analysis& a = run.config.analysis;
  ASSERT_NE(run.result.cache_stats("l2"), nullptr);
  const L2CacheStats& l2 = *run.result.cache_stats("l2");
  const CoreStats cores = run.result.core_total();
  EXPECT_EQ(cores.local_load_bytes, a.local_read_bytes);
  EXPECT_EQ(cores.local_store_bytes, a.local_write_bytes);
  EXPECT_EQ(l2.read_bytes, a.hbm_read_bytes + a.local_read_bytes);
  EXPECT_EQ(l2.write_bytes, a.hbm_write_bytes + a.local_write_bytes);
  EXPECT_LT(run.result.hbm_bytes(), a.hbm_bytes() + a.local_traffic_bytes());
  EXPECT_EQ(run.result.flops(), a.flops);
}

// --- the SRAM level: a warp reads the distinct operands of its outputs, B_K of them a K-step ---

TEST(SramLevel, SimulatedTrafficMatchesTheFormula) {
  const Simulated run = simulate_once(kQ1 + "machine.yaml", kQ1 + "both.yaml",
                                      {"workload.register_tile={m: 8, n: 4}", "workload.k=512"});
  const SramStats sram = run.result.sram_total();
  const std::uint64_t blocks = 16 * 16, steps = 512 / 32;
  // 16 x 32 threads of 8 x 4, numbered along n: 16 warps of one row each, 8 + 32 x 4 elements.
  const std::uint64_t per_step = 16 * (8 + 32 * 4) * 32 * 4;
  EXPECT_EQ(sram.read_bytes, blocks * steps * per_step);
  EXPECT_EQ(sram.read_bytes, run.config.analysis.sram_read_bytes);
  EXPECT_EQ(sram.write_bytes, run.config.analysis.sram_write_bytes);
  EXPECT_EQ(sram.write_bytes, run.result.hbm.read_bytes);  // every loaded tile lands once
}

TEST(SramLevel, AWarpTileIsSimulatedAsOneReadPerWarp) {
  const Simulated run = simulate_once(kQ1 + "machine.yaml", kQ1 + "both.yaml",
                                      {"workload.register_tile={m: 8, n: 4}",
                                       "workload.warp_tile={m: 32, n: 32}", "workload.k=512"});
  const std::uint64_t blocks = 16 * 16, steps = 512 / 32;
  const std::uint64_t per_step = (128 / 32) * (128 / 32) * (32 + 32) * 32 * 4;
  EXPECT_EQ(run.result.sram_total().read_bytes, blocks * steps * per_step);
  EXPECT_EQ(run.result.sram_total().read_bytes, run.config.analysis.sram_read_bytes);
}

// Hopper's GEMM (clusters of 2 x 1 with TMA multicast, wgmma warpgroups) on the H100 preset: the
// cores fetch each B tile once per cluster, so the L2 serves the model's Q with B halved, while
// every block's SRAM receives its tiles whole; wgmma reads them once per warpgroup.
TEST(Cluster, MulticastIsSimulatedAsTheSlicesEachBlockFetches) {
  const Simulated run = simulate_once("hardware/h100-sxm5-80gb.yaml",
                                      "workloads/tensor-core/gemm-4096-bf16-hopper.yaml",
                                      {"workload.m=1024", "workload.n=1024", "workload.k=1024"});
  const Analysis& a = run.config.analysis;
  const std::uint64_t mnk_e = 1024ull * 1024 * 1024 * 2;
  EXPECT_EQ(a.hbm_read_bytes, mnk_e / 256 + mnk_e / (2 * 128));  // A per block, B per cluster
  EXPECT_EQ(run.result.core_total().load_bytes, a.hbm_read_bytes);
  ASSERT_NE(run.result.cache_stats("l2"), nullptr);
  EXPECT_EQ(run.result.cache_stats("l2")->read_bytes, a.hbm_read_bytes);
  const SramStats sram = run.result.sram_total();
  EXPECT_EQ(sram.write_bytes, mnk_e / 256 + mnk_e / 128);  // both tiles land whole
  EXPECT_EQ(sram.write_bytes, a.sram_write_bytes);
  // (B_M / 64)(B_N / 256)(64 + 256) B_K e a K-step: two warpgroups, each reading once.
  EXPECT_EQ(sram.read_bytes, (8u * 4) * (1024u / 64) * 2 * 320 * 64 * 2);
  EXPECT_EQ(sram.read_bytes, a.sram_read_bytes);
}

// One set of banks for reads and writes (cores.sram.bandwidth, as the presets have it): the
// H100's Ampere-style BF16 example reads and writes 16 FLOP/B at the SRAM level, so at 128 B a
// cycle for both together it cannot pass 16 x 128 B x 132 SMs x 1.83 GHz = 494.7 TFLOP/s (with a
// port each way it would run at 504). The port's busy time, reads and writes summed, fits in
// every core's run.
TEST(SramLevel, OneSharedPortHoldsReadsAndWritesTogetherToItsWidth) {
  const nlohmann::json r =
      test::run_report("hardware/h100-sxm5-80gb.yaml", "workloads/tensor-core/gemm-4096-bf16.yaml");
  const nlohmann::json& s = r["simulated"];
  const double port = 128.0 * 132 * 1.83e9;  // bytes a second, all SMs
  const double roof = 16 * port;
  EXPECT_LE(s["achieved_flop_per_s"].get<double>(), roof);
  EXPECT_GT(s["achieved_flop_per_s"].get<double>(), 0.8 * roof);
  for (const nlohmann::json& level : s["levels"]) {
    if (level["name"] != "sram") continue;
    EXPECT_DOUBLE_EQ(level["bandwidth_bytes_per_s"].get<double>(), port);
    EXPECT_LE(level["busy_fraction"].get<double>(), 1.0);
  }
  const nlohmann::json& sram = r["components"]["sram"];
  const double moved = sram["read_bytes"].get<double>() + sram["write_bytes"].get<double>();
  EXPECT_DOUBLE_EQ(moved, 8589934592.0);  // 6 GiB of operand reads, 2 GiB of tiles landing
  EXPECT_LE(moved / s["time_s"].get<double>(), port);
  const double busy = sram["read_busy_s"].get<double>() + sram["write_busy_s"].get<double>();
  EXPECT_LE(busy, 132 * s["time_s"].get<double>());
}

// --- question 1: shared-memory blocking cuts HBM traffic, local blocking SRAM traffic ---

TEST(QuestionOne, EachBlockingCutsTheTrafficOfItsLevel) {
  auto run = [](const char* workload) {
    return test::run_report(kQ1 + "machine.yaml", kQ1 + workload + ".yaml")["simulated"];
  };
  const auto registers = run("register-only");
  const auto shared = run("shared-only");
  const auto both = run("both");
  auto hbm_i = [](const nlohmann::json& s) { return s["intensity_flop_per_byte"].get<double>(); };
  auto sram_i = [](const nlohmann::json& s) {
    return s["sram"]["intensity_flop_per_byte"].get<double>();
  };
  EXPECT_TRUE(registers["sram"]["intensity_flop_per_byte"].is_null());  // no SRAM traffic
  EXPECT_NEAR(hbm_i(registers), 2.0, 0.01);  // 2 x 64 / (4 x 16), C aside
  EXPECT_NEAR(hbm_i(shared), 31.03, 0.01);
  EXPECT_DOUBLE_EQ(hbm_i(both), hbm_i(shared));  // the block tile sets HBM traffic
  // At SRAM: F over the operand reads and the tiles landing (2 M K e of each a block column and
  // row: 2 x 16 x 2048^2 x 4 B). A warp of 1 x 1 register tiles spans a row of the 128-wide tile
  // and reads 1 + 32 elements a k for its 32 outputs; of 8 x 8 tiles, 16 a row, 2 rows: 2 x 8 +
  // 16 x 8 = 144 for 2048 outputs.
  const double f = 2.0 * 2048 * 2048 * 2048, mnk_e = f / 2 * 4, tiles = 2.0 * 16 * 2048 * 2048 * 4;
  EXPECT_DOUBLE_EQ(sram_i(shared), f / (mnk_e * 33 / 32 + tiles));
  EXPECT_DOUBLE_EQ(sram_i(both), f / (mnk_e * 144 / 2048 + tiles));  // 14.7 times fewer reads
  EXPECT_EQ(registers["limiter"]["cause"], "hbm_bandwidth");
  // Shared-memory blocking alone reads every operand from SRAM: its run sits at the SRAM roof.
  EXPECT_EQ(shared["verdict"]["limit"], "sram");
  EXPECT_EQ(shared["limiter"]["cause"], "sram_bandwidth");
  EXPECT_EQ(both["limiter"]["cause"], "compute");
  const double t_both = both["time_s"].get<double>();
  // Shared-memory blocking alone is held at the SRAM roof, I = 0.48 where the compute needs 2.
  EXPECT_LT(t_both * 4, shared["time_s"].get<double>());
  EXPECT_LT(t_both * 5, registers["time_s"].get<double>());
}

// --- question 4: past the ridge but slow, and the report names why ---

void expect_limiter(const std::string& workload, const std::string& cause,
                    const std::string& detail = "") {
  const Simulated run = simulate_once(kQ4Machine, kQ4 + workload);
  const Roofline& r = run.config.analysis.roofline;
  EXPECT_GT(r.intensity_flop_per_byte, r.ridge_flop_per_byte);  // past the ridge
  const Limiter l = find_limiter(run.config, run.result, run_figures(run.config, run.result));
  EXPECT_EQ(l.cause, cause) << l.summary;
  EXPECT_EQ(l.detail, detail);
  if (cause != "compute") {
    EXPECT_LT(l.percent_of_roof, 100 * kAtRoofFraction);
  }
}

TEST(QuestionFour, BaselineReachesTheRoof) { expect_limiter("baseline.yaml", "compute"); }
TEST(QuestionFour, Synchronisation) { expect_limiter("synchronisation.yaml", "synchronisation"); }
TEST(QuestionFour, RegisterSpill) { expect_limiter("register-spill.yaml", "register_spill"); }
TEST(QuestionFour, LowOccupancy) { expect_limiter("low-occupancy.yaml", "low_occupancy"); }
TEST(QuestionFour, TheHtmlReportNamesTheLimiterToo) {
  const auto report = test::run_report(kQ4Machine, kQ4 + "register-spill.yaml");
  const std::string html = render_html_report(report);
  EXPECT_NE(html.find("data-key=\"simulated.limiter.cause\">register_spill<"), std::string::npos);
  EXPECT_NE(html.find(report["simulated"]["limiter"]["summary"].get<std::string>()),
            std::string::npos);
}

TEST(QuestionFour, InputSupply) {
  expect_limiter("input-supply.yaml", "input_supply", "in_flight_limit");
}

// --- the issue of warp instructions ---

// The same FP32 GEMM (8 x 8 a thread: 64 FFMAs and four 16-byte loads a k) on an H100, whose 128
// FP32 lanes take all four issue slots a clock, and on an A100, whose 64 take two: the H100's
// compute ops are held by their issue, never shorter than the analytical issue time; the A100's
// never are. Both issue exactly the analytical count.
TEST(Issue, AnH100sFp32LoadsTakeFfmaSlotsAnA100sDoNot) {
  const std::vector<std::string> small = {"workload.m=1024", "workload.n=1024", "workload.k=1024"};
  const std::string gemm = "questions/q2-tile-under-limits/workloads/128x128x32-2stages.yaml";
  const Simulated h100 = simulate_once("hardware/h100-sxm5-80gb.yaml", gemm, small);
  const Analysis& a = h100.config.analysis;
  const ComputeUnitStats h100_units = h100.result.compute_total();
  EXPECT_EQ(h100_units.warp_instructions, a.warp_instructions);
  EXPECT_EQ(a.warp_instructions, 8u * 8 * 32 * 17'480);  // 8 x 8 blocks, 32 K-steps each
  EXPECT_GT(h100_units.issue_limited, Time{});
  EXPECT_EQ(h100_units.operand_limited, Time{});
  // Each op is held to its 4,370 cycles of issue (17,480 / 4) against 4,096 of FLOPs.
  const double cycle_s = 1 / static_cast<double>(h100.config.hardware.core_clock.frequency_hz);
  const auto ops = static_cast<double>(h100_units.ops);
  EXPECT_NEAR(h100_units.busy.seconds(), ops * 4370 * cycle_s, ops * cycle_s);
  EXPECT_NEAR(h100_units.issue_limited.seconds(), ops * (4370 - 4096) * cycle_s, ops * cycle_s);
  EXPECT_GT(h100.result.time.seconds(), a.roofline.t_compute_s);
  EXPECT_DOUBLE_EQ(a.roofline.t_compute_s, issue_time_s(a.warp_instructions, a.roof));
  const RunFigures f = run_figures(h100.config, h100.result);
  EXPECT_EQ(compute_roof_text(h100.config, f),
            "P as the issue of 35,799,040 warp instructions, 4 a cycle per core, allows it");

  // The A100 in a process of its own (one simulation a process).
  const nlohmann::json a100 = test::run_report("hardware/a100-sxm4-80gb.yaml", gemm, small);
  EXPECT_EQ(a100["simulated"]["issue"]["warp_instructions"].get<std::uint64_t>(),
            a.warp_instructions);
  EXPECT_EQ(a100["simulated"]["issue"]["stretched_compute_s"].get<double>(), 0.0);
  EXPECT_EQ(a100["simulated"]["issue_stall_fraction"].get<double>(), 0.0);
  // 4,370 cycles of issue a K-step against 8,192 of FLOPs at 128 a cycle.
  EXPECT_NEAR(a100["analytical"]["issue"]["time_s"].get<double>() /
                  a100["analytical"]["t_compute_s"].get<double>(),
              4370.0 / 8192, 1e-12);
}

}  // namespace
}  // namespace ridgeline
