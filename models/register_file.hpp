// The register file of one core: capacity for the accumulators of its resident thread blocks.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "models/stat_fields.hpp"

namespace ridgeline {

struct RegisterFileParams {
  std::uint64_t capacity_bytes = 0;  ///< bytes per core
};

struct RegisterFileStats : StatFields<RegisterFileStats> {
  std::uint64_t peak_allocated_bytes = 0;  ///< most bytes allocated at once

  static constexpr auto fields() {
    return std::make_tuple(
        counter("peak_allocated_bytes", &RegisterFileStats::peak_allocated_bytes, "bytes",
                Merge::max, "most register-file bytes allocated to resident blocks at once"));
  }
};

class RegisterFileTiming {
 public:
  explicit RegisterFileTiming(const RegisterFileParams& params) : params_(params) {}

  /// Reserves `bytes`; false (and nothing reserved) when they do not fit.
  bool allocate(std::uint64_t bytes) {
    if (bytes > params_.capacity_bytes - allocated_) return false;
    allocated_ += bytes;
    stats_.peak_allocated_bytes = std::max(stats_.peak_allocated_bytes, allocated_);
    return true;
  }
  void release(std::uint64_t bytes) {
    assert(bytes <= allocated_);
    allocated_ -= bytes;
  }
  std::uint64_t allocated_bytes() const { return allocated_; }
  const RegisterFileParams& params() const { return params_; }
  const RegisterFileStats& stats() const { return stats_; }

 private:
  RegisterFileParams params_;
  RegisterFileStats stats_;
  std::uint64_t allocated_ = 0;
};

}  // namespace ridgeline
