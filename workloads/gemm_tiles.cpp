#include "workloads/gemm_tiles.hpp"

#include <algorithm>

#include "workloads/layout.hpp"

namespace ridgeline {

namespace {

// Elements a tensor of the batch spans: the last GEMM's matrix starts (count - 1) strides on.
std::uint64_t batch_extent(std::uint64_t count, std::uint64_t stride, std::uint64_t matrix) {
  return (count - 1) * stride + matrix;
}

}  // namespace

GemmTiles::GemmTiles(const GemmSpec& spec)
    : spec_(spec),
      grid_(grid_of(spec)),
      splits_(spec.decomposition.kind == GemmDecomposition::split_k ? spec.decomposition.splits
                                                                    : 1),
      e_(element_bytes(spec.dtype)),
      a_bytes_(element_bytes(spec.accumulator)) {
  const GemmSpec& s = spec_;
  const std::uint64_t count = s.batch.count;
  layout_.a = 0;
  layout_.b = align_up(batch_extent(count, s.stride_a(), s.m * s.k) * e_, kTensorAlignmentBytes);
  layout_.c = layout_.b +
              align_up(batch_extent(count, s.stride_b(), s.k * s.n) * e_, kTensorAlignmentBytes);
  std::uint64_t next = layout_.c + align_up(batch_extent(count, s.stride_c(), s.m * s.n) * e_,
                                            kTensorAlignmentBytes);
  for (const EpilogueStep& step : s.epilogue) {
    layout_.epilogue.push_back(next);
    const std::uint64_t elements = step.operand == EpilogueStep::Operand::bias       ? s.n
                                   : step.operand == EpilogueStep::Operand::residual ? s.m * s.n
                                                                                     : 0;
    next += align_up(elements * e_, kTensorAlignmentBytes);
  }
  layout_.workspace = next;
  std::uint64_t workspace_bytes = (splits_ - 1) * partial_slice_bytes();
  if (s.decomposition.kind == GemmDecomposition::stream_k) {
    workspace_bytes = s.decomposition.workers * s.tile.m * s.tile.n * a_bytes_;
  }
  layout_.local = layout_.workspace + align_up(workspace_bytes, kTensorAlignmentBytes);
}

std::uint64_t GemmTiles::partial_slice_bytes() const {
  return spec_.batch.count * spec_.m * spec_.n * a_bytes_;
}

AddressPattern GemmTiles::a_tile(std::uint64_t step, std::uint64_t split_steps,
                                 std::uint64_t k_step) const {
  const GemmSpec& s = spec_;
  const TileShape& t = s.tile;
  const bool tiled = s.strategy == GemmStrategy::tiled;
  // A_k for block (r, c): rows [r B_M, +B_M), columns [k B_K, +B_K) of A. Straight into
  // registers, each column of threads reads that region for itself (B_N / R_N times). In a
  // cluster each block fetches its share of the rows, B_M / C_N. The last K-step keeps the
  // columns left (an edge tile: predicated loads, the rest of the tile zero-filled).
  AddressPattern p;
  const std::uint64_t rows = t.m / s.cluster.n;
  const std::uint64_t columns = std::min(t.k, s.k - k_step * t.k);
  p.region_of_block0 = Region{layout_.a + step * t.k * e_, rows, columns * e_, s.k * e_,
                              tiled ? 1 : t.n / s.register_tile.n};
  p.block_row_bytes = t.m * s.k * e_;
  p.tensor_rows = s.m % t.m != 0 ? s.m : 0;
  p.cluster_cols = static_cast<std::uint32_t>(s.cluster.n);
  p.member_col_bytes = rows * s.k * e_;
  p.inner = RowGroup{grid_.rows, s.stride_a() * e_};
  if (splits_ > 1) p.outer = RowGroup{split_rows(), split_steps * t.k * e_};
  return p;
}

AddressPattern GemmTiles::b_tile(std::uint64_t step, std::uint64_t split_steps,
                                 std::uint64_t k_step) const {
  const GemmSpec& s = spec_;
  const TileShape& t = s.tile;
  const bool tiled = s.strategy == GemmStrategy::tiled;
  // B_k: rows [k B_K, +B_K), columns [c B_N, +B_N); once per row of threads straight into
  // registers; in a cluster each block fetches B_K / C_M of the rows.
  AddressPattern p;
  const std::uint64_t rows = std::min(t.k, s.k - k_step * t.k) / s.cluster.m;
  p.region_of_block0 = Region{layout_.b + step * t.k * s.n * e_, rows, t.n * e_, s.n * e_,
                              tiled ? 1 : t.m / s.register_tile.m};
  p.block_col_bytes = t.n * e_;
  p.tensor_row_bytes = s.n % t.n != 0 ? s.n * e_ : 0;
  p.cluster_rows = static_cast<std::uint32_t>(s.cluster.m);
  p.member_row_bytes = rows * s.n * e_;
  p.inner = RowGroup{grid_.rows, s.stride_b() * e_};
  if (splits_ > 1) p.outer = RowGroup{split_rows(), split_steps * t.k * s.n * e_};
  return p;
}

AddressPattern GemmTiles::c_tile() const {
  const GemmSpec& s = spec_;
  const TileShape& t = s.tile;
  AddressPattern p;
  p.region_of_block0 = Region{layout_.c, t.m, t.n * e_, s.n * e_, 1};
  p.block_row_bytes = t.m * s.n * e_;
  p.block_col_bytes = t.n * e_;
  p.tensor_rows = s.m % t.m != 0 ? s.m : 0;
  p.tensor_row_bytes = s.n % t.n != 0 ? s.n * e_ : 0;
  p.inner = RowGroup{grid_.rows, s.stride_c() * e_};
  if (splits_ > 1) p.outer = RowGroup{split_rows(), 0};
  return p;
}

AddressPattern GemmTiles::epilogue_tile(std::size_t step) const {
  const GemmSpec& s = spec_;
  // A residual lies as C does; a bias is one row that every block row reads again.
  AddressPattern p = c_tile();
  p.region_of_block0.base = layout_.epilogue[step];
  if (s.epilogue[step].operand == EpilogueStep::Operand::bias) {
    p.region_of_block0.rows = 1;
    p.block_row_bytes = 0;
    p.tensor_rows = 0;
    p.inner = RowGroup{};
  }
  return p;
}

AddressPattern GemmTiles::partial_tile(std::uint64_t slice, bool split_slice) const {
  const GemmSpec& s = spec_;
  const TileShape& t = s.tile;
  // Slices of the whole batch's C in the accumulator type, packed; an edge tile writes and reads
  // only what lies in the matrix, as it does C.
  AddressPattern p;
  p.region_of_block0 = Region{layout_.workspace + slice * partial_slice_bytes(), t.m,
                              t.n * a_bytes_, s.n * a_bytes_, 1};
  p.block_row_bytes = t.m * s.n * a_bytes_;
  p.block_col_bytes = t.n * a_bytes_;
  p.tensor_rows = s.m % t.m != 0 ? s.m : 0;
  p.tensor_row_bytes = s.n % t.n != 0 ? s.n * a_bytes_ : 0;
  p.inner = RowGroup{grid_.rows, s.m * s.n * a_bytes_};
  p.outer = RowGroup{split_rows(), split_slice ? partial_slice_bytes() : 0};
  return p;
}

FlagPattern GemmTiles::tile_flag() const { return FlagPattern{0, split_rows(), grid_.cols, 1}; }

std::uint64_t GemmTiles::sram_reads_per_step(std::uint32_t warp_size) const {
  return sram_reads_per_step_of(spec_, warp_size);
}

std::uint64_t GemmTiles::a_lands() const {
  return spec_.strategy == GemmStrategy::tiled ? spec_.tile.m * spec_.tile.k * e_ : 0;
}
std::uint64_t GemmTiles::b_lands() const {
  return spec_.strategy == GemmStrategy::tiled ? spec_.tile.k * spec_.tile.n * e_ : 0;
}

}  // namespace ridgeline
