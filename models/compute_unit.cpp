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

Time ComputeUnitTiming::issue_time(std::uint64_t warp_instructions) const {
  const std::uint32_t rate = params_.warp_instructions_per_cycle;
  if (rate == 0) return Time{};
  return clock_.duration(Cycles{ceil_div(warp_instructions, std::uint64_t{rate})});
}

ComputeUnitTiming::Slot ComputeUnitTiming::execute(Time earliest, std::uint64_t flops,
                                                   DataType type, Time operand_time,
                                                   std::uint64_t warp_instructions) {
  const Time own = execution_time(flops, type);
  const Time issue = issue_time(warp_instructions);
  const Time span = max(own, max(operand_time, issue));
  Slot slot{max(earliest, free_), {}};
  slot.end = slot.start + span;
  free_ = slot.end;
  stats_.flops += flops;
  ++stats_.ops;
  stats_.warp_instructions += warp_instructions;
  stats_.busy += span;
  // The stretch goes to the longer of the two causes (the operands on a tie).
  (issue > operand_time ? stats_.issue_limited : stats_.operand_limited) += span - own;
  return slot;
}

}  // namespace ridgeline
