// The SystemC side of the block scheduler: the interface cores pull blocks through, and the
// module that hands them out in the kernel's block order.
//
// The first placement is breadth-first, as a GPU's block scheduler places one block on each SM
// before it doubles up: when the grid is smaller than the machine holds, each core's first
// admission takes only its round-robin share (blocks / cores, one more for the first blocks %
// cores of them), so 32 blocks on 132 SMs run on 32 SMs, not stacked on the first few. A grid
// larger than the machine holds fills every core, and from then on a core that retires a block
// takes the next one.
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
  /// The most blocks core `core` takes in its first admission: its round-robin share of the grid.
  virtual std::uint64_t initial_share(std::uint32_t core) const = 0;
};

class BlockScheduler : public sc_core::sc_module, public BlockSourceIf {
 public:
  BlockScheduler(sc_core::sc_module_name name, std::uint64_t grid_rows, std::uint64_t grid_cols,
                 std::uint32_t cores, const BlockOrderParams& order = {})
      : sc_module(name),
        order_(grid_rows, grid_cols, order),
        blocks_(grid_rows * grid_cols),
        cores_(cores) {}

  std::optional<BlockCoord> next_block() override {
    auto block = order_.next();
    if (block) ++stats_.dispatched;
    return block;
  }
  std::uint64_t initial_share(std::uint32_t core) const override {
    if (cores_ == 0) return 0;
    return blocks_ / cores_ + (core < blocks_ % cores_ ? 1 : 0);
  }
  const SchedulerStats& stats() const { return stats_; }

 private:
  BlockOrder order_;
  std::uint64_t blocks_;  // in the grid
  std::uint32_t cores_;
  SchedulerStats stats_;
};

}  // namespace ridgeline
