// What a core executes: the grid of thread blocks of one kernel and the program each block runs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "models/block_order.hpp"
#include "models/data_type.hpp"
#include "models/program.hpp"

namespace ridgeline {

/// A block's program is a graph of a few ops per K-step (or chunk), built in memory before the run
/// (about 1.2 KB a step): 65536 steps keep it under 100 MB where 2^24 would exhaust memory.
constexpr std::uint64_t kMaxStepsPerBlock = std::uint64_t{1} << 16;

/// The program of the block rows from `first_row` on (up to the next band's first row).
struct ProgramBand {
  std::uint64_t first_row = 0;
  Program program;
};

struct Kernel {
  std::string name;                            ///< for reports, e.g. "gemm tiled 64x64x64"
  DataType compute_type = DataType::fp32;      ///< format the compute unit executes
  Program program;                             ///< the program of every block...
  std::optional<Program> last_block_program;   ///< ...but the last one, where it is shorter
  /// ...and but the block rows of these bands, in increasing first_row, each above 0 (a split-K
  /// GEMM's last K-slice, which reduces the partial sums; a stream-K worker's own range).
  std::vector<ProgramBand> bands;
  /// Flags the blocks signal and wait on (Op signal, wait): 0 for a kernel whose blocks are
  /// independent.
  std::uint64_t flags = 0;
  std::uint64_t grid_rows = 1;                 ///< blocks along M (or the only dimension)
  std::uint64_t grid_cols = 1;                 ///< blocks along N
  std::uint64_t threads_per_block = 0;         ///< threads of one block
  std::uint64_t warps_per_block = 0;           ///< its threads in whole warps (occupancy)
  std::uint64_t sram_bytes_per_block = 0;      ///< allocated in SRAM while a block is resident
  std::uint64_t register_bytes_per_block = 0;  ///< allocated in the register file likewise
  BlockOrderParams block_order;                ///< the order blocks are handed to cores

  std::uint64_t blocks() const { return grid_rows * grid_cols; }

  const Program& program_for(BlockCoord block) const {
    const bool last = block.row == grid_rows - 1 && block.col == grid_cols - 1;
    if (last && last_block_program) return *last_block_program;
    // The last band that starts at or before the row: bands are few or one a row (stream-K).
    const auto after = std::upper_bound(
        bands.begin(), bands.end(), block.row,
        [](std::uint64_t row, const ProgramBand& band) { return row < band.first_row; });
    return after == bands.begin() ? program : std::prev(after)->program;
  }

  /// Calls `f(program, blocks)` for each distinct program and the number of blocks that run it.
  template <class F>
  void for_each_program(F f) const {
    const std::uint64_t last_row = grid_rows - 1;
    for (std::size_t i = 0; i <= bands.size(); ++i) {
      const Program& p = i == 0 ? program : bands[i - 1].program;
      const std::uint64_t first = i == 0 ? 0 : bands[i - 1].first_row;
      const std::uint64_t end = i < bands.size() ? bands[i].first_row : grid_rows;
      std::uint64_t blocks = (end - first) * grid_cols;
      if (last_block_program && first <= last_row && last_row < end) --blocks;
      if (blocks > 0) f(p, blocks);
    }
    if (last_block_program) f(*last_block_program, std::uint64_t{1});
  }
};

}  // namespace ridgeline
