// The HBM organisation keys: pseudo-channels, mode, address mapping, DRAM geometry and timings,
// and the errors that name what is wrong with them.
#include <gtest/gtest.h>

#include "sim/util/config_error.hpp"
#include "tests/hbm3_stack.hpp"
#include "tests/test_support.hpp"

namespace ridgeline {
namespace {

const std::string kStack = test::config_path("hardware/hbm3-stack.yaml");
const std::string kTrace = test::config_path("workloads/memory/sequential-trace.yaml");
const std::string kSeed = test::config_path("hardware/seed.yaml");
const std::string kVectorAdd = test::config_path("workloads/vector-add.yaml");

std::string error_of(const std::string& hardware, const std::vector<std::string>& overrides) {
  try {
    load_config(hardware, kTrace, overrides);
  } catch (const ConfigError& error) {
    EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << "one line";
    return error.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

void expect_in(const std::string& message, const std::vector<std::string>& parts) {
  for (const auto& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos) << "missing '" << part << "' in: " << message;
  }
}

TEST(HbmConfig, TheStackPresetReadsEveryKey) {
  const HbmParams hbm = load_config(kStack, kTrace, {}).hardware.hbm;
  EXPECT_EQ(hbm.mode, HbmMode::detailed);
  EXPECT_EQ(hbm.units(), 32u);
  EXPECT_EQ(hbm.peak_bandwidth.bytes_per_second, 819'200'000'000u);
  ASSERT_TRUE(hbm.dram);
  EXPECT_EQ(hbm.dram->mapping, test::named_mapping("bank_group_interleave"));
  EXPECT_EQ(hbm.geometry().capacity_bytes(), 16ull << 30);
  EXPECT_EQ(hbm.dram->burst_bytes, 32u);
  EXPECT_TRUE(hbm.dram->refresh);
  // The timings the tests of the DRAM models use are the preset's.
  const DramTimings expected = test::hbm3_dram().timing;
  const DramTimings& t = hbm.dram->timing;
  for (auto field :
       {&DramTimings::tRCD_RD, &DramTimings::tRCD_WR, &DramTimings::tRP, &DramTimings::tRAS,
        &DramTimings::tCL, &DramTimings::tCWL, &DramTimings::tCCD_S, &DramTimings::tCCD_L,
        &DramTimings::tRRD_S, &DramTimings::tRRD_L, &DramTimings::tFAW, &DramTimings::tWR,
        &DramTimings::tRTP, &DramTimings::tWTR_S, &DramTimings::tWTR_L, &DramTimings::tRTW,
        &DramTimings::tREFI, &DramTimings::tRFC}) {
    EXPECT_EQ(t.*field, expected.*field);
  }
}

TEST(HbmConfig, EveryStackPresetLoads) {
  struct Preset {
    const char* file;
    std::uint64_t bytes_per_s;
    std::uint32_t units;
    std::uint64_t capacity_bytes;
    std::uint64_t burst_ps;  ///< 32 B at a pseudo-channel's share of the peak, rounded up
  };
  for (const Preset& p :
       {Preset{"hardware/hbm2e-stack.yaml", 409'600'000'000, 16, 16ull << 30, 1250},
        Preset{"hardware/hbm3-stack.yaml", 819'200'000'000, 32, 16ull << 30, 1250},
        Preset{"hardware/hbm3e-stack.yaml", 1'228'800'000'000, 32, 24ull << 30, 834}}) {
    const HbmParams hbm = load_config(test::config_path(p.file), kTrace, {}).hardware.hbm;
    EXPECT_EQ(hbm.mode, HbmMode::detailed) << p.file;
    EXPECT_EQ(hbm.peak_bandwidth.bytes_per_second, p.bytes_per_s) << p.file;
    EXPECT_EQ(hbm.units(), p.units) << p.file;
    EXPECT_EQ(hbm.geometry().capacity_bytes(), p.capacity_bytes) << p.file;
    EXPECT_EQ(hbm.dram->burst_bytes, 32u) << p.file;
    EXPECT_EQ(TransferRate(hbm.peak_bandwidth, hbm.units()).time_for(32).ps(), p.burst_ps);
  }
}

TEST(HbmConfig, MappingsByNameOrBitOrder) {
  EXPECT_EQ(load_config(kStack, kTrace, {"hardware.hbm.address_mapping=ch-pc-ro-ba-bg-co"})
                .hardware.hbm.dram->mapping,
            test::named_mapping("channel_contiguous"));
  expect_in(error_of(kStack, {"hardware.hbm.address_mapping=ro-ba-xx-co-pc-ch"}),
            {"--set hardware.hbm.address_mapping=ro-ba-xx-co-pc-ch", "'xx' is not a field",
             "channel_interleave, bank_group_interleave"});
  expect_in(error_of(kStack, {"hardware.hbm.address_mapping=ro-ba-bg-co-pc"}),
            {"names all six fields"});
  expect_in(error_of(kStack, {"hardware.hbm.address_mapping=ro-ba-bg-co-ch-ch"}),
            {"'ch' appears 2 times"});
  expect_in(error_of(kStack, {"hardware.hbm.address_mapping=bank_group_interleve"}),
            {"not a field"});
}

TEST(HbmConfig, DetailedModeNeedsTheDram) {
  expect_in(error_of(kSeed, {"hardware.hbm.mode=detailed"}),
            {"hardware.hbm", "missing required key 'dram'"});
  expect_in(error_of(kSeed, {"hardware.hbm.address_mapping=channel_interleave"}),
            {"hardware.hbm.address_mapping", "needs the DRAM's organisation (hbm.dram)"});
  expect_in(error_of(kStack, {"hardware.hbm.mode=fast"}),
            {"hardware.hbm.mode", "simple, detailed"});
}

TEST(HbmConfig, BitMappedCountsArePowersOfTwoOrWholeDigits) {
  // Channels that are no power of two are a digit of the granule index: whole, never folded.
  EXPECT_EQ(load_config(kStack, kTrace, {"hardware.hbm.channels=12"})
                .hardware.hbm.geometry()
                .capacity_bytes(),
            12ull << 30);
  expect_in(error_of(kStack, {"hardware.hbm.channels=12",
                              "hardware.hbm.address_mapping=ro-ba-bg-co-pc-ch ch^ro"}),
            {"hardware.hbm.address_mapping", "'ch' has 12 values", "cannot be folded"});
  expect_in(error_of(kStack, {"hardware.hbm.dram.bank_groups=6"}),
            {"hardware.hbm.dram.bank_groups", "power of two"});
  expect_in(error_of(kStack, {"hardware.hbm.interleave=16B"}),
            {"hardware.hbm.interleave", "from the burst (32 B) to the row (1024 B)"});
  // A row count that is not a power of two must be the top field.
  EXPECT_EQ(load_config(kStack, kTrace, {"hardware.hbm.dram.rows=24576"})
                .hardware.hbm.geometry()
                .capacity_bytes(),
            24ull << 30);
  expect_in(error_of(kStack, {"hardware.hbm.dram.rows=24576",
                              "hardware.hbm.address_mapping=channel_contiguous"}),
            {"hardware.hbm.address_mapping", "needs the whole row field on top"});
}

TEST(HbmConfig, TimingsAreCheckedTogether) {
  expect_in(error_of(kStack, {"hardware.hbm.dram.timing.tRFC=4us"}),
            {"hardware.hbm.dram.timing.tRFC", "shorter than tREFI"});
  // Without refresh, tRFC and tREFI are not compared.
  load_config(kStack, kTrace,
              {"hardware.hbm.dram.timing.tRFC=4us", "hardware.hbm.dram.refresh=false"});
  expect_in(error_of(kStack, {"hardware.hbm.dram.timing.tRCD=10ns"}),
            {"hardware.hbm.dram.timing.tRCD", "unknown key 'tRCD'"});
  expect_in(error_of(kStack, {"hardware.hbm.dram.refresh=yes"}), {"true, false"});
}

TEST(HbmConfig, PseudoChannelsShareTheBandwidthInSimpleMode) {
  const RunConfig config = load_config(kSeed, kVectorAdd, {"hardware.hbm.pseudo_channels=2"});
  EXPECT_EQ(config.hardware.hbm.units(), 16u);
  EXPECT_FALSE(config.hardware.hbm.dram);
  // Simple mode keeps the DRAM's address map when it is given: switching modes changes timing.
  const RunConfig simple = load_config(kStack, kTrace, {"hardware.hbm.mode=simple"});
  EXPECT_EQ(simple.hardware.hbm.mode, HbmMode::simple);
  EXPECT_TRUE(simple.hardware.hbm.dram);
}

}  // namespace
}  // namespace ridgeline
