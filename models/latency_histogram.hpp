// A distribution of latencies in bounded memory: exact count, sum, minimum and maximum, and
// percentiles from log-linear buckets (HdrHistogram's layout): values below 256 ps are exact,
// larger ones share a bucket with values less than 1/128 (0.8 %) apart. A trace of millions of
// accesses costs a few kilobytes, not a value per access.
#pragma once

#include <cstdint>
#include <vector>

#include "models/units.hpp"

namespace ridgeline {

class LatencyHistogram {
 public:
  /// Sub-bucket bits: each power of two above 2^kSubBucketBits is cut into 2^(kSubBucketBits-1)
  /// buckets, so a bucket spans less than 2^-(kSubBucketBits-1) of its values.
  static constexpr std::uint32_t kSubBucketBits = 8;

  void add(Time latency);
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return count_; }
  Time min() const { return Time::from_ps(count_ ? min_ps_ : 0); }
  Time max() const { return Time::from_ps(max_ps_); }
  /// The exact mean, rounded to the picosecond.
  Time mean() const { return mean_of(sum_ps_, count_); }
  /// `sum_ps` over `count`, rounded to the picosecond (0 for none), as mean() rounds: for sums
  /// kept without a histogram.
  static Time mean_of(unsigned __int128 sum_ps, std::uint64_t count);
  /// The smallest bucket bound that at least `fraction` (0 to 1) of the values do not exceed:
  /// at most 0.8 % above the exact percentile, never above the maximum. 0 when empty.
  Time percentile(double fraction) const;

 private:
  static std::uint32_t bucket_of(std::uint64_t ps);
  static std::uint64_t upper_bound_of(std::uint32_t bucket);

  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  unsigned __int128 sum_ps_ = 0;
  std::uint64_t min_ps_ = 0;
  std::uint64_t max_ps_ = 0;
};

}  // namespace ridgeline
