// The hardware presets of configs/hardware/ (A100, H100, H200 class): they load, their peaks per
// data type and their HBM bandwidth are the datasheets' to the precision the datasheets print,
// and question 2's machines and tiles fit (or are refused) as its README says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>

#include "sim/util/config_error.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

const std::string kA100 = "hardware/a100-sxm4-80gb.yaml";
const std::string kH100 = "hardware/h100-sxm5-80gb.yaml";
const std::string kH200 = "hardware/h200-sxm5-141gb.yaml";
const std::string kH100Pcie = "hardware/h100-pcie-80gb.yaml";
const std::string kQ2 = "questions/q2-tile-under-limits/";
const std::string kQ2NoL2 = kQ2 + "hardware/h100-sxm5-no-l2.yaml";
// Any workload that fits every preset: the presets are read with it.
const std::string kVectorAdd = "workloads/vector-add.yaml";

RunConfig preset(const std::string& hardware, const std::vector<std::string>& overrides = {}) {
  return test::seed_config(kVectorAdd, overrides, hardware);
}

// A datasheet figure in units of 10^12 per second, printed to `printed_unit` (0.1 for "19.5",
// 1 for "312"); a peak matches it when it rounds to it, i.e. lies within half that unit.
struct Datasheet {
  DataType type;
  double figure;
  double printed_unit;
};

void expect_peaks(const HardwareParams& hardware, const std::vector<Datasheet>& figures) {
  for (const Datasheet& d : figures) {
    SCOPED_TRACE(std::string(name_of(d.type)));
    const double peak_t = hardware.peak_flop_per_s(d.type) / 1e12;
    EXPECT_LE(std::abs(peak_t - d.figure), d.printed_unit / 2) << peak_t << " against " << d.figure;
  }
}

// Hopper's five tensor-core types: FP16 runs at BF16's rate and INT8 at FP8's.
std::vector<Datasheet> tensor_peaks(double tf32, double bf16, double fp8, double printed_unit) {
  return {{DataType::tf32, tf32, printed_unit},
          {DataType::bf16, bf16, printed_unit},
          {DataType::fp16, bf16, printed_unit},
          {DataType::fp8, fp8, printed_unit},
          {DataType::int8, fp8, printed_unit}};
}

// --- A100 SXM4 80GB: every figure at the boost clock, 1410 MHz (A100 whitepaper, dense) ---

TEST(Presets, A100PeaksAreTheDatasheets) {
  const RunConfig c = preset(kA100);
  EXPECT_EQ(c.hardware.cores, 108u);
  EXPECT_EQ(c.hardware.core_clock.frequency_hz, 1'410'000'000u);
  expect_peaks(c.hardware, {{DataType::fp32, 19.5, 0.1},
                            {DataType::int32, 19.5, 0.1},
                            {DataType::tf32, 156, 1},
                            {DataType::bf16, 312, 1},
                            {DataType::fp16, 312, 1},
                            {DataType::int8, 624, 1}});
  EXPECT_EQ(c.hardware.hbm.peak_bandwidth.bytes_per_second, 2'039'000'000'000u);  // 2,039 GB/s
}

// A100 SXM4 40GB: the same GPU, its HBM2 at the 40GB datasheet's 1,555 GB/s.
TEST(Presets, A100FortyGigabytesDiffersOnlyInItsMemory) {
  const RunConfig forty = preset("hardware/a100-sxm4-40gb.yaml");
  const RunConfig eighty = preset(kA100);
  EXPECT_EQ(forty.hardware.hbm.peak_bandwidth.bytes_per_second, 1'555'000'000'000u);
  EXPECT_EQ(forty.hardware.cores, eighty.hardware.cores);
  EXPECT_EQ(forty.hardware.core_clock.frequency_hz, eighty.hardware.core_clock.frequency_hz);
  EXPECT_EQ(forty.hardware.peak_flop_per_s(DataType::bf16),
            eighty.hardware.peak_flop_per_s(DataType::bf16));
  EXPECT_EQ(forty.hardware.l2->capacity_bytes, eighty.hardware.l2->capacity_bytes);
  EXPECT_EQ(forty.hardware.l2->sector_bytes, 32u);
  EXPECT_EQ(forty.hardware.core.sram.capacity_bytes, eighty.hardware.core.sram.capacity_bytes);
}

TEST(Presets, A100HasNoFp8) {
  try {
    preset(kA100, {"workload.dtype=fp8"});
    FAIL() << "an fp8 workload ran on Ampere";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("gives no fp8 throughput"), std::string::npos)
        << error.what();
  }
}

// --- H100 SXM5 80GB: tensor peaks at 1830 MHz (the preset's clock), FP32 and INT32 at 1980 ---

TEST(Presets, H100TensorPeaksAreTheDatasheetsAtItsClock) {
  const RunConfig c = preset(kH100);
  EXPECT_EQ(c.hardware.cores, 132u);
  EXPECT_EQ(c.hardware.core_clock.frequency_hz, 1'830'000'000u);
  // The whitepaper's dense figures; the datasheet prints twice them, with sparsity.
  expect_peaks(c.hardware, tensor_peaks(494.7, 989.4, 1978.9, 0.1));
  // The CUDA cores' peaks at this clock: the architecture's rates, 1.83 / 1.98 of the datasheet.
  EXPECT_DOUBLE_EQ(c.hardware.peak_flop_per_s(DataType::fp32), 132.0 * 256 * 1.83e9);
  EXPECT_DOUBLE_EQ(c.hardware.peak_flop_per_s(DataType::int32), 132.0 * 128 * 1.83e9);
  EXPECT_EQ(c.hardware.hbm.peak_bandwidth.bytes_per_second, 3'350'000'000'000u);  // 3.35 TB/s
}

TEST(Presets, H100CudaCorePeaksAreTheDatasheetsAtTheirClock) {
  const RunConfig c = preset(kH100, {"hardware.clock=1.98GHz"});
  expect_peaks(c.hardware, {{DataType::fp32, 66.9, 0.1}, {DataType::int32, 33.5, 0.1}});
}

// --- H100 PCIe 80GB: the SXM5's SM, 114 of them, at the 1.62 GHz its tensor peaks imply ---

TEST(Presets, H100PciePeaksAreTheDatasheetsAtTheirClocks) {
  const RunConfig c = preset(kH100Pcie);
  EXPECT_EQ(c.hardware.cores, 114u);
  EXPECT_EQ(c.hardware.core_clock.frequency_hz, 1'620'000'000u);
  expect_peaks(c.hardware, tensor_peaks(378, 756, 1513, 1));
  expect_peaks(preset(kH100Pcie, {"hardware.clock=1.755GHz"}).hardware, {{DataType::fp32, 51, 1}});
  EXPECT_EQ(c.hardware.hbm.peak_bandwidth.bytes_per_second, 2'000'000'000'000u);  // 2.0 TB/s
  // Everything but the SM count, the clock, the L2's bandwidth and the HBM is the SXM5's.
  const HardwareParams sxm = preset(kH100).hardware;
  EXPECT_EQ(c.hardware.core.compute.flops_per_cycle, sxm.core.compute.flops_per_cycle);
  EXPECT_EQ(c.hardware.core.sram.capacity_bytes, sxm.core.sram.capacity_bytes);
  EXPECT_EQ(c.hardware.l2->capacity_bytes, sxm.l2->capacity_bytes);
  EXPECT_EQ(c.hardware.l2->hit_latency, sxm.l2->hit_latency);
}

// --- H200 SXM 141GB: the product brief prints peaks with sparsity, to whole TFLOP/s ---

TEST(Presets, H200PeaksAreTheProductBriefs) {
  const RunConfig c = preset(kH200);
  EXPECT_EQ(c.hardware.cores, 132u);
  // Dense = the brief's sparse figure / 2, known to within half of half a unit.
  expect_peaks(c.hardware, tensor_peaks(989.0 / 2, 1979.0 / 2, 3958.0 / 2, 0.5));
  expect_peaks(preset(kH200, {"hardware.clock=1.98GHz"}).hardware, {{DataType::fp32, 67, 1}});
  EXPECT_EQ(c.hardware.hbm.peak_bandwidth.bytes_per_second, 4'800'000'000'000u);  // 4.8 TB/s
}

TEST(Presets, EveryPresetHasAnL2AndGpuLimits) {
  for (const auto& [path, l2_bytes, sram_bytes] :
       {std::tuple{kA100, 40ull << 20, 164ull << 10}, std::tuple{kH100, 50ull << 20, 228ull << 10},
        std::tuple{kH200, 50ull << 20, 228ull << 10},
        std::tuple{kH100Pcie, 50ull << 20, 228ull << 10}}) {
    SCOPED_TRACE(path);
    const HardwareParams hw = preset(path).hardware;
    ASSERT_TRUE(hw.l2.has_value());
    EXPECT_EQ(hw.l2->capacity_bytes, l2_bytes);
    EXPECT_EQ(hw.core.sram.capacity_bytes, sram_bytes);
    EXPECT_EQ(hw.core.registers.capacity_bytes, 256u << 10);  // 64 Ki 32-bit registers
    EXPECT_EQ(hw.core.max_warps, 64u);
    EXPECT_EQ(hw.core.max_resident_blocks, 32u);
    EXPECT_EQ(hw.threads.max_threads_per_block, 1024u);
    EXPECT_EQ(hw.threads.max_registers_per_thread, 255u);
    // 32 banks x 4 B a cycle, one set of banks that reads and writes share.
    EXPECT_TRUE(hw.core.sram.shared_port);
    EXPECT_EQ(hw.core.sram.read_bytes_per_cycle, 128u);
    EXPECT_EQ(hw.core.sram.write_bytes_per_cycle, 128u);
  }
}

// The L2 in two partitions on every preset, near hits as measured on the A100 and the H100 PCIe
// and far hits as the model reads their far plateaus (the H100 SXM5 and the H200 take the H100
// PCIe's: the same die and L2).
TEST(Presets, TheL2IsTwoPartitionsWithTheMeasuredNearAndFarHitLatencies) {
  for (const auto& [path, near_ns, far_ns] :
       {std::tuple{kA100, 150, 452}, std::tuple{kH100Pcie, 151, 390}, std::tuple{kH100, 151, 390},
        std::tuple{kH200, 151, 390}}) {
    SCOPED_TRACE(path);
    const HardwareParams hw = preset(path).hardware;
    EXPECT_EQ(hw.l2->partitions, 2u);
    EXPECT_EQ(hw.l2->hit_latency.ps(), near_ns * 1000u);
    EXPECT_EQ(hw.l2->far_hit_latency.ps(), far_ns * 1000u);
  }
  // The A100's, in its cycles at 1410 MHz: 211 measured, and 2 x 424 - 211 from the far plateau
  // of 424 measured past half the L2, where a chase is half near and half far hits.
  const HardwareParams a100 = preset(kA100).hardware;
  EXPECT_NEAR(a100.l2->hit_latency.seconds() * 1.41e9, 211, 1);
  EXPECT_NEAR(a100.l2->far_hit_latency.seconds() * 1.41e9, 2 * 424 - 211, 1);
  // The H100 PCIe's at 1755 MHz: 265 and 2 x 475 - 265.
  const HardwareParams h100 = preset(kH100Pcie).hardware;
  EXPECT_NEAR(h100.l2->far_hit_latency.seconds() * 1.755e9, 2 * 475 - 265, 1);
}

// Hopper has thread-block clusters (8 blocks, the portable size) and warpgroup MMA; Ampere
// neither, so a Hopper kernel is refused on the A100 rather than run as if it had them.
TEST(Presets, OnlyHopperHasClustersAndWarpgroups) {
  for (const auto& [path, cluster, warpgroup] :
       {std::tuple{kA100, 1u, false}, std::tuple{kH100, 8u, true}, std::tuple{kH200, 8u, true}}) {
    SCOPED_TRACE(path);
    const HardwareParams hw = preset(path).hardware;
    EXPECT_EQ(hw.threads.max_cluster_size, cluster);
    EXPECT_EQ(hw.threads.warpgroup_mma, warpgroup);
  }
}

// Every GPU preset's SM issues four warp instructions a clock, one a scheduler. An H100's 128 FP32
// lanes need all four for their FFMAs (256 FLOP a cycle = 4 x 32 lanes x 2), an A100's 64 half of
// them: only the H100's and H200's FP32 kernels give issue slots up to their shared-memory loads.
TEST(Presets, AnSmIssuesFourWarpInstructionsACycle) {
  for (const auto& [path, ffma_share] : {std::tuple{kA100, 0.5}, std::tuple{kH100Pcie, 1.0},
                                         std::tuple{kH100, 1.0}, std::tuple{kH200, 1.0}}) {
    SCOPED_TRACE(path);
    const HardwareParams hw = preset(path).hardware;
    EXPECT_EQ(hw.core.compute.warp_instructions_per_cycle, 4u);
    const double ffmas_a_cycle =
        static_cast<double>(hw.core.compute.flops_per_cycle[index_of(DataType::fp32)]) /
        (2.0 * hw.threads.warp_size);
    EXPECT_DOUBLE_EQ(ffmas_a_cycle / hw.core.compute.warp_instructions_per_cycle, ffma_share);
  }
}

// --- question 2's machine without the L2 is the preset in everything else ---

TEST(Question2, MachineWithoutL2IsThePresetOtherwise) {
  const HardwareParams with = preset(kH100).hardware;
  const HardwareParams without = preset(kQ2NoL2).hardware;
  EXPECT_TRUE(with.l2.has_value());
  EXPECT_FALSE(without.l2.has_value());
  EXPECT_EQ(without.hbm.units(), 1u);  // one queue at the full bandwidth (see the file)
  EXPECT_EQ(with.hbm.units(), 160u);
  EXPECT_EQ(without.core_clock.frequency_hz, with.core_clock.frequency_hz);
  EXPECT_EQ(without.cores, with.cores);
  EXPECT_EQ(without.core.max_resident_blocks, with.core.max_resident_blocks);
  EXPECT_EQ(without.core.max_bytes_in_flight, with.core.max_bytes_in_flight);
  EXPECT_EQ(without.core.max_warps, with.core.max_warps);
  EXPECT_EQ(without.core.sram.capacity_bytes, with.core.sram.capacity_bytes);
  EXPECT_EQ(without.core.sram.read_bytes_per_cycle, with.core.sram.read_bytes_per_cycle);
  EXPECT_EQ(without.core.sram.write_bytes_per_cycle, with.core.sram.write_bytes_per_cycle);
  EXPECT_EQ(without.core.sram.shared_port, with.core.sram.shared_port);
  EXPECT_EQ(without.core.registers.capacity_bytes, with.core.registers.capacity_bytes);
  EXPECT_EQ(without.core.compute.flops_per_cycle, with.core.compute.flops_per_cycle);
  EXPECT_EQ(without.core.compute.pipeline_latency.count, with.core.compute.pipeline_latency.count);
  EXPECT_EQ(without.core.compute.warp_instructions_per_cycle,
            with.core.compute.warp_instructions_per_cycle);
  EXPECT_EQ(without.threads.warp_size, with.threads.warp_size);
  EXPECT_EQ(without.threads.max_threads_per_block, with.threads.max_threads_per_block);
  EXPECT_EQ(without.threads.max_registers_per_thread, with.threads.max_registers_per_thread);
  EXPECT_EQ(without.threads.barrier.count, with.threads.barrier.count);
  EXPECT_EQ(without.core.block_launch.count, with.core.block_launch.count);
  EXPECT_EQ(without.core.warp_launch.count, with.core.warp_launch.count);
  EXPECT_EQ(without.hbm.peak_bandwidth.bytes_per_second, with.hbm.peak_bandwidth.bytes_per_second);
  // The preset's latency is what lies outside its detailed DRAM; the one queue's is the whole
  // unloaded load-to-use time the preset's pointer chase gives (375 ns measured on H100 PCIe).
  EXPECT_EQ(without.hbm.access_latency.ps(), 375'000u);
  EXPECT_EQ(with.hbm.mode, HbmMode::detailed);
  EXPECT_EQ(without.hbm.interleave_bytes, with.hbm.interleave_bytes);
}

// --- question 2's tiles on the H100 preset: what fits, how many, and what limits it ---

struct Fit {
  const char* workload;
  std::uint64_t blocks_per_core;
  const char* limited_by;
  std::uint64_t active_warps;
};

TEST(Question2, TilesThatFitAndWhatLimitsThem) {
  for (const Fit& f : {Fit{"t32-1stage", 25, "registers", 25},  // 10 KiB of registers a block
                       Fit{"t32-2stages", 14, "sram", 14},      // 16 KiB of 228
                       Fit{"t64-1stage", 7, "sram", 14},        // 32 KiB
                       Fit{"t64-2stages", 3, "sram", 6},        // 64 KiB
                       Fit{"t128-1stage", 1, "sram", 8},        // 128 KiB: the note's 8 t^2
                       Fit{"128x128x32-2stages", 3, "sram", 24},
                       Fit{"256x128x32-2stages", 1, "registers", 16},  // 160 KiB of 256
                       Fit{"256x256x32-spill", 1, "sram", 8}}) {
    SCOPED_TRACE(f.workload);
    const RunConfig c = test::seed_config(kQ2 + "workloads/" + f.workload + ".yaml", {}, kH100);
    EXPECT_EQ(c.occupancy.blocks_per_core, f.blocks_per_core);
    EXPECT_EQ(c.occupancy.limited_by, f.limited_by);
    EXPECT_EQ(c.occupancy.active_warps, f.active_warps);
  }
  // The spilled one holds 255 registers of its 288 and keeps 33 in local memory.
  const RunConfig spill = test::seed_config(kQ2 + "workloads/256x256x32-spill.yaml", {}, kH100);
  EXPECT_EQ(spill.analysis.footprint.registers_per_thread, 288u);
  EXPECT_EQ(spill.analysis.footprint.spilled_registers_per_thread, 33u);
}

TEST(Question2, TilesThatDoNotFitAreRefusedWithTheNumbers) {
  const auto refusal = [](const std::string& workload,
                          const std::vector<std::string>& overrides = {}) -> std::string {
    try {
      test::seed_config(kQ2 + "workloads/" + workload + ".yaml", overrides, kH100);
    } catch (const ConfigError& error) {
      return error.what();
    }
    ADD_FAILURE() << workload << " was not refused";
    return "";
  };
  EXPECT_NE(refusal("t128-2stages")
                .find("one block needs 256 KiB of SRAM (128 KiB of inputs x 2 "
                      "stages) but a core has 228 KiB"),
            std::string::npos);
  EXPECT_NE(refusal("t256-1stage").find("one block needs 512 KiB of SRAM"), std::string::npos);
  EXPECT_NE(refusal("256x256x32-2stages")
                .find("one block needs 320 KiB of registers (1024 threads in 32 warps x 80 "
                      "registers) but a core has 256 KiB"),
            std::string::npos);
  EXPECT_NE(refusal("256x256x32-2stages", {"workload.register_tile={m: 16, n: 16}"})
                .find("a thread needs 288 registers (256 accumulators + 32 operand fragments + 0 "
                      "overhead) but a thread may hold 255"),
            std::string::npos);
  EXPECT_NE(refusal("t64-2stages", {"workload.register_tile={m: 1, n: 1}"})
                .find("one block has 4096 threads but a core runs at most 1024"),
            std::string::npos);
}

// --- every question's workloads load on the machines its README runs them on ---

std::vector<std::string> yaml_files(const std::string& folder, const std::string& except = "") {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::config_path(folder))) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && name != except) files.push_back(folder + name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(BundledConfigs, EveryQuestionsWorkloadsLoadOnItsMachines) {
  struct Question {
    std::vector<std::string> machines;
    std::vector<std::string> workloads;
  };
  const std::string q1 = "questions/q1-local-vs-shared/", q3 = "questions/q3-l2-reuse/",
                    q4 = "questions/q4-slow-past-ridge/";
  std::vector<std::string> q3_machines = yaml_files(q3 + "hardware/");
  q3_machines.insert(q3_machines.end(), {"hardware/seed.yaml", "hardware/seed-l2.yaml"});
  // Question 2's refused tiles are checked above; the rest fit both of its machines.
  std::vector<std::string> q2_fitting;
  for (const std::string& w : yaml_files(kQ2 + "workloads/")) {
    if (w.find("t128-2stages") == std::string::npos && w.find("t256-1stage") == std::string::npos &&
        w.find("256x256x32-2stages") == std::string::npos) {
      q2_fitting.push_back(w);
    }
  }
  EXPECT_EQ(q2_fitting.size(), 8u);
  for (const Question& q : {Question{{q1 + "machine.yaml"}, yaml_files(q1, "machine.yaml")},
                            Question{{kH100, kQ2NoL2}, q2_fitting},
                            Question{q3_machines, yaml_files(q3 + "workloads/")},
                            Question{{q4 + "machine.yaml"}, yaml_files(q4, "machine.yaml")}}) {
    EXPECT_FALSE(q.workloads.empty());
    for (const std::string& machine : q.machines) {
      for (const std::string& workload : q.workloads) {
        SCOPED_TRACE(machine + " " + workload);
        const RunConfig c = test::seed_config(workload, {}, machine);
        EXPECT_GE(c.occupancy.blocks_per_core, 1u);
      }
    }
  }
}

}  // namespace
}  // namespace ridgeline
