#include "models/latency_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {
constexpr std::uint32_t kSub = LatencyHistogram::kSubBucketBits;
constexpr std::uint64_t kHalf = std::uint64_t{1} << (kSub - 1);  // sub-buckets per power of two
}  // namespace

std::uint32_t LatencyHistogram::bucket_of(std::uint64_t ps) {
  if (ps < (std::uint64_t{1} << kSub)) return static_cast<std::uint32_t>(ps);  // exact
  const auto top_bit = static_cast<std::uint32_t>(63 - __builtin_clzll(ps));
  const std::uint32_t shift = top_bit - (kSub - 1);  // >= 1; keeps kSub significant bits
  return static_cast<std::uint32_t>(shift * kHalf + (ps >> shift));
}

std::uint64_t LatencyHistogram::upper_bound_of(std::uint32_t bucket) {
  if (bucket < (std::uint64_t{1} << kSub)) return bucket;
  const std::uint64_t shift = bucket / kHalf - 1;
  const std::uint64_t sub = bucket - shift * kHalf;  // in [kHalf, 2 kHalf)
  return ((sub + 1) << shift) - 1;
}

void LatencyHistogram::add(Time latency) {
  const std::uint64_t ps = latency.ps();
  const std::uint32_t bucket = bucket_of(ps);
  if (bucket >= counts_.size()) counts_.resize(bucket + 1, 0);
  ++counts_[bucket];
  min_ps_ = count_ == 0 ? ps : std::min(min_ps_, ps);
  max_ps_ = std::max(max_ps_, ps);
  sum_ps_ += ps;
  ++count_;
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  if (other.counts_.size() > counts_.size()) counts_.resize(other.counts_.size(), 0);
  for (std::size_t i = 0; i < other.counts_.size(); ++i) counts_[i] += other.counts_[i];
  min_ps_ = count_ == 0 ? other.min_ps_ : std::min(min_ps_, other.min_ps_);
  max_ps_ = std::max(max_ps_, other.max_ps_);
  sum_ps_ += other.sum_ps_;
  count_ += other.count_;
}

Time LatencyHistogram::mean_of(unsigned __int128 sum_ps, std::uint64_t count) {
  if (count == 0) return Time{};
  return Time::from_ps(static_cast<std::uint64_t>((sum_ps + count / 2) / count));
}

Time LatencyHistogram::percentile(double fraction) const {
  if (count_ == 0) return Time{};
  const double wanted = std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(count_));
  const std::uint64_t rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
  std::uint64_t seen = 0;
  for (std::uint32_t bucket = 0; bucket < counts_.size(); ++bucket) {
    seen += counts_[bucket];
    if (seen >= rank) return Time::from_ps(std::min(upper_bound_of(bucket), max_ps_));
  }
  return Time::from_ps(max_ps_);
}

}  // namespace ridgeline
