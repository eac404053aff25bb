// A run's busy time over time as fractions, bucket by bucket: the cores' loads in flight, their
// compute and their stores in flight (each the mean over the cores), the L2's port and the HBM's
// channels. `ridgeline run --busy-profile FILE` writes it; a graph's run asks it of every kernel
// it simulates and draws it under the kernel's slices in the graph's timeline, as the graph's
// per-unit tracks (a kernel's own per-unit timeline is tens to hundreds of megabytes, and a
// graph runs hundreds of kernels).
#pragma once

#include <cstddef>
#include <vector>

#include "models/units.hpp"
#include "sim/util/json.hpp"
#include "sim/waveforms/busy_timeline.hpp"

namespace ridgeline {

struct BusyProfile {
  double bucket_s = 0;  ///< the width of a bucket; the last one ends with the run
  double run_s = 0;     ///< the run's time, which the buckets cover
  // Per bucket, the fraction of the units' time they were busy: 0 to 1.
  std::vector<double> loads;    ///< the cores (or trace players) with a load in flight
  std::vector<double> compute;  ///< the cores computing
  std::vector<double> stores;   ///< the cores with a store in flight
  std::vector<double> l2_port;  ///< the L2's port transferring; empty without an L2
  std::vector<double> hbm;      ///< the HBM's channels transferring
};

/// The profile of a run of `run_time` that `busy` watched, a bucket for each of its own (at
/// most BusyTimeline::kBuckets; coarsened() merges them). `has_l2`: the machine has an L2.
BusyProfile busy_profile(const BusyTimeline& busy, Time run_time, bool has_l2);

/// `profile` in at most `most_buckets` buckets: runs of its own merged, each the mean of its
/// buckets weighted by the time they span.
BusyProfile coarsened(const BusyProfile& profile, std::size_t most_buckets);

Json busy_profile_json(const BusyProfile& profile);
/// The profile busy_profile_json wrote; throws nlohmann's exceptions on another document, and
/// std::runtime_error where its series differ in length.
BusyProfile read_busy_profile(const Json& json);

}  // namespace ridgeline
