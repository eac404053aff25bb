// The latency histogram: exact count, mean, minimum and maximum; percentiles within 0.8 %.
#include "models/latency_histogram.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (std::uint64_t ps = 1; ps <= 100; ++ps) h.add(Time::from_ps(ps));
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.min().ps(), 1u);
  EXPECT_EQ(h.max().ps(), 100u);
  EXPECT_EQ(h.mean().ps(), 51u);  // 50.5 rounds up
  EXPECT_EQ(h.percentile(0.5).ps(), 50u);
  EXPECT_EQ(h.percentile(0.9).ps(), 90u);
  EXPECT_EQ(h.percentile(0.99).ps(), 99u);
  EXPECT_EQ(h.percentile(1.0).ps(), 100u);
}

TEST(LatencyHistogram, LargeValuesWithinOnePart128) {
  // 1 to 1000 ns in steps of 1 ns: the exact p-th percentile is p x 1000 ns.
  LatencyHistogram h;
  for (std::uint64_t ns = 1; ns <= 1000; ++ns) h.add(Time::from_ps(ns * 1000));
  EXPECT_EQ(h.mean().ps(), 500'500u);
  for (double p : {0.5, 0.9, 0.99}) {
    const double exact = p * 1e6;
    const double got = static_cast<double>(h.percentile(p).ps());
    EXPECT_GE(got, exact) << p;
    EXPECT_LE(got, exact * (1 + 1.0 / 128)) << p;
  }
  EXPECT_EQ(h.percentile(1.0).ps(), 1'000'000u);  // never above the maximum
}

TEST(LatencyHistogram, MergeEqualsAddingEverything) {
  LatencyHistogram a, b, all;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    const Time t = Time::from_ps(1000 + i * i % 777'777);
    (i % 3 ? a : b).add(t);
    all.add(t);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.mean(), all.mean());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  for (double p : {0.1, 0.5, 0.9, 0.99}) EXPECT_EQ(a.percentile(p), all.percentile(p));
}

TEST(LatencyHistogram, EmptyIsZero) {
  const LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.mean().ps(), 0u);
  EXPECT_EQ(h.percentile(0.5).ps(), 0u);
}

}  // namespace
}  // namespace ridgeline
