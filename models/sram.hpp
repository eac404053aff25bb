// On-chip SRAM of one core (shared memory / scratchpad): capacity and port bandwidth.
//
// Capacity is allocated per resident thread block (its input buffers); an allocation that does not
// fit is refused, which is what limits occupancy. Reads (compute fetching operands) and writes
// (loads landing) each have a port of a fixed number of bytes per cycle, reserved first come
// first served like any other bandwidth resource; or they share one port (one set of banks, as
// NVIDIA's shared memory is). A shared port is a calendar of booked transfers: a write is booked
// when its load is issued, at the time its data will arrive, so it usually lies ahead of the reads
// compute books as it starts; a read takes the first gap long enough, before or after the writes
// already booked, and a write likewise the first gap from its data's arrival.
#pragma once

#include <cstdint>
#include <vector>

#include "models/activity.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct SramParams {
  std::uint64_t capacity_bytes = 0;         ///< bytes per core
  std::uint64_t read_bytes_per_cycle = 0;   ///< read port, bytes per core cycle
  std::uint64_t write_bytes_per_cycle = 0;  ///< write port, bytes per core cycle
  /// One port for reads and writes (the two widths are then equal): each transfer of either
  /// kind takes its turn on it.
  bool shared_port = false;
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
  /// The earliest time at or after `earliest` a read of `bytes` can start: when the read port is
  /// free, or on a shared port the first gap of read_time(bytes) among the booked transfers.
  Time read_start(Time earliest, std::uint64_t bytes) const;
  /// Occupies the read port over [start, start + read_time(bytes)); start is a read_start().
  void occupy_read(Time start, std::uint64_t bytes);

  /// Data streaming in that finishes arriving at `arrival_end`, for a load issued at `issued`
  /// (now): the write port streams it as it comes, so the write ends at arrival_end unless the
  /// port is busy or slower. Returns its end. On a shared port it starts no earlier than the
  /// load's issue, and bookings that ended before it are forgotten (none later can reach them).
  Time write_streaming(Time issued, Time arrival_end, std::uint64_t bytes);

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
  // The shared port's first gap of `span` at or after `earliest`, and booking it.
  Time first_gap(Time earliest, Time span) const;
  void book(Time start, Time span);

  std::uint64_t allocated_ = 0;
  Time read_free_;
  Time write_free_;
  struct Booking {
    Time start, end;
  };
  std::vector<Booking> booked_;  // shared port: in time order, disjoint, none ended before now
  ActivityObserver* observer_ = nullptr;
  std::uint32_t core_ = 0;
};

}  // namespace ridgeline
