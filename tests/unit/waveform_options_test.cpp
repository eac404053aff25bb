// Trace selection (hierarchy globs, levels), the default rate window, and bad trace options.
#include "sim/waveforms/waveform_options.hpp"

#include <gtest/gtest.h>

#include "sim/util/config_error.hpp"

namespace ridgeline {
namespace {

TEST(WaveformOptions, GlobsMatchAnyCharactersAndOne) {
  struct Match {
    const char* pattern;
    const char* text;
    bool matches;
  };
  for (const Match& m : std::vector<Match>{
           {"top.core0.*", "top.core0.compute.busy", true},
           {"top.*.compute.busy", "top.core12.compute.busy", true},
           {"top.core?.dma.busy", "top.core7.dma.busy", true},
           {"top.core?.dma.busy", "top.core17.dma.busy", false},
           {"*", "anything", true},
           {"top.hbm", "top.hbm", true},
           {"top.hbm", "top.hbm.ch0.busy", false},
           {"top.core1*", "top.core0.compute.busy", false},
           {"*busy", "top.core0.sram.read.busy", true},
           {"*busy", "top.core0.dma.queued_requests", false},
           {"a*b*c", "axxbyyc", true},
           {"a*b*c", "axxbyy", false},
       }) {
    EXPECT_EQ(glob_match(m.pattern, m.text), m.matches) << m.pattern << " " << m.text;
  }
}

TEST(WaveformOptions, APatternSelectsASignalOrAnyScopeAboveIt) {
  WaveformOptions options;
  EXPECT_TRUE(options.selects("top.core0.compute.busy", WaveformLevel::busy));  // no pattern: all
  options.patterns = {"top.core0", "top.*.ch3"};
  EXPECT_TRUE(options.selects("top.core0.compute.busy", WaveformLevel::busy));
  EXPECT_TRUE(options.selects("top.core0.dma.in_flight_bytes", WaveformLevel::counters));
  EXPECT_FALSE(options.selects("top.core01.compute.busy", WaveformLevel::busy));
  EXPECT_TRUE(options.selects("top.hbm.ch3.busy", WaveformLevel::busy));
  EXPECT_FALSE(options.selects("top.hbm.ch4.busy", WaveformLevel::busy));
  options.level = WaveformLevel::busy;
  EXPECT_FALSE(options.selects("top.core0.dma.in_flight_bytes", WaveformLevel::counters));
  EXPECT_FALSE(options.selects("top.core0.compute.flop_per_s", WaveformLevel::rates));
}

TEST(WaveformOptions, RateWindowIsAboutAThousandthOfTheIdealTime) {
  EXPECT_EQ(rate_window_for(Time::from_ps(6'871'948'000)).ps(), 5'000'000u);  // 6.87 ms: 5 us
  EXPECT_EQ(rate_window_for(Time::from_ps(17'246'978'048)).ps(), 10'000'000u);
  EXPECT_EQ(rate_window_for(Time::from_ps(2'000'000)).ps(), 2'000u);
  EXPECT_EQ(rate_window_for(Time::from_ps(1'326'288)).ps(), 1'000u);  // never below 1 ns
  EXPECT_EQ(rate_window_for(Time{}).ps(), 1'000u);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(WaveformOptions, BadValuesNameTheOptionTheValueAndTheFix) {
  EXPECT_EQ(error_of([] { parse_trace_level("--trace-level", "loud"); }),
            "--trace-level: value \"loud\": not a level of detail (use busy (1), counters (2) or "
            "rates (3))");
  EXPECT_EQ(parse_trace_level("--trace-level", "2"), WaveformLevel::counters);
  EXPECT_EQ(parse_trace_time("--trace-start", "1.5us").ps(), 1'500'000u);
  const std::string time = error_of([] { parse_trace_time("--trace-end", "10 parsecs"); });
  EXPECT_EQ(time.rfind("--trace-end: value \"10 parsecs\": ", 0), 0u) << time;
  EXPECT_EQ(parse_trace_size("--trace-limit", "64MiB"), 64u << 20);
  WaveformOptions options;
  options.start = Time::from_ps(5000);
  options.end = Time::from_ps(5000);
  EXPECT_NE(error_of([&] { check_trace_options(options); }).find("must end after it starts"),
            std::string::npos);
  options.end.reset();
  options.limit_bytes = 100;
  EXPECT_NE(error_of([&] { check_trace_options(options); }).find("at least 4KiB"),
            std::string::npos);
}

}  // namespace
}  // namespace ridgeline
