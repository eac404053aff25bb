// Trace files for tests: written to the test's temporary folder, one access a line, and a workload
// file that replays them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "models/access_source.hpp"

namespace ridgeline::test {

/// A scratch file named after the running test; removed when the object goes.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix)
      : path_(::testing::TempDir() + "ridgeline_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + suffix) {}
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// A trace of `count` accesses, the i-th given by `access(i)`, and a memory_trace workload file
/// that replays it with `access_bytes`.
class TraceFiles {
 public:
  TraceFiles(std::uint64_t count, const std::function<MemoryAccess(std::uint64_t)>& access,
             std::uint64_t access_bytes = 64, const std::string& name = "")
      : trace_(name + ".trace"), workload_(name + ".yaml") {
    std::ofstream trace(trace_.path());
    char line[40];
    for (std::uint64_t i = 0; i < count; ++i) {
      const MemoryAccess a = access(i);
      std::snprintf(line, sizeof line, "%s 0x%llx\n", a.is_write ? "ST" : "LD",
                    static_cast<unsigned long long>(a.address));
      trace << line;
    }
    std::ofstream(workload_.path()) << "workload:\n  kind: memory_trace\n  path: " << trace_.path()
                                    << "\n  access_bytes: " << access_bytes << "B\n";
  }
  const std::string& trace() const { return trace_.path(); }
  const std::string& workload() const { return workload_.path(); }

 private:
  ScratchFile trace_;
  ScratchFile workload_;
};

/// Deterministic pseudo-random numbers (64-bit LCG, high bits), the same on every machine.
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed * 2862933555777941757ULL + 3037000493ULL) {}
  std::uint64_t next(std::uint64_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(state_ >> 11) * bound) >> 53);
  }

 private:
  std::uint64_t state_;
};

}  // namespace ridgeline::test
