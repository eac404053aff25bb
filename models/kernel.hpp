// What a core executes: the grid of thread blocks of one kernel and the program each block runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/block_order.hpp"
#include "models/data_type.hpp"
#include "models/program.hpp"

namespace ridgeline {

/// A block's program is a graph of a few ops per K-step (or chunk), built in memory before the run
/// (about 1.2 KB a step): 65536 steps keep it under 100 MB where 2^24 would exhaust memory.
constexpr std::uint64_t kMaxStepsPerBlock = std::uint64_t{1} << 16;

struct Kernel {
  std::string name;                            ///< for reports, e.g. "gemm tiled 64x64x64"
  DataType compute_type = DataType::fp32;      ///< format the compute unit executes
  Program program;                             ///< the program of every block...
  std::optional<Program> last_block_program;   ///< ...but the last one, where it is shorter
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
    return last && last_block_program ? *last_block_program : program;
  }
};

}  // namespace ridgeline
