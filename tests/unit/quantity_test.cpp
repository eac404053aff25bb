#include "sim/config/quantity.hpp"

#include <gtest/gtest.h>

#include "workloads/wording.hpp"

namespace ridgeline {
namespace {

TEST(Quantity, DecimalAndBinarySizesAsTheSeedUsesThem) {
  EXPECT_EQ(parse_quantity("192KiB", Dimension::bytes), 192u * 1024);
  EXPECT_EQ(parse_quantity("1MiB", Dimension::bytes), 1u << 20);
  EXPECT_EQ(parse_quantity("1GB", Dimension::bytes), 1'000'000'000u);
  EXPECT_EQ(parse_quantity("1.5KiB", Dimension::bytes), 1536u);
  EXPECT_EQ(parse_quantity("256B", Dimension::bytes), 256u);
}

TEST(Quantity, BandwidthIsExactNotRounded) {
  EXPECT_EQ(parse_quantity("1TB/s", Dimension::bandwidth), 1'000'000'000'000u);
  EXPECT_EQ(parse_quantity("819.2GB/s", Dimension::bandwidth), 819'200'000'000u);
  EXPECT_EQ(parse_quantity("3.35TB/s", Dimension::bandwidth), 3'350'000'000'000u);
  EXPECT_EQ(parse_quantity("1e12B/s", Dimension::bandwidth), 1'000'000'000'000u);
}

TEST(Quantity, TimeInPicosecondsAndFrequencyInHertz) {
  EXPECT_EQ(parse_quantity("500ns", Dimension::time), 500'000u);
  EXPECT_EQ(parse_quantity("0.5ns", Dimension::time), 500u);
  EXPECT_EQ(parse_quantity("2us", Dimension::time), 2'000'000u);
  EXPECT_EQ(parse_quantity("1.5GHz", Dimension::frequency), 1'500'000'000u);
  EXPECT_EQ(parse_quantity("1.98GHz", Dimension::frequency), 1'980'000'000u);
  EXPECT_EQ(parse_quantity("125FLOP/cycle", Dimension::flops_per_cycle), 125u);
  EXPECT_EQ(parse_quantity("128B/cycle", Dimension::bytes_per_cycle), 128u);
  EXPECT_EQ(parse_quantity("4cycles", Dimension::cycles), 4u);
  EXPECT_EQ(parse_quantity("1cycle", Dimension::cycles), 1u);
  EXPECT_EQ(parse_quantity(" 1 TB/s ", Dimension::bandwidth), 1'000'000'000'000u);
}

void expect_refused(const char* text, Dimension dimension, const std::string& rule_part) {
  try {
    parse_quantity(text, dimension);
    ADD_FAILURE() << text << " was accepted";
  } catch (const QuantityError& error) {
    EXPECT_NE(std::string(error.what()).find(rule_part), std::string::npos)
        << text << ": " << error.what();
    EXPECT_FALSE(error.fix().empty()) << text;
  }
}

TEST(Quantity, UnitTyposAndWrongDimensionsAreRefusedWithTheRule) {
  expect_refused("1TB", Dimension::bandwidth, "'TB' is a unit of size");
  expect_refused("1 TBs", Dimension::bandwidth, "unknown unit 'TBs'");
  expect_refused("GHz5", Dimension::frequency, "expected a frequency");
  expect_refused("1000", Dimension::bytes, "needs a unit");
  expect_refused("-1TB/s", Dimension::bandwidth, "non-negative number");
  expect_refused("nan", Dimension::time, "expected a time");
  expect_refused("0.1B", Dimension::bytes, "not a whole number of bytes");
  expect_refused("0.1ps", Dimension::time, "not a whole number of picoseconds");
  expect_refused("99999999999TB/s", Dimension::bandwidth, "too large");
  expect_refused("1e40B", Dimension::bytes, "too large");
}

TEST(Quantity, CountsAreWholeNumbersWithoutSign) {
  EXPECT_EQ(parse_count("4096"), 4096u);
  EXPECT_THROW(parse_count("-4"), QuantityError);
  EXPECT_THROW(parse_count("4.5"), QuantityError);
  EXPECT_THROW(parse_count("99999999999999999999999"), QuantityError);
  EXPECT_THROW(parse_count(""), QuantityError);
}

TEST(Quantity, FormatsBytesInTheSeedsUnits) {
  EXPECT_EQ(format_bytes(12 * 1024), "12 KiB");
  EXPECT_EQ(format_bytes(192 * 1024), "192 KiB");
  EXPECT_EQ(format_bytes(1 << 20), "1 MiB");
  EXPECT_EQ(format_bytes(1000), "1000 B");
}

}  // namespace
}  // namespace ridgeline
