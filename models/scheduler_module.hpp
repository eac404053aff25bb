// The SystemC side of the block scheduler: the interface cores pull blocks through, and the
// module that hands them out in the kernel's block order.
#pragma once

#include <cstdint>
#include <optional>
#include <systemc>

#include "models/block_order.hpp"
#include "models/program.hpp"
#include "models/scheduler.hpp"

namespace ridgeline {

/// What a core asks for when it has room for another block.
class BlockSourceIf : public virtual sc_core::sc_interface {
 public:
  /// The next block to run, or nothing once every block has been handed out.
  virtual std::optional<BlockCoord> next_block() = 0;
};

class BlockScheduler : public sc_core::sc_module, public BlockSourceIf {
 public:
  BlockScheduler(sc_core::sc_module_name name, std::uint64_t grid_rows, std::uint64_t grid_cols,
                 const BlockOrderParams& order = {})
      : sc_module(name), order_(grid_rows, grid_cols, order) {}

  std::optional<BlockCoord> next_block() override {
    auto block = order_.next();
    if (block) ++stats_.dispatched;
    return block;
  }
  const SchedulerStats& stats() const { return stats_; }

 private:
  BlockOrder order_;
  SchedulerStats stats_;
};

}  // namespace ridgeline
