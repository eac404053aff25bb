// Bad input is the user's fault and gets one clear message: file:line:column, key, value, rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;

class ConfigTest : public ::testing::Test {
 protected:
  // Writes `text` to a temporary file and returns its path.
  std::string file(const std::string& text) { return scratch_.write("config", text); }

  // Loads and expects a ConfigError whose message contains every part.
  ConfigError expect_error(const std::string& hardware, const std::string& workload,
                           const std::vector<std::string>& parts,
                           const std::vector<std::string>& overrides = {}) {
    try {
      load_config(hardware, workload, overrides);
    } catch (const ConfigError& error) {
      for (const auto& part : parts) {
        EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
            << "missing '" << part << "' in: " << error.what();
      }
      EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << "one line";
      return error;
    }
    ADD_FAILURE() << "no error";
    return ConfigError({}, "", "", "");
  }

  std::string seed_hardware() { return config_path("hardware/seed.yaml"); }
  std::string gemm() { return config_path("workloads/seed/gemm-4096-t64-double.yaml"); }

  std::string hardware_with(const std::string& hbm_block) {
    return file(R"(hardware:
  name: test
  clock: 1GHz
  cores:
    count: 4
    max_resident_blocks: 2
    sram: {capacity: 256KiB, read_bandwidth: 128B/cycle, write_bandwidth: 128B/cycle}
    registers: {capacity: 256KiB}
    compute:
      throughput: {fp32: 256FLOP/cycle}
      pipeline_latency: 4cycles
  hbm:
)" + hbm_block);
  }

  test::ScratchFiles scratch_;
};

TEST_F(ConfigTest, ValidFilesLoad) {
  const RunConfig config = load_config(seed_hardware(), gemm(), {});
  EXPECT_EQ(config.hardware.cores, 128u);
  EXPECT_EQ(config.hardware.core_clock.frequency_hz, 1'250'000'000u);
  EXPECT_EQ(config.hardware.hbm.peak_bandwidth.bytes_per_second, 1'000'000'000'000u);
  EXPECT_EQ(config.hardware.hbm.access_latency.ps(), 500'000u);
  EXPECT_EQ(config.hardware.core.sram.capacity_bytes, 512u * 1024);
  EXPECT_EQ(std::get<GemmSpec>(config.workload).tile.m, 64u);
}

TEST_F(ConfigTest, UnknownKeyNamesPositionAndSuggestion) {
  const std::string hw = hardware_with(
      "    bandwidth: 1TB/s\n    latency: 500ns\n    channels: 8\n    chanels: 8\n"
      "    interleave: 256B\n    max_bytes_in_flight_per_core: 64KiB\n");
  const ConfigError error = expect_error(
      hw, gemm(),
      {":16:5:", "hardware.hbm.chanels", "unknown key 'chanels'", "did you mean 'channels'?"});
  EXPECT_EQ(error.where().line, 16);
  EXPECT_EQ(error.where().column, 5);
}

TEST_F(ConfigTest, MisspelledRequiredKeyPointsAtTheTypo) {
  const std::string hw = hardware_with(
      "    bandwdith: 1TB/s\n    latency: 500ns\n    channels: 8\n"
      "    interleave: 256B\n    max_bytes_in_flight_per_core: 64KiB\n");
  expect_error(hw, gemm(),
               {":13:5:", "hardware.hbm.bandwidth", "missing required key 'bandwidth'",
                "found unknown key 'bandwdith'", "did you mean 'bandwidth'?"});
}

TEST_F(ConfigTest, MissingRequiredKeyIsNeverDefaulted) {
  const std::string hw = hardware_with(
      "    bandwidth: 1TB/s\n    channels: 8\n    interleave: 256B\n"
      "    max_bytes_in_flight_per_core: 64KiB\n");
  expect_error(hw, gemm(),
               {"hardware.hbm.latency", "missing required key 'latency'", "no value is assumed"});
}

TEST_F(ConfigTest, WrongTypeZeroAndUnitTypos) {
  const std::string tail = "    interleave: 256B\n    max_bytes_in_flight_per_core: 64KiB\n";
  expect_error(
      hardware_with("    bandwidth: 1TB/s\n    latency: 500ns\n    channels: [1, 2]\n" + tail),
      gemm(), {"hardware.hbm.channels", "expected a single value"});
  expect_error(
      hardware_with("    bandwidth: 0TB/s\n    latency: 500ns\n    channels: 8\n" + tail), gemm(),
      {":13:16:", "hardware.hbm.bandwidth", "value \"0TB/s\"", "must be greater than zero"});
  expect_error(hardware_with("    bandwidth: 1TB\n    latency: 500ns\n    channels: 8\n" + tail),
               gemm(), {"value \"1TB\"", "'TB' is a unit of size", "such as 1TB/s"});
  expect_error(hardware_with("    bandwidth: 1TB/s\n    latency: 500ns\n    channels: -8\n" + tail),
               gemm(), {"hardware.hbm.channels", "expected a whole number"});
}

TEST_F(ConfigTest, TileRules) {
  expect_error(seed_hardware(), gemm(),
               {"--set workload.tile.m=8192", "the tile is larger than the matrix"},
               {"workload.tile.m=8192"});
  expect_error(seed_hardware(), gemm(),
               {"workload.tile.n", "does not divide the matrix (n = 4096)",
                "edge tiles are modelled for strategy: tiled only"},
               {"workload.tile.n=48", "workload.strategy=no_reuse"});
  expect_error(seed_hardware(), gemm(), {"workload.stages", "more stages than K-steps"},
               {"workload.stages=65"});
}

TEST_F(ConfigTest, OnChipCapacityIsChecked) {
  expect_error(seed_hardware(), config_path("workloads/seed/gemm-4096-t128-double.yaml"),
               {"workload.tile", "one block needs 256 KiB of SRAM (128 KiB of inputs x 2 stages)",
                "a core has 128 KiB"},
               {"hardware.cores.sram.capacity=128KiB"});
  expect_error(seed_hardware(), config_path("workloads/seed/gemm-4096-t128-double.yaml"),
               {"one block needs 192 KiB of registers (16384 threads in 512 warps x 3 registers)",
                "a core has 32 KiB"},
               {"hardware.cores.registers.capacity=32KiB"});
}

TEST_F(ConfigTest, DataTypeTheMachineLacks) {
  expect_error(seed_hardware(), gemm(), {"workload.dtype", "gives no fp8 throughput", "fp32"},
               {"workload.dtype=fp8"});
  expect_error(seed_hardware(), gemm(),
               {"workload.dtype", "not an accepted value", "did you mean 'fp32'"},
               {"workload.dtype=fp23"});
}

TEST_F(ConfigTest, L2IsOptionalAndReadWhenGiven) {
  EXPECT_FALSE(load_config(seed_hardware(), gemm(), {}).hardware.l2.has_value());
  const RunConfig config = load_config(config_path("hardware/seed-l2.yaml"), gemm(), {});
  ASSERT_TRUE(config.hardware.l2.has_value());
  const L2CacheParams& l2 = *config.hardware.l2;
  EXPECT_EQ(l2.capacity_bytes, 40u << 20);
  EXPECT_EQ(l2.line_bytes, 128u);
  EXPECT_EQ(l2.associativity, 16u);
  EXPECT_EQ(l2.sets(), 20480u);
  EXPECT_EQ(l2.bandwidth.bytes_per_second, 4'000'000'000'000u);
  EXPECT_EQ(l2.hit_latency.ps(), 150'000u);
  EXPECT_EQ(l2.write_policy, L2WritePolicy::write_back);
  const RunConfig through = load_config(config_path("hardware/seed-l2.yaml"), gemm(),
                                        {"hardware.l2.write_policy=write_through",
                                         "workload.block_order={kind: "
                                         "grouped, group: 8}"});
  EXPECT_EQ(through.hardware.l2->write_policy, L2WritePolicy::write_through);
  EXPECT_EQ(std::get<GemmSpec>(through.workload).block_order.kind, BlockOrderKind::grouped);
  EXPECT_EQ(std::get<GemmSpec>(through.workload).block_order.group, 8u);
  EXPECT_EQ(std::get<GemmSpec>(config.workload).block_order.kind, BlockOrderKind::row_major);
}

TEST_F(ConfigTest, L2Rules) {
  // Positions come from the file: 40MB is not a whole number of 2 KiB sets.
  std::ifstream seed_l2(config_path("hardware/seed-l2.yaml"));
  std::string text((std::istreambuf_iterator<char>(seed_l2)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("capacity: 40MiB");
  ASSERT_NE(at, std::string::npos);
  const auto line =
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  text.replace(at, 15, "capacity: 40MB");
  expect_error(file(text), gemm(),
               {":" + std::to_string(line) + ":15:", "hardware.l2.capacity", "value \"40MB\"",
                "whole number of sets of line_size x associativity = 2 KiB", "use a multiple of"});
  const std::string l2 = config_path("hardware/seed-l2.yaml");
  expect_error(l2, gemm(), {"hardware.l2.line_size", "must be a power of two"},
               {"hardware.l2.line_size=96B"});
  expect_error(l2, gemm(), {"hardware.l2.associativity", "must be at most 256"},
               {"hardware.l2.associativity=512"});
  expect_error(l2, gemm(), {"hardware.l2.write_policy", "not an accepted value", "write_back"},
               {"hardware.l2.write_policy=write_around"});
  expect_error(l2, gemm(), {"hardware.l2", "missing required key 'hit_latency'"},
               {"hardware.l2={capacity: 1MiB, line_size: 128B, associativity: 8, "
                "bandwidth: 1TB/s}"});
  expect_error(l2, gemm(), {"hardware.l2.size", "unknown key 'size'"}, {"hardware.l2.size=1MiB"});
  expect_error(l2, gemm(),
               {"hardware.l2.capacity", "8388608 lines of 128 B in 16 ways need 160 MiB",
                "more than the 128 MiB it allows"},
               {"hardware.l2.capacity=1GiB"});
}

TEST_F(ConfigTest, BlockOrderRules) {
  expect_error(seed_hardware(), gemm(),
               {"workload.block_order.group", "at most the grid's block rows (m / tile.m = 64)"},
               {"workload.block_order={kind: grouped, group: 65}"});
  expect_error(seed_hardware(), gemm(),
               {"workload.block_order.group", "applies only to kind: grouped"},
               {"workload.block_order={kind: row_major, group: 4}"});
  expect_error(seed_hardware(), gemm(), {"workload.block_order", "missing required key 'group'"},
               {"workload.block_order={kind: grouped}"});
  expect_error(seed_hardware(), gemm(),
               {"workload.block_order.kind", "not an accepted value", "column_major"},
               {"workload.block_order={kind: spiral}"});
  expect_error(seed_hardware(), gemm(), {"workload.block_order.group", "at least 1"},
               {"workload.block_order={kind: grouped, group: 0}"});
}

TEST_F(ConfigTest, ThreadWarpAndRegisterLimits) {
  const std::string t128 = config_path("workloads/seed/gemm-4096-t128-double.yaml");
  expect_error(seed_hardware(), t128,
               {"workload.tile", "one block has 16384 threads but a core runs at most 1024",
                "hardware.cores.max_threads_per_block", "larger register_tile"},
               {"hardware.cores.max_threads_per_block=1024"});
  expect_error(seed_hardware(), gemm(),
               {"--set workload.register_tile={m: 2, n: 2}", "one block has 32 warps of 32 threads",
                "at most 16 (hardware.cores.max_warps)"},
               {"hardware.cores.max_warps=16", "workload.register_tile={m: 2, n: 2}"});
  expect_error(seed_hardware(), gemm(),
               {"workload.register_tile",
                "a thread needs 338 registers (256 accumulators + 32 operand fragments + 50 "
                "overhead) but a thread may hold 255 (hardware.cores.registers.max_per_thread)",
                "set 'spill: local'"},
               {"hardware.cores.registers.max_per_thread=255", "workload.register_tile.m=16",
                "workload.register_tile.n=16", "workload.register_overhead=50"});
  expect_error(
      seed_hardware(), gemm(),
      {"--set workload.registers_per_thread=300", "a thread needs 300 registers but"},
      {"hardware.cores.registers.max_per_thread=255", "workload.registers_per_thread=300"});
  expect_error(seed_hardware(), config_path("workloads/vector-add.yaml"),
               {"workload.threads", "a thread needs 20480 registers", "set 'threads' higher"},
               {"hardware.cores.registers.max_per_thread=255", "workload.threads=1"});
  expect_error(
      seed_hardware(), gemm(),
      {"hardware.cores.registers.max_per_thread", "one warp at this limit needs 32640 B",
       "a core has 16 KiB"},
      {"hardware.cores.registers.max_per_thread=255", "hardware.cores.registers.capacity=16KiB"});
  // With spill: local the same block runs, holding 255 registers and spilling 33 per thread.
  const RunConfig spilled =
      load_config(seed_hardware(), gemm(),
                  {"hardware.cores.registers.max_per_thread=255",
                   "workload.register_tile={m: 16, n: 16}", "workload.spill=local"});
  EXPECT_EQ(spilled.analysis.footprint.spilled_registers_per_thread, 33u);
  EXPECT_GT(spilled.analysis.local_read_bytes, 0u);
}

// A warp tile (64 x 64 block tile here, 4 x 4 per thread) is a warp's worth of register tiles
// inside the block tile; its warp reads each operand from SRAM once for its 32 threads.
TEST_F(ConfigTest, WarpTileRules) {
  const std::string r4 = "workload.register_tile={m: 4, n: 4}";
  expect_error(seed_hardware(), gemm(), {"workload.warp_tile.m", "must divide tile.m = 64"},
               {r4, "workload.warp_tile={m: 48, n: 8}"});
  expect_error(seed_hardware(), gemm(),
               {"workload.warp_tile.n", "must be a multiple of register_tile.n = 4"},
               {r4, "workload.warp_tile={m: 64, n: 2}"});
  expect_error(seed_hardware(), gemm(),
               {"workload.warp_tile",
                "a warp tile of 16 x 16 with a register tile of 4 x 4 has 16 threads but a warp "
                "has 32 (hardware.cores.warp_size)"},
               {r4, "workload.warp_tile={m: 16, n: 16}"});
  expect_error(seed_hardware(), config_path("workloads/seed/gemm-4096-no-reuse.yaml"),
               {"workload.warp_tile", "no_reuse reads no operand from SRAM", "strategy: tiled"},
               {"workload.warp_tile={m: 32, n: 32}"});
  expect_error(seed_hardware(), gemm(), {"workload.warp_tile", "unknown key 'k'"},
               {r4, "workload.warp_tile={m: 32, n: 16, k: 8}"});

  // 32 x 16 outputs = 8 x 4 threads of 4 x 4: a warp, reading 32 + 16 elements a k for its 512
  // outputs, M N K e (1/16 + 1/32). Without the warp tile the 64 x 64 tile's threads are numbered
  // along n, 16 a row: a warp is 2 x 16 threads and reads 2 x 4 + 16 x 4 = 72 elements a k for
  // the same 512 outputs, M N K e x 9 / 64. Nothing else moves.
  const RunConfig per_thread = load_config(seed_hardware(), gemm(), {r4});
  const RunConfig per_warp =
      load_config(seed_hardware(), gemm(), {r4, "workload.warp_tile={m: 32, n: 16}"});
  const std::uint64_t mnk_e = 4096ull * 4096 * 4096 * 4;
  EXPECT_EQ(per_thread.analysis.sram_read_bytes, mnk_e / 64 * 9);
  EXPECT_EQ(per_warp.analysis.sram_read_bytes, mnk_e / 16 + mnk_e / 32);
  EXPECT_EQ(per_warp.analysis.sram_write_bytes, per_thread.analysis.sram_write_bytes);
  EXPECT_EQ(per_warp.analysis.hbm_bytes(), per_thread.analysis.hbm_bytes());
  EXPECT_EQ(per_warp.analysis.footprint.threads, per_thread.analysis.footprint.threads);
}

TEST_F(ConfigTest, RegisterKeysAndStrategiesThatDoNotGoTogether) {
  expect_error(seed_hardware(), config_path("workloads/seed/gemm-4096-no-reuse.yaml"),
               {"workload.register_tile", "no_reuse reads every operand from memory",
                "strategy: register_tiled"},
               {"workload.register_tile={m: 2, n: 2}"});
  expect_error(seed_hardware(), gemm(),
               {"workload.registers_per_thread", "register_overhead would be ignored"},
               {"workload.register_overhead=8", "workload.registers_per_thread=64"});
  expect_error(seed_hardware(), gemm(), {"workload.spill", "not an accepted value"},
               {"workload.spill=sometimes"});
  expect_error(seed_hardware(), gemm(), {"hardware.cores.barrier_latency", "at most 1000000cycles"},
               {"hardware.cores.barrier_latency=2000000cycles"});
  const RunConfig local =
      load_config(seed_hardware(), gemm(),
                  {"workload.strategy=register_tiled", "workload.register_tile={m: 8, n: 4}"});
  EXPECT_EQ(local.analysis.footprint.sram_bytes, 0u);
  EXPECT_EQ(local.analysis.footprint.threads, 8u * 16);
}

TEST_F(ConfigTest, OverridesApplyInOrderAndNameThemselves) {
  const RunConfig config = load_config(seed_hardware(), gemm(),
                                       {"workload.tile={m: 32, n: 32, k: 32}", "workload.tile.k=64",
                                        "hardware.hbm.bandwidth=2TB/s"});
  const auto& spec = std::get<GemmSpec>(config.workload);
  EXPECT_EQ(spec.tile.m, 32u);
  EXPECT_EQ(spec.tile.k, 64u);
  EXPECT_DOUBLE_EQ(config.analysis.roof.hbm_bytes_per_s, 2e12);

  expect_error(seed_hardware(), gemm(),
               {"--set hardwre.hbm.bandwidth=2TB/s", "starts with 'hardware.' or 'workload.'"},
               {"hardwre.hbm.bandwidth=2TB/s"});
  expect_error(seed_hardware(), gemm(), {"--set workload.tile", "expected key.path=value"},
               {"workload.tile"});
  expect_error(seed_hardware(), gemm(),
               {"workload.tiles", "unknown key 'tiles'", "did you mean 'tile'"},
               {"workload.tiles.m=3"});
}

TEST_F(ConfigTest, MalformedEmptyAndMisrootedFiles) {
  expect_error(file("hardware:\n  name: [unclosed\n"), gemm(), {":3:1:", "malformed YAML"});
  expect_error(file(""), gemm(), {"the file is empty"});
  expect_error(file("workload:\n  kind: gemm\n"), gemm(), {"missing top-level key 'hardware'"});
  expect_error(seed_hardware(), file("workload:\n  kind: gemm\n  kind: gemm\n  m: 1\n"),
               {"missing required key 'n'"});
  expect_error(file("\x01\x02\xff\xfe garbage: ["), gemm(), {"malformed YAML"});
  expect_error("/nonexistent/hardware.yaml", gemm(),
               {"/nonexistent/hardware.yaml", "cannot open the file"});
}

TEST_F(ConfigTest, DuplicateKeysAreRefused) {
  expect_error(
      seed_hardware(),
      file("workload:\n  kind: vector_add\n  length: 1024\n  length: 2048\n  dtype: fp32\n"),
      {":4:3:", "key 'length' is given twice"});
}

TEST_F(ConfigTest, SizesThatWouldOverflowAreRefused) {
  expect_error(seed_hardware(), gemm(), {"too large", "overflow"},
               {"workload.m=16777216", "workload.n=16777216", "workload.k=16777216"});
  // 65536^3 is well inside the limits: the model's counts stay exact.
  const RunConfig big = load_config(seed_hardware(), gemm(),
                                    {"workload.m=65536", "workload.n=65536", "workload.k=65536"});
  EXPECT_EQ(big.analysis.flops, 2ull * 65536 * 65536 * 65536);
}

TEST_F(ConfigTest, FP8GemmsPromoteEvery128OfKUnlessToldOtherwise) {
  const std::string h100 = config_path("hardware/h100-sxm5-80gb.yaml");
  const std::string hopper = config_path("workloads/tensor-core/gemm-4096-bf16-hopper.yaml");
  const std::vector<std::string> fp8{"workload.dtype=fp8", "workload.tile.k=128"};
  const auto spec_of = [](const RunConfig& c) { return std::get<GemmSpec>(c.workload); };
  EXPECT_EQ(spec_of(load_config(h100, hopper, fp8)).promotion_interval, 128u);
  EXPECT_EQ(spec_of(load_config(h100, hopper, {})).promotion_interval, 0u);  // BF16
  std::vector<std::string> fast = fp8;
  fast.push_back("workload.promotion_interval=none");
  const RunConfig fast_run = load_config(h100, hopper, fast);
  EXPECT_EQ(spec_of(fast_run).promotion_interval, 0u);
  EXPECT_EQ(fast_run.analysis.vector_flops, 0u);
  // 4096 x 4096 in 128 x 256 tiles of 32 K-steps: a promotion each, 2 FLOPs an output.
  EXPECT_EQ(load_config(h100, hopper, fp8).analysis.vector_flops, 4096ull * 4096 * 2 * 32);
  std::vector<std::string> bad = fp8;
  bad.push_back("workload.promotion_interval=often");
  expect_error(h100, hopper,
               {"workload.promotion_interval", "neither a count of K elements nor none"}, bad);
  // An interval that ends inside K-steps of 128: 4096 / 96 = 42.7, 43 promotions a tile.
  std::vector<std::string> odd = fp8;
  odd.push_back("workload.promotion_interval=96");
  EXPECT_EQ(load_config(h100, hopper, odd).analysis.vector_flops, 4096ull * 4096 * 2 * 43);
}

}  // namespace
}  // namespace ridgeline
