// Sweep files, the per-point evaluation (fast typed path against load_config), expressions,
// rows and the summary.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "sim/report/report.hpp"
#include "sim/sweep/report_cells.hpp"
#include "sim/sweep/sweep_evaluator.hpp"
#include "sim/sweep/sweep_expression.hpp"
#include "sim/sweep/sweep_fields.hpp"
#include "sim/sweep/sweep_row.hpp"
#include "sim/sweep/sweep_spec.hpp"
#include "sim/sweep/sweep_summary.hpp"
#include "sim/util/config_error.hpp"
#include "tests/energy_support.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;

class SweepTest : public ::testing::Test {
 protected:
  // A sweep file over the seed machine and the 4096^3 t = 64 GEMM unless `body` says otherwise;
  // `body` holds the lines below 'sweep:' after the base files.
  std::string sweep_file(const std::string& body, bool with_bases = true) {
    std::string text = "sweep:\n";
    if (with_bases) {
      text += "  hardware: " + config_path("hardware/seed.yaml") + "\n";
      text += "  workload: " + config_path("workloads/seed/gemm-4096-t64-double.yaml") + "\n";
    }
    text += body;
    return scratch_.write("sweep", text);
  }

  static std::vector<std::string> texts(const SweptKey& key) {
    std::vector<std::string> out;
    for (const auto& value : key.values) out.push_back(value.text);
    return out;
  }

  // Expects load_sweep (or building the evaluator) to fail with every part in the message.
  void expect_error(const std::string& path, const std::vector<std::string>& parts) {
    try {
      const SweepSpec spec = load_sweep(path);
      ColumnTable columns;
      SweepEvaluator evaluator(spec, columns);
    } catch (const ConfigError& error) {
      for (const auto& part : parts) {
        EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
            << "missing '" << part << "' in: " << error.what();
      }
      return;
    }
    ADD_FAILURE() << "no error";
  }

  test::ScratchFiles scratch_;
};

// ---------------------------------------------------------------- sweep files

TEST_F(SweepTest, ListsRangesAndTheirExactValues) {
  const SweepSpec spec = load_sweep(
      sweep_file("  axes:\n"
                 "    - workload.tile.m: {from: 16, to: 256, factor: 2}\n"
                 "    - hardware.hbm.bandwidth: {from: 0.5TB/s, to: 2TB/s, step: 0.5TB/s}\n"
                 "    - hardware.hbm.latency: {from: 100ns, to: 1000ns, count: 3, scale: log}\n"
                 "    - hardware.cores.sram.capacity: {from: 64KiB, to: 256KiB, count: 4}\n"
                 "    - workload.stages: [1, 2]\n"));
  ASSERT_EQ(spec.axes.size(), 5u);
  EXPECT_EQ(texts(spec.axes[0].keys[0]),
            (std::vector<std::string>{"16", "32", "64", "128", "256"}));
  EXPECT_EQ(texts(spec.axes[1].keys[0]),
            (std::vector<std::string>{"0.5TB/s", "1TB/s", "1.5TB/s", "2TB/s"}));
  // Log ranges land on whole base units (picoseconds here), written in the range's unit.
  EXPECT_EQ(texts(spec.axes[2].keys[0]),
            (std::vector<std::string>{"100ns", "316.228ns", "1000ns"}));
  EXPECT_EQ(texts(spec.axes[3].keys[0]),
            (std::vector<std::string>{"64KiB", "128KiB", "192KiB", "256KiB"}));
  EXPECT_EQ(spec.points, 5u * 4 * 3 * 4 * 2);
  // The column of a swept quantity stands for its number in result units.
  EXPECT_DOUBLE_EQ(*spec.axes[1].keys[0].values[2].cell.number(), 1.5e12);
  EXPECT_DOUBLE_EQ(*spec.axes[2].keys[0].values[1].cell.number(), 316228e-12);
  EXPECT_EQ(spec.axes[0].keys[0].values[1].cell.kind, Cell::Kind::integer);
}

TEST_F(SweepTest, PointsRunFirstAxisSlowestAndZipsVaryTogether) {
  const SweepSpec spec =
      load_sweep(sweep_file("  axes:\n"
                            "    - workload.stages: [1, 2]\n"
                            "    - zip:\n"
                            "        workload.tile.m: [32, 64, 128]\n"
                            "        workload.tile.n: [32, 64, 128]\n"));
  EXPECT_EQ(spec.points, 6u);
  std::vector<std::uint32_t> indices;
  spec.decode(4, indices);
  EXPECT_EQ(indices, (std::vector<std::uint32_t>{1, 1}));
  spec.decode(2, indices);
  EXPECT_EQ(indices, (std::vector<std::uint32_t>{0, 2}));

  Shard shard = parse_shard("2/3");
  EXPECT_EQ(shard.index, 1u);
  EXPECT_TRUE(shard.contains(4));
  EXPECT_FALSE(shard.contains(3));
  EXPECT_THROW(parse_shard("0/3"), ConfigError);
  EXPECT_THROW(parse_shard("4/3"), ConfigError);
  EXPECT_THROW(parse_shard("2"), ConfigError);
}

TEST_F(SweepTest, BadSweepFilesNameTheLine) {
  expect_error(sweep_file("  axes:\n"
                          "    - zip:\n"
                          "        workload.tile.m: [32, 64]\n"
                          "        workload.tile.n: [32]\n"),
               {":7:26:", "zipped keys need as many values each", "'workload.tile.m' has 2"});
  expect_error(sweep_file("  axis:\n    - workload.stages: [1]\n"),
               {":4:3:", "unknown key 'axis'", "did you mean 'axes'?"});
  expect_error(sweep_file("  axes:\n    - workload.tile: [{m: 32, n: 32, k: 32}]\n"
                          "    - workload.tile.m: [64]\n"),
               {"'workload.tile' and 'workload.tile.m' are both set"});
  expect_error(sweep_file("  axes:\n    - hardwre.hbm.bandwidth: [1TB/s]\n"),
               {":5:30:", "'hardwre.hbm.bandwidth' is not a configuration key path"});
  expect_error(
      sweep_file("  axes:\n    - workload.tile.m: {from: 1, to: 4, count: 10, scale: log}\n"),
      {":5:24:", "the range gives 1 twice"});
  expect_error(sweep_file("  axes:\n    - hardware.hbm.bandwidth: {from: 500GB/s, to: 2TB/s, "
                          "factor: 2}\n"),
               {"'from' and 'to' must share one unit"});
  expect_error(sweep_file("  axes:\n    - workload: [no-such-file.yaml]\n", false),
               {":3:18:", "cannot open", "no-such-file.yaml"});
  expect_error(sweep_file("  hardware: " + config_path("hardware/seed.yaml") +
                              "\n  axes:\n    - workload.stages: [1]\n",
                          false),
               {"no workload file"});
  expect_error(sweep_file("  axes:\n    - workload.stages: [1]\n"
                          "  constraints:\n    - analytical.footprint.sram_bytes < 1KiB\n"),
               {":7:7:", "unknown column 'analytical.footprint.sram_bytes'", "did you mean"});
  expect_error(sweep_file("  axes:\n    - workload.stages: [1]\n"
                          "  constraints:\n    - simulated.time_s < 1ms\n"),
               {"unknown column 'simulated.time_s'", "before anything is simulated"});
  expect_error(sweep_file("  axes:\n    - workload.stages: [1]\n"
                          "  constraints:\n    - workload.stages <\n"),
               {":7:7:", "at character 18", "ends too early"});
}

// ---------------------------------------------------------------- per-point evaluation

// Every key the fast path sets, with a value unlike the seed files'; the evaluator's typed
// result must equal load_config's with the same value as --set.
const std::vector<std::pair<std::string, std::string>> kFieldValues = {
    {"hardware.clock", "1.5GHz"},
    {"hardware.cores.count", "64"},
    {"hardware.cores.max_resident_blocks", "2"},
    {"hardware.cores.sram",
     "{capacity: 1MiB, read_bandwidth: 512B/cycle, write_bandwidth: 256B/cycle}"},
    {"hardware.cores.sram.capacity", "1MiB"},
    {"hardware.cores.sram.read_bandwidth", "512B/cycle"},
    {"hardware.cores.sram.write_bandwidth", "256B/cycle"},
    {"hardware.cores.registers.capacity", "512KiB"},
    {"hardware.cores.compute.throughput", "{fp32: 250FLOP/cycle, fp16: 1000FLOP/cycle}"},
    {"hardware.cores.compute.throughput.fp32", "250FLOP/cycle"},
    {"hardware.cores.compute.throughput.tf32", "500FLOP/cycle"},
    {"hardware.cores.compute.throughput.bf16", "1000FLOP/cycle"},
    {"hardware.cores.compute.throughput.fp16", "1000FLOP/cycle"},
    {"hardware.cores.compute.throughput.fp8", "2000FLOP/cycle"},
    {"hardware.cores.compute.throughput.int8", "2000FLOP/cycle"},
    {"hardware.cores.compute.throughput.int32", "125FLOP/cycle"},
    {"hardware.cores.compute.throughput.fp64", "64FLOP/cycle"},
    {"hardware.cores.compute.pipeline_latency", "8cycles"},
    {"hardware.hbm.bandwidth", "3.35TB/s"},
    {"hardware.hbm.latency", "700ns"},
    {"hardware.hbm.max_bytes_in_flight_per_core", "1MiB"},
    {"hardware.hbm.max_requests_in_flight_per_core", "32"},
    {"workload.m", "2048"},
    {"workload.n", "8192"},
    {"workload.k", "1024"},
    {"workload.batch", "3"},
    {"workload.accumulator", "fp16"},
    {"workload.tile", "{m: 32, n: 128, k: 16}"},
    {"workload.tile.m", "128"},
    {"workload.tile.n", "32"},
    {"workload.tile.k", "16"},
    {"workload.stages", "3"},
    {"workload.register_tile", "{m: 4, n: 8}"},
    {"workload.register_tile.m", "4"},
    {"workload.register_tile.n", "8"},
};

Json without_config(Json report) {
  report.erase("config");
  return report;
}

// Every typed field, the ones no report shows included (ports, latencies, other data types).
void expect_same(const HardwareParams& a, const HardwareParams& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.core_clock.frequency_hz, b.core_clock.frequency_hz);
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_EQ(a.core.max_resident_blocks, b.core.max_resident_blocks);
  EXPECT_EQ(a.core.max_bytes_in_flight, b.core.max_bytes_in_flight);
  EXPECT_EQ(a.core.max_requests_in_flight, b.core.max_requests_in_flight);
  EXPECT_EQ(a.core.sram.capacity_bytes, b.core.sram.capacity_bytes);
  EXPECT_EQ(a.core.sram.read_bytes_per_cycle, b.core.sram.read_bytes_per_cycle);
  EXPECT_EQ(a.core.sram.write_bytes_per_cycle, b.core.sram.write_bytes_per_cycle);
  EXPECT_EQ(a.core.registers.capacity_bytes, b.core.registers.capacity_bytes);
  EXPECT_EQ(a.core.compute.flops_per_cycle, b.core.compute.flops_per_cycle);
  EXPECT_EQ(a.core.compute.pipeline_latency.count, b.core.compute.pipeline_latency.count);
  EXPECT_EQ(a.hbm.peak_bandwidth.bytes_per_second, b.hbm.peak_bandwidth.bytes_per_second);
  EXPECT_EQ(a.hbm.access_latency.ps(), b.hbm.access_latency.ps());
  EXPECT_EQ(a.hbm.channels, b.hbm.channels);
  EXPECT_EQ(a.hbm.interleave_bytes, b.hbm.interleave_bytes);
  EXPECT_EQ(a.hbm.pseudo_channels, b.hbm.pseudo_channels);
  EXPECT_EQ(a.hbm.mode, b.hbm.mode);
  EXPECT_EQ(a.hbm.dram.has_value(), b.hbm.dram.has_value());
  EXPECT_EQ(a.core.max_warps, b.core.max_warps);
  EXPECT_EQ(a.threads.warp_size, b.threads.warp_size);
  EXPECT_EQ(a.threads.max_threads_per_block, b.threads.max_threads_per_block);
  EXPECT_EQ(a.threads.max_registers_per_thread, b.threads.max_registers_per_thread);
  EXPECT_EQ(a.threads.barrier.count, b.threads.barrier.count);
}

void expect_same(const GemmSpec& a, const GemmSpec& b) {
  EXPECT_EQ(a.m, b.m);
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.k, b.k);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.accumulator, b.accumulator);
  EXPECT_EQ(a.strategy, b.strategy);
  EXPECT_EQ(a.tile.m, b.tile.m);
  EXPECT_EQ(a.tile.n, b.tile.n);
  EXPECT_EQ(a.tile.k, b.tile.k);
  EXPECT_EQ(a.stages, b.stages);
  EXPECT_EQ(a.register_tile.m, b.register_tile.m);
  EXPECT_EQ(a.register_tile.n, b.register_tile.n);
  EXPECT_EQ(a.register_overhead, b.register_overhead);
  EXPECT_EQ(a.registers_per_thread, b.registers_per_thread);
  EXPECT_EQ(a.spill, b.spill);
  EXPECT_EQ(a.batch.count, b.batch.count);
}

TEST_F(SweepTest, FastPathEqualsLoadConfigForEveryKeyItSets) {
  // The seed GEMM with a register tile, so that register_tile.m alone is a whole value.
  const std::string workload =
      scratch_.write("register_tile",
                     "workload:\n  kind: gemm\n  m: 4096\n  n: 4096\n  k: 4096\n  dtype: fp32\n"
                     "  strategy: tiled\n  tile: {m: 64, n: 64, k: 64}\n  stages: 2\n"
                     "  register_tile: {m: 2, n: 2}\n");
  std::vector<std::string_view> covered;
  for (const auto& [key, value] : kFieldValues) {
    SCOPED_TRACE(key + "=" + value);
    covered.push_back(key);
    const SweepSpec spec = load_sweep(sweep_file(
        "  hardware: " + config_path("hardware/seed.yaml") + "\n  workload: " + workload +
            "\n  axes:\n    - " + key + ": [" + value + "]\n",
        false));
    ColumnTable columns;
    SweepEvaluator evaluator(spec, columns);
    Row row;
    ASSERT_EQ(evaluator.evaluate(0, row), PointStatus::ok)
        << row.find(*columns.find("reason"))->text;
    EXPECT_EQ(evaluator.slow_documents(), 0u) << "the key was read the slow way";
    const RunConfig expected =
        load_config(config_path("hardware/seed.yaml"), workload, {key + "=" + value});
    expect_same(evaluator.config().hardware, expected.hardware);
    expect_same(std::get<GemmSpec>(evaluator.config().workload),
                std::get<GemmSpec>(expected.workload));
    EXPECT_EQ(without_config(report_json(evaluator.config(), nullptr)),
              without_config(report_json(expected, nullptr)));
  }
  // A key added to the fast path needs a line here.
  std::vector<std::string_view> keys = field_setter_keys();
  std::sort(keys.begin(), keys.end());
  std::sort(covered.begin(), covered.end());
  EXPECT_EQ(keys, covered);
}

// A core count set the fast way keeps the L2's partitions (the L2 splits the machine's cores when
// it is built, so the two cannot disagree).
TEST_F(SweepTest, TheFastPathSetsTheCoresAndKeepsTheL2Partitions) {
  const SweepSpec spec = load_sweep(sweep_file(
      "  hardware: " + config_path("hardware/seed-l2.yaml") +
          "\n  workload: " + config_path("workloads/seed/gemm-4096-t64-double.yaml") +
          "\n  set:\n    hardware.l2.partitions: 2\n    hardware.l2.far_hit_latency: 300ns\n"
          "  axes:\n    - hardware.cores.count: [64]\n",
      false));
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  Row row;
  ASSERT_EQ(evaluator.evaluate(0, row), PointStatus::ok) << row.find(*columns.find("reason"))->text;
  EXPECT_EQ(evaluator.slow_documents(), 0u) << "the key was read the slow way";
  const HardwareParams& hw = evaluator.config().hardware;
  ASSERT_TRUE(hw.l2.has_value());
  EXPECT_EQ(hw.cores, 64u);
  EXPECT_EQ(hw.l2->partitions, 2u);
  EXPECT_EQ(hw.l2->far_hit_latency.ps(), 300'000u);
}

TEST_F(SweepTest, KeysTheFastPathLacksReadTheWholeDocument) {
  // dtype sets the default accumulator too, so it is read the slow way: same result.
  const SweepSpec spec =
      load_sweep(sweep_file("  set:\n    hardware.cores.compute.throughput.fp16: 500FLOP/cycle\n"
                            "  axes:\n    - workload.dtype: [fp16, fp32]\n"));
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  Row row;
  ASSERT_EQ(evaluator.evaluate(0, row), PointStatus::ok);
  EXPECT_GT(evaluator.slow_documents(), 0u);
  const RunConfig expected = test::seed_config(
      "workloads/seed/gemm-4096-t64-double.yaml",
      {"hardware.cores.compute.throughput.fp16=500FLOP/cycle", "workload.dtype=fp16"});
  EXPECT_EQ(without_config(report_json(evaluator.config(), nullptr)),
            without_config(report_json(expected, nullptr)));
  EXPECT_EQ(std::get<GemmSpec>(evaluator.config().workload).accumulator, DataType::fp32);
}

TEST_F(SweepTest, RowCellsAreTheReportsLeaves) {
  // The typed row writer must name and value every leaf report_json gives, for each kind of
  // workload and machine, one after another through the same cache (so that sequences that
  // change from one point to the next are followed).
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"hardware/seed.yaml", "workloads/seed/gemm-4096-t64-double.yaml"},
      {"hardware/seed.yaml", "workloads/vector-add.yaml"},
      {"hardware/seed-l2.yaml", "workloads/seed/gemm-4096-t64-double.yaml"},
      {"hardware/hbm3-stack.yaml", "workloads/memory/sequential-trace.yaml"},
      {"hardware/seed.yaml", "workloads/seed/gemm-4096-t128-double.yaml"},
      {"hardware/seed-l2.yaml", "workloads/vector-add.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/tensor-core/gemm-4096-bf16.yaml"},
      {"hardware/a100-sxm4-40gb.yaml", "workloads/stream/read.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/ops/gemm-auto.yaml"},
      {"hardware/seed.yaml", "workloads/ops/gemm-stream-k.yaml"},
      {"hardware/seed.yaml", "workloads/ops/gemm-batched.yaml"},
      {"hardware/seed.yaml", "workloads/ops/elementwise-bias-add.yaml"},
      {"hardware/seed.yaml", "workloads/ops/layer-norm.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/ops/attention-prefill.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/ops/conv-resnet.yaml"},
      {"hardware/seed.yaml", "workloads/seed/gemm-4096-t64-double.yaml"},
      // Energy, and a power limit that lowers the clock (its own leaves).
      {"energy-limited", "workloads/seed/gemm-4096-t128-double.yaml"},
      {"hardware/h100-sxm5-80gb.yaml", "workloads/memory/sequential-loads.yaml"}};
  const std::string limited = test::with_energy(
      scratch_, "hardware/seed-l2.yaml",
      test::energy_section("20W", "5pJ/FLOP", test::kNoHbmEnergy,
                           "    l2: {read: 10pJ/B, write: 10pJ/B}\n  power_limit: 71.21W\n"));
  ColumnTable columns;
  ShapeCache shapes;
  Row typed, from_json;
  for (const auto& [hardware, workload] : cases) {
    SCOPED_TRACE(std::string(hardware) + " " + workload);
    const std::string hardware_file =
        std::string(hardware) == "energy-limited" ? limited : config_path(hardware);
    const RunConfig config = load_config(hardware_file, config_path(workload), {});
    typed.clear();
    from_json.clear();
    add_analytical_cells(config, columns, shapes, typed);
    add_report_json_cells(report_json(config, nullptr), columns, from_json);
    ASSERT_EQ(typed.size(), from_json.size());
    for (std::size_t i = 0; i < typed.size(); ++i) {
      EXPECT_EQ(columns.name(typed.column(i)), columns.name(from_json.column(i)));
      EXPECT_TRUE(typed.cell(i) == from_json.cell(i)) << columns.name(typed.column(i));
    }
  }
}

TEST_F(SweepTest, PointsThatBreakARuleFailWithTheSweepFilesLine) {
  const std::string path = sweep_file(
      "  axes:\n"
      "    - workload.tile.n: [64, 8192]\n"
      "    - hardware.hbm.bandwidth: [1TB/s, 0TB/s]\n");
  const SweepSpec spec = load_sweep(path);
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  Row row;
  const auto reason = [&]() { return row.find(evaluator.head().reason)->text; };
  EXPECT_EQ(evaluator.evaluate(0, row), PointStatus::ok);
  EXPECT_EQ(row.find(evaluator.head().reason)->kind, Cell::Kind::empty);
  // A value that breaks its own key's rule, at its own position in the sweep file.
  EXPECT_EQ(evaluator.evaluate(1, row), PointStatus::failed);
  EXPECT_EQ(reason(), path +
                          ":6:39: hardware.hbm.bandwidth: value \"0TB/s\": a bandwidth must be "
                          "greater than zero (e.g. 1TB/s)");
  // A rule between values (checked on typed values), reported like load_config does.
  EXPECT_EQ(evaluator.evaluate(2, row), PointStatus::failed);
  EXPECT_EQ(reason(), path +
                          ":5:29: workload.tile.n: value \"8192\": the tile is larger than the "
                          "matrix (n = 4096) (use a tile of at most 4096)");
  EXPECT_EQ(row.find(evaluator.head().status)->text, "failed");
  EXPECT_EQ(row.find(*columns.find("axis.workload.tile.n"))->integer, 8192u);
}

TEST_F(SweepTest, ConstraintsSkipAndCapacityFails) {
  const std::string path = sweep_file(
      "  axes:\n"
      "    - workload.tile: [{m: 64, n: 64, k: 64}, {m: 128, n: 128, k: 128}]\n"
      "    - hardware.cores.sram.capacity: [512KiB, 128KiB]\n"
      "  constraints:\n"
      "    - analytical.footprint.sram_bytes_per_block <= 128KiB or "
      "axis.hardware.cores.sram.capacity > 256KiB\n");
  const SweepSpec spec = load_sweep(path);
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  Row row;
  EXPECT_EQ(evaluator.evaluate(0, row), PointStatus::ok);
  EXPECT_EQ(evaluator.evaluate(1, row), PointStatus::ok);  // 64 KiB of buffers in 128 KiB
  EXPECT_EQ(evaluator.evaluate(2, row), PointStatus::ok);  // 256 KiB in 512 KiB
  // 256 KiB in 128 KiB: the constraint skips it, with the numbers.
  EXPECT_EQ(evaluator.evaluate(3, row), PointStatus::skipped);
  EXPECT_EQ(row.find(evaluator.head().reason)->text,
            "constraint 'analytical.footprint.sram_bytes_per_block <= 128KiB or "
            "axis.hardware.cores.sram.capacity > 256KiB' is false "
            "(analytical.footprint.sram_bytes_per_block = 262144, "
            "axis.hardware.cores.sram.capacity = 128KiB)");
  // The analytical figures are in the row all the same.
  EXPECT_EQ(row.find(*columns.find("analytical.hbm_bytes"))->integer, 4'362'076'160u);

  // Without the constraint the same point fails the capacity rule, at the tile's line.
  const std::string plain = sweep_file(
      "  axes:\n"
      "    - workload.tile: [{m: 128, n: 128, k: 128}]\n"
      "    - hardware.cores.sram.capacity: [128KiB]\n");
  const SweepSpec plain_spec = load_sweep(plain);
  ColumnTable plain_columns;
  SweepEvaluator plain_evaluator(plain_spec, plain_columns);
  EXPECT_EQ(plain_evaluator.evaluate(0, row), PointStatus::failed);
  EXPECT_EQ(row.find(plain_evaluator.head().reason)->text,
            plain +
                ":5:23: workload.tile: one block needs 256 KiB of SRAM (128 KiB of inputs x 2 "
                "stages) but a core has 128 KiB (hardware.cores.sram.capacity) (use a "
                "smaller tile, fewer stages or more SRAM)");
}

TEST_F(SweepTest, EachRowDescribesItsOwnPoint) {
  // The description is composed again only when the workload changes: it must never lag.
  const SweepSpec spec = load_sweep(
      sweep_file("  axes:\n    - workload.tile.m: [32, 64]\n    - workload.stages: [1, 2]\n"
                 "    - hardware.hbm.bandwidth: [1TB/s, 2TB/s]\n"));
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  Row row;
  const ColumnId description = columns.intern("workload.description");
  for (std::uint64_t point : {0, 1, 2, 3, 4, 5, 6, 7, 2, 6, 1}) {
    ASSERT_EQ(evaluator.evaluate(point, row), PointStatus::ok);
    EXPECT_EQ(row.find(description)->text, describe(evaluator.config().workload)) << point;
  }
}

TEST_F(SweepTest, ResolvedDocumentsReadBackToThePoint) {
  const SweepSpec spec = load_sweep(
      sweep_file("  set:\n    workload.register_tile: {m: 4, n: 4}\n"
                 "  axes:\n    - hardware.hbm.bandwidth: [2TB/s]\n    - workload.tile.k: [32]\n"));
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  Row row;
  ASSERT_EQ(evaluator.evaluate(0, row), PointStatus::ok);
  const auto [hardware, workload] = evaluator.documents(0);
  EXPECT_NE(hardware.find("bandwidth: 2TB/s"), std::string::npos) << hardware;
  const std::string hardware_path = ::testing::TempDir() + "ridgeline_resolved_hardware.yaml";
  const std::string workload_path = ::testing::TempDir() + "ridgeline_resolved_workload.yaml";
  std::ofstream(hardware_path) << hardware;
  std::ofstream(workload_path) << workload;
  const RunConfig read_back = load_config(hardware_path, workload_path, {});
  EXPECT_EQ(without_config(report_json(read_back, nullptr)),
            without_config(report_json(evaluator.config(), nullptr)));
  EXPECT_EQ(std::get<GemmSpec>(read_back.workload).register_tile.m, 4u);
  std::remove(hardware_path.c_str());
  std::remove(workload_path.c_str());
}

// ---------------------------------------------------------------- expressions

TEST(SweepExpression, ArithmeticUnitsAndLogic) {
  ColumnTable columns;
  Row row;
  row.add(columns.intern("a.x_bytes")).set_integer(262144);
  row.add(columns.intern("a.t_s")).set_real(0.004);
  row.add(columns.intern("a.bound")).set_text("memory");
  row.add(columns.intern("axis.bw")).set_text("2TB/s");
  const auto value = [&](const std::string& text) {
    return Expression(text, columns).evaluate(row);
  };
  EXPECT_DOUBLE_EQ(value("a.x_bytes / 256KiB + 2 * 3").number, 7);
  EXPECT_DOUBLE_EQ(value("-(1 + 2) * 4").number, -12);
  EXPECT_DOUBLE_EQ(value("axis.bw / 1TB/s").number, 2);
  EXPECT_DOUBLE_EQ(value("max(1, a.t_s * 1000, 3)").number, 4);
  EXPECT_DOUBLE_EQ(value("min(a.t_s, 10ms)").number, 0.004);
  EXPECT_EQ(value("a.t_s < 5ms and a.bound == 'memory'").number, 1);
  EXPECT_EQ(value("not (a.t_s < 5ms) or a.bound != \"memory\"").number, 0);
  EXPECT_EQ(value("a.x_bytes >= 256KiB").kind, Expression::Kind::boolean);

  const Expression::Result by_zero = value("a.t_s / (a.x_bytes - 262144)");
  EXPECT_EQ(by_zero.kind, Expression::Kind::none);
  EXPECT_EQ(by_zero.text, "a division by zero");
  const Expression::Result missing = value("a.absent + 1 < 2");
  EXPECT_EQ(missing.kind, Expression::Kind::none);
  EXPECT_EQ(columns.name(*missing.missing), "a.absent");
  EXPECT_EQ(value("a.bound < 3").kind, Expression::Kind::none);

  for (const char* bad : {"1 +", "(1", "'open", "frob(1)", "2 TB/s", "3parsecs", "a.t_s $ 1"}) {
    EXPECT_THROW(Expression(bad, columns), ExpressionError) << bad;
  }
}

// ---------------------------------------------------------------- rows

TEST(SweepRow, JsonLinesReadBackToTheSameText) {
  ColumnTable columns;
  Row row;
  row.add(columns.intern("point")).set_integer(7);
  row.add(columns.intern("reason")).set_text("a \"quoted\", comma\nand newline");
  row.add(columns.intern("t_s")).set_real(0.017246978048);
  row.add(columns.intern("big")).set_real(2e13);
  row.add(columns.intern("absent"));
  std::string line;
  append_json_line(row, columns, line);
  EXPECT_EQ(line,
            "{\"point\":7,\"reason\":\"a \\\"quoted\\\", comma\\nand newline\","
            "\"t_s\":0.017246978048,\"big\":20000000000000.0,\"absent\":null}\n");
  Row back;
  ASSERT_TRUE(parse_json_line(line.substr(0, line.size() - 1), columns, back));
  std::string again;
  append_json_line(back, columns, again);
  EXPECT_EQ(again, line);

  columns.place(row);
  std::string csv;
  append_csv_line(row, columns, csv);
  EXPECT_EQ(csv_header(columns), "point,reason,t_s,big,absent\n");
  EXPECT_EQ(csv, "7,\"a \"\"quoted\"\", comma\nand newline\",0.017246978048,20000000000000.0,\n");
}

TEST(SweepRow, HeaderKeepsSectionsTogether) {
  // A gemm row, then a vector_add row with columns of its own: each new column goes after the
  // one before it in its row, not at the end.
  ColumnTable columns;
  Row gemm, vector;
  for (const char* name :
       {"point", "workload.kind", "workload.m", "workload.dtype", "analytical.flops"})
    gemm.add(columns.intern(name));
  for (const char* name : {"point", "workload.kind", "workload.length", "workload.dtype",
                           "workload.chunk_elements", "analytical.flops"})
    vector.add(columns.intern(name));
  EXPECT_TRUE(columns.place(gemm));
  EXPECT_TRUE(columns.place(vector));
  EXPECT_FALSE(columns.place(gemm));
  EXPECT_EQ(csv_header(columns),
            "point,workload.kind,workload.length,workload.m,workload.dtype,"
            "workload.chunk_elements,analytical.flops\n");
}

TEST(SweepRow, TextsStandForTheirNumbers) {
  EXPECT_DOUBLE_EQ(number_of_text("64"), 64);
  EXPECT_DOUBLE_EQ(number_of_text("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(number_of_text("256KiB"), 262144);
  EXPECT_DOUBLE_EQ(number_of_text("1.25GHz"), 1.25e9);
  EXPECT_DOUBLE_EQ(number_of_text("500ns"), 5e-7);
  EXPECT_TRUE(std::isnan(number_of_text("memory")));
  EXPECT_TRUE(std::isnan(number_of_text("4 apples")));
}

// ---------------------------------------------------------------- summary

TEST(SweepSummary, BestPointsAndTheParetoFront) {
  ColumnTable columns;
  const ColumnId point = columns.intern("point"), status = columns.intern("status");
  const ColumnId time = columns.intern("t_s"), bytes = columns.intern("sram_bytes");
  SweepSummary summary(
      {Objective{"time", false, "t_s", {}}, Objective{"small", false, "sram_bytes", {}},
       Objective{"speed", true, "1 / t_s", {}}},
      {"time", "small"}, columns);
  // (time, bytes): 0 (1, 50), 1 (2, 30), 2 (3, 40) beaten by 1 on both, 3 (4, 10),
  // 4 (2, 30) ties 1, 5 failed.
  const std::vector<std::pair<double, double>> points = {{1, 50}, {2, 30}, {3, 40},
                                                         {4, 10}, {2, 30}, {0.5, 5}};
  for (std::size_t p = 0; p < points.size(); ++p) {
    Row row;
    row.add(point).set_integer(p);
    row.add(status).set_text(p == 5 ? "failed" : "ok");
    row.add(time).set_real(points[p].first);
    row.add(bytes).set_real(points[p].second);
    summary.add(row);
  }
  const Json json = summary.json();
  EXPECT_EQ(json["points"]["ok"], 5);
  EXPECT_EQ(json["points"]["failed"], 1);
  EXPECT_EQ(json["best"][0]["point"], 0);  // fastest
  EXPECT_EQ(json["best"][1]["point"], 3);  // smallest
  EXPECT_EQ(json["best"][2]["point"], 0);  // 1 / t_s, maximized
  std::vector<std::uint64_t> front;
  for (const auto& p : json["pareto"]["points"]) front.push_back(p["point"].get<std::uint64_t>());
  EXPECT_EQ(front, (std::vector<std::uint64_t>{0, 1, 3, 4}));
}

}  // namespace
}  // namespace ridgeline
