// On-chip SRAM of one core (shared memory / scratchpad): capacity and port bandwidth.
//
// Capacity is allocated per resident thread block (its input buffers); an allocation that does not
// fit is refused, which is what limits occupancy. Reads (compute fetching operands) and writes
// (loads landing) each have a port of a fixed number of bytes per cycle, reserved first come
// first served like any other bandwidth resource.
#pragma once

#include <cstdint>

#include "models/activity.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct SramParams {
  std::uint64_t capacity_bytes = 0;         ///< bytes per core
  std::uint64_t read_bytes_per_cycle = 0;   ///< read port, bytes per core cycle
  std::uint64_t write_bytes_per_cycle = 0;  ///< write port, bytes per core cycle
};

struct SramStats : StatFields<SramStats> {
  std::uint64_t read_bytes = 0;            ///< operand bytes read by compute
  std::uint64_t write_bytes = 0;           ///< bytes written by loads
  Time read_busy;                          ///< time the read port was transferring
  Time write_busy;                         ///< time the write port was transferring
  std::uint64_t peak_allocated_bytes = 0;  ///< most bytes allocated at once

  static constexpr auto fields() {
    return std::make_tuple(
        counter("read_bytes", &SramStats::read_bytes, "bytes", Merge::sum,
                "operand bytes compute read from SRAM"),
        counter("write_bytes", &SramStats::write_bytes, "bytes", Merge::sum,
                "bytes loads wrote into SRAM"),
        counter("read_busy_s", &SramStats::read_busy, "s", Merge::sum,
                "time the read port was transferring"),
        counter("write_busy_s", &SramStats::write_busy, "s", Merge::sum,
                "time the write port was transferring"),
        counter("peak_allocated_bytes", &SramStats::peak_allocated_bytes, "bytes", Merge::max,
                "most SRAM allocated to resident blocks at once"));
  }
};

class SramTiming {
 public:
  SramTiming(const SramParams& params, Clock clock);

  /// Reserves `bytes` of capacity; false (and nothing reserved) when they do not fit.
  bool allocate(std::uint64_t bytes);
  void release(std::uint64_t bytes);
  std::uint64_t allocated_bytes() const { return allocated_; }

  /// Time the read port needs for `bytes`.
  Time read_time(std::uint64_t bytes) const;
  Time read_free() const { return read_free_; }
  /// Occupies the read port over [start, start + read_time(bytes)); start >= read_free().
  void occupy_read(Time start, std::uint64_t bytes);

  /// Data streaming in that finishes arriving at `arrival_end`: the write port streams it as it
  /// comes, so the write ends at arrival_end unless the port is busy or slower. Returns its end.
  Time write_streaming(Time arrival_end, std::uint64_t bytes);

  const SramParams& params() const { return params_; }
  const SramStats& stats() const { return stats_; }

  /// Tells `observer` (null: nobody) each port's transfers, as core `core`'s SRAM.
  void observe(ActivityObserver* observer, std::uint32_t core) {
    observer_ = observer;
    core_ = core;
  }

 private:
  void report(UnitKind port, Time start, Time end, std::uint64_t bytes) const;

  SramParams params_;
  Clock clock_;
  SramStats stats_;
  std::uint64_t allocated_ = 0;
  Time read_free_;
  Time write_free_;
  ActivityObserver* observer_ = nullptr;
  std::uint32_t core_ = 0;
};

}  // namespace ridgeline
