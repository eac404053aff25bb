// The scheduler's plain core: the order blocks of a grid are handed out in.
#include "models/block_order.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

namespace ridgeline {
namespace {

std::vector<std::pair<std::uint64_t, std::uint64_t>> sequence(std::uint64_t rows,
                                                              std::uint64_t cols,
                                                              BlockOrderParams order) {
  BlockOrder blocks(rows, cols, order);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  while (auto b = blocks.next()) out.emplace_back(b->row, b->col);
  return out;
}

using Seq = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

TEST(BlockOrder, RowMajorAndColumnMajor) {
  EXPECT_EQ(sequence(2, 3, {}), (Seq{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  EXPECT_EQ(sequence(2, 3, {BlockOrderKind::column_major, 1}),
            (Seq{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}));
}

TEST(BlockOrder, GroupedWalksDownAGroupOfRowsBeforeMovingRight) {
  // Triton's GROUP_SIZE_M = 2 on 4 x 3: rows 0-1 column by column, then rows 2-3.
  EXPECT_EQ(sequence(4, 3, {BlockOrderKind::grouped, 2}), (Seq{{0, 0},
                                                               {1, 0},
                                                               {0, 1},
                                                               {1, 1},
                                                               {0, 2},
                                                               {1, 2},
                                                               {2, 0},
                                                               {3, 0},
                                                               {2, 1},
                                                               {3, 1},
                                                               {2, 2},
                                                               {3, 2}}));
  // The last group is shorter when the group does not divide the rows.
  EXPECT_EQ(sequence(3, 2, {BlockOrderKind::grouped, 2}),
            (Seq{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1}}));
  // A group of one is row-major; a group of all rows is column-major.
  EXPECT_EQ(sequence(3, 4, {BlockOrderKind::grouped, 1}), sequence(3, 4, {}));
  EXPECT_EQ(sequence(3, 4, {BlockOrderKind::grouped, 3}),
            sequence(3, 4, {BlockOrderKind::column_major, 1}));
}

TEST(BlockOrder, EveryOrderHandsOutEveryBlockOnce) {
  for (const BlockOrderParams order :
       {BlockOrderParams{}, BlockOrderParams{BlockOrderKind::column_major, 1},
        BlockOrderParams{BlockOrderKind::grouped, 3},
        BlockOrderParams{BlockOrderKind::grouped, 8}}) {
    const Seq all = sequence(11, 7, order);
    EXPECT_EQ(all.size(), 77u);
    EXPECT_EQ(std::set(all.begin(), all.end()).size(), 77u);
  }
}

// A cluster's blocks are handed out one after the other, row by row within it, and the order's
// kind walks the grid of clusters.
TEST(BlockOrder, ClustersAreHandedOutWhole) {
  BlockOrderParams pairs;  // 2 x 1 clusters, row-major over the 2 x 3 grid of clusters
  pairs.cluster_rows = 2;
  // ...down each pair of rows column by column: Triton's grouping by 2 (above).
  EXPECT_EQ(sequence(4, 3, pairs), sequence(4, 3, {BlockOrderKind::grouped, 2}));
  EXPECT_EQ(sequence(4, 3, pairs)[2], (std::pair<std::uint64_t, std::uint64_t>{0, 1}));
  BlockOrderParams squares{BlockOrderKind::column_major, 1, 2, 2};  // 2 x 2 over 2 x 2 clusters
  EXPECT_EQ(sequence(4, 4, squares), (Seq{{0, 0},
                                          {0, 1},
                                          {1, 0},
                                          {1, 1},
                                          {2, 0},
                                          {2, 1},
                                          {3, 0},
                                          {3, 1},
                                          {0, 2},
                                          {0, 3},
                                          {1, 2},
                                          {1, 3},
                                          {2, 2},
                                          {2, 3},
                                          {3, 2},
                                          {3, 3}}));
  // Grouped by 4 block rows is grouped by 2 cluster rows: down two clusters, then right.
  BlockOrderParams grouped{BlockOrderKind::grouped, 4, 2, 1};
  const Seq g = sequence(4, 2, grouped);
  EXPECT_EQ(g, (Seq{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}}));
  for (const BlockOrderParams order :
       {pairs, grouped, BlockOrderParams{BlockOrderKind::grouped, 2, 2, 3}}) {
    const Seq all = sequence(8, 6, order);
    EXPECT_EQ(std::set(all.begin(), all.end()).size(), 48u);
  }
}

}  // namespace
}  // namespace ridgeline
