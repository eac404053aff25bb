// What the block scheduler counts; the scheduler itself is scheduler_module.hpp.
#pragma once

#include <cstdint>

#include "models/stats.hpp"

namespace ridgeline {

struct SchedulerStats {
  std::uint64_t dispatched = 0;  ///< blocks handed out

  void visit(const StatVisitor& v) const {
    v("blocks_dispatched", as_stat(dispatched), "blocks", "thread blocks handed to cores");
  }
};

}  // namespace ridgeline
