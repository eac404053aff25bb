// What the block scheduler counts; the scheduler itself is scheduler_module.hpp.
#pragma once

#include <cstdint>

#include "models/stat_fields.hpp"

namespace ridgeline {

struct SchedulerStats : StatFields<SchedulerStats> {
  std::uint64_t dispatched = 0;  ///< blocks handed out

  static constexpr auto fields() {
    return std::make_tuple(counter("blocks_dispatched", &SchedulerStats::dispatched, "blocks",
                                   Merge::sum, "thread blocks handed to cores"));
  }
};

}  // namespace ridgeline
