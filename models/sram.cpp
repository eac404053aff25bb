#include "models/sram.hpp"

#include <algorithm>
#include <cassert>

namespace ridgeline {

SramTiming::SramTiming(const SramParams& params, Clock clock) : params_(params), clock_(clock) {
  assert(params.read_bytes_per_cycle > 0 && params.write_bytes_per_cycle > 0);
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

void SramTiming::occupy_read(Time start, std::uint64_t bytes) {
  assert(start >= read_free_);
  const Time span = read_time(bytes);
  read_free_ = start + span;
  stats_.read_busy += span;
  stats_.read_bytes += bytes;
  if (observing(observer_)) report(UnitKind::sram_read, start, read_free_, bytes);
}

Time SramTiming::write_streaming(Time arrival_end, std::uint64_t bytes) {
  const Time span = clock_.duration(Cycles{ceil_div(bytes, params_.write_bytes_per_cycle)});
  const Time start = max(arrival_end - span, write_free_);
  write_free_ = start + span;
  stats_.write_busy += span;
  stats_.write_bytes += bytes;
  if (observing(observer_)) report(UnitKind::sram_write, start, write_free_, bytes);
  return write_free_;
}

void SramTiming::report(UnitKind port, Time start, Time end, std::uint64_t bytes) const {
  Activity a(port, core_, start, start, end);
  a.bytes = bytes;
  a.write = port == UnitKind::sram_write;
  observer_->activity(a);
}

}  // namespace ridgeline
