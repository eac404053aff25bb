// Sizes near the limits: the analytical model's counts stay exact in 64 bits up to the largest
// matrices the rules allow, for every data type, and what would overflow is refused with a message.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "sim/run/run_limits.hpp"
#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"
#include "workloads/gemm.hpp"

namespace ridgeline {
namespace {

using test::seed_config;

const std::string kGemm = "workloads/seed/gemm-4096-t128-double.yaml";
// The seed machine with a throughput for every data type (values irrelevant to the counts).
const std::string kEveryType =
    "hardware.cores.compute.throughput={fp32: 125FLOP/cycle, tf32: 250FLOP/cycle, "
    "bf16: 500FLOP/cycle, fp16: 500FLOP/cycle, fp8: 1000FLOP/cycle, int8: 1000FLOP/cycle, "
    "int32: 125FLOP/cycle}";

Analysis gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k, const std::string& dtype,
              const std::string& strategy, std::uint64_t tile = 128) {
  const std::string t = std::to_string(tile);
  return seed_config(kGemm, {kEveryType, "workload.m=" + std::to_string(m),
                             "workload.n=" + std::to_string(n), "workload.k=" + std::to_string(k),
                             "workload.dtype=" + dtype, "workload.strategy=" + strategy,
                             "workload.tile={m: " + t + ", n: " + t + ", k: " + t + "}"})
      .analysis;
}

struct TypeCase {
  const char* dtype;
  std::uint64_t element_bytes;
};
const TypeCase kTypes[] = {{"fp32", 4}, {"tf32", 4}, {"bf16", 2}, {"fp16", 2},
                           {"fp8", 1},  {"int8", 1}, {"int32", 4}};

// M = N = K = 65536: F = 2^49; tiled with t = 128, Q = (2^42 + 2^32) e; without reuse,
// Q = (2^49 + 2^32) e. Numbers written out, not recomputed by the model's formulas.
TEST(Limits, Gemm65536CubedIsExactForEveryDataType) {
  for (const TypeCase& type : kTypes) {
    SCOPED_TRACE(type.dtype);
    const Analysis tiled = gemm(65536, 65536, 65536, type.dtype, "tiled");
    EXPECT_EQ(tiled.flops, 562'949'953'421'312u);
    EXPECT_EQ(tiled.hbm_read_bytes, 4'398'046'511'104u * type.element_bytes);
    EXPECT_EQ(tiled.hbm_write_bytes, 4'294'967'296u * type.element_bytes);
    EXPECT_EQ(tiled.hbm_bytes(), 4'402'341'478'400u * type.element_bytes);
    EXPECT_EQ(tiled.footprint.input_bytes_per_stage, 32'768u * type.element_bytes);
    // I = F / Q in double, from exact integers.
    EXPECT_DOUBLE_EQ(tiled.roofline.intensity_flop_per_byte,
                     562'949'953'421'312.0 / (4'402'341'478'400.0 * type.element_bytes));

    const Analysis none = gemm(65536, 65536, 65536, type.dtype, "no_reuse");
    EXPECT_EQ(none.flops, 562'949'953'421'312u);
    EXPECT_EQ(none.hbm_bytes(), 562'954'248'388'608u * type.element_bytes);
    EXPECT_DOUBLE_EQ(none.roofline.t_memory_s, 562'954'248'388'608.0 * type.element_bytes / 1e12);
  }
}

TEST(Limits, BeyondIsExactWhereCountsFit) {
  // 2^20 cubed in FP8 without reuse: F = 2^61, Q = 2^61 + 2^40.
  const Analysis none = gemm(1u << 20, 1u << 20, 1u << 20, "fp8", "no_reuse");
  EXPECT_EQ(none.flops, 2'305'843'009'213'693'952u);
  EXPECT_EQ(none.hbm_bytes(), 2'305'844'108'725'321'728u);
  const Analysis tiled = gemm(1u << 20, 1u << 20, 1u << 20, "fp16", "tiled");
  EXPECT_EQ(tiled.flops, 2'305'843'009'213'693'952u);
  EXPECT_EQ(tiled.hbm_bytes(), 2 * (18'014'398'509'481'984u + 1'099'511'627'776u));
  // The largest matrices (2^24) with K = 2^13: F = 2^62, Q without reuse = 2^62 + 2^48.
  const Analysis widest = gemm(1u << 24, 1u << 24, 1u << 13, "int8", "no_reuse");
  EXPECT_EQ(widest.flops, 4'611'686'018'427'387'904u);
  EXPECT_EQ(widest.hbm_bytes(), 4'611'967'493'404'098'560u);
}

TEST(Limits, CountsThatWouldOverflowAreRefused) {
  // 2^20 cubed in FP32 without reuse is Q = 2^63 + 2^42: past 63 bits.
  for (const char* dtype : {"fp32", "tf32", "int32"}) {
    try {
      gemm(1u << 20, 1u << 20, 1u << 20, dtype, "no_reuse");
      ADD_FAILURE() << dtype << ": no error";
    } catch (const ConfigError& error) {
      EXPECT_NE(std::string(error.what())
                    .find("1048576 x 1048576 x 1048576 is too large: FLOP "
                          "and byte counts would overflow 64 bits"),
                std::string::npos)
          << error.what();
    }
  }
  EXPECT_THROW(gemm(1u << 21, 1u << 21, 1u << 21, "fp8", "no_reuse"), ConfigError);
  EXPECT_THROW(gemm(1u << 25, 128, 128, "fp8", "tiled"), ConfigError);  // a size over 2^24
}

// The size rule (check_size, run first by check_rules and check_split_rules) against the count it
// guards, worked out here in 128 bits: refused exactly when the largest count reaches 2^63.
TEST(Limits, TheSizeRuleRefusesExactlyFromSixtyThreeBits) {
  using u128 = unsigned __int128;
  GemmSpec spec;
  spec.dtype = DataType::fp32;
  spec.strategy = GemmStrategy::tiled;
  spec.m = spec.n = spec.k = 1u << 16;
  spec.tile = TileShape{128, 128, 128};
  const auto largest = [](const GemmSpec& s) {
    const u128 products = u128{s.m} * s.n * s.k;  // the tiles divide the matrix
    return u128{s.batch.count} * (2 * products * element_bytes(s.dtype) +
                                  u128{s.m} * s.n * 8 * (1 + 2 * u128{s.decomposition.splits})) +
           u128{s.batch.count - 1} * (u128{s.stride_a()} + s.stride_b() + s.stride_c()) * 8;
  };
  const auto refused = [](const GemmSpec& s) {
    const std::optional<Violation> v = check_split_rules(s);
    return v && v->rule.find("too large") != std::string::npos;
  };
  int on_each_side[2] = {0, 0};
  for (std::uint64_t splits : {1ull, 2ull, 64ull, 1ull << 20, 1ull << 40, 1ull << 62}) {
    for (std::uint64_t batch : {1ull, 2ull, 4095ull, 4096ull, 1ull << 20, (1ull << 62) + 1}) {
      if (splits >= (1ull << 40) && batch > (1ull << 20)) continue;  // past 128 bits here
      spec.decomposition = splits == 1 ? DecompositionParams{}
                                       : DecompositionParams{GemmDecomposition::split_k, splits};
      spec.batch.count = batch;
      const bool over = largest(spec) >= (u128{1} << 63);
      EXPECT_EQ(refused(spec), over) << "splits " << splits << ", batch " << batch;
      ++on_each_side[over];
    }
  }
  // 4095 GEMMs of 2^48 multiply-adds at FP32, one split, fit; 4096 do not.
  spec.decomposition = DecompositionParams{};
  spec.batch.count = 4095;
  EXPECT_FALSE(refused(spec));
  spec.batch.count = 4096;
  EXPECT_TRUE(refused(spec));
  EXPECT_GT(on_each_side[0], 5);
  EXPECT_GT(on_each_side[1], 5);
}

// The simulated-time bound of a one-block vector add on tests/bad_input/files/hardware/valid.yaml
// (1 GHz, 256 FLOP/cycle, pipeline 4 cycles, 1 TB/s over 8 channels, 500 ns latency), by hand:
// three requests of 16384 B, each 500 ns + 8 ps of per-channel rounding; a compute of 4096 FLOPs,
// 16 cycles + 4 of pipeline; and 49152 B x 8 channels at 1 TB/s = 393216 ps of transfer, plus a
// picosecond of rounding.
TEST(Limits, SimulatedTimeBoundByHand) {
  const RunConfig config = load_config(
      test::source_path("tests/bad_input/files/hardware/valid.yaml"),
      test::config_path("workloads/vector-add.yaml"),
      {"workload.length=4096", "workload.chunk_elements=4096", "workload.block_elements=4096"});
  const Kernel kernel = build_kernel(config.workload, config.hardware.threads);
  ASSERT_EQ(kernel.blocks(), 1u);
  EXPECT_EQ(static_cast<std::uint64_t>(simulated_time_bound_ps(config, kernel)),
            3 * (500'000u + 8) + 16'000 + 4'000 + 393'216 + 1);
  EXPECT_NO_THROW(check_simulated_time_fits(config));
}

TEST(Limits, RunThatCouldOutlastSixtyFourBitTimeIsRefused) {
  // 2^28 FP32 elements at 1 B/s: 3.2 GB, a century of transfer.
  const RunConfig config =
      seed_config("workloads/vector-add.yaml", {"hardware.hbm.bandwidth=1B/s"});
  try {
    check_simulated_time_fits(config);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("vector-add.yaml:4:3: workload: this run could last up to"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("more than the 2^63 ps"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace ridgeline
