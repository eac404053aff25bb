#include "models/compute_unit.hpp"

#include <cassert>

namespace ridgeline {

ComputeUnitTiming::ComputeUnitTiming(const ComputeUnitParams& params, Clock clock)
    : params_(params), clock_(clock) {}

Time ComputeUnitTiming::execution_time(std::uint64_t flops, DataType type) const {
  const std::uint64_t rate = params_.flops_per_cycle[index_of(type)];
  assert(rate > 0 && "configuration checks the compute unit supports the kernel's data type");
  return clock_.duration(Cycles{ceil_div(flops, rate)});
}

ComputeUnitTiming::Slot ComputeUnitTiming::execute(Time earliest, std::uint64_t flops,
                                                   DataType type, Time at_least) {
  const Time own = execution_time(flops, type);
  const Time span = max(own, at_least);
  Slot slot{max(earliest, free_), {}};
  slot.end = slot.start + span;
  free_ = slot.end;
  stats_.flops += flops;
  ++stats_.ops;
  stats_.busy += span;
  stats_.operand_limited += span - own;
  return slot;
}

}  // namespace ridgeline
