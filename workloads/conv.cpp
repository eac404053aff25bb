#include "workloads/conv.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"
#include "workloads/staged_loop.hpp"

namespace ridgeline {

namespace {

// (input + 2 pad - filter) / stride + 1 outputs along one dimension; 0 where the filter is larger
// than the padded input.
std::uint64_t outputs_of(std::uint64_t input, std::uint64_t filter, std::uint64_t stride,
                         std::uint64_t padding) {
  const std::uint64_t padded = input + 2 * padding;
  if (filter > padded || stride == 0) return 0;
  return (padded - filter) / stride + 1;
}

}  // namespace

std::uint64_t ConvSpec::out_height() const { return outputs_of(height, kernel_r, stride, padding); }
std::uint64_t ConvSpec::out_width() const { return outputs_of(width, kernel_s, stride, padding); }
std::uint64_t ConvSpec::tile_rows() const {
  const std::uint64_t q = out_width();
  return q == 0 ? 0 : tile.m / q;
}
std::uint64_t ConvSpec::row_tiles() const {
  const std::uint64_t rows = tile_rows();
  return rows == 0 ? 0 : ceil_div(out_height(), rows);
}
std::uint64_t ConvSpec::steps() const {
  return tile.k == 0 ? 0 : kernel_r * kernel_s * (channels / tile.k);
}

GemmSpec implicit_gemm(const ConvSpec& s) {
  GemmSpec g;
  g.m = s.batch * s.out_height() * s.out_width();
  g.n = s.filters;
  g.k = s.channels * s.kernel_r * s.kernel_s;
  g.dtype = s.dtype;
  g.accumulator = s.accumulator;
  g.strategy = GemmStrategy::tiled;
  g.tile = s.tile;
  g.stages = s.stages;
  g.register_tile = s.register_tile;
  g.warp_tile = s.warp_tile;
  g.register_overhead = s.register_overhead;
  g.registers_per_thread = s.registers_per_thread;
  g.spill = s.spill;
  g.tile_auto = s.tile_auto;
  g.choice = s.choice;
  return g;
}

TapOutputs outputs_inside(std::uint64_t tap, std::uint64_t input, std::uint64_t outputs,
                          std::uint64_t stride, std::uint64_t padding) {
  // o stride + tap - pad >= 0 from o = ceil((pad - tap) / stride) on; < input up to
  // o = (input - 1 + pad - tap) / stride.
  const std::uint64_t first = tap >= padding ? 0 : ceil_div(padding - tap, stride);
  if (input + padding <= tap) return TapOutputs{};
  const std::uint64_t end = std::min(outputs, (input - 1 + padding - tap) / stride + 1);
  return first >= end ? TapOutputs{} : TapOutputs{first, end};
}

namespace {

// The largest divisor of `n` no larger than `most`.
std::uint64_t largest_divisor_up_to(std::uint64_t n, std::uint64_t most) {
  for (std::uint64_t d = std::min(n, most); d > 1; --d) {
    if (n % d == 0) return d;
  }
  return 1;
}

// The smallest divisor of `n` that leaves at most `most` of it: n / d <= most.
std::uint64_t smallest_divisor_leaving(std::uint64_t n, std::uint64_t most) {
  for (std::uint64_t d = 1; d < n; ++d) {
    if (n % d == 0 && n / d <= most) return d;
  }
  return n;
}

constexpr std::uint64_t kDefaultWarpSize = 32;

}  // namespace

void apply_default_tiling(ConvSpec& s) {
  const std::uint64_t p = s.out_height(), q = s.out_width();
  if (p == 0 || q == 0) return;  // check_rules refuses the filter first
  std::uint64_t rows = 1;
  const std::uint64_t most_rows = std::min(p, std::max<std::uint64_t>(1, 128 / q));
  for (std::uint64_t t = 1; t <= most_rows; ++t) {
    const auto past = [&](std::uint64_t r) { return ceil_div(p, r) * r - p; };
    if (past(t) <= past(rows)) rows = t;
  }
  s.tile = TileShape{rows * q, largest_divisor_up_to(s.filters, 128),
                     largest_divisor_up_to(s.channels, 32)};
  s.stages = s.steps() > 1 ? 2 : 1;
  s.register_tile =
      RegisterTile{smallest_divisor_leaving(s.tile.m, 16), smallest_divisor_leaving(s.tile.n, 16)};
  s.warp_tile.reset();
  const std::uint64_t along_m = s.tile.m / s.register_tile.m;
  const std::uint64_t along_n = s.tile.n / s.register_tile.n;
  // A warp's 32 threads as a grid of wm x wn of the block's threads; the one whose warp tile
  // reads the fewest operand bytes a product, (W_M + W_N) / (W_M W_N), wins.
  for (std::uint64_t wm = 1; wm <= kDefaultWarpSize; wm *= 2) {
    const std::uint64_t wn = kDefaultWarpSize / wm;
    if (along_m % wm != 0 || along_n % wn != 0) continue;
    const WarpTile w{wm * s.register_tile.m, wn * s.register_tile.n, 1};
    const auto reads = [](const WarpTile& t) {
      return static_cast<double>(t.m + t.n) / static_cast<double>(t.m * t.n);
    };
    if (!s.warp_tile || reads(w) < reads(*s.warp_tile)) s.warp_tile = w;
  }
}

std::string describe(const ConvSpec& s) {
  return fmt::format("conv {}x{}x{}x{} by {} filters {}x{}, stride {}, padding {} -> {}x{}, as {}",
                     s.batch, s.height, s.width, s.channels, s.filters, s.kernel_r, s.kernel_s,
                     s.stride, s.padding, s.out_height(), s.out_width(),
                     describe(implicit_gemm(s)));
}

std::string WorkloadKind<ConvSpec>::short_label(const ConvSpec& s) {
  return fmt::format("conv {}x{}, {}", s.kernel_r, s.kernel_s,
                     WorkloadKind<GemmSpec>::short_label(implicit_gemm(s)));
}

std::optional<Violation> check_rules(const ConvSpec& s) {
  struct Fits {
    const char* key;
    std::uint64_t filter, input;
    const char *filter_name, *input_name;
  };
  for (const Fits& f : {Fits{"workload.kernel.r", s.kernel_r, s.height, "R", "height"},
                        Fits{"workload.kernel.s", s.kernel_s, s.width, "S", "width"}}) {
    if (f.filter <= f.input + 2 * s.padding) continue;
    return Violation{
        f.key,
        fmt::format("the filter ({} = {}) is larger than the padded input ({} + 2 "
                    "padding = {}): it has no output",
                    f.filter_name, f.filter, f.input_name, f.input + 2 * s.padding),
        fmt::format("use a filter of at most {}, or more padding", f.input + 2 * s.padding)};
  }
  if (s.stride == 0) return Violation{"workload.stride", "must be at least 1", ""};
  const std::uint64_t p = s.out_height(), q = s.out_width();
  // The largest counts: the FLOPs issued over whole row tiles, every A tile of every block column
  // (at most K x the im2col matrix), the SRAM's traffic and the tensors' addresses, in bytes of up
  // to 8. Products saturate at 2^64, past the limit.
  using u128 = unsigned __int128;
  const auto times = [](u128 a, u128 b) {
    constexpr u128 kSaturated = u128{1} << 64;
    return a != 0 && b > kSaturated / a ? kSaturated : a * b;
  };
  const u128 taps = times(times(s.channels, s.kernel_r), s.kernel_s);
  const u128 pixels = times(times(s.batch, p + s.tile.m), q);
  const u128 input = times(times(times(s.batch, s.height), s.width), s.channels);
  const u128 largest =
      times(times(times(pixels, s.filters), taps), 16) + times(input + times(s.filters, taps), 8);
  if (largest >= (u128{1} << 63)) {
    return Violation{
        "workload",
        fmt::format("the convolution is too large ({} images of {}x{}x{}, {} filters "
                    "{}x{}): FLOP and byte counts would overflow 64 bits",
                    s.batch, s.height, s.width, s.channels, s.filters, s.kernel_r, s.kernel_s),
        "reduce the sizes"};
  }
  // Chosen against the machine later (choose_conv_tile): the implicit GEMM's rules for a tile
  // awaiting its choice (nothing of it set by hand).
  if (s.awaits_choice()) return check_rules(implicit_gemm(s));
  if (s.tile.m % q != 0 || s.tile.m > p * q) {
    return Violation{"workload.tile.m",
                     fmt::format("must be whole output rows of one image: a multiple of the "
                                 "output's width Q = {} up to P x Q = {}",
                                 q, p * q),
                     fmt::format("use t x {} for t of 1 to {} output rows", q, p)};
  }
  if (s.filters % s.tile.n != 0) {
    return Violation{"workload.tile.n", fmt::format("must divide filters = {}", s.filters),
                     "use a divisor of it"};
  }
  if (s.channels % s.tile.k != 0) {
    return Violation{"workload.tile.k",
                     fmt::format("must divide channels = {}: a K-step takes tile.k channels of one "
                                 "tap of the filter",
                                 s.channels),
                     "use a divisor of it"};
  }
  // K-steps, stages, register and warp tiles: the implicit GEMM's rules, at the same keys.
  return check_rules(implicit_gemm(s));
}

Footprint footprint(const ConvSpec& s, const KernelTarget& target) {
  return footprint(implicit_gemm(s), target);
}

Analysis analyze(const ConvSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t p = s.out_height(), q = s.out_width();
  const std::uint64_t taps = s.channels * s.kernel_r * s.kernel_s;
  const std::uint64_t row_blocks = s.batch * s.row_tiles();  // M tiles
  const std::uint64_t col_blocks = s.filters / s.tile.n;
  const std::uint64_t blocks = row_blocks * col_blocks;
  std::uint64_t rows_inside = 0, cols_inside = 0;  // V_H, V_W
  for (std::uint64_t r = 0; r < s.kernel_r; ++r)
    rows_inside += outputs_inside(r, s.height, p, s.stride, s.padding).count();
  for (std::uint64_t c = 0; c < s.kernel_s; ++c)
    cols_inside += outputs_inside(c, s.width, q, s.stride, s.padding).count();
  const GemmSpec gemm = implicit_gemm(s);
  Analysis a;
  a.flops = 2 * s.batch * p * q * s.filters * taps;
  a.issued_flops = 2 * row_blocks * s.tile.m * s.filters * taps;
  a.hbm_read_bytes = col_blocks * s.batch * s.channels * e * rows_inside * cols_inside +
                     row_blocks * s.filters * taps * e;
  a.hbm_write_bytes = s.batch * p * q * s.filters * e;
  // Whole tiles land every K-step; compute reads the GEMM's operand bytes.
  const std::uint64_t block_steps = blocks * s.steps();
  a.sram_write_bytes = block_steps * (s.tile.m + s.tile.n) * s.tile.k * e;
  a.sram_read_bytes = block_steps * sram_reads_per_step_of(gemm, target.warp_size);
  a.warp_instructions = block_steps * warp_instructions_per_step_of(gemm, target.warp_size);
  a.roof = roof;
  a.roofline = roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof, 0, a.warp_instructions);
  a.footprint = footprint(gemm, target);
  // Spilled registers travel both ways once per K-step after a block's first (staged_loop.hpp).
  a.local_read_bytes = a.local_write_bytes = blocks * (s.steps() - 1) * a.footprint.threads *
                                             a.footprint.spilled_registers_per_thread *
                                             kRegisterBytes;
  return a;
}

namespace {

// x, w and y one after the other, each aligned; spilled registers past them.
struct ConvLayout {
  std::uint64_t x = 0;
  std::uint64_t w = 0;
  std::uint64_t y = 0;
  std::uint64_t local = 0;
};
ConvLayout layout_of(const ConvSpec& s) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::vector<std::uint64_t> at =
      one_after_another({s.batch * s.height * s.width * s.channels * e,
                         s.filters * s.kernel_r * s.kernel_s * s.channels * e,
                         s.batch * s.out_height() * s.out_width() * s.filters * e, 0});
  return ConvLayout{at[0], at[1], at[2], at[3]};
}

// Whether every tap of every output row of row tile `tile` lies inside the input (and every row
// inside the output): its program is the interior's.
bool interior(const ConvSpec& s, std::uint64_t tile) {
  const std::uint64_t rows = s.tile_rows();
  const std::uint64_t first = tile * rows, last = first + rows - 1;
  return last < s.out_height() && first * s.stride >= s.padding &&
         last * s.stride + s.kernel_r - 1 < s.height + s.padding;
}

// The program of the blocks of row tile `tile`, whose first block row is `first_row`. With
// `shared`, the blocks of the row tiles after it run it too (the interior's): the address of
// each moves on a row tile's worth from one group of N block rows to the next.
Program row_tile_program(const ConvSpec& s, std::uint64_t tile, bool shared,
                         const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t c = s.channels, w = s.width, k = s.filters;
  const std::uint64_t p = s.out_height(), q = s.out_width(), rows = s.tile_rows();
  const TileShape& t = s.tile;
  const ConvLayout l = layout_of(s);
  const GemmSpec gemm = implicit_gemm(s);
  const Footprint f = footprint(gemm, target);
  ProgramBuilder builder({"x", "w", "y", "local"});
  constexpr std::uint8_t kX = 0, kW = 1, kY = 2, kLocal = 3;
  // Block row b: image b mod N (a whole image apart), row tile group b / N.
  const auto by_image = [&](Region region, std::uint64_t image_bytes, std::uint64_t tile_bytes) {
    AddressPattern pattern;
    pattern.region_of_block0 = region;
    pattern.block_row_bytes = image_bytes;
    pattern.inner = RowGroup{s.batch, shared ? tile_bytes : 0};
    return pattern;
  };
  StagedLoopShape shape;
  shape.stages = s.stages;
  shape.barrier = target.barrier;
  if (f.spilled_registers_per_thread > 0) {
    // Each block's spilled registers, past everything else.
    shape.spill = spill_per_block(
        kLocal, l.local, f.threads * f.spilled_registers_per_thread * kRegisterBytes, k / t.n);
  }
  StagedLoop loop(builder, shape);
  const std::uint64_t chunks = c / t.k;
  const std::uint64_t a_row_lands = q * t.k * e;  // an output row's pixels, tile.k channels each
  // Every K-step's compute reads the same operands and issues the same instructions.
  const std::uint64_t step_reads = sram_reads_per_step_of(gemm, target.warp_size);
  const std::uint64_t step_instructions = warp_instructions_per_step_of(gemm, target.warp_size);
  std::uint32_t step = 0;
  for (std::uint64_t r = 0; r < s.kernel_r; ++r) {
    for (std::uint64_t sc = 0; sc < s.kernel_s; ++sc) {
      const TapOutputs columns = outputs_inside(sc, w, q, s.stride, s.padding);
      for (std::uint64_t chunk = 0; chunk < chunks; ++chunk, ++step) {
        std::vector<Op> loads;
        for (std::uint64_t i = 0; i < rows && columns.count() > 0; ++i) {
          const std::uint64_t out_row = tile * rows + i;
          const std::uint64_t in_row = out_row * s.stride + r;  // + pad
          if (out_row >= p || in_row < s.padding || in_row >= s.height + s.padding) continue;
          const std::uint64_t in_col = columns.first * s.stride + sc - s.padding;
          const Region pixels{l.x + (((in_row - s.padding) * w + in_col) * c + chunk * t.k) * e,
                              columns.count(), t.k * e, s.stride * c * e, 1};
          loads.push_back(Op::load(
              kX, step, by_image(pixels, s.height * w * c * e, rows * s.stride * w * c * e),
              a_row_lands));
        }
        // The A tile's rows that load nothing (padding, or past P) land as zeros with B.
        const std::uint64_t zero_rows = rows - loads.size();
        AddressPattern weights;
        weights.region_of_block0 = Region{l.w + ((r * s.kernel_s + sc) * c + chunk * t.k) * e, t.n,
                                          t.k * e, s.kernel_r * s.kernel_s * c * e, 1};
        weights.block_col_bytes = t.n * s.kernel_r * s.kernel_s * c * e;
        loads.push_back(Op::load(kW, step, weights, t.k * t.n * e + zero_rows * a_row_lands));
        loop.add_step(
            loads, Op::compute(step, 2 * t.m * t.n * t.k, step_reads).issuing(step_instructions));
      }
    }
  }
  // The accumulators stay in registers until the last K-step; y is written once, the rows that
  // lie in the output.
  const std::uint64_t out_rows = std::min(rows, p - tile * rows);
  AddressPattern out =
      by_image(Region{l.y + tile * rows * q * k * e, out_rows * q, t.n * e, k * e, 1},
               p * q * k * e, rows * q * k * e);
  out.block_col_bytes = t.n * e;
  const std::uint32_t store = builder.add(Op::store(kY, step - 1, out));
  builder.depend(loop.last_compute(), store, EdgeKind::data);
  return builder.compile();
}

}  // namespace

Kernel build_kernel(const ConvSpec& s, const KernelTarget& target) {
  const std::uint64_t tiles = s.row_tiles();
  // The interior row tiles [first, end), if any, first; then the others in order.
  std::uint64_t first = 0;
  while (first < tiles && !interior(s, first)) ++first;
  std::uint64_t end = first;
  while (end < tiles && interior(s, end)) ++end;
  std::vector<std::uint64_t> order;
  for (std::uint64_t i = 0; i < tiles; ++i) {
    if (i < first || i >= end) order.push_back(i);
  }
  Kernel kernel;
  kernel.name = describe(s);
  kernel.compute_type = s.dtype;
  kernel.grid_rows = tiles * s.batch;
  kernel.grid_cols = s.filters / s.tile.n;
  std::uint64_t next_row = 0;
  if (end > first) {
    kernel.program = row_tile_program(s, first, true, target);
    next_row = (end - first) * s.batch;
  }
  for (std::uint64_t tile : order) {
    Program program = row_tile_program(s, tile, false, target);
    if (next_row == 0) {
      kernel.program = std::move(program);
    } else {
      kernel.bands.push_back(ProgramBand{next_row, std::move(program)});
    }
    next_row += s.batch;
  }
  take_block_resources(kernel, footprint(s, target));
  return kernel;
}

std::vector<TensorRef> tensors(const ConvSpec& s) {
  const ConvLayout l = layout_of(s);
  return {
      TensorRef{"x", TensorRole::input, TensorShape{{s.batch, s.height, s.width, s.channels}},
                s.dtype, l.x},
      TensorRef{"w", TensorRole::input,
                TensorShape{{s.filters, s.kernel_r, s.kernel_s, s.channels}}, s.dtype, l.w},
      TensorRef{"y", TensorRole::output,
                TensorShape{{s.batch, s.out_height(), s.out_width(), s.filters}}, s.dtype, l.y}};
}

}  // namespace ridgeline
