// The hierarchical roofline from the analytical model: each level's Q, I, bandwidth and roof, and
// which one binds.
#include "sim/report/levels.hpp"

#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

const LevelFigures* find(const Levels& levels, const std::string& name) {
  for (const LevelFigures& l : levels.levels) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

constexpr double kN = 4096;
constexpr double kF = 2 * kN * kN * kN;

TEST(AnalyticalLevels, SeedMachineHasHbmAndSram) {
  const Levels l = analytical_levels(seed_config("workloads/seed/gemm-4096-t32-double.yaml"));
  ASSERT_EQ(l.levels.size(), 2u);
  const LevelFigures& hbm = l.levels[0];
  EXPECT_EQ(hbm.name, "hbm");
  EXPECT_EQ(hbm.bytes, 17'246'978'048u);  // the note's Q
  EXPECT_DOUBLE_EQ(hbm.bandwidth_bytes_per_s, 1e12);
  EXPECT_NEAR(hbm.roof_flop_per_s, 7.968872e12, 1e6);
  EXPECT_NEAR(hbm.time_s, 17.246978e-3, 1e-9);
  // SRAM: each thread computes one output; a warp is 32 threads of a row of the 32 x 32 tile and
  // reads 1 element of A (one bank access for all) and 32 of B a k for its 32 outputs, 33/32 M N
  // K e; loads write the note's input bytes. Ports: 1024 B/cycle each way on 128 cores at
  // 1.25 GHz, 163.84 TB/s; reads dominate, so the read port sets the pace.
  const LevelFigures& sram = l.levels[1];
  EXPECT_EQ(sram.name, "sram");
  const std::uint64_t reads = 4096ull * 4096 * 4096 * 4 / 32 * 33;
  const std::uint64_t writes = 17'246'978'048u - 4096ull * 4096 * 4;
  EXPECT_EQ(sram.bytes, reads + writes);
  EXPECT_DOUBLE_EQ(sram.time_s, static_cast<double>(reads) / 163.84e12);
  EXPECT_DOUBLE_EQ(sram.roof_flop_per_s, kF / sram.time_s);
  EXPECT_EQ(l.binding, "hbm");  // 7.97 TFLOP/s is the lowest roof, below P = 20
}

TEST(AnalyticalLevels, RegisterBlockingCutsSramTrafficNotHbm) {
  const Levels l = analytical_levels(seed_config("workloads/seed/gemm-4096-t128-double.yaml",
                                                 {"workload.register_tile={m: 8, n: 8}"}));
  // 16 threads of 8 x 8 a row of the 128 x 128 tile: a warp spans 2 rows and reads 2 x 8 + 16 x 8
  // = 144 elements a k for its 2048 outputs.
  const std::uint64_t reads = 4096ull * 4096 * 4096 * 4 / 2048 * 144;
  EXPECT_EQ(find(l, "sram")->bytes, reads + (4'362'076'160u - 4096ull * 4096 * 4));
  EXPECT_EQ(find(l, "hbm")->bytes, 4'362'076'160u);
  EXPECT_EQ(l.binding, "compute");
}

TEST(AnalyticalLevels, L2CarriesTheNotesQAtItsOwnBandwidth) {
  const Levels l = analytical_levels(
      seed_config("workloads/seed/gemm-4096-t128-double.yaml", {}, "hardware/seed-l2.yaml"));
  ASSERT_EQ(l.levels.size(), 3u);
  EXPECT_EQ(l.levels[1].name, "l2");
  EXPECT_EQ(l.levels[1].bytes, 4'362'076'160u);
  EXPECT_DOUBLE_EQ(l.levels[1].bandwidth_bytes_per_s, 4e12);
  EXPECT_DOUBLE_EQ(l.levels[1].roof_flop_per_s, 4e12 * kF / 4'362'076'160.0);  // 126 TFLOP/s
  EXPECT_EQ(l.binding, "compute");
}

TEST(AnalyticalLevels, LevelsWithoutTrafficAreLeftOut) {
  // Vector add: operands go straight to registers, nothing crosses SRAM.
  const Levels l = analytical_levels(seed_config("workloads/vector-add.yaml"));
  ASSERT_EQ(l.levels.size(), 1u);
  EXPECT_EQ(l.levels[0].name, "hbm");
  EXPECT_EQ(l.binding, "hbm");
}

}  // namespace
}  // namespace ridgeline
