// The order in which a kernel's thread blocks are handed to cores: the scheduler's plain core.
//
// The order decides which blocks run at the same time, and so which input tiles they share while
// those are still in a cache: row-major runs a few block rows across all columns (every column's
// B panel at once), column-major the transpose, and grouped order walks down a group of G block
// rows before moving one column right (Triton's GROUP_SIZE_M), so the blocks running together
// cover a squarer patch of C and read fewer distinct A and B tiles.
//
// A kernel of thread-block clusters hands its clusters out whole: the order walks the grid of
// clusters, and the blocks of each cluster follow one another (row by row within it), as a GPU
// launches a cluster's blocks together.
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
  /// Blocks of a cluster along the rows and the columns (1 x 1: no clusters). They divide the
  /// grid, and `group` is a multiple of cluster_rows (check_rules of the workload).
  std::uint64_t cluster_rows = 1;
  std::uint64_t cluster_cols = 1;
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
    const std::uint64_t cluster_rows = order_.cluster_rows;
    const std::uint64_t cluster_cols = order_.cluster_cols;
    const std::uint64_t cluster_blocks = cluster_rows * cluster_cols;
    if (cluster_blocks == 1) return in_order(index, rows_, cols_, order_.group);
    const BlockCoord cluster = in_order(index / cluster_blocks, rows_ / cluster_rows,
                                        cols_ / cluster_cols, order_.group / cluster_rows);
    const std::uint64_t member = index % cluster_blocks;
    return BlockCoord{cluster.row * cluster_rows + member / cluster_cols,
                      cluster.col * cluster_cols + member % cluster_cols};
  }

 private:
  // The `index`-th of a rows x cols grid in this order's kind (groups of `group` rows).
  BlockCoord in_order(std::uint64_t index, std::uint64_t rows, std::uint64_t cols,
                      std::uint64_t group) const {
    switch (order_.kind) {
      case BlockOrderKind::row_major:
        break;
      case BlockOrderKind::column_major:
        return BlockCoord{index % rows, index / rows};
      case BlockOrderKind::grouped: {
        const std::uint64_t per_group = group * cols;
        const std::uint64_t first_row = index / per_group * group;
        const std::uint64_t group_rows = std::min(group, rows - first_row);
        const std::uint64_t in_group = index % per_group;
        return BlockCoord{first_row + in_group % group_rows, in_group / group_rows};
      }
    }
    return BlockCoord{index / cols, index % cols};
  }

  std::uint64_t rows_;
  std::uint64_t cols_;
  BlockOrderParams order_;
  std::uint64_t next_ = 0;
};

}  // namespace ridgeline
