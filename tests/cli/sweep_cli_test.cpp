// `ridgeline sweep` and `sweep-merge` as users run them: results files, failures and skips, the
// same files at every -j, resuming after SIGKILL, time limits, shards through GNU parallel.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/cli/cli_support.hpp"
#include "tests/energy_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::Outcome;
using test::ridgeline;
using test::slurp;
namespace fs = std::filesystem;

class SweepCli : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return scratch_.path(name); }

  // A sweep file over the seed machine; `body` holds what follows the base files.
  std::string sweep_file(const std::string& name, const std::string& body) {
    const std::string file = path(name);
    std::ofstream(file) << "sweep:\n  hardware: " << test::config_path("hardware/seed.yaml")
                        << "\n  workload: "
                        << test::config_path("workloads/seed/gemm-4096-t64-double.yaml") << "\n"
                        << body;
    return file;
  }

  // Six tiny points (512^3 GEMMs): three run, one is skipped by the constraint (64 KiB of
  // buffers), two fail (a 1024 tile is larger than 512).
  std::string tiny_sweep() {
    return sweep_file("tiny.yaml",
                      "  set:\n    workload.m: 512\n    workload.n: 512\n    workload.k: 512\n"
                      "  axes:\n"
                      "    - workload.tile: [{m: 32, n: 32, k: 32}, {m: 64, n: 64, k: 64},\n"
                      "                      {m: 1024, n: 1024, k: 1024}]\n"
                      "    - workload.stages: [1, 2]\n"
                      "  constraints:\n"
                      "    - analytical.footprint.sram_bytes_per_block <= 48KiB\n");
  }

  static std::vector<nlohmann::json> rows(const std::string& directory) {
    std::vector<nlohmann::json> out;
    std::istringstream lines(slurp(directory + "/results.jsonl"));
    for (std::string line; std::getline(lines, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }

  // The rows of an analytical sweep of `workload` on the H100 preset over one axis, each ok.
  std::vector<nlohmann::json> sweep_on_h100(const std::string& workload, const std::string& axis) {
    const std::string sweep = path("h100.yaml");
    std::ofstream(sweep) << "sweep:\n  hardware: "
                         << test::config_path("hardware/h100-sxm5-80gb.yaml")
                         << "\n  workload: " << test::config_path(workload) << "\n  axes:\n    - "
                         << axis << "\n";
    const std::string out = path(fs::path(workload).stem().string());
    const Outcome o = ridgeline("sweep " + sweep + " --analytical --out " + out);
    EXPECT_EQ(o.exit_code, 0) << o.err;
    std::vector<nlohmann::json> all = rows(out);
    for (const nlohmann::json& row : all) EXPECT_EQ(row["status"], "ok") << row["reason"];
    return all;
  }

  test::ScratchDirectory scratch_{"sweep_cli"};
};

TEST_F(SweepCli, HelpExplainsSweeps) {
  EXPECT_NE(ridgeline("--help").out.find("sweep-merge"), std::string::npos);
  const Outcome o = ridgeline("sweep --help");
  for (const char* word : {"--out", "--jobs", "--shard", "--analytical", "--point-timeout"}) {
    EXPECT_NE(o.out.find(word), std::string::npos) << word;
  }
}

TEST_F(SweepCli, AnalyticalSweepReproducesTheSeedNotesTable) {
  const Outcome o = ridgeline("sweep " + test::config_path("sweeps/seed-tiles.yaml") +
                              " --analytical --out " + path("out"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto all = rows(path("out"));
  ASSERT_EQ(all.size(), 6u);
  // Points: t = 32, 64, 128 (slowest axis), each with 1 and 2 stages.
  const std::uint64_t q[] = {17'246'978'048u, 8'657'043'456u, 4'362'076'160u};
  const double intensity[] = {7.968872, 15.875969, 31.507692};
  for (std::size_t p = 0; p < all.size(); ++p) {
    SCOPED_TRACE(p);
    EXPECT_EQ(all[p]["point"], p);
    EXPECT_EQ(all[p]["status"], "ok");
    EXPECT_EQ(all[p]["axis.workload.stages"], p % 2 + 1);
    EXPECT_EQ(all[p]["analytical.hbm_bytes"], q[p / 2]);
    EXPECT_NEAR(all[p]["analytical.intensity_flop_per_byte"].get<double>(), intensity[p / 2], 5e-7);
    EXPECT_EQ(all[p]["analytical.bound"], p / 2 == 2 ? "compute" : "memory");
    const std::uint64_t t = 32u << (p / 2);  // 8 t^2 bytes of inputs per stage
    EXPECT_EQ(all[p]["analytical.footprint.sram_bytes_per_block"], 8 * t * t * (p % 2 + 1));
  }
  const std::string header = slurp(path("out/results.csv")).substr(0, 400);
  EXPECT_EQ(header.rfind("point,status,reason,axis.workload.tile,axis.workload.stages,", 0), 0u)
      << header;
  // The objectives that need a simulation are left out, with a note.
  EXPECT_NE(o.err.find("objective 'time_s' needs simulated figures"), std::string::npos);
  EXPECT_NE(o.out.find("t_ideal_s (minimize analytical.t_ideal_s): 0.00687195 at point 4"),
            std::string::npos)
      << o.out;
}

TEST_F(SweepCli, EveryBundledSweepRunsAnalytically) {
  std::vector<fs::path> sweeps;
  for (const auto& entry : fs::directory_iterator(test::config_path("sweeps")))
    sweeps.push_back(entry.path());
  ASSERT_GE(sweeps.size(), 3u);
  for (const fs::path& sweep : sweeps) {
    SCOPED_TRACE(sweep.string());
    const std::string out = path(sweep.stem().string());
    const Outcome o = ridgeline("sweep " + sweep.string() + " --analytical --out " + out);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    for (const auto& row : rows(out)) {
      // A bundled sweep's points hold or are skipped by its constraints: none breaks a rule.
      EXPECT_NE(row["status"], "failed") << row["reason"];
    }
  }
}

TEST_F(SweepCli, EnergyAndPowerAreObjectivesAndConstraintsWithATimeEnergyFront) {
  // The seed machine with 10 W static and 5 pJ a FLOP, nothing else, and the 2048^3 t = 64 GEMM:
  // F = 2 x 2048^3, HBM-bound at 1.25 GHz (T = 1.09051904 ms, 88.8 W). Power limits lower the
  // clock: the FLOPs cost (f / 1.25 GHz)^2 of 5 pJ each, and below about 1 GHz compute binds and
  // the kernel takes longer, drawing static power for longer.
  test::ScratchFiles files;
  const std::string hardware = test::with_energy(
      files, "hardware/seed.yaml", test::energy_section("10W", "5pJ/FLOP", test::kNoHbmEnergy));
  const std::string file = path("energy.yaml");
  std::ofstream(file) << "sweep:\n  hardware: " << hardware << "\n  workload: "
                      << test::config_path("workloads/seed/gemm-4096-t64-double.yaml")
                      << "\n  set: {workload.m: 2048, workload.n: 2048, workload.k: 2048}\n"
                         "  axes:\n    - hardware.power_limit: [95W, 80W, 60W, 40W, 11W]\n"
                         "  constraints:\n    - analytical.power_limit.time_cost_s <= 1ms\n"
                         "  objectives:\n"
                         "    time_s: {minimize: analytical.energy.time_s}\n"
                         "    energy_j: {minimize: analytical.energy.total_j}\n"
                         "    edp_j_s: {minimize: analytical.energy.energy_delay_product_j_s}\n"
                         "  pareto: [time_s, energy_j]\n";
  const Outcome o = ridgeline("sweep " + file + " --analytical --out " + path("energy"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto all = rows(path("energy"));
  ASSERT_EQ(all.size(), 5u);
  // The clock each limit leaves (whole MHz), and the time the hierarchical bound gives at it.
  const std::uint64_t mhz[] = {1250, 1178, 995, 836, 269};
  const double flops = 2.0 * 2048 * 2048 * 2048;
  for (std::size_t p = 0; p < all.size(); ++p) {
    SCOPED_TRACE(p);
    const nlohmann::json& row = all[p];
    EXPECT_EQ(row["analytical.power_limit.clock_hz"], mhz[p] * 1'000'000);
    const double s = static_cast<double>(mhz[p]) / 1250;
    const double time = row["analytical.energy.time_s"].get<double>();
    // HBM's bound until the FLOPs at the lowered peak (20 TFLOP/s at 1.25 GHz) take longer.
    EXPECT_NEAR(time, std::max(1.09051904e-3, flops / (20e12 * s)), 1e-12);
    // A FLOP's energy at the lowered clock, in whole attojoules as the model keeps it.
    const double flop_aj = static_cast<double>(std::llround(5e6 * s * s));
    const double energy = 10.0 * time + flops * flop_aj * 1e-18;
    EXPECT_NEAR(row["analytical.energy.total_j"].get<double>(), energy, 1e-12);
    EXPECT_NEAR(row["analytical.energy.energy_delay_product_j_s"].get<double>(), energy * time,
                1e-12 * energy * time);
  }
  // 11 W costs the kernel 2.9 ms: the constraint skips it, with the figure.
  EXPECT_EQ(all[4]["status"], "skipped");
  EXPECT_NE(all[4]["reason"].get<std::string>().find("analytical.power_limit.time_cost_s = "),
            std::string::npos)
      << all[4]["reason"];
  const nlohmann::json summary = nlohmann::json::parse(slurp(path("energy/summary.json")));
  // Fastest: the first of the three points HBM holds to the same time; least energy and least
  // energy-delay: 40 W, whose lower clock saves more joules than its longer time costs.
  EXPECT_EQ(summary["best"][0]["point"], 0);
  EXPECT_EQ(summary["best"][1]["point"], 3);
  EXPECT_EQ(summary["best"][2]["point"], 3);
  // The front of time against energy: 60 W is as fast as 95 and 80 W on less energy; 40 W is
  // slower on less still.
  std::vector<std::uint64_t> front;
  for (const auto& p : summary["pareto"]["points"])
    front.push_back(p["point"].get<std::uint64_t>());
  EXPECT_EQ(front, (std::vector<std::uint64_t>{2, 3}));
}

TEST_F(SweepCli, SimulatedSweepRecordsEveryPointTheSameAtEveryJ) {
  const std::string sweep = tiny_sweep();
  const Outcome one = ridgeline("sweep " + sweep + " -j 1 --out " + path("j1"));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const Outcome two = ridgeline("sweep " + sweep + " -j 2 --out " + path("j2"));
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(slurp(path("j1/results.jsonl")), slurp(path("j2/results.jsonl")));
  EXPECT_EQ(slurp(path("j1/results.csv")), slurp(path("j2/results.csv")));
  EXPECT_EQ(slurp(path("j1/summary.json")), slurp(path("j2/summary.json")));
  EXPECT_NE(one.out.find("Summary: 6 points: 3 ok, 2 failed, 1 skipped"), std::string::npos)
      << one.out;
  EXPECT_NE(one.err.find("sweep: point 0 ok"), std::string::npos) << one.err;

  const auto all = rows(path("j1"));
  ASSERT_EQ(all.size(), 6u);
  const char* expected[] = {"ok", "ok", "ok", "skipped", "failed", "failed"};
  for (std::size_t p = 0; p < all.size(); ++p) {
    SCOPED_TRACE(p);
    EXPECT_EQ(all[p]["status"], expected[p]);
    const std::string point_dir = path("j1/points/" + std::to_string(p));
    if (all[p]["status"] != "ok") {
      EXPECT_FALSE(fs::exists(point_dir)) << "no process for a point that does not run";
      continue;
    }
    // The simulation counted the model's bytes and cannot beat its bound.
    EXPECT_EQ(all[p]["simulated.hbm_bytes"], all[p]["analytical.hbm_bytes"]);
    EXPECT_EQ(all[p]["simulated.flops"], 2u * 512 * 512 * 512);
    EXPECT_GE(all[p]["simulated.time_s"].get<double>(),
              all[p]["analytical.t_ideal_s"].get<double>());
    // Its resolved configuration, beside its report, reads back to the same point.
    for (const char* file : {"hardware.yaml", "workload.yaml", "report.json"}) {
      EXPECT_TRUE(fs::exists(point_dir + "/" + file)) << file;
    }
    const Outcome again = ridgeline("analyze " + point_dir + "/hardware.yaml " + point_dir +
                                    "/workload.yaml --json " + path("again.json"));
    ASSERT_EQ(again.exit_code, 0) << again.err;
    const auto report = nlohmann::json::parse(slurp(path("again.json")));
    EXPECT_EQ(report["analytical"]["t_ideal_s"], all[p]["analytical.t_ideal_s"]);
  }
  EXPECT_NE(all[3]["reason"].get<std::string>().find(
                "constraint 'analytical.footprint.sram_bytes_per_block <= 48KiB' is false "
                "(analytical.footprint.sram_bytes_per_block = 65536)"),
            std::string::npos)
      << all[3]["reason"];
  EXPECT_EQ(all[4]["reason"],
            sweep +
                ":10:27: workload.tile.m: value \"1024\": the tile is larger than the matrix "
                "(m = 512) (use a tile of at most 512)");
  const std::string csv = slurp(path("j1/results.csv"));
  for (const char* column : {"simulated.time_s", "analytical.t_ideal_s",
                             "simulated.achieved_hbm_bytes_per_s", "components.hbm."}) {
    EXPECT_NE(csv.substr(0, csv.find('\n')).find(column), std::string::npos) << column;
  }
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
}

// Runs `ridgeline ARGS...` in the background; its output goes to files.
pid_t start_ridgeline(const std::vector<std::string>& arguments, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen(log.c_str(), "w", stdout);
    std::freopen((log + ".err").c_str(), "w", stderr);
    std::vector<char*> argv{const_cast<char*>(RIDGELINE_BINARY)};
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(RIDGELINE_BINARY, argv.data());
    _exit(127);
  }
  return pid;
}

TEST_F(SweepCli, KilledSweepResumesLosingNothingAndRunningNothingTwice) {
  // Six points of about a tenth of a second each, two at a time.
  const std::string sweep =
      sweep_file("slow.yaml",
                 "  set:\n    workload.m: 1536\n    workload.n: 1536\n    workload.k: 1536\n"
                 "    workload.tile: {m: 32, n: 32, k: 32}\n"
                 "  axes:\n    - workload.stages: [1, 2, 3, 4, 5, 6]\n");
  const std::vector<std::string> arguments{"sweep", sweep, "-j", "2", "--out", path("out")};
  const pid_t pid = start_ridgeline(arguments, path("first.log"));
  // Kill it once the first point is written, while others are simulating.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (slurp(path("out/results.jsonl")).empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  // What the kill left: the first rows, in order. The last may be cut short, as the kernel
  // stops a write of more than a page between pages when SIGKILL arrives (seen in the sanitizer
  // build: a row of 10 KB cut at 8192 bytes); the files must still be the beginning of what an
  // uninterrupted run writes (checked below), and the resumed run drops the cut line.
  const std::string left = slurp(path("out/results.jsonl"));
  const std::string left_csv = slurp(path("out/results.csv"));
  ASSERT_FALSE(left.empty());

  // What was finished (a simulated point's report is its record), and how it was left.
  std::map<std::string, std::pair<ino_t, std::int64_t>> finished;
  for (const auto& entry : fs::directory_iterator(path("out/points"))) {
    const std::string report = entry.path().string() + "/report.json";
    struct stat info {};
    if (stat(report.c_str(), &info) == 0) {
      finished[report] = {info.st_ino,
                          info.st_mtim.tv_sec * 1'000'000'000LL + info.st_mtim.tv_nsec};
    }
  }
  ASSERT_FALSE(finished.empty());
  ASSERT_LT(finished.size(), 6u) << "the sweep ended before it was killed: make its points slower";
  // The point being simulated died with the sweep (no orphan goes on to write its report).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (const auto& entry : fs::directory_iterator(path("out/points"))) {
    if (finished.count((entry.path() / "report.json").string()) == 0) {
      EXPECT_FALSE(fs::exists(entry.path() / "report.json")) << entry.path();
    }
  }

  const Outcome resumed = ridgeline("sweep " + sweep + " -j 2 --out " + path("out"));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find(std::to_string(finished.size()) + " resumed"), std::string::npos)
      << resumed.err;
  for (const auto& [report, identity] : finished) {
    struct stat info {};
    ASSERT_EQ(stat(report.c_str(), &info), 0);
    EXPECT_EQ(info.st_ino, identity.first) << report << " was written again";
    EXPECT_EQ(info.st_mtim.tv_sec * 1'000'000'000LL + info.st_mtim.tv_nsec, identity.second)
        << report << " was run again";
  }
  const Outcome clean = ridgeline("sweep " + sweep + " -j 2 --out " + path("clean"));
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  const std::string clean_jsonl = slurp(path("clean/results.jsonl"));
  const std::string clean_csv = slurp(path("clean/results.csv"));
  EXPECT_EQ(clean_jsonl.compare(0, left.size(), left), 0) << "the kill left another row:\n" << left;
  EXPECT_EQ(clean_csv.compare(0, left_csv.size(), left_csv), 0) << "the kill left another row";
  EXPECT_EQ(slurp(path("out/results.jsonl")), clean_jsonl);
  EXPECT_EQ(slurp(path("out/results.csv")), clean_csv);
  EXPECT_EQ(slurp(path("out/summary.json")), slurp(path("clean/summary.json")));
}

TEST_F(SweepCli, PointsFinishedButNotWrittenAreTakenFromTheirFolders) {
  // As a kill leaves it when later points finished before an earlier one was written: the
  // results hold point 0 only, points 1 and 2 have their reports.
  const std::string sweep = tiny_sweep();
  ASSERT_EQ(ridgeline("sweep " + sweep + " -j 2 --out " + path("out")).exit_code, 0);
  const std::string jsonl = slurp(path("out/results.jsonl"));
  const std::string csv = slurp(path("out/results.csv"));
  std::ofstream(path("out/results.jsonl")) << jsonl.substr(0, jsonl.find('\n') + 1);
  fs::remove(path("out/results.csv"));
  const auto written = fs::last_write_time(path("out/points/2/report.json"));
  const Outcome again = ridgeline("sweep " + sweep + " -j 2 --out " + path("out"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("(3 resumed"), std::string::npos) << again.err;
  EXPECT_EQ(fs::last_write_time(path("out/points/2/report.json")), written) << "ran again";
  EXPECT_EQ(slurp(path("out/results.jsonl")), jsonl);
  EXPECT_EQ(slurp(path("out/results.csv")), csv);
}

TEST_F(SweepCli, LinesCutShortAreDroppedAndAnotherSweepIsRefused) {
  const std::string sweep = sweep_file(
      "cut.yaml", "  axes:\n    - workload.tile.m: [32, 64, 128]\n    - workload.stages: [1, 2]\n");
  ASSERT_EQ(ridgeline("sweep " + sweep + " --analytical --out " + path("out")).exit_code, 0);
  const std::string jsonl = slurp(path("out/results.jsonl"));
  const std::string csv = slurp(path("out/results.csv"));
  // As a kill in the middle of writing leaves them: the JSONL's last line half there, the CSV
  // a line short.
  std::ofstream(path("out/results.jsonl")) << jsonl.substr(0, jsonl.size() - 100);
  std::ofstream(path("out/results.csv")) << csv.substr(0, csv.rfind('\n', csv.size() - 2) + 1);
  const Outcome again = ridgeline("sweep " + sweep + " --analytical --out " + path("out"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("5 resumed"), std::string::npos) << again.err;
  EXPECT_EQ(slurp(path("out/results.jsonl")), jsonl);
  EXPECT_EQ(slurp(path("out/results.csv")), csv);

  std::ofstream(sweep, std::ios::app) << "  constraints: ['workload.stages == 1']\n";
  const Outcome other = ridgeline("sweep " + sweep + " --analytical --out " + path("out"));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("holds the results of another sweep"), std::string::npos) << other.err;
  const Outcome simulated = ridgeline("sweep " + sweep + " --out " + path("out"));
  EXPECT_EQ(simulated.exit_code, 2);
}

TEST_F(SweepCli, APointPastItsTimeLimitFailsAndTheRestGoOn) {
  // The 8192^3 t = 32 GEMM simulates for about 8 s (a minute under a sanitizer); the 256^3 one
  // in milliseconds, about 0.25 s with a sanitizer's process start, so well inside the limit on
  // a loaded machine too.
  const std::string sweep = sweep_file(
      "limit.yaml",
      "  set:\n    workload.tile: {m: 32, n: 32, k: 32}\n"
      "  axes:\n    - zip:\n        workload.m: [8192, 256]\n        workload.n: [8192, 256]\n"
      "        workload.k: [8192, 256]\n");
  const Outcome o = ridgeline("sweep " + sweep + " -j 2 --point-timeout 2 --out " + path("out"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto all = rows(path("out"));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["status"], "failed");
  EXPECT_EQ(all[0]["reason"].get<std::string>().rfind("timed out after 2", 0), 0u)
      << all[0]["reason"];
  EXPECT_EQ(all[0]["analytical.hbm_bytes"], 137'707'388'928u);  // the model's figures stay
  EXPECT_EQ(all[1]["status"], "ok");
}

TEST_F(SweepCli, ShardsThroughGnuParallelMergeToThePlainRun) {
  ASSERT_EQ(std::system("parallel --version >/dev/null 2>&1"), 0)
      << "GNU parallel is missing: scripts/bootstrap.sh installs it";
  const std::string sweep = tiny_sweep();
  ASSERT_EQ(ridgeline("sweep " + sweep + " -j 2 --out " + path("plain")).exit_code, 0);
  const std::string shards =
      "parallel --will-cite --halt now,fail=1 -j 2 " + std::string(RIDGELINE_BINARY) + " sweep " +
      sweep + " -j 1 --shard {}/2 --out " + path("shard{}") + " '>/dev/null' '2>&1' ::: 1 2";
  ASSERT_EQ(std::system(shards.c_str()), 0) << shards;
  EXPECT_EQ(rows(path("shard1")).size(), 3u);  // points 0, 2, 4
  const Outcome merged =
      ridgeline("sweep-merge " + path("shard1") + " " + path("shard2") + " --out " + path("all"));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(slurp(path("all/results.jsonl")), slurp(path("plain/results.jsonl")));
  EXPECT_EQ(slurp(path("all/results.csv")), slurp(path("plain/results.csv")));
  EXPECT_EQ(slurp(path("all/summary.json")), slurp(path("plain/summary.json")));
  for (const char* point : {"0", "1", "2"}) {
    EXPECT_EQ(slurp(path("all/points/") + point + "/report.json"),
              slurp(path("plain/points/") + point + "/report.json"));
  }

  const Outcome half = ridgeline("sweep-merge " + path("shard1") + " --out " + path("half"));
  EXPECT_EQ(half.exit_code, 2);
  EXPECT_NE(half.err.find("3 of the sweep's 6 points have no result (the first is point 1)"),
            std::string::npos)
      << half.err;
  ASSERT_EQ(ridgeline("sweep " + test::config_path("sweeps/seed-tiles.yaml") +
                      " --analytical --out " + path("other"))
                .exit_code,
            0);
  const Outcome mixed =
      ridgeline("sweep-merge " + path("shard1") + " " + path("other") + " --out " + path("mix"));
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("holds another sweep"), std::string::npos) << mixed.err;
}

TEST_F(SweepCli, MemoryTracesSweepLikeAnyWorkload) {
  // The trace's path is relative to its workload file; the simulated points run from their own
  // folders, so their resolved workload names the trace absolutely.
  const std::string sweep = path("traces.yaml");
  std::ofstream(sweep) << "sweep:\n  workload: "
                       << test::config_path("workloads/memory/sequential-trace.yaml")
                       << "\n  axes:\n    - hardware: ["
                       << test::config_path("hardware/hbm3-stack.yaml")
                       << "]\n    - workload.access_bytes: [64B, 128B]\n";
  const Outcome o = ridgeline("sweep " + sweep + " -j 2 --out " + path("out"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto all = rows(path("out"));
  ASSERT_EQ(all.size(), 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    SCOPED_TRACE(p);
    ASSERT_EQ(all[p]["status"], "ok") << all[p]["reason"];
    EXPECT_EQ(all[p]["workload.loads"], 2048u);
    EXPECT_EQ(all[p]["analytical.hbm_bytes"], 2048u * 64 * (p + 1));
    EXPECT_EQ(all[p]["simulated.hbm_bytes"], all[p]["analytical.hbm_bytes"]);
  }
  const Outcome analytical = ridgeline("sweep " + sweep + " --analytical --out " + path("model"));
  ASSERT_EQ(analytical.exit_code, 0) << analytical.err;
  EXPECT_EQ(rows(path("model"))[1]["analytical.hbm_bytes"], 2048u * 128);
}

TEST_F(SweepCli, ATileAutoIsChosenAtEachPoint) {
  // The sweep names its columns from the base workload with its tile chosen for the machine, as
  // each point chooses for its own values (sweeps of gemm-auto.yaml and of a convolution with
  // tile: auto once stopped on a division by the unchosen tile).
  const auto conv = sweep_on_h100("workloads/ops/conv-resnet-auto.yaml", "workload.batch: [8, 32]");
  ASSERT_EQ(conv.size(), 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    SCOPED_TRACE(p);
    EXPECT_EQ(conv[p]["workload.tile.m"].get<std::uint64_t>() % 14, 0u);
    // F = 2 N P Q K C R S, N = 8 and 32.
    EXPECT_EQ(conv[p]["analytical.flops"], 2ull * (p == 0 ? 8 : 32) * 14 * 14 * 256 * 256 * 9);
  }
  const auto gemm = sweep_on_h100("workloads/ops/gemm-auto.yaml", "workload.m: [8, 32]");
  ASSERT_EQ(gemm.size(), 2u);
  for (const nlohmann::json& row : gemm) {
    EXPECT_GT(row["workload.tile_choice.candidates"].get<std::uint64_t>(), 0u);
  }
}

TEST_F(SweepCli, BadSweepFileExitsWithTwoAndOneLine) {
  const std::string sweep =
      sweep_file("bad.yaml", "  axes:\n    - workload.stages: {from: 1, to: 4}\n");
  const Outcome o = ridgeline("sweep " + sweep + " --out " + path("out"));
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "ridgeline: error: " + sweep +
                       ":5:24: sweep.axes[0].workload.stages: a range takes exactly one of step, "
                       "count and factor (e.g. {from: 32, to: 256, factor: 2} or {from: 1TB/s, "
                       "to: 4TB/s, count: 4})\n");
  EXPECT_FALSE(fs::exists(path("out/results.jsonl")));
}

// A warning that holds for every point is printed once, not once a point.
TEST_F(SweepCli, WarningsArePrintedOncePerSweep) {
  const std::string file = path("warned.yaml");
  std::ofstream(file) << "sweep:\n  hardware: " << test::config_path("hardware/seed-l2.yaml")
                      << "\n  workload: "
                      << test::config_path("workloads/seed/gemm-4096-t64-double.yaml") << "\n"
                      << "  set:\n    hardware.l2.capacity: 2KiB\n"
                         "  axes:\n"
                         "    - workload.stages: [1, 2]\n"
                         "    - hardware.hbm.latency: [100ns, 200ns, 400ns]\n";
  const Outcome o = ridgeline("sweep " + file + " --analytical --out " + path("out"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string warning = "ridgeline: warning: ";
  const auto first = o.err.find(warning);
  ASSERT_NE(first, std::string::npos) << o.err;
  EXPECT_EQ(o.err.find(warning, first + 1), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("key 'hardware.l2.set_index' is ignored: the L2 has one set"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(rows(path("out")).size(), 6u);
}

// A simulated point that changes a figure a stated figure is checked against runs: its
// hardware.yaml leaves out the stated peaks that no longer describe it, and reads back.
TEST_F(SweepCli, PointsThatChangeAStatedFiguresInputsRun) {
  const std::string file = path("cores.yaml");
  std::ofstream(file) << "sweep:\n  hardware: " << test::config_path("hardware/h100-sxm5-80gb.yaml")
                      << "\n  workload: " << test::config_path("workloads/vector-add.yaml") << "\n"
                      << "  set:\n    workload.length: 262144\n"
                         "  axes:\n"
                         "    - hardware.cores.count: [4, 132]\n";
  const Outcome o = ridgeline("sweep " + file + " -j 2 --out " + path("out"));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto all = rows(path("out"));
  ASSERT_EQ(all.size(), 2u);
  for (const auto& row : all) EXPECT_EQ(row["status"], "ok") << row.dump();
  // Both: a swept value comes from the sweep file, even one equal to the base file's.
  for (const char* point : {"0", "1"}) {
    const std::string written = slurp(path("out/points/" + std::string(point) + "/hardware.yaml"));
    EXPECT_EQ(written.find("stated_peak"), std::string::npos) << written;
    EXPECT_NE(written.find("stated_interface"), std::string::npos) << written;
  }
}

}  // namespace
}  // namespace ridgeline
