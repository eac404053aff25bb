// The child-process pool sweeps and studies run simulations in: exit codes, signals, stderr, time
// limits, results handed back as children end; and the arguments of a child's run.
#include "sim/util/child_process.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <map>

namespace ridgeline {
namespace {

ChildResult run_one(ChildPool& pool, const std::string& script) {
  pool.start(7, {"-c", script});
  auto [tag, result] = pool.wait();
  EXPECT_EQ(tag, 7u);
  return result;
}

TEST(ChildPool, ExitCodesSignalsAndStderrBecomeOneLine) {
  ChildPool pool("/bin/sh", 1);
  const ChildResult fine = run_one(pool, "echo hidden; exit 0");
  EXPECT_TRUE(fine.ok());
  EXPECT_EQ(fine.error_text, "");  // stdout is discarded

  const ChildResult refused =
      run_one(pool, "echo 'a warning' >&2; echo 'ridgeline: error: f.yaml:3:1: bad' >&2; exit 2");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.failure(), "exit code 2: error: f.yaml:3:1: bad");

  const ChildResult crashed = run_one(pool, "kill -SEGV $$");
  EXPECT_EQ(crashed.exit_code, -1);
  EXPECT_EQ(crashed.signal, SIGSEGV);
  EXPECT_EQ(crashed.failure(), "the simulation died of signal 11 (SIGSEGV)");
}

TEST(ChildPool, ChildrenPastTheTimeLimitAreKilled) {
  ChildPool pool("/bin/sh", 2, 0.2);
  const auto start = std::chrono::steady_clock::now();
  pool.start(1, {"-c", "sleep 30"});
  pool.start(2, {"-c", "exit 0"});
  std::map<std::uint64_t, ChildResult> results;
  for (int i = 0; i < 2; ++i) results.insert(pool.wait());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(results[2].ok());
  EXPECT_TRUE(results[1].timed_out);
  EXPECT_EQ(results[1].signal, SIGKILL);
  EXPECT_EQ(results[1].failure(), "timed out after 0.2 s (--point-timeout)");
  EXPECT_GE(results[1].wall_s, 0.2);
}

TEST(ChildPool, RunChildrenKeepsTheOrderGiven) {
  const std::vector<ChildResult> results =
      run_children("/bin/sh", {{"-c", "sleep 0.2; exit 3"}, {"-c", "exit 4"}, {"-c", "exit 5"}}, 2);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].exit_code, 3);
  EXPECT_EQ(results[1].exit_code, 4);
  EXPECT_EQ(results[2].exit_code, 5);
}

TEST(RunArguments, NameTheTensorsLeftInTheL2ReadAndWritten) {
  EXPECT_EQ(run_arguments("h.yaml", "w.yaml", {"workload.m=8"}, "r.json"),
            (std::vector<std::string>{"run", "h.yaml", "w.yaml", "--quiet", "--json", "r.json",
                                      "--set", "workload.m=8"}));
  EXPECT_EQ(run_arguments("h.yaml", "w.yaml", {}, "r.json", {"x", "b"}, {"a"}),
            (std::vector<std::string>{"run", "h.yaml", "w.yaml", "--quiet", "--json", "r.json",
                                      "--l2-resident", "x,b", "--l2-written", "a"}));
}

}  // namespace
}  // namespace ridgeline
