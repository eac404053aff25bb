// The energy model by hand: units read exactly, counts times energies to the attojoule, the
// analytical counts of a vector add, the configuration's rules, and the power limit's clock in
// a compute-bound and a memory-bound kernel (P rises as the cube and as the square of the clock).
#include "models/energy.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "sim/config/analytical_energy.hpp"
#include "sim/config/power_limit.hpp"
#include "sim/config/quantity.hpp"
#include "sim/config/run_config.hpp"
#include "sim/report/levels.hpp"
#include "tests/energy_support.hpp"

namespace ridgeline {
namespace {

using test::config_path;
using test::energy_section;
using test::kNoHbmEnergy;
using test::with_energy;

TEST(EnergyUnits, ReadExactlyInAttojoulesAndMicrowatts) {
  EXPECT_EQ(parse_quantity("5.57pJ/FLOP", Dimension::energy_per_flop), 5'570'000u);
  EXPECT_EQ(parse_quantity("0.553pJ/FLOP", Dimension::energy_per_flop), 553'000u);
  EXPECT_EQ(parse_quantity("2fJ/FLOP", Dimension::energy_per_flop), 2'000u);
  // A bit is an eighth of a byte: 2.68 pJ a bit is 21.44 pJ a byte.
  EXPECT_EQ(parse_quantity("2.68pJ/bit", Dimension::energy_per_byte), 21'440'000u);
  EXPECT_EQ(parse_quantity("44.72pJ/B", Dimension::energy_per_byte), 44'720'000u);
  EXPECT_EQ(parse_quantity("1nJ/B", Dimension::energy_per_byte), 1'000'000'000u);
  EXPECT_EQ(parse_quantity("909pJ", Dimension::energy), 909'000'000u);
  EXPECT_EQ(parse_quantity("1.2nJ", Dimension::energy), 1'200'000'000u);
  EXPECT_EQ(parse_quantity("55W", Dimension::power), 55'000'000u);
  EXPECT_EQ(parse_quantity("1.5kW", Dimension::power), 1'500'000'000u);
  EXPECT_EQ(parse_quantity("250mW", Dimension::power), 250'000u);
}

TEST(EnergyUnits, RefuseSignsMissingAndForeignUnits) {
  const auto rule = [](const char* text, Dimension dimension) {
    try {
      parse_quantity(text, dimension);
    } catch (const QuantityError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(rule("-1pJ/FLOP", Dimension::energy_per_flop),
            "expected an energy per FLOP: a non-negative number followed by a unit");
  EXPECT_EQ(rule("5", Dimension::energy_per_byte), "an energy per byte or bit needs a unit");
  EXPECT_EQ(rule("909pJ", Dimension::energy_per_byte),
            "'pJ' is a unit of energy, but this key takes an energy per byte or bit");
  EXPECT_EQ(rule("400W", Dimension::energy),
            "'W' is a unit of power, but this key takes an energy");
  // Finer than an attojoule is refused, as finer than a byte is.
  EXPECT_EQ(rule("0.0000001pJ/FLOP", Dimension::energy_per_flop),
            "the value is not a whole number of attojoules per FLOP");
}

EnergyParams hand_params() {
  EnergyParams p;
  p.flop_aj[index_of(DataType::bf16)] = 1'000'000;  // 1 pJ
  p.registers = {10, 20};
  p.sram = {100, 200};
  p.l2 = ByteEnergy{1'000, 2'000};
  p.network = {3'000, 4'000};
  p.hbm.activation_aj = 1'000'000'000;  // 1 nJ
  p.hbm.core = {16'000'000, 24'000'000};
  p.hbm.io_aj = 4'000'000;
  p.hbm.row_bytes = 1024;
  p.static_power_uw = 50'000'000;  // 50 W
  return p;
}

TEST(EnergyModel, CountsTimesEnergiesToTheAttojoule) {
  EnergyCounts c;
  c.flop_type = DataType::bf16;
  c.flops = 3;
  c.register_read_bytes = 5;
  c.register_write_bytes = 7;
  c.sram_read_bytes = 11;
  c.sram_write_bytes = 13;
  c.l2_read_bytes = 17;
  c.l2_write_bytes = 19;
  c.network_read_bytes = 23;
  c.network_write_bytes = 29;
  c.hbm_read_bytes = 31;
  c.hbm_write_bytes = 37;
  c.hbm_activations = 2;
  c.time = Time::from_ps(1'000);
  const EnergyBreakdown b = energy_of(hand_params(), c);
  EXPECT_TRUE(b.has_l2);
  EXPECT_EQ(b.of(EnergyComponent::flops), Attojoules{3'000'000});
  EXPECT_EQ(b.of(EnergyComponent::registers), Attojoules{5 * 10 + 7 * 20});
  EXPECT_EQ(b.of(EnergyComponent::sram), Attojoules{11 * 100 + 13 * 200});
  EXPECT_EQ(b.of(EnergyComponent::l2), Attojoules{17 * 1'000 + 19 * 2'000});
  EXPECT_EQ(b.of(EnergyComponent::network), Attojoules{23 * 3'000 + 29 * 4'000});
  EXPECT_EQ(b.of(EnergyComponent::hbm_activations), Attojoules{2'000'000'000});
  // Reads through the arrays and the interface, writes likewise.
  EXPECT_EQ(b.of(EnergyComponent::hbm_transfers),
            Attojoules{31 * (16'000'000 + 4'000'000) + 37 * (24'000'000 + 4'000'000)});
  // 50 W for 1 ns: 50 nJ.
  EXPECT_EQ(b.of(EnergyComponent::static_power), Attojoules{50'000'000'000});
  Attojoules sum = 0;
  for (EnergyComponent component : kAllEnergyComponents) sum += b.of(component);
  EXPECT_EQ(b.total_aj(), sum);
  EXPECT_DOUBLE_EQ(b.total_j(), static_cast<double>(sum) / 1e18);
}

TEST(EnergyModel, ALowerClockScalesTheCoresEnergiesByItsSquare) {
  const EnergyParams nominal = hand_params();
  const EnergyParams half = nominal.at_clock(500'000'000, 1'000'000'000);
  EXPECT_EQ(half.flop_aj[index_of(DataType::bf16)], 250'000u);
  EXPECT_EQ(half.registers.read_aj, 3u);  // 10 / 4 = 2.5, to the nearest
  EXPECT_EQ(half.registers.write_aj, 5u);
  EXPECT_EQ(half.sram.read_aj, 25u);
  EXPECT_EQ(half.sram.write_aj, 50u);
  // Their own clocks: the L2, the network, HBM; and static power.
  EXPECT_EQ(half.l2->read_aj, 1'000u);
  EXPECT_EQ(half.network.write_aj, 4'000u);
  EXPECT_EQ(half.hbm.core.read_aj, 16'000'000u);
  EXPECT_EQ(half.hbm.activation_aj, 1'000'000'000u);
  EXPECT_EQ(half.static_power_uw, 50'000'000u);
  EXPECT_EQ(nominal.at_clock(1'000'000'000, 1'000'000'000).sram.read_aj, 100u);
}

TEST(EnergyModel, TheRowRuleOpensARowPerRowOfBytes) {
  EXPECT_EQ(activations_by_row_rule(0, 1024), 0u);
  EXPECT_EQ(activations_by_row_rule(1024, 1024), 1u);
  EXPECT_EQ(activations_by_row_rule(1025, 1024), 2u);
  EXPECT_EQ(activations_by_row_rule(3'221'225'472, 1024), 3'145'728u);
}

class EnergyConfig : public ::testing::Test {
 protected:
  RunConfig load(const std::string& bundled, const std::string& section,
                 const std::string& workload = "workloads/vector-add.yaml",
                 const std::vector<std::string>& overrides = {}) {
    return load_config(with_energy(files_, bundled, section), config_path(workload), overrides);
  }
  // The error loading gives, as `ridgeline` prints it.
  std::string refusal(const std::string& bundled, const std::string& section) {
    try {
      load(bundled, section);
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "accepted";
  }
  test::ScratchFiles files_;
};

TEST_F(EnergyConfig, ReadsEveryFigure) {
  const RunConfig config =
      load("hardware/seed-l2.yaml",
           energy_section("55W", "5.57pJ/FLOP",
                          "activation: 909pJ, read: 2.68pJ/bit, write: 3pJ/bit, io: 0.8pJ/bit, "
                          "row_bytes: 1KiB",
                          "    l2: {read: 44.72pJ/B, write: 45pJ/B}\n  power_limit: 400W\n"));
  const EnergyParams& e = *config.hardware.energy;
  EXPECT_EQ(e.static_power_uw, 55'000'000u);
  EXPECT_EQ(e.flop_aj[index_of(DataType::fp32)], 5'570'000u);
  EXPECT_EQ(e.flop_aj[index_of(DataType::bf16)], 0u);
  EXPECT_EQ(e.l2->read_aj, 44'720'000u);
  EXPECT_EQ(e.l2->write_aj, 45'000'000u);
  EXPECT_EQ(e.hbm.activation_aj, 909'000'000u);
  EXPECT_EQ(e.hbm.core.read_aj, 21'440'000u);
  EXPECT_EQ(e.hbm.core.write_aj, 24'000'000u);
  EXPECT_EQ(e.hbm.io_aj, 6'400'000u);
  EXPECT_EQ(e.hbm.row_bytes, 1024u);
  EXPECT_EQ(config.hardware.power_limit_uw, 400'000'000u);
}

TEST_F(EnergyConfig, RefusesWhatNoClockCanMeetOrNoModelCanCost) {
  // A limit at or below static power: no clock meets it, and the message says so with both.
  const std::string below =
      refusal("hardware/seed.yaml",
              energy_section("20W", "5pJ/FLOP", kNoHbmEnergy, "  power_limit: 15W\n"));
  EXPECT_NE(below.find("hardware.power_limit: value \"15W\": no clock can meet it: the limit of "
                       "15 W is not above the static power of 20 W"),
            std::string::npos)
      << below;
  // Each type the cores run needs its FLOP energy.
  const std::string no_flop =
      refusal("hardware/seed.yaml", "  energy:\n    static_power: 20W\n    flop: {}\n");
  EXPECT_NE(no_flop.find("fp32"), std::string::npos) << no_flop;
  // An L2 needs its energy.
  const std::string no_l2 =
      refusal("hardware/seed-l2.yaml", energy_section("20W", "5pJ/FLOP", kNoHbmEnergy));
  EXPECT_NE(no_l2.find("l2"), std::string::npos) << no_l2;
  // The DRAM's page is the row: not given twice.
  const std::string two_rows =
      refusal("hardware/hbm3-stack.yaml", energy_section("20W", "5pJ/FLOP", kNoHbmEnergy));
  EXPECT_NE(two_rows.find("hardware.energy.hbm.row_bytes: value \"1KiB\": hbm.dram.row_bytes "
                          "gives the row already"),
            std::string::npos)
      << two_rows;
  // Without hbm.dram the row rule needs its row.
  const std::string no_row =
      refusal("hardware/seed.yaml",
              energy_section("20W", "5pJ/FLOP",
                             "activation: 0pJ, read: 0pJ/bit, write: 0pJ/bit, io: 0pJ/bit"));
  EXPECT_NE(no_row.find("row_bytes"), std::string::npos) << no_row;
}

TEST_F(EnergyConfig, TheAnalyticalCountsOfAVectorAdd) {
  // 2^28 FP32 elements: 2^28 FLOPs, 8 bytes read and 4 written an element, straight into and out
  // of registers, over the network, and to HBM; a row opened per KiB.
  const RunConfig config =
      load("hardware/seed.yaml", energy_section("20W", "5pJ/FLOP", kNoHbmEnergy));
  const EnergyCounts c =
      analytical_energy_counts(config.hardware, config.workload, config.analysis);
  EXPECT_EQ(c.flop_type, DataType::fp32);
  EXPECT_EQ(c.flops, 268'435'456u);
  EXPECT_EQ(c.register_write_bytes, 2'147'483'648u);
  EXPECT_EQ(c.register_read_bytes, 1'073'741'824u);
  EXPECT_EQ(c.sram_read_bytes + c.sram_write_bytes, 0u);
  EXPECT_EQ(c.network_read_bytes, 2'147'483'648u);
  EXPECT_EQ(c.network_write_bytes, 1'073'741'824u);
  EXPECT_EQ(c.l2_read_bytes + c.l2_write_bytes, 0u);  // no L2
  EXPECT_EQ(c.hbm_read_bytes, 2'147'483'648u);
  EXPECT_EQ(c.hbm_write_bytes, 1'073'741'824u);
  EXPECT_EQ(c.hbm_activations, 3'145'728u);
  EXPECT_FALSE(c.activations_counted);
}

TEST(AnalyticalTime, IsTheHierarchicalRooflinesBound) {
  // One time, two expressions: the power limit's and the levels table's.
  for (const auto& [hardware, workload] : std::vector<std::pair<const char*, const char*>>{
           {"hardware/seed.yaml", "workloads/seed/gemm-4096-t128-double.yaml"},
           {"hardware/seed.yaml", "workloads/vector-add.yaml"},
           {"hardware/seed-l2.yaml", "workloads/seed/gemm-4096-t64-double.yaml"},
           {"hardware/h100-sxm5-80gb.yaml", "workloads/tensor-core/gemm-4096-bf16.yaml"},
           // Bound by the SRAM's ports.
           {"questions/q1-local-vs-shared/machine.yaml",
            "questions/q1-local-vs-shared/shared-only.yaml"}}) {
    SCOPED_TRACE(std::string(hardware) + " " + workload);
    const RunConfig config = load_config(config_path(hardware), config_path(workload), {});
    EXPECT_DOUBLE_EQ(analytical_time_s(config.hardware, config.workload, config.analysis),
                     analytical_levels(config).bound_s);
  }
}

TEST_F(EnergyConfig, ComputeBoundClockFallsAsTheCubeRootOfThePowerLeft) {
  // The t = 128 GEMM is compute-bound: T(s) = T_compute / s, so the FLOPs' power is
  // F e s^2 / (T_compute / s) = 100 W x s^3 (F e = 0.68719476736 J over T_compute = 6.8719476736
  // ms), and the limit 20 W + 100 W x 0.8^3 = 71.2 W (and a little) leaves s = 0.8: 1 GHz of
  // 1.25 (1001 MHz would draw 71.35 W).
  const RunConfig config =
      load("hardware/seed.yaml",
           energy_section("20W", "5pJ/FLOP", kNoHbmEnergy, "  power_limit: 71.21W\n"),
           "workloads/seed/gemm-4096-t128-double.yaml");
  ASSERT_TRUE(config.power_limit);
  const PowerLimitSolution& p = *config.power_limit;
  EXPECT_EQ(p.nominal_clock_hz, 1'250'000'000u);
  EXPECT_EQ(p.clock_hz, 1'000'000'000u);
  EXPECT_TRUE(p.throttled());
  EXPECT_NEAR(p.nominal_power_w, 120.0, 1e-6);
  EXPECT_NEAR(p.power_w, 71.2, 1e-6);
  EXPECT_DOUBLE_EQ(p.nominal_time_s, 6.8719476736e-3);
  EXPECT_DOUBLE_EQ(p.time_s, 8.589934592e-3);
  // The machine is the throttled one: its clock, its peak, its analysis.
  EXPECT_EQ(config.hardware.core_clock.frequency_hz, 1'000'000'000u);
  EXPECT_DOUBLE_EQ(config.analysis.roof.peak_flop_per_s, 16e12);
  EXPECT_DOUBLE_EQ(config.analysis.roofline.t_compute_s, 8.589934592e-3);
  // Its energy per FLOP is 0.8^2 of the nominal one.
  EXPECT_EQ(energy_in_effect(config)->flop_aj[index_of(DataType::fp32)], 3'200'000u);
}

TEST_F(EnergyConfig, MemoryBoundClockFallsAsTheSquareRoot) {
  // The vector add is memory-bound at any clock that matters: T = Q / BW = 3.221225472 ms, and
  // its FLOPs (120 pJ each here) draw 10 W x s^2. 10 W static + 10 W x s^2 <= 12.505 W leaves
  // s <= 0.5005: 625 MHz of 1.25 GHz, and the time does not change.
  const RunConfig config =
      load("hardware/seed.yaml",
           energy_section("10W", "120pJ/FLOP", kNoHbmEnergy, "  power_limit: 12.505W\n"));
  ASSERT_TRUE(config.power_limit);
  EXPECT_EQ(config.power_limit->clock_hz, 625'000'000u);
  EXPECT_NEAR(config.power_limit->nominal_power_w, 20.0, 1e-6);
  EXPECT_NEAR(config.power_limit->power_w, 12.5, 1e-6);
  EXPECT_DOUBLE_EQ(config.power_limit->time_s, config.power_limit->nominal_time_s);
}

TEST_F(EnergyConfig, UnderTheLimitTheClockStays) {
  const RunConfig config =
      load("hardware/seed.yaml",
           energy_section("20W", "5pJ/FLOP", kNoHbmEnergy, "  power_limit: 400W\n"),
           "workloads/seed/gemm-4096-t128-double.yaml");
  ASSERT_TRUE(config.power_limit);
  EXPECT_FALSE(config.power_limit->throttled());
  EXPECT_EQ(config.hardware.core_clock.frequency_hz, 1'250'000'000u);
  EXPECT_NEAR(config.power_limit->power_w, 120.0, 1e-6);
}

TEST(EnergyPresets, EveryGpuPresetHasAnEnergyForEachTypeItRuns) {
  // Each board's limit is its datasheet's maximum TDP, in W.
  const std::pair<const char*, std::uint64_t> presets[] = {{"hardware/a100-sxm4-40gb.yaml", 400},
                                                           {"hardware/a100-sxm4-80gb.yaml", 400},
                                                           {"hardware/h100-sxm5-80gb.yaml", 700},
                                                           {"hardware/h100-pcie-80gb.yaml", 350},
                                                           {"hardware/h200-sxm5-141gb.yaml", 700}};
  for (const auto& [preset, tdp_w] : presets) {
    SCOPED_TRACE(preset);
    const RunConfig config =
        load_config(config_path(preset), config_path("workloads/vector-add.yaml"), {});
    ASSERT_TRUE(config.hardware.energy);
    for (DataType type : kAllDataTypes) {
      const bool runs = config.hardware.core.compute.flops_per_cycle[index_of(type)] != 0;
      EXPECT_EQ(config.hardware.energy->flop_aj[index_of(type)] != 0, runs) << name_of(type);
    }
    EXPECT_TRUE(config.hardware.energy->l2);
    EXPECT_EQ(config.hardware.energy->hbm.row_bytes, 1024u);
    EXPECT_EQ(config.hardware.power_limit_uw, tdp_w * 1'000'000);
    // A vector add is bound by HBM, far below any of these limits: its clock stays the file's.
    ASSERT_TRUE(config.power_limit);
    EXPECT_FALSE(config.power_limit->throttled());
    EXPECT_LT(config.power_limit->power_w, 0.8 * double(tdp_w));
  }
}

}  // namespace
}  // namespace ridgeline
