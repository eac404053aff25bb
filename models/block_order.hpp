// The order in which a kernel's thread blocks are handed to cores: the scheduler's plain core.
//
// The order decides which blocks run at the same time, and so which input tiles they share while
// those are still in a cache: row-major runs a few block rows across all columns (every column's
// B panel at once), column-major the transpose, and grouped order walks down a group of G block
// rows before moving one column right (Triton's GROUP_SIZE_M), so the blocks running together
// cover a squarer patch of C and read fewer distinct A and B tiles.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "models/program.hpp"

namespace ridgeline {

enum class BlockOrderKind : std::uint8_t { row_major, column_major, grouped };

inline std::string_view name_of(BlockOrderKind kind) {
  switch (kind) {
    case BlockOrderKind::row_major:
      return "row_major";
    case BlockOrderKind::column_major:
      return "column_major";
    case BlockOrderKind::grouped:
      return "grouped";
  }
  return "";
}

struct BlockOrderParams {
  BlockOrderKind kind = BlockOrderKind::row_major;
  std::uint64_t group = 1;  ///< grouped: block rows a group spans (the last group may be shorter)
};

class BlockOrder {
 public:
  BlockOrder(std::uint64_t grid_rows, std::uint64_t grid_cols, const BlockOrderParams& order = {})
      : rows_(grid_rows), cols_(grid_cols), order_(order) {}

  std::optional<BlockCoord> next() {
    if (next_ >= rows_ * cols_) return std::nullopt;
    return at(next_++);
  }
  std::uint64_t handed_out() const { return next_; }

  /// The block handed out `index`-th (0-based).
  BlockCoord at(std::uint64_t index) const {
    switch (order_.kind) {
      case BlockOrderKind::row_major:
        break;
      case BlockOrderKind::column_major:
        return BlockCoord{index % rows_, index / rows_};
      case BlockOrderKind::grouped: {
        const std::uint64_t per_group = order_.group * cols_;
        const std::uint64_t first_row = index / per_group * order_.group;
        const std::uint64_t group_rows = std::min(order_.group, rows_ - first_row);
        const std::uint64_t in_group = index % per_group;
        return BlockCoord{first_row + in_group % group_rows, in_group / group_rows};
      }
    }
    return BlockCoord{index / cols_, index % cols_};
  }

 private:
  std::uint64_t rows_;
  std::uint64_t cols_;
  BlockOrderParams order_;
  std::uint64_t next_ = 0;
};

}  // namespace ridgeline
