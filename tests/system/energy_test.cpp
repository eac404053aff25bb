// A run's energy counted by hand: a vector add's HBM joules are its bytes times the energy a byte
// plus its activations times the energy of one, to the attojoule; a GEMM's FLOP joules are F
// times the energy of a FLOP; a detailed HBM counts its activations; a power limit's clock is the
// one the run runs at.
#include <gtest/gtest.h>

#include "sim/report/report.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/run/simulate.hpp"
#include "sim/run/simulated_energy.hpp"
#include "tests/energy_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;
using test::with_energy;

// Every action a cost of its own, so that each component is checked apart.
constexpr const char* kEnergy =
    "  energy:\n"
    "    static_power: 20W\n"
    "    flop: {fp32: 5pJ/FLOP}\n"
    "    registers: {read: 1pJ/B, write: 2pJ/B}\n"
    "    sram: {read: 7pJ/B, write: 9pJ/B}\n"
    "    network: {read: 3pJ/B, write: 4pJ/B}\n"
    "    hbm: {activation: 1000pJ, read: 2pJ/bit, write: 3pJ/bit, io: 0.5pJ/bit, "
    "row_bytes: 1KiB}\n";

TEST(Energy, VectorAddHbmEnergyIsItsBytesAndItsRowsToTheAttojoule) {
  test::ScratchFiles files;
  // 2^20 FP32 elements: 8 MiB read, 4 MiB written, 2^20 FLOPs.
  const RunConfig config =
      load_config(with_energy(files, "hardware/seed.yaml", kEnergy),
                  config_path("workloads/vector-add.yaml"), {"workload.length=1048576"});
  const SimulationResult result = simulate(config);
  const KernelEnergy energy = *simulated_energy(config, result);
  const EnergyBreakdown& b = energy.breakdown;
  ASSERT_EQ(result.hbm.read_bytes, 8'388'608u);
  ASSERT_EQ(result.hbm.write_bytes, 4'194'304u);
  // HBM: reads 2 + 0.5 pJ a bit (20 pJ a byte), writes 3 + 0.5 (28 pJ a byte).
  EXPECT_EQ(b.of(EnergyComponent::hbm_transfers),
            Attojoules{8'388'608} * 20'000'000 + Attojoules{4'194'304} * 28'000'000);
  EXPECT_DOUBLE_EQ(b.joules(EnergyComponent::hbm_transfers), 2.85212672e-4);
  // Simple mode counts no activations: the row rule, 12 MiB / 1 KiB rows, 1 nJ each.
  EXPECT_FALSE(energy.counts.activations_counted);
  EXPECT_EQ(energy.counts.hbm_activations, 12'288u);
  EXPECT_EQ(b.of(EnergyComponent::hbm_activations), Attojoules{12'288} * 1'000'000'000);
  EXPECT_DOUBLE_EQ(b.joules(EnergyComponent::hbm_activations), 1.2288e-5);
  // The rest: FLOPs, registers (written by the loads, read by the stores), the network, no SRAM.
  EXPECT_EQ(b.of(EnergyComponent::flops), Attojoules{1'048'576} * 5'000'000);
  EXPECT_EQ(b.of(EnergyComponent::registers),
            Attojoules{8'388'608} * 2'000'000 + Attojoules{4'194'304} * 1'000'000);
  EXPECT_EQ(b.of(EnergyComponent::sram), Attojoules{0});
  EXPECT_EQ(b.of(EnergyComponent::network),
            Attojoules{8'388'608} * 3'000'000 + Attojoules{4'194'304} * 4'000'000);
  EXPECT_EQ(b.of(EnergyComponent::static_power), Attojoules{result.time.ps()} * 20'000'000);
  // The report prints these, and its components add up to its total.
  const Json report = report_json(config, &result);
  const Json& e = report["simulated"]["energy"];
  EXPECT_DOUBLE_EQ(e["by_component"]["hbm_transfers_j"].get<double>(), 2.85212672e-4);
  EXPECT_EQ(e["counts"]["hbm_activations_from"], "row_rule");
  double sum = 0;
  for (const auto& [name, joules] : e["by_component"].items()) sum += joules.get<double>();
  EXPECT_NEAR(sum, e["total_j"].get<double>(), e["total_j"].get<double>() * 1e-12);
  EXPECT_DOUBLE_EQ(e["average_power_w"].get<double>(),
                   e["total_j"].get<double>() / result.time.seconds());
  EXPECT_DOUBLE_EQ(e["flop_per_j"].get<double>(), 1'048'576 / e["total_j"].get<double>());
}

TEST(Energy, GemmFlopEnergyIsFlopsTimesTheEnergyOfOne) {
  test::ScratchFiles files;
  // 1024^3: F = 2^31 FLOPs at 5 pJ.
  const RunConfig config = load_config(with_energy(files, "hardware/seed.yaml", kEnergy),
                                       config_path("workloads/seed/gemm-4096-t64-double.yaml"),
                                       {"workload.m=1024", "workload.n=1024", "workload.k=1024"});
  const SimulationResult result = simulate(config);
  const KernelEnergy energy = *simulated_energy(config, result);
  ASSERT_EQ(result.flops(), 2'147'483'648u);
  EXPECT_EQ(energy.breakdown.of(EnergyComponent::flops), Attojoules{2'147'483'648} * 5'000'000);
  EXPECT_DOUBLE_EQ(energy.breakdown.joules(EnergyComponent::flops), 0.01073741824);
  // Its SRAM traffic, the analytical model's to the byte, at 7 and 9 pJ a byte.
  EXPECT_EQ(energy.counts.sram_read_bytes, config.analysis.sram_read_bytes);
  EXPECT_EQ(energy.counts.sram_write_bytes, config.analysis.sram_write_bytes);
  EXPECT_EQ(energy.breakdown.of(EnergyComponent::sram),
            Attojoules{config.analysis.sram_read_bytes} * 7'000'000 +
                Attojoules{config.analysis.sram_write_bytes} * 9'000'000);
  // Tiles land in SRAM, whose reads deliver the operands: no load writes registers; the stores
  // of C read them.
  EXPECT_EQ(energy.counts.register_write_bytes, 0u);
  EXPECT_EQ(energy.counts.register_read_bytes, config.analysis.hbm_write_bytes);
}

TEST(Energy, DetailedHbmCountsItsActivations) {
  test::ScratchFiles files;
  // The stack's DRAM gives the row (hbm.dram.row_bytes), so the section gives none.
  const std::string section =
      "  energy:\n    static_power: 5W\n    flop: {fp32: 1pJ/FLOP}\n"
      "    registers: {read: 0pJ/B, write: 0pJ/B}\n    sram: {read: 0pJ/B, write: 0pJ/B}\n"
      "    network: {read: 0pJ/B, write: 0pJ/B}\n"
      "    hbm: {activation: 909pJ, read: 0pJ/bit, write: 0pJ/bit, io: 0pJ/bit}\n";
  const RunConfig config = load_config(with_energy(files, "hardware/hbm3-stack.yaml", section),
                                       config_path("workloads/memory/sequential-loads.yaml"), {});
  const SimulationResult result = simulate(config);
  ASSERT_TRUE(result.dram);
  const KernelEnergy energy = *simulated_energy(config, result);
  EXPECT_TRUE(energy.counts.activations_counted);
  EXPECT_GT(result.dram->activations, 0u);
  EXPECT_EQ(energy.counts.hbm_activations, result.dram->activations);
  EXPECT_EQ(energy.breakdown.of(EnergyComponent::hbm_activations),
            Attojoules{result.dram->activations} * 909'000'000);
  EXPECT_EQ(report_json(config, &result)["simulated"]["energy"]["counts"]["hbm_activations_from"],
            "dram_model");
}

TEST(Energy, APowerLimitedRunRunsAtTheClockSolvedAndStaysUnderIt) {
  test::ScratchFiles files;
  // A compute-bound 1024^3 GEMM of t = 128 (I = 30.1 FLOP/B, past the ridge of 20): 20 W static and
  // 100 W of FLOPs at 1.25 GHz; a limit of 71.21 W leaves 1 GHz (tests/unit/energy_test.cpp).
  const RunConfig config = load_config(
      with_energy(
          files, "hardware/seed.yaml",
          test::energy_section("20W", "5pJ/FLOP", test::kNoHbmEnergy, "  power_limit: 71.21W\n")),
      config_path("workloads/seed/gemm-4096-t128-double.yaml"),
      {"workload.m=1024", "workload.n=1024", "workload.k=1024"});
  ASSERT_TRUE(config.power_limit);
  EXPECT_EQ(config.power_limit->clock_hz, 1'000'000'000u);
  const SimulationResult result = simulate(config);
  const Json report = report_json(config, &result);
  EXPECT_EQ(report["hardware"]["clock_hz"].get<std::uint64_t>(), 1'000'000'000u);
  EXPECT_EQ(report["analytical"]["power_limit"]["nominal_clock_hz"].get<std::uint64_t>(),
            1'250'000'000u);
  // The run is no faster than the analytical bound at that clock, so it draws no more.
  EXPECT_GE(result.time.seconds(), config.power_limit->time_s);
  const Json& e = report["simulated"]["energy"];
  EXPECT_LE(e["average_power_w"].get<double>(), 71.21);
  EXPECT_GE(e["power_limit_margin_w"].get<double>(), 0.0);
  // Each FLOP at 0.8^2 of its nominal energy.
  EXPECT_EQ(simulated_energy(config, result)->breakdown.of(EnergyComponent::flops),
            Attojoules{2'147'483'648} * 3'200'000);
}

}  // namespace
}  // namespace ridgeline
