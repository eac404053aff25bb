// Hands a kernel's thread blocks to cores, one at a time, in a fixed order.
#pragma once

#include <cstdint>
#include <optional>
#include <systemc>

#include "models/program.hpp"
#include "models/stats.hpp"

namespace ridgeline {

/// What a core asks for when it has room for another block.
class BlockSourceIf : public virtual sc_core::sc_interface {
 public:
  /// The next block to run, or nothing once every block has been handed out.
  virtual std::optional<BlockCoord> next_block() = 0;
};

struct SchedulerStats {
  std::uint64_t dispatched = 0;  ///< blocks handed out

  void visit(const StatVisitor& v) const {
    v("blocks_dispatched", as_stat(dispatched), "blocks", "thread blocks handed to cores");
  }
};

/// Plain core: the order in which blocks of a grid are handed out (row-major).
class BlockOrder {
 public:
  BlockOrder(std::uint64_t grid_rows, std::uint64_t grid_cols)
      : rows_(grid_rows), cols_(grid_cols) {}

  std::optional<BlockCoord> next() {
    if (next_ >= rows_ * cols_) return std::nullopt;
    const std::uint64_t index = next_++;
    return BlockCoord{index / cols_, index % cols_};
  }
  std::uint64_t handed_out() const { return next_; }

 private:
  std::uint64_t rows_;
  std::uint64_t cols_;
  std::uint64_t next_ = 0;
};

class BlockScheduler : public sc_core::sc_module, public BlockSourceIf {
 public:
  BlockScheduler(sc_core::sc_module_name name, std::uint64_t grid_rows, std::uint64_t grid_cols)
      : sc_module(name), order_(grid_rows, grid_cols) {}

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
