#include "models/sram.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace ridgeline {

SramTiming::SramTiming(const SramParams& params, Clock clock) : params_(params), clock_(clock) {
  assert(params.read_bytes_per_cycle > 0 && params.write_bytes_per_cycle > 0);
  assert(!params.shared_port || params.read_bytes_per_cycle == params.write_bytes_per_cycle);
}

bool SramTiming::allocate(std::uint64_t bytes) {
  if (bytes > params_.capacity_bytes - allocated_) return false;
  allocated_ += bytes;
  stats_.peak_allocated_bytes = std::max(stats_.peak_allocated_bytes, allocated_);
  return true;
}

void SramTiming::release(std::uint64_t bytes) {
  assert(bytes <= allocated_);
  allocated_ -= bytes;
}

Time SramTiming::read_time(std::uint64_t bytes) const {
  return clock_.duration(Cycles{ceil_div(bytes, params_.read_bytes_per_cycle)});
}

Time SramTiming::read_start(Time earliest, std::uint64_t bytes) const {
  if (!params_.shared_port) return max(earliest, read_free_);
  return first_gap(earliest, read_time(bytes));
}

void SramTiming::occupy_read(Time start, std::uint64_t bytes) {
  const Time span = read_time(bytes);
  if (params_.shared_port) {
    book(start, span);
  } else {
    assert(start >= read_free_);
    read_free_ = start + span;
  }
  stats_.read_busy += span;
  stats_.read_bytes += bytes;
  if (observing(observer_)) report(UnitKind::sram_read, start, start + span, bytes);
}

Time SramTiming::write_streaming(Time issued, Time arrival_end, std::uint64_t bytes) {
  const Time span = clock_.duration(Cycles{ceil_div(bytes, params_.write_bytes_per_cycle)});
  Time start;
  if (params_.shared_port) {
    booked_.erase(booked_.begin(), std::find_if(booked_.begin(), booked_.end(),
                                                [&](const Booking& b) { return b.end > issued; }));
    start = first_gap(max(arrival_end - span, issued), span);
    book(start, span);
  } else {
    start = max(arrival_end - span, write_free_);
    write_free_ = start + span;
  }
  stats_.write_busy += span;
  stats_.write_bytes += bytes;
  if (observing(observer_)) report(UnitKind::sram_write, start, start + span, bytes);
  return start + span;
}

Time SramTiming::first_gap(Time earliest, Time span) const {
  Time start = earliest;
  for (const Booking& b : booked_) {
    if (b.end <= start) continue;
    if (start + span <= b.start) break;  // fits before this booking
    start = b.end;
  }
  return start;
}

void SramTiming::book(Time start, Time span) {
  const auto after = std::find_if(booked_.begin(), booked_.end(),
                                  [&](const Booking& b) { return b.start >= start; });
  assert(after == booked_.end() || start + span <= after->start);
  assert(after == booked_.begin() || std::prev(after)->end <= start);
  // Adjacent bookings merge, which keeps the calendar short when transfers follow each other.
  if (after != booked_.begin() && std::prev(after)->end == start) {
    std::prev(after)->end = start + span;
    return;
  }
  booked_.insert(after, Booking{start, start + span});
}

void SramTiming::report(UnitKind port, Time start, Time end, std::uint64_t bytes) const {
  Activity a(port, core_, start, start, end);
  a.bytes = bytes;
  a.write = port == UnitKind::sram_write;
  observer_->activity(a);
}

}  // namespace ridgeline
