// A 2-D convolution, y = x * w (cross-correlation, as deep-learning frameworks compute it), run as
// an implicit GEMM: cuDNN's and CUTLASS's forward convolution, which never writes the im2col
// matrix out but loads its tiles from the input where they lie.
//
// Layouts (cuDNN's for implicit GEMM): input x [N, H, W, C] and output y [N, P, Q, K] (NHWC),
// weights w [K, R, S, C] (KRSC), each row-major, one after the other (x, w, y), each aligned.
// `padding` zeros on each side of the input, one `stride` both ways:
//   P = (H + 2 pad - R) / stride + 1, Q = (W + 2 pad - S) / stride + 1 (rounded down).
//
// The implicit GEMM: y (M x N_g) = A (M x K_g) B (K_g x N_g), M = N P Q output pixels in the
// order (n, p, q), N_g = K filters, K_g = C R S taps in the order (r, s, c), c fastest: the order
// of a filter's weights in KRSC, so B^T is w as it lies. Row (n, p, q) of A is that pixel's
// receptive field: A[(n, p, q), (r, s, c)] = x[n, p stride + r - pad, q stride + s - pad, c],
// zero where that lies in the padding.
//
// Blocks: the GEMM's tiled strategy over that GEMM (gemm.hpp: tile, stages, register and warp
// tiles, the same threads, registers and footprint). A block computes tile.m output pixels by
// tile.n filters, where tile.m = t_P Q is t_P whole output rows of one image (so that its A tile
// is t_P 2-D regions of the input), tile.n divides K, and tile.k divides C: a K-step is tile.k
// channels of one tap (r, s). The K-steps run tap by tap, (r, s) outer, C / tile.k channel chunks
// inner. Each K-step a block loads
//   B: its tile.n filters' tile.k weights of the tap: tile.n rows of tile.k e bytes, R S C e
//      apart;
//   A: for each of its output rows p, the pixels (p stride + r - pad, q stride + s - pad) of the
//      row's Q outputs q, tile.k channels each: a region of up to Q rows of tile.k e bytes,
//      stride C e apart, in input row p stride + r - pad (rows W C e apart in the address space).
//      Taps in the padding are not loaded, as predicated loads (or TMA's im2col mode) leave them:
//      an output row whose input row lies in the padding has no load, and a row's pixels whose
//      input column does are cut off at either end. Whole tiles land in SRAM, the padding and the
//      rows of an edge tile as zeros.
// Every K-step loads its whole A tile (explicit re-reads, as CUTLASS's implicit-GEMM iterators
// do): an input pixel that the receptive fields of several outputs overlap on is read again for
// each tap that covers it (about R S / stride^2 times), and once more for each block column. The
// analytical model has no L2 and counts every one of them; an L2 serves the repeats in a run.
//
// Grid: block columns are the K / tile.n filter tiles; block rows are (row tile, image) pairs,
// the image innermost. Row tiles whose every tap of every row lies inside the input (the
// interior) share one program and come first; each other row tile (the top and bottom ones,
// whose taps reach into the padding, and an edge tile past P's end when t_P does not divide P)
// has a program of its own, a band of N block rows, in increasing row tile order.
//
// Analytical model (e element bytes, t_m t_n t_k the tile, T = ceil(P / t_P) row tiles):
//   F        = 2 M K C R S: the useful FLOPs, padding taps included (the kernel multiplies the
//              zeros as it does any operand);
//   F_issued = 2 N T t_m K C R S: an edge tile's rows past P computed as predicated lanes;
//   Q        = (K / t_n) N C e V_H V_W + N T K R S C e + N P Q K e: the A tiles of every block
//              column (V_H = sum over r of the output rows p whose input row p stride + r - pad
//              lies in [0, H), V_W likewise over s and the columns: N C V_H V_W is the number of
//              the im2col matrix's elements outside the padding), the weights once a row tile of
//              each image, y once;
//   SRAM     = every K-step of every block lands (t_m t_k + t_k t_n) e and reads the GEMM's
//              operand bytes (gemm.hpp).
// With 1 x 1 filters, stride 1 and no padding, A is x itself and the figures are the GEMM's of
// M x K x C with the same tiles (when t_P divides P).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/gemm.hpp"
#include "workloads/tensor.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

struct ConvSpec {
  std::uint64_t batch = 1;     ///< N, images
  std::uint64_t channels = 1;  ///< C, input channels
  std::uint64_t height = 1;    ///< H, the input's
  std::uint64_t width = 1;     ///< W, the input's
  std::uint64_t filters = 1;   ///< K, output channels
  std::uint64_t kernel_r = 1;  ///< R, the filter's height
  std::uint64_t kernel_s = 1;  ///< S, the filter's width
  std::uint64_t stride = 1;
  std::uint64_t padding = 0;  ///< zeros on each side of the input, both ways
  DataType dtype = DataType::bf16;
  DataType accumulator = DataType::fp32;
  // The blocks, as a tiled GEMM's over the implicit GEMM (gemm.hpp).
  TileShape tile;
  std::uint32_t stages = 2;
  RegisterTile register_tile;
  std::optional<WarpTile> warp_tile;
  std::uint32_t register_overhead = 0;
  std::optional<std::uint64_t> registers_per_thread;
  SpillPolicy spill = SpillPolicy::refuse;
  /// `tile: auto`: the tile, stages, register and warp tiles chosen for the machine
  /// (choose_conv_tile in conv_auto_tile.hpp); until then tile is 0 x 0 x 0.
  bool tile_auto = false;
  std::optional<TileChoice> choice;  ///< set once chosen

  /// `tile: auto` not yet resolved against a machine.
  bool awaits_choice() const { return tile_auto && tile.m == 0; }
  /// P and Q; 0 where the filter is larger than the padded input.
  std::uint64_t out_height() const;
  std::uint64_t out_width() const;
  /// t_P: the output rows of a block's tile (tile.m / Q).
  std::uint64_t tile_rows() const;
  /// T: the row tiles of one image, ceil(P / t_P).
  std::uint64_t row_tiles() const;
  /// A block's K-steps: R S C / tile.k.
  std::uint64_t steps() const;
};

/// The GEMM whose tiles the convolution's blocks compute: M = N P Q, N = K, K = C R S, tiled, with
/// the spec's tile, stages, register and warp tiles, accumulator and registers.
GemmSpec implicit_gemm(const ConvSpec& spec);

/// The outputs along one dimension whose input index o stride + tap - pad lies in [0, input):
/// [first, end), empty (first == end) where none does.
struct TapOutputs {
  std::uint64_t first = 0;
  std::uint64_t end = 0;
  std::uint64_t count() const { return end - first; }
};
TapOutputs outputs_inside(std::uint64_t tap, std::uint64_t input, std::uint64_t outputs,
                          std::uint64_t stride, std::uint64_t padding);

/// Gives the spec the tiling of a convolution whose file leaves the tile out: t_P the largest
/// number of output rows up to 128 / Q (at least one) that leaves the fewest rows of the last row
/// tile past P; tile.n the largest divisor of K up to 128; tile.k the largest divisor of C up to
/// 32; stages 2 (1 for a single K-step); the register tile the smallest divisors of tile.m and
/// tile.n that leave at most 16 threads along each; and, where those threads make whole warps of
/// 32, the warp tile of the warp's 32 threads laid out as the grid that reads the fewest operand
/// bytes from SRAM. Needs a filter no larger than the padded input.
void apply_default_tiling(ConvSpec& spec);

std::string describe(const ConvSpec& spec);
/// The filter no larger than the padded input; counts within 63 bits; tile.m whole output rows of
/// one image; tile.n divides K, tile.k divides C; then the implicit GEMM's rules (K-steps, stages,
/// register and warp tiles). The first one broken, if any.
std::optional<Violation> check_rules(const ConvSpec& spec);
Analysis analyze(const ConvSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const ConvSpec& spec, const KernelTarget& target = {});
/// The block program and grid (above). The spec must be valid (check_rules).
Kernel build_kernel(const ConvSpec& spec, const KernelTarget& target = {});
/// "x" [N, H, W, C] and "w" [K, R, S, C] read, "y" [N, P, Q, K] written.
std::vector<TensorRef> tensors(const ConvSpec& spec);

template <>
struct WorkloadKind<ConvSpec> : RunsOnCores<ConvSpec> {
  static constexpr std::string_view name = "conv";
  // As the GEMM's: the tile sets a block's footprint, the register tile its threads.
  static constexpr LimitKeys limit_keys{"workload.tile", "workload.register_tile", "workload.tile"};

  /// "conv 3x3, 112x128x32, 3 stages".
  static std::string short_label(const ConvSpec& spec);
  static std::optional<Violation> check_rules(const ConvSpec& spec) {
    return ridgeline::check_rules(spec);
  }
  static std::vector<TensorRef> tensors(const ConvSpec& spec) { return ridgeline::tensors(spec); }
  /// What `tile: auto` chose and why.
  static std::string report_note(const ConvSpec& spec) {
    return WorkloadKind<GemmSpec>::report_note(implicit_gemm(spec));
  }
  /// The implicit GEMM's: a warp tile holds exactly its warps' register tiles.
  static std::optional<Violation> check_threads(const ConvSpec& spec, const KernelTarget& limits) {
    return WorkloadKind<GemmSpec>::check_threads(implicit_gemm(spec), limits);
  }
  static ThreadRegistersNote thread_registers_note(const ConvSpec& spec) {
    return WorkloadKind<GemmSpec>::thread_registers_note(implicit_gemm(spec));
  }

  template <class Visitor>
  static void visit_fields(const ConvSpec& s, Visitor& visitor) {
    visitor.integer("batch", s.batch);
    visitor.integer("channels", s.channels);
    visitor.integer("height", s.height);
    visitor.integer("width", s.width);
    visitor.integer("filters", s.filters);
    visitor.integer("kernel.r", s.kernel_r);
    visitor.integer("kernel.s", s.kernel_s);
    visitor.integer("stride", s.stride);
    visitor.integer("padding", s.padding);
    visitor.integer("output.height", s.out_height());
    visitor.integer("output.width", s.out_width());
    visitor.text("dtype", name_of(s.dtype));
    visitor.text("accumulator", name_of(s.accumulator));
    const GemmSpec gemm = implicit_gemm(s);
    visitor.integer("implicit_gemm.m", gemm.m);
    visitor.integer("implicit_gemm.n", gemm.n);
    visitor.integer("implicit_gemm.k", gemm.k);
    visit_block_fields(gemm, visitor);
    visit_tile_choice(s.choice, visitor);
  }
  // None: each key's rules tie it to others (tile.m to the output's width, tile.k to the
  // channels), so a sweep reads the file again for every point.
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
