// Whole runs with an L2 between the cores and HBM (configs/hardware/seed-l2.yaml: the seed machine
// plus 40 MiB of L2) against the analytical model and against each other. Each test runs in its
// own process; the one comparing two block orders runs them as child processes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/report/compute_report.hpp"
#include "sim/report/levels.hpp"
#include "sim/report/report.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/run/simulate.hpp"
#include "sim/util/child_process.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

constexpr const char* kL2 = "hardware/seed-l2.yaml";
constexpr const char* kT128 = "workloads/seed/gemm-4096-t128-double.yaml";
constexpr const char* kGrouped = "workload.block_order={kind: grouped, group: 8}";

constexpr std::uint64_t kMiB = 1 << 20;
// The 4096^3 FP32 GEMM in 128 x 128 tiles: a block row's A panel and a block column's B panel
// are 128 x 4096 x 4 B = 2 MiB each; C is 64 MiB. 1024 blocks run as 8 waves of 128 (one block
// per core).
constexpr std::uint64_t kPanelBytes = 2 * kMiB;
constexpr std::uint64_t kCBytes = 64 * kMiB;
constexpr std::uint64_t kWaves = 8;

const LevelFigures& level(const Levels& levels, const std::string& name) {
  for (const LevelFigures& l : levels.levels) {
    if (l.name == name) return l;
  }
  throw std::runtime_error("no level " + name);
}

// `ridgeline run` of `hardware` and `workload`, once with each list of further arguments
// ("--set", "key=value", ...), two at a time in child processes; their JSON reports (empty where
// a run failed, with the failure noted).
std::vector<nlohmann::json> run_each(const std::string& hardware, const std::string& workload,
                                     const std::vector<std::vector<std::string>>& arguments) {
  const std::string base = ::testing::TempDir() + "ridgeline_l2_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_";
  std::vector<std::vector<std::string>> runs;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    runs.push_back({"run", hardware, workload, "--quiet", "--json", base + std::to_string(i)});
    runs.back().insert(runs.back().end(), arguments[i].begin(), arguments[i].end());
  }
  const std::vector<ChildResult> results = run_children(RIDGELINE_BINARY, runs, 2);
  std::vector<nlohmann::json> reports;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string output = base + std::to_string(i);
    EXPECT_EQ(results[i].exit_code, 0) << results[i].error_text;
    std::ifstream file(output);
    reports.push_back(results[i].exit_code == 0 ? nlohmann::json::parse(file)
                                                : nlohmann::json::object());
    std::remove(output.c_str());
  }
  return reports;
}

// The two orders side by side. Row-major, a wave is 4 block rows x all 32 columns: it reads 4 A
// panels and all 32 B panels. Grouped by 8, a wave is 8 block rows x 16 columns: 8 A panels and
// 16 B panels. The 40 MiB L2 holds the tiles a wave's blocks share while they use them, but
// little of a wave's 48 to 72 MiB of panels until the next wave: HBM reads each wave's distinct
// panels about once (a little less: some survive into the next wave).
TEST(L2System, GroupedOrderHitsMoreAndReadsLessHbmThanRowMajor) {
  const std::vector<nlohmann::json> reports =
      run_each(test::config_path(kL2), test::config_path(kT128), {{}, {"--set", kGrouped}});
  ASSERT_FALSE(reports[0].empty() || reports[1].empty());
  const auto& row_major = reports[0];
  const auto& grouped = reports[1];
  EXPECT_EQ(grouped["workload"]["block_order"]["kind"], "grouped");

  const auto hits = [](const nlohmann::json& r) {
    return r["components"]["l2"]["hit_lines"].get<double>() +
           r["components"]["l2"]["pending_hit_lines"].get<double>();
  };
  EXPECT_GT(hits(grouped), hits(row_major));
  EXPECT_LT(grouped["components"]["l2"]["miss_lines"].get<double>(),
            row_major["components"]["l2"]["miss_lines"].get<double>());

  const std::uint64_t note_q = row_major["analytical"]["hbm_bytes"];
  const std::uint64_t row_major_q = row_major["simulated"]["hbm_bytes"];
  const auto per_wave = [](std::uint64_t panels) {
    return static_cast<double>(kWaves * panels * kPanelBytes + kCBytes);
  };
  // C is written once: to HBM when evicted, or left dirty in the L2 when the kernel ends.
  const auto with_dirty = [](const nlohmann::json& r) {
    return r["simulated"]["hbm_bytes"].get<double>() +
           r["components"]["l2"]["dirty_at_end_bytes"].get<double>();
  };
  EXPECT_LE(with_dirty(row_major), per_wave(4 + 32));  // 671,088,640
  EXPECT_GE(with_dirty(row_major), 0.98 * per_wave(4 + 32));
  EXPECT_LE(with_dirty(grouped), per_wave(8 + 16));  // 469,762,048
  EXPECT_GE(with_dirty(grouped), 0.98 * per_wave(8 + 16));
  EXPECT_LT(row_major_q, note_q);
  // I at HBM rises from the note's 31.5 FLOP/B to 205 (row-major) and 293 (grouped).
  const double flops = row_major["analytical"]["flops"];
  // levels[]: hbm, l2, sram, from HBM inwards.
  const auto level_json = [](const nlohmann::json& r, const std::string& name) {
    for (const auto& l : r["simulated"]["levels"]) {
      if (l["name"] == name) return l;
    }
    return nlohmann::json();
  };
  EXPECT_DOUBLE_EQ(level_json(row_major, "hbm")["intensity_flop_per_byte"].get<double>(),
                   flops / static_cast<double>(row_major_q));
  EXPECT_GT(level_json(grouped, "hbm")["intensity_flop_per_byte"].get<double>(),
            level_json(row_major, "hbm")["intensity_flop_per_byte"].get<double>());
  // Both the L2's and HBM's view of what the cores asked for is the note's Q.
  EXPECT_EQ(level_json(grouped, "l2")["bytes"].get<std::uint64_t>(), note_q);
  EXPECT_EQ(grouped["simulated"]["binding_level"], "compute");
}

// 2048^3 in 64 x 64 tiles: A, B and C are 16 MiB each, all three fit in the 40 MiB L2.
const std::vector<std::string> k2048T64{"workload.m=2048", "workload.n=2048", "workload.k=2048",
                                        kGrouped};
constexpr const char* kT64 = "workloads/seed/gemm-4096-t64-double.yaml";

std::vector<std::string> with(std::vector<std::string> overrides, const std::string& more) {
  overrides.push_back(more);
  return overrides;
}

// Every byte is accounted for on its way down: cores -> L2 -> HBM.
TEST(L2System, CountsBalanceAcrossTheHierarchy) {
  const RunConfig config = seed_config(kT64, k2048T64, kL2);
  const SimulationResult r = simulate(config);
  ASSERT_NE(r.cache_stats("l2"), nullptr);
  const L2CacheStats& l2 = *r.cache_stats("l2");
  const Analysis& a = config.analysis;
  const CoreStats cores = r.core_total();

  // The cores ask for the note's Q; the L2 sees exactly that.
  EXPECT_EQ(cores.load_bytes, a.hbm_read_bytes);
  EXPECT_EQ(cores.store_bytes, a.hbm_write_bytes);
  EXPECT_EQ(l2.read_bytes, cores.load_bytes);
  EXPECT_EQ(l2.write_bytes, cores.store_bytes);
  EXPECT_EQ(l2.hit_bytes + l2.pending_hit_bytes + l2.miss_bytes, l2.read_bytes + l2.write_bytes);
  // HBM sees the L2's fills and write-backs, nothing else. C's lines are whole lines: stored
  // without a fetch, each written to HBM once when evicted, or left dirty in the L2 at the end.
  EXPECT_EQ(r.hbm.read_bytes, l2.fill_bytes);
  EXPECT_EQ(r.hbm.write_bytes, l2.writeback_bytes);
  EXPECT_EQ(r.hbm.write_bytes + l2.dirty_at_end_bytes, a.hbm_write_bytes);
  EXPECT_EQ(l2.fill_bytes + a.hbm_write_bytes, (l2.miss_lines * 128));
  EXPECT_EQ(l2.write_through_bytes, 0u);
  // Everything fits: HBM reads A and B once each (compulsory misses), not the note's 32 times.
  EXPECT_EQ(r.hbm.read_bytes, 2u * 2048 * 2048 * 4);
  EXPECT_EQ(a.hbm_read_bytes, 32u * 2 * 2048 * 2048 * 4);
  // Fills merge: many blocks ask for a tile while it is on its way.
  EXPECT_GT(l2.pending_hit_lines, 0u);

  // SRAM traffic is what the workload's formulas say, L2 or not.
  const SramStats sram = r.sram_total();
  EXPECT_EQ(sram.read_bytes, a.sram_read_bytes);
  EXPECT_EQ(sram.write_bytes, a.sram_write_bytes);
  EXPECT_EQ(r.flops(), a.flops);

  // Memory-bound by the note (I = 15.75 < 20), compute-bound with the L2: near T_compute.
  EXPECT_EQ(a.roofline.bound, Bound::memory);
  EXPECT_GE(r.time.seconds(), a.roofline.t_compute_s);
  EXPECT_LE(r.time.seconds(), a.roofline.t_compute_s * 1.03);

  const Levels simulated = run_figures(config, r).levels;
  EXPECT_EQ(level(simulated, "hbm").bytes, r.hbm_bytes());
  EXPECT_EQ(level(simulated, "l2").bytes, a.hbm_bytes());
  EXPECT_EQ(level(simulated, "sram").bytes, a.sram_read_bytes + a.sram_write_bytes);
  EXPECT_EQ(simulated.binding, "compute");
  EXPECT_EQ(find_limiter(config, r, run_figures(config, r)).cause, "compute");

  // Faster than the note's roof, and the text says against which roof: HBM carried 3 of the
  // note's 65 parts (A and B once and C, against A and B 32 times each and C): 4.6 %, less the
  // part of C the L2 still holds dirty at the end.
  EXPECT_GT(r.time.seconds(), 0);
  EXPECT_LT(r.time.seconds(), a.roofline.t_ideal_s);
  const RunFigures figures = run_figures(config, r);
  EXPECT_EQ(figures.verdict.limit, "compute");
  EXPECT_LE(figures.verdict.percent_of_roof, 100.0);
  EXPECT_GT(figures.percent_of_note_roof, 100.0);
  EXPECT_EQ(r.hbm_bytes() + r.cache_stats("l2")->dirty_at_end_bytes, a.hbm_bytes() / 65 * 3);
  const std::string text = report_text(config, &r);
  EXPECT_NE(text.find("verdict: compute-bound: 99."), std::string::npos) << text;
  EXPECT_NE(text.find("the seed note's model: memory-bound at HBM"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("HBM carried {} of that Q",
                                  percent(static_cast<double>(r.hbm_bytes()) /
                                          static_cast<double>(a.hbm_bytes())))),
            std::string::npos)
      << text;
}

// The L2 is the one shared level of the chain: the result, the levels table and the JSON's
// components each have one entry per level, in chain order between HBM and SRAM.
TEST(L2System, TheLevelsTableHasOneEntryPerLevelOfTheChain) {
  const RunConfig config = seed_config(kT64, k2048T64, kL2);
  const SimulationResult r = simulate(config);
  ASSERT_EQ(r.levels.size(), 1u);
  EXPECT_EQ(r.levels[0].name, "l2");
  EXPECT_EQ(r.levels[0].traffic.requested_bytes, config.analysis.hbm_bytes());
  EXPECT_EQ(r.levels[0].traffic.below_bytes, r.hbm_bytes());
  std::vector<std::string> names;
  for (const LevelFigures& level : run_figures(config, r).levels.levels) {
    names.push_back(level.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"hbm", "l2", "sram"}));
  names.clear();
  for (const LevelFigures& level : analytical_levels(config).levels) names.push_back(level.name);
  EXPECT_EQ(names, (std::vector<std::string>{"hbm", "l2", "sram"}));
  const Json report = report_json(config, &r);
  EXPECT_EQ(report["components"]["l2"]["fill_bytes"].get<double>(),
            static_cast<double>(r.cache_stats("l2")->fill_bytes));
  EXPECT_EQ(report["components"]["l2"].size(), r.levels[0].counters.size());
}

// Without an L2 the block order changes nothing the note counts: HBM carries exactly its Q.
TEST(L2System, WithoutL2HbmCarriesExactlyTheNotesQInAnyOrder) {
  const RunConfig config = seed_config(kT128, {kGrouped});
  EXPECT_FALSE(config.hardware.l2.has_value());
  const SimulationResult r = simulate(config);
  EXPECT_EQ(r.cache_stats("l2"), nullptr);
  EXPECT_EQ(r.hbm.read_bytes, config.analysis.hbm_read_bytes);
  EXPECT_EQ(r.hbm.write_bytes, config.analysis.hbm_write_bytes);
  EXPECT_EQ(r.sram_total().read_bytes, config.analysis.sram_read_bytes);
  EXPECT_EQ(r.sram_total().write_bytes, config.analysis.sram_write_bytes);
  const Levels analytical = analytical_levels(config);
  ASSERT_EQ(analytical.levels.size(), 2u);  // hbm and sram
  EXPECT_EQ(level(analytical, "hbm").bytes, config.analysis.hbm_bytes());
  EXPECT_EQ(level(run_figures(config, r).levels, "hbm").bytes, config.analysis.hbm_bytes());
  EXPECT_EQ(report_text(config, &r).find("above the roof"), std::string::npos);
}

// Write-through: stores pass on to HBM at once; nothing is dirty at the end.
TEST(L2System, WriteThroughSendsEveryStoreToHbm) {
  const RunConfig config =
      seed_config(kT64, with(k2048T64, "hardware.l2.write_policy=write_through"), kL2);
  const SimulationResult r = simulate(config);
  ASSERT_NE(r.cache_stats("l2"), nullptr);
  EXPECT_EQ(r.cache_stats("l2")->write_through_bytes, config.analysis.hbm_write_bytes);
  EXPECT_EQ(r.hbm.write_bytes, config.analysis.hbm_write_bytes);
  EXPECT_EQ(r.cache_stats("l2")->writeback_bytes + r.cache_stats("l2")->dirty_at_end_bytes, 0u);
  EXPECT_EQ(r.hbm.read_bytes, r.cache_stats("l2")->fill_bytes);
  EXPECT_EQ(r.hbm.read_bytes, 2u * 2048 * 2048 * 4);  // reads are cached as before
}

// A slow L2 port binds: 2048^3 in 64 x 64 tiles asks the L2 for Q = 1.09 GB, 1.36 ms at
// 800 GB/s against T_compute = 0.86 ms. Grouped, HBM is barely used; the port is the limit,
// analytically (lowest roof) and in the run (busiest unit).
TEST(L2System, ASlowL2PortIsTheBindingLevel) {
  const RunConfig config = seed_config("workloads/seed/gemm-4096-t64-double.yaml",
                                       {"workload.m=2048", "workload.n=2048", "workload.k=2048",
                                        kGrouped, "hardware.l2.bandwidth=800GB/s"},
                                       kL2);
  const Levels analytical = analytical_levels(config);
  EXPECT_EQ(analytical.binding, "l2");
  const LevelFigures& l2 = level(analytical, "l2");
  EXPECT_DOUBLE_EQ(l2.roof_flop_per_s, 800e9 * static_cast<double>(config.analysis.flops) /
                                           static_cast<double>(config.analysis.hbm_bytes()));
  const SimulationResult r = simulate(config);
  const Levels simulated = run_figures(config, r).levels;
  EXPECT_EQ(simulated.binding, "l2");
  EXPECT_GT(level(simulated, "l2").busy_fraction, 0.97);
  // The limiter judges the run against the roof the L2 leaves, not the note's.
  EXPECT_EQ(find_limiter(config, r, run_figures(config, r)).cause, "l2_bandwidth");
  EXPECT_GE(r.time.seconds(), l2.time_s);
  EXPECT_LE(r.time.seconds(), l2.time_s * 1.02);
}

const std::vector<std::string> kTwoPartitions{"--set", "hardware.l2.partitions=2", "--set",
                                              "hardware.l2.far_hit_latency=350ns"};
const char* const kChase = R"(workload:
  kind: memory_trace
  pattern: {order: random, accesses: 400000, span: 4MiB, operation: load}
  access_bytes: 64B
)";

// A pointer chase over 4 MiB (in the L2 after its first touch) from two cores, one 64 B load at
// a time, with the L2 in two partitions, each core near one. A core reaches a line homed in the
// other partition once, and from then on reads the copy that reach left in its own: the far
// loads are at most one per core and far line (32,768 in all), nearly all of them (each core
// makes 200,000 loads over the 32,768 lines), and each left a copy (the L2 has room). Of those,
// the ones that hit at home (the other core fetched the line first, about half) wait 350 ns
// instead of 150; the ones that missed wait for HBM (about 500 ns) either way.
TEST(L2System, FarLoadsLeaveCopiesAndTheirHitsAloneRaiseTheMeanLatency) {
  test::ScratchFiles files;
  const std::string chase = files.write("chase", kChase);
  const std::vector<std::string> one_load_at_a_time{
      "--set", "hardware.cores.count=2", "--set", "hardware.hbm.max_bytes_in_flight_per_core=64B"};
  std::vector<std::string> partitioned = one_load_at_a_time;
  partitioned.insert(partitioned.end(), kTwoPartitions.begin(), kTwoPartitions.end());
  const std::vector<nlohmann::json> reports =
      run_each(test::config_path(kL2), chase, {one_load_at_a_time, partitioned});
  ASSERT_FALSE(reports[0].empty() || reports[1].empty());
  const auto& l2 = reports[1]["components"]["l2"];
  const double requests = l2["read_requests"].get<double>();
  ASSERT_EQ(requests, 400000);
  EXPECT_EQ(reports[0]["components"]["l2"]["far_requests"].get<double>(), 0);
  EXPECT_EQ(reports[0]["components"]["l2"]["copy_fill_lines"].get<double>(), 0);
  const double far = l2["far_requests"].get<double>();
  constexpr double kLines = 4 << 20 >> 7;
  EXPECT_LE(far, kLines);
  EXPECT_GE(far, 0.98 * kLines);
  EXPECT_EQ(l2["copy_fill_lines"].get<double>(), far);
  EXPECT_NEAR(l2["copy_hit_lines"].get<double>(), requests / 2 - far, 0.01 * requests);
  // Both runs miss the same lines: copies take only room the home lines leave.
  EXPECT_EQ(l2["miss_lines"], reports[0]["components"]["l2"]["miss_lines"]);
  const auto mean = [](const nlohmann::json& r) {
    return r["simulated"]["trace"]["latency_s"]["mean"].get<double>();
  };
  const double far_hit_share = (mean(reports[1]) - mean(reports[0])) / 200e-9;
  EXPECT_GT(far_hit_share, 0.4 * far / requests);
  EXPECT_LT(far_hit_share, 0.6 * far / requests);
  EXPECT_EQ(reports[1]["hardware"]["l2"]["partitions"], 2);
  EXPECT_DOUBLE_EQ(reports[1]["hardware"]["l2"]["far_hit_latency_s"].get<double>(), 350e-9);
}

// The same chase from one core with its 4 MiB in the L2 from the start (--l2-resident data), as
// a chase before it on that core left it: every line at home and the ones homed in the other
// partition copied into the core's. Every load hits near: the port's 16 ps and the near latency,
// half of them on a copy.
TEST(L2System, AWarmChaseMeasuresTheNearHitLatency) {
  test::ScratchFiles files;
  const std::string chase = files.write("chase", kChase);
  std::vector<std::string> warm{"--l2-resident", "data",
                                "--set",         "hardware.cores.count=1",
                                "--set",         "hardware.hbm.max_bytes_in_flight_per_core=64B"};
  warm.insert(warm.end(), kTwoPartitions.begin(), kTwoPartitions.end());
  const std::vector<nlohmann::json> reports = run_each(test::config_path(kL2), chase, {warm});
  ASSERT_FALSE(reports[0].empty());
  const auto& l2 = reports[0]["components"]["l2"];
  EXPECT_EQ(l2["miss_lines"], 0);
  EXPECT_EQ(l2["hit_lines"], 400000);
  EXPECT_EQ(l2["far_requests"], 0);
  EXPECT_NEAR(l2["copy_hit_lines"].get<double>(), 200000, 4000);
  EXPECT_EQ(reports[0]["simulated"]["hbm_bytes"], 0);
  const nlohmann::json& latency = reports[0]["simulated"]["trace"]["latency_s"];
  EXPECT_NEAR(latency["mean"].get<double>(), 16e-12 + 150e-9, 1e-12);
  EXPECT_NEAR(latency["min"].get<double>(), 16e-12 + 150e-9, 1e-12);
  EXPECT_NEAR(latency["max"].get<double>(), 16e-12 + 150e-9, 1e-12);
}

}  // namespace
}  // namespace ridgeline
