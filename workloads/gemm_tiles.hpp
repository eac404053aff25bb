// Where a GEMM's tiles lie: the address space of a batch of GEMMs (A, B, C and the split-K
// workspace one after the other) and the address patterns of the tiles a block loads and stores,
// shared by the data-parallel and split-K programs (gemm.cpp) and the stream-K workers'
// (gemm_stream_k.cpp). Plain C++.
#pragma once

#include <cstdint>
#include <vector>

#include "models/program.hpp"
#include "workloads/gemm.hpp"

namespace ridgeline {

/// Byte addresses of a batch of GEMMs: each tensor holds every GEMM's matrix at its stride.
struct GemmLayout {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  std::uint64_t c = 0;
  std::vector<std::uint64_t> epilogue;  ///< each epilogue step's operand (none: unused)
  /// Partial sums of split-K (splits - 1 slices of the whole batch's C in the accumulator type)
  /// or of stream-K (one tile a worker).
  std::uint64_t workspace = 0;
  std::uint64_t local = 0;  ///< spilled registers, past everything else
};

/// The grid a tiled GEMM's blocks form: block rows are, outermost first, the split, the GEMM of
/// the batch, the tile row; block columns the tile columns.
class GemmTiles {
 public:
  explicit GemmTiles(const GemmSpec& spec);

  const GemmLayout& layout() const { return layout_; }
  const GemmGrid& grid() const { return grid_; }
  std::uint64_t splits() const { return splits_; }
  /// Block rows of one split: the batch's tile rows.
  std::uint64_t split_rows() const { return spec_.batch.count * grid_.rows; }
  /// Bytes of one split's partial sums: the whole batch's C in the accumulator type.
  std::uint64_t partial_slice_bytes() const;

  /// The A tile of K-step `step` (its columns), for a block of split 0; each later split's blocks
  /// are `split_steps` K-steps further on. `k_step` is the K-step the tile is of for the blocks
  /// that use the pattern: the last one is partial where tile.k does not divide K.
  AddressPattern a_tile(std::uint64_t step, std::uint64_t split_steps, std::uint64_t k_step) const;
  /// The B tile of K-step `step` (its rows), likewise.
  AddressPattern b_tile(std::uint64_t step, std::uint64_t split_steps, std::uint64_t k_step) const;
  /// The block's C tile, whatever split it is in (only the last writes it).
  AddressPattern c_tile() const;
  /// The part of epilogue step `step`'s operand the block reads: its columns of the bias, or its
  /// tile of the residual (edge tiles: what lies in the matrix).
  AddressPattern epilogue_tile(std::size_t step) const;
  /// The block's partial sums in workspace slice `slice` when `split_slice` (a split's blocks
  /// write their own slice: the split's index), else in slice `slice` whatever the split (the
  /// last split reading them).
  AddressPattern partial_tile(std::uint64_t slice, bool split_slice) const;
  /// The flag of the block's output tile, shared by its splits.
  FlagPattern tile_flag() const;

  /// Operand bytes compute reads from SRAM in one K-step of a block (sram_reads_per_step_of).
  std::uint64_t sram_reads_per_step(std::uint32_t warp_size) const;
  /// Bytes of the A and B tiles that land in a block's SRAM each K-step (whole tiles).
  std::uint64_t a_lands() const;
  std::uint64_t b_lands() const;

 private:
  const GemmSpec& spec_;
  GemmGrid grid_;
  std::uint64_t splits_ = 1;
  std::uint64_t e_ = 0;        // element bytes
  std::uint64_t a_bytes_ = 0;  // accumulator element bytes
  GemmLayout layout_;
};

}  // namespace ridgeline
