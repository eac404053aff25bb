// C = A @ B with A M x K, B K x N, C M x N, row-major, in one data type.
//
// Strategies (the seed note, section 3 and 4):
// - no_reuse: every multiply reads its A and B element from HBM. Blocks of tile.m x tile.n
//   outputs stream their operands straight into registers, tile.k at a time; nothing is kept.
// - tiled: a block computes a tile.m x tile.n output tile; per K-step it loads a tile.m x tile.k
//   tile of A and a tile.k x tile.n tile of B into SRAM, keeps `stages` such buffers (1 = single,
//   2 = double buffering, more = multi-stage) and accumulates in registers; C is written once.
// Each thread of a tiled block computes register_tile.m x register_tile.n outputs (local
// blocking), which sets how many operand bytes compute reads from SRAM.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "workloads/analysis.hpp"
#include "workloads/violation.hpp"

namespace ridgeline {

enum class GemmStrategy { no_reuse, tiled };
std::string_view name_of(GemmStrategy strategy);

struct TileShape {
  std::uint64_t m = 0;  ///< B_M, rows of C per block
  std::uint64_t n = 0;  ///< B_N, columns of C per block
  std::uint64_t k = 0;  ///< B_K, K-step
};

struct RegisterTile {
  std::uint64_t m = 1;  ///< outputs per thread along M
  std::uint64_t n = 1;  ///< outputs per thread along N
};

struct GemmSpec {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  std::uint64_t k = 0;
  DataType dtype = DataType::fp32;        ///< A, B and C
  DataType accumulator = DataType::fp32;  ///< partial sums, kept on chip
  GemmStrategy strategy = GemmStrategy::tiled;
  TileShape tile;
  std::uint32_t stages = 1;
  RegisterTile register_tile;
};

std::string describe(const GemmSpec& spec);
/// The rules that tie the spec's values together: every count fits 63 bits, tiles divide the
/// matrix, stages <= K-steps, the register tile divides the tile. The first one broken, if any.
std::optional<Violation> check_rules(const GemmSpec& spec);
Analysis analyze(const GemmSpec& spec, const Roof& roof);
Footprint footprint(const GemmSpec& spec);
/// The block program and grid. The spec must be valid (tiles divide the matrix).
Kernel build_kernel(const GemmSpec& spec);

}  // namespace ridgeline
