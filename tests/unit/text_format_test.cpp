// Quantities as the text and HTML reports print them: the unit that fits, enough digits, no noise.
#include "sim/util/text_format.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "models/units.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {
namespace {

TEST(TextFormat, DurationsTakeTheUnitThatFitsTheirSize) {
  EXPECT_EQ(duration(10.097e-6), "10.097 us");          // not 0.010097 ms
  EXPECT_EQ(duration(3.4e-8), "34 ns");                 // not 0.000034 ms
  EXPECT_EQ(duration(6.8719476736e-3), "6.871948 ms");  // the seed note's T_compute, as printed
  EXPECT_EQ(duration(8.657043456e-3), "8.657043 ms");   // and t = 64's T_memory
  EXPECT_EQ(duration(0.549822922752), "549.822923 ms");  // no reuse's T_memory
  EXPECT_EQ(duration(2.5e-12), "2.5 ps");
  EXPECT_EQ(duration(1.5), "1.5 s");
  EXPECT_EQ(duration(1500), "1500 s");  // no kiloseconds
  EXPECT_EQ(duration(0), "0 s");
}

TEST(TextFormat, RatesTakeAnSiPrefix) {
  EXPECT_EQ(engineering(20e12, "FLOP/s"), "20 TFLOP/s");
  EXPECT_EQ(engineering(3.35e12, "B/s"), "3.35 TB/s");
  EXPECT_EQ(engineering(61.83936e12, "FLOP/s"), "61.83936 TFLOP/s");
  EXPECT_EQ(engineering(19.7470329e12, "FLOP/s"), "19.747033 TFLOP/s");
  EXPECT_EQ(engineering(1.0526191e-6, "s"), "1.052619 us");
  EXPECT_EQ(engineering(819.2e9, "B/s"), "819.2 GB/s");
  EXPECT_EQ(engineering(1.25e9, "Hz"), "1.25 GHz");
  EXPECT_EQ(engineering(0, "B/s"), "0 B/s");
}

// Seconds are picoseconds divided by 1e12, the correctly rounded quotient: a span that is a short
// decimal number of seconds prints (shortest round trip, as the JSON writes it) as that decimal.
TEST(TextFormat, SecondsOfAShortDecimalPrintAsIt) {
  EXPECT_EQ(nlohmann::json(Time::from_ps(802'311'912).seconds()).dump(), "0.000802311912");
  EXPECT_EQ(nlohmann::json(Time::from_ps(6'959'980'000).seconds()).dump(), "0.00695998");
  EXPECT_EQ(nlohmann::json(Time::from_ps(1).seconds()).dump(), "1e-12");
}

TEST(Wording, CountsTakeTheirNounsInTheRightNumber) {
  EXPECT_EQ(counted(1, "accumulator"), "1 accumulator");
  EXPECT_EQ(counted(2, "operand fragment"), "2 operand fragments");
  EXPECT_EQ(counted(0, "stage"), "0 stages");
}

}  // namespace
}  // namespace ridgeline
