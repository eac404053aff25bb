// The seed note's numbers, to its printed precision: every table of sections 1 to 5.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/test_support.hpp"
#include "workloads/gemm.hpp"
#include "workloads/vector_add.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

std::string six(double value) { return fmt::format("{:.6f}", value); }
std::string four(double value) { return fmt::format("{:.4f}", value); }

TEST(SeedNote, VectorAddIntensityIsOneTwelfth) {
  const Analysis a = seed_config("workloads/vector-add.yaml").analysis;
  EXPECT_EQ(a.flops, 268435456u);
  EXPECT_EQ(a.hbm_bytes(), 12u * 268435456u);
  EXPECT_DOUBLE_EQ(a.roofline.intensity_flop_per_byte, 1.0 / 12.0);
  EXPECT_EQ(four(a.roofline.intensity_flop_per_byte), "0.0833");
  EXPECT_EQ(a.roofline.bound, Bound::memory);
}

TEST(SeedNote, RooflineOfTheExampleMachine) {
  const Analysis a = seed_config("workloads/seed/gemm-4096-t64-double.yaml").analysis;
  EXPECT_DOUBLE_EQ(a.roof.peak_flop_per_s, 20e12);
  EXPECT_DOUBLE_EQ(a.roof.hbm_bytes_per_s, 1e12);
  EXPECT_DOUBLE_EQ(a.roofline.ridge_flop_per_byte, 20.0);
}

TEST(SeedNote, FourByFourExample) {
  const Analysis none = seed_config("workloads/seed/gemm-4x4-no-reuse.yaml").analysis;
  EXPECT_EQ(none.flops, 128u);
  EXPECT_EQ(none.hbm_read_bytes, 512u);
  EXPECT_EQ(none.hbm_write_bytes, 64u);
  EXPECT_EQ(none.hbm_bytes(), 576u);
  EXPECT_EQ(four(none.roofline.intensity_flop_per_byte), "0.2222");

  const Analysis tiled = seed_config("workloads/seed/gemm-4x4-tiled.yaml").analysis;
  EXPECT_EQ(tiled.flops, 128u);
  EXPECT_EQ(tiled.hbm_read_bytes, 256u);
  EXPECT_EQ(tiled.hbm_write_bytes, 64u);
  EXPECT_EQ(tiled.hbm_bytes(), 320u);
  EXPECT_EQ(four(tiled.roofline.intensity_flop_per_byte), "0.4000");
}

struct TableRow {
  const char* workload;
  std::uint64_t q_bytes;
  const char* intensity;
  const char* roof_tflop_per_s;
  Bound bound;
  const char* t_memory_ms;
  const char* t_ideal_ms;
};

TEST(SeedNote, The4096Table) {
  const TableRow rows[] = {
      {"gemm-4096-no-reuse", 549'822'922'752, "0.249969", "0.249969", Bound::memory, "549.822923",
       "549.822923"},
      {"gemm-4096-t32-double", 17'246'978'048, "7.968872", "7.968872", Bound::memory, "17.246978",
       "17.246978"},
      {"gemm-4096-t64-double", 8'657'043'456, "15.875969", "15.875969", Bound::memory, "8.657043",
       "8.657043"},
      {"gemm-4096-t128-double", 4'362'076'160, "31.507692", "20.000000", Bound::compute, "4.362076",
       "6.871948"},
  };
  for (const TableRow& row : rows) {
    SCOPED_TRACE(row.workload);
    const Analysis a =
        seed_config(std::string("workloads/seed/") + row.workload + ".yaml").analysis;
    EXPECT_EQ(a.flops, 137'438'953'472u);
    EXPECT_EQ(a.hbm_bytes(), row.q_bytes);
    EXPECT_EQ(six(a.hbm_bytes() / 1e9), six(row.q_bytes / 1e9));  // Q (GB)
    EXPECT_EQ(six(a.roofline.intensity_flop_per_byte), row.intensity);
    EXPECT_EQ(six(a.roofline.roof_flop_per_s / 1e12), row.roof_tflop_per_s);
    EXPECT_EQ(a.roofline.bound, row.bound);
    EXPECT_EQ(six(a.roofline.t_compute_s * 1e3), "6.871948");
    EXPECT_EQ(six(a.roofline.t_memory_s * 1e3), row.t_memory_ms);
    EXPECT_EQ(six(a.roofline.t_ideal_s * 1e3), row.t_ideal_ms);
  }
}

TEST(SeedNote, TiledIntensityFollowsNtOver4nPlus2t) {
  for (std::uint64_t t : {32, 64, 128}) {
    const double n = 4096;
    const Analysis a =
        seed_config(fmt::format("workloads/seed/gemm-4096-t{}-single.yaml", t)).analysis;
    EXPECT_EQ(a.hbm_bytes(), 8 * 4096ull * 4096 * 4096 / t + 4 * 4096ull * 4096);
    EXPECT_NEAR(a.roofline.intensity_flop_per_byte, n * t / (4 * n + 2 * t), 1e-12);
  }
}

TEST(SeedNote, FootprintTable) {
  struct Row {
    std::uint64_t t, a_in_kib, inputs_kib, accumulators_kib, total_kib;
  };
  for (const Row& row :
       {Row{32, 4, 8, 4, 12}, Row{64, 16, 32, 16, 48}, Row{128, 64, 128, 64, 192}}) {
    const Footprint f = seed_config(fmt::format("workloads/seed/gemm-4096-t{}-single.yaml", row.t))
                            .analysis.footprint;
    EXPECT_EQ(f.input_bytes_per_stage / 2, row.a_in_kib * 1024);  // A in = B in
    EXPECT_EQ(f.input_bytes_per_stage, row.inputs_kib * 1024);
    EXPECT_EQ(f.input_bytes, row.inputs_kib * 1024);  // one stage
    EXPECT_EQ(f.accumulator_bytes, row.accumulators_kib * 1024);
    EXPECT_EQ(f.input_bytes + f.accumulator_bytes, row.total_kib * 1024);
  }
  // Double buffering doubles the input part only.
  const Footprint doubled =
      seed_config("workloads/seed/gemm-4096-t128-double.yaml").analysis.footprint;
  EXPECT_EQ(doubled.input_bytes, 256u * 1024);
  EXPECT_EQ(doubled.sram_bytes, 256u * 1024);
  EXPECT_EQ(doubled.accumulator_bytes, 64u * 1024);
}

TEST(Gemm, NonSquareTilesAndOtherDataTypesFollowTheGeneralFormulas) {
  GemmSpec spec;
  spec.m = 1024;
  spec.n = 2048;
  spec.k = 512;
  spec.dtype = DataType::bf16;
  spec.accumulator = DataType::fp32;
  spec.tile = TileShape{64, 128, 32};
  spec.stages = 3;
  const Analysis a = analyze(spec, Roof{1e15, 3e12});
  EXPECT_EQ(a.flops, 2ull * 1024 * 2048 * 512);
  // (N/B_N) M K e + (M/B_M) K N e + M N e
  EXPECT_EQ(a.hbm_bytes(), 16ull * 1024 * 512 * 2 + 16ull * 512 * 2048 * 2 + 1024ull * 2048 * 2);
  EXPECT_EQ(a.footprint.input_bytes_per_stage, 2u * (64 * 32 + 32 * 128));  // e (B_M B_K + B_K B_N)
  EXPECT_EQ(a.footprint.input_bytes, 3u * 2 * (64 * 32 + 32 * 128));
  EXPECT_EQ(a.footprint.accumulator_bytes, 4u * 64 * 128);  // FP32 accumulators
  EXPECT_DOUBLE_EQ(a.roofline.t_compute_s, a.flops / 1e15);
  EXPECT_DOUBLE_EQ(a.roofline.t_memory_s, a.hbm_bytes() / 3e12);

  spec.dtype = DataType::fp8;
  spec.strategy = GemmStrategy::no_reuse;
  const Analysis none = analyze(spec, Roof{1e15, 3e12});
  EXPECT_EQ(none.hbm_bytes(), 2ull * 1024 * 2048 * 512 + 1024ull * 2048);
  EXPECT_EQ(none.footprint.sram_bytes, 0u);
}

TEST(Roofline, BoundFlipsAtTheRidge) {
  const Roof roof{20e12, 1e12};
  EXPECT_EQ(roofline(19, 19, 1, roof).bound, Bound::memory);
  EXPECT_EQ(roofline(21, 21, 1, roof).bound, Bound::compute);
  EXPECT_DOUBLE_EQ(roofline(19, 19, 1, roof).roof_flop_per_s, 19e12);
  EXPECT_DOUBLE_EQ(roofline(21, 21, 1, roof).roof_flop_per_s, 20e12);
}

TEST(Roofline, IssuedLanesTakeComputeTimeButAreNotUseful) {
  // 18 useful FLOPs of 24 issued (edge tiles' predicated lanes): below the ridge by F / Q, yet
  // compute-bound, since the units execute all 24: T_compute = 24 / P = 1.2 ps > T_memory = 1 ps.
  const Roof roof{20e12, 1e12};
  const Roofline r = roofline(18, 24, 1, roof);
  EXPECT_DOUBLE_EQ(r.intensity_flop_per_byte, 18.0);
  EXPECT_DOUBLE_EQ(r.t_compute_s, 1.2e-12);
  EXPECT_DOUBLE_EQ(r.t_memory_s, 1e-12);
  EXPECT_EQ(r.bound, Bound::compute);
  // Useful FLOP/s: P x 18 / 24 = F / T_ideal.
  EXPECT_DOUBLE_EQ(r.roof_flop_per_s, 15e12);
  EXPECT_DOUBLE_EQ(r.roof_flop_per_s, 18 / r.t_ideal_s);
}

TEST(Occupancy, TheTightestResourceLimits) {
  Footprint f;
  f.sram_bytes = 64 * 1024;
  f.register_bytes = 64 * 1024;
  EXPECT_EQ(occupancy(f, CoreCapacity{228 * 1024, 256 * 1024, 32}).blocks_per_core, 3u);
  EXPECT_EQ(occupancy(f, CoreCapacity{228 * 1024, 256 * 1024, 32}).limited_by, "sram");
  EXPECT_EQ(occupancy(f, CoreCapacity{1024 * 1024, 128 * 1024, 32}).limited_by, "registers");
  EXPECT_EQ(occupancy(f, CoreCapacity{1024 * 1024, 1024 * 1024, 2}).limited_by,
            "max_resident_blocks");
  EXPECT_EQ(occupancy(f, CoreCapacity{32 * 1024, 1024 * 1024, 2}).blocks_per_core, 0u);
}

}  // namespace
}  // namespace ridgeline
