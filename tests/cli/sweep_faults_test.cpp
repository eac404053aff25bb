// A sweep whose simulations die: a point whose `ridgeline run` is killed by a signal (a crash,
// SIGSEGV; the OOM killer or a user, SIGKILL) is recorded failed with the signal named, keeps its
// analytical figures, and the other points finish. (Hangs past --point-timeout, a SIGKILL of the
// sweep itself and lines cut short are in sweep_cli_test.cpp.)
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/cli/cli_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::Outcome;
using test::ridgeline;
using test::slurp;
namespace fs = std::filesystem;

// The `ridgeline run` simulating in `folder`, found through /proc (each point runs in its own
// folder); 0 while there is none.
pid_t simulation_in(const fs::path& folder) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code error;
    if (fs::read_symlink(entry.path() / "cwd", error) != folder || error) continue;
    // Between vfork and exec the child is still the sweep: wait for `ridgeline run`.
    const std::string command = slurp(entry.path().string() + "/cmdline");
    if (command.find(std::string("run") + '\0' + "hardware.yaml") == std::string::npos) continue;
    return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

TEST(SweepFaults, SimulationsKilledBySignalsAreRecordedAndTheRestFinish) {
  const test::ScratchDirectory scratch("sweep_faults");
  const fs::path dir = scratch.dir();
  // Points 1 and 2 (2048^3 with 32^3 tiles) simulate for a quarter of a second or more, long
  // enough to be caught; 0 and 3 (512^3) take milliseconds.
  const std::string sweep = (dir / "faults.yaml").string();
  std::ofstream(sweep) << "sweep:\n  hardware: " << test::config_path("hardware/seed.yaml")
                       << "\n  workload: "
                       << test::config_path("workloads/seed/gemm-4096-t64-double.yaml")
                       << "\n  set:\n    workload.tile: {m: 32, n: 32, k: 32}\n"
                          "  axes:\n    - zip:\n        workload.m: [512, 2048, 2048, 512]\n"
                          "        workload.n: [512, 2048, 2048, 512]\n"
                          "        workload.k: [512, 2048, 2048, 512]\n";
  const fs::path out = dir / "out";
  const std::string command = "sweep " + sweep + " -j 2 --out " + out.string();
  Outcome outcome;
  std::thread sweeping([&] { outcome = ridgeline(command); });

  // Point 1's simulation crashes, point 2's is killed.
  const std::map<int, int> signal_of_point{{1, SIGSEGV}, {2, SIGKILL}};
  std::map<int, bool> sent;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (sent.size() < signal_of_point.size() && std::chrono::steady_clock::now() < give_up) {
    for (const auto& [point, signal] : signal_of_point) {
      if (sent.count(point)) continue;
      if (const pid_t pid = simulation_in(out / "points" / std::to_string(point))) {
        sent[point] = kill(pid, signal) == 0;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  sweeping.join();
  ASSERT_EQ(sent.size(), 2u) << "a simulation ended before it was caught: make it slower";
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("Summary: 4 points: 2 ok, 2 failed, 0 skipped"), std::string::npos)
      << outcome.out;

  std::vector<nlohmann::json> rows;
  std::istringstream lines(slurp((out / "results.jsonl").string()));
  for (std::string line; std::getline(lines, line);) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 4u);
  const char* reasons[] = {nullptr, "the simulation died of signal 11 (SIGSEGV)",
                           "the simulation died of signal 9 (SIGKILL)", nullptr};
  for (std::size_t p = 0; p < rows.size(); ++p) {
    SCOPED_TRACE(p);
    EXPECT_EQ(rows[p]["point"], p);
    const std::uint64_t n = p == 1 || p == 2 ? 2048 : 512;
    // The model's figures stay whatever happened to the simulation.
    EXPECT_EQ(rows[p]["analytical.flops"], 2 * n * n * n);
    const fs::path folder = out / "points" / std::to_string(p);
    if (reasons[p] == nullptr) {
      EXPECT_EQ(rows[p]["status"], "ok") << rows[p]["reason"];
      EXPECT_EQ(rows[p]["simulated.flops"], 2 * n * n * n);
      EXPECT_EQ(rows[p]["simulated.hbm_bytes"], rows[p]["analytical.hbm_bytes"]);
      continue;
    }
    EXPECT_EQ(rows[p]["status"], "failed");
    EXPECT_EQ(rows[p]["reason"], reasons[p]);
    EXPECT_FALSE(rows[p].contains("simulated.time_s")) << "no simulated figure for a crash";
    // The failure's record in its folder is its row, as the results hold it.
    EXPECT_FALSE(fs::exists(folder / "report.json"));
    EXPECT_EQ(nlohmann::json::parse(slurp((folder / "row.json").string())), rows[p]);
  }
  EXPECT_FALSE(fs::exists(out / ".running")) << "the children's scratch is cleared";

  // Run again: every point is recorded, failures included; none runs again.
  const std::string jsonl = slurp((out / "results.jsonl").string());
  const std::string csv = slurp((out / "results.csv").string());
  const Outcome again = ridgeline(command);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("0 to do here"), std::string::npos) << again.err;
  EXPECT_EQ(slurp((out / "results.jsonl").string()), jsonl);
  EXPECT_EQ(slurp((out / "results.csv").string()), csv);
}

}  // namespace
}  // namespace ridgeline
