#include "workloads/gemm.hpp"

#include <fmt/format.h>

#include "workloads/element_grid.hpp"
#include "workloads/gemm_stream_k.hpp"
#include "workloads/gemm_tiles.hpp"
#include "workloads/layout.hpp"
#include "workloads/staged_loop.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

std::string_view name_of(GemmStrategy strategy) {
  switch (strategy) {
    case GemmStrategy::no_reuse:
      return "no_reuse";
    case GemmStrategy::tiled:
      return "tiled";
    case GemmStrategy::register_tiled:
      return "register_tiled";
  }
  return "?";
}

std::string_view name_of(GemmDecomposition decomposition) {
  switch (decomposition) {
    case GemmDecomposition::data_parallel:
      return "data_parallel";
    case GemmDecomposition::split_k:
      return "split_k";
    case GemmDecomposition::stream_k:
      return "stream_k";
  }
  return "?";
}

std::string_view name_of(EpilogueStep::Operand operand) {
  switch (operand) {
    case EpilogueStep::Operand::bias:
      return "bias";
    case EpilogueStep::Operand::residual:
      return "residual";
    case EpilogueStep::Operand::none:
      break;
  }
  return "none";
}

std::string epilogue_text(const std::vector<EpilogueStep>& epilogue) {
  std::vector<std::string> steps;
  for (const EpilogueStep& step : epilogue) {
    steps.push_back(step.operand == EpilogueStep::Operand::none
                        ? std::string(info_of(step.op).name)
                        : fmt::format("{}({})", info_of(step.op).name, name_of(step.operand)));
  }
  return fmt::format("{}", fmt::join(steps, ", "));
}

std::string describe(const GemmSpec& s) {
  std::string text =
      fmt::format("gemm {}x{}x{} {} {}", s.m, s.n, s.k, name_of(s.dtype), name_of(s.strategy));
  if (!s.epilogue.empty()) text += " + " + epilogue_text(s.epilogue);
  if (s.batch.count > 1) text = fmt::format("{} x {}", s.batch.count, text);
  if (s.awaits_choice()) return text + " tile auto";
  if (s.strategy == GemmStrategy::tiled) {
    text += fmt::format(" tile {}x{}x{}, {} stage{}", s.tile.m, s.tile.n, s.tile.k, s.stages,
                        s.stages == 1 ? "" : "s");
  }
  if (s.strategy == GemmStrategy::register_tiled) {
    text += fmt::format(" block {}x{}x{}, {} stage{}", s.tile.m, s.tile.n, s.tile.k, s.stages,
                        s.stages == 1 ? "" : "s");
  }
  if (s.register_tile.m != 1 || s.register_tile.n != 1) {
    text += fmt::format(", {}x{} per thread", s.register_tile.m, s.register_tile.n);
  }
  if (s.warp_tile) {
    text += fmt::format(", {}x{} per {}", s.warp_tile->m, s.warp_tile->n,
                        s.warp_tile->warps == 1 ? "warp" : "warpgroup");
  }
  if (s.cluster.blocks() > 1) {
    text += fmt::format(", clusters of {}x{} blocks", s.cluster.m, s.cluster.n);
  }
  if (s.decomposition.kind == GemmDecomposition::split_k && s.decomposition.splits > 1) {
    text += fmt::format(", split-K {}", s.decomposition.splits);
  } else if (s.decomposition.kind == GemmDecomposition::stream_k) {
    text += fmt::format(", stream-K over {} blocks", s.decomposition.workers);
  }
  if (s.promotion_interval > 0) {
    text += fmt::format(", FP32 promotion every {} of K", s.promotion_interval);
  }
  if (s.block_order.kind == BlockOrderKind::grouped) {
    text += fmt::format(", blocks grouped by {}", s.block_order.group);
  } else if (s.block_order.kind == BlockOrderKind::column_major) {
    text += ", blocks column-major";
  }
  if (s.choice) text += " (tile: auto)";
  return text;
}

namespace {

// The rules below are checked for every candidate `tile: auto` weighs: each builds its violation
// out of line, so that what it checks stays a few instructions in the caller.
[[gnu::cold, gnu::noinline]] Violation larger_than_matrix(const char* key, std::uint64_t whole,
                                                          const char* matrix_dim) {
  return Violation{key,
                   fmt::format("the tile is larger than the matrix ({} = {})", matrix_dim, whole),
                   fmt::format("use a tile of at most {}", whole)};
}
[[gnu::cold, gnu::noinline]] Violation edge_tiles_untiled(const char* key, std::uint64_t whole,
                                                          const char* matrix_dim) {
  return Violation{key,
                   fmt::format("the tile does not divide the matrix ({} = {}); edge tiles are "
                               "modelled for strategy: tiled only",
                               matrix_dim, whole),
                   "choose a divisor of it, or use strategy: tiled"};
}
[[gnu::cold, gnu::noinline]] Violation must_divide(const char* key, const char* outer_name,
                                                   std::uint64_t outer) {
  return Violation{key, fmt::format("must divide {} = {}", outer_name, outer), ""};
}
[[gnu::cold, gnu::noinline]] Violation must_be_multiple(const char* key, const char* inner_name,
                                                        std::uint64_t inner) {
  return Violation{key, fmt::format("must be a multiple of {} = {}", inner_name, inner), ""};
}

// `tile` is no larger than `whole`, and divides it unless edge tiles are modelled (tiled only).
std::optional<Violation> check_fits(const char* key, std::uint64_t tile, std::uint64_t whole,
                                    const char* matrix_dim, GemmStrategy strategy) {
  if (tile > whole) return larger_than_matrix(key, whole, matrix_dim);
  if (whole % tile != 0 && strategy != GemmStrategy::tiled)
    return edge_tiles_untiled(key, whole, matrix_dim);
  return std::nullopt;
}

// A register or warp tile nests in the tile above it: `key`'s `value` divides the `outer` one.
std::optional<Violation> check_nests(const char* key, std::uint64_t value, std::uint64_t outer,
                                     const char* outer_name) {
  if (outer % value == 0) return std::nullopt;
  return must_divide(key, outer_name, outer);
}

// ...and holds whole tiles of the one below it: `key`'s `value` is a multiple of `inner`.
std::optional<Violation> check_holds(const char* key, std::uint64_t value, std::uint64_t inner,
                                     const char* inner_name) {
  if (value % inner == 0) return std::nullopt;
  return must_be_multiple(key, inner_name, inner);
}

// A cluster tiles the grid, and its blocks split the tiles they share into whole rows: A's B_M
// rows among the C_N blocks of a block row, B's B_K rows among the C_M of a column.
std::optional<Violation> check_cluster(const GemmSpec& s) {
  const ClusterShape& c = s.cluster;
  if (c.blocks() == 1) return std::nullopt;
  if (s.m % s.tile.m != 0 || s.n % s.tile.n != 0 || s.k % s.tile.k != 0) {
    return Violation{"workload.cluster",
                     fmt::format("a cluster needs tiles that divide the matrix ({}x{}x{} by "
                                 "{}x{}x{}): edge tiles are not multicast",
                                 s.m, s.n, s.k, s.tile.m, s.tile.n, s.tile.k),
                     "choose tiles that divide m, n and k, or leave cluster out"};
  }
  struct Divides {
    const char* key;
    std::uint64_t count, whole;
    const char *whole_name, *why, *fix;
  };
  const char* tile_grid = "clusters tile the grid: choose a divisor of it";
  for (const Divides& d : {
           Divides{"workload.cluster.m", c.m, s.m / s.tile.m, "the grid's block rows, m / tile.m",
                   "", tile_grid},
           Divides{"workload.cluster.n", c.n, s.n / s.tile.n,
                   "the grid's block columns, n / tile.n", "", tile_grid},
           Divides{"workload.cluster.n", c.n, s.tile.m, "tile.m",
                   ": the cluster's blocks along N each fetch a share of the A tile's rows",
                   "choose a divisor of tile.m"},
           Divides{"workload.cluster.m", c.m, s.tile.k, "tile.k",
                   ": the cluster's blocks along M each fetch a share of the B tile's rows",
                   "choose a divisor of tile.k"},
       }) {
    if (d.whole % d.count == 0) continue;
    return Violation{d.key, fmt::format("must divide {} = {}{}", d.whole_name, d.whole, d.why),
                     d.fix};
  }
  if (s.block_order.kind == BlockOrderKind::grouped && s.block_order.group % c.m != 0) {
    return Violation{"workload.block_order.group",
                     fmt::format("must be a multiple of cluster.m = {}: clusters are handed out "
                                 "whole",
                                 c.m),
                     "use a multiple of it"};
  }
  return std::nullopt;
}

}  // namespace

KSlice k_slice(const GemmSpec& s, std::uint64_t split) {
  const std::uint64_t steps = grid_of(s).steps;
  const std::uint64_t splits =
      s.decomposition.kind == GemmDecomposition::split_k ? s.decomposition.splits : 1;
  const std::uint64_t base = steps / splits, longer = steps % splits;
  return KSlice{split * base + std::min(split, longer), base + (split < longer ? 1 : 0)};
}

std::uint64_t promotions_over(const GemmSpec& s, std::uint64_t steps) {
  if (s.promotion_interval == 0 || s.tile.k == 0) return 0;
  return ceil_div(static_cast<unsigned __int128>(steps) * s.tile.k, s.promotion_interval);
}

std::uint64_t promotions_after(const GemmSpec& s, std::uint64_t step, std::uint64_t steps) {
  if (s.promotion_interval == 0 || s.tile.k == 0) return 0;
  const auto crossed = [&](std::uint64_t k_steps) {  // intervals whole within k_steps K-steps
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(k_steps) * s.tile.k /
                                      s.promotion_interval);
  };
  return (step + 1 == steps ? promotions_over(s, steps) : crossed(step + 1)) - crossed(step);
}

std::uint64_t promotion_flops(const GemmSpec& s) {
  if (s.promotion_interval == 0 || s.tile.k == 0) return 0;
  const GemmGrid g = grid_of(s);
  const std::uint64_t splits =
      s.decomposition.kind == GemmDecomposition::split_k ? s.decomposition.splits : 1;
  std::uint64_t promotions = 0;  // a tile's, over all its splits
  for (std::uint64_t split = 0; split < splits; ++split)
    promotions += promotions_over(s, k_slice(s, split).steps);
  return s.batch.count * g.rows * s.tile.m * g.cols * s.tile.n * 2 * promotions;
}

std::uint64_t partial_sum_bytes(const GemmSpec& s) {
  if (s.decomposition.kind != GemmDecomposition::split_k) return 0;
  return (s.decomposition.splits - 1) * s.batch.count * s.m * s.n * element_bytes(s.accumulator);
}

namespace {

// The rules of the batch and the decomposition (after the tile's own).
std::optional<Violation> check_decomposition(const GemmSpec& s, const GemmGrid& g) {
  const DecompositionParams& d = s.decomposition;
  if (d.kind == GemmDecomposition::data_parallel) return std::nullopt;
  if (s.strategy != GemmStrategy::tiled) {
    return Violation{"workload.decomposition",
                     fmt::format("{} shares a tile's K-steps among blocks that keep their tiles "
                                 "in SRAM; strategy {} keeps none",
                                 name_of(d.kind), name_of(s.strategy)),
                     "use strategy: tiled, or leave decomposition out"};
  }
  if (s.cluster.blocks() > 1) {
    return Violation{"workload.cluster",
                     fmt::format("a cluster's blocks share their tiles' K-steps; {} splits them "
                                 "among blocks instead",
                                 name_of(d.kind)),
                     "leave cluster out, or decomposition"};
  }
  if (d.kind == GemmDecomposition::split_k) {
    if (d.splits > g.steps) {
      return Violation{"workload.decomposition.splits",
                       fmt::format("each split needs a K-step: a tile has {} ({} / tile.k {})",
                                   g.steps, s.k, s.tile.k),
                       fmt::format("use at most {} splits, or a smaller tile.k", g.steps)};
    }
    const std::uint64_t shortest = g.steps / d.splits;
    if (s.stages > 1 && s.stages > shortest) {
      return Violation{"workload.stages",
                       fmt::format("more stages than a split's K-steps ({} K-steps in {} splits: "
                                   "{} in the shortest)",
                                   g.steps, d.splits, shortest),
                       fmt::format("use at most {}", shortest)};
    }
    return std::nullopt;
  }
  // stream_k: workers are handed out in order; every one takes at least one K-step of some tile.
  if (s.block_order.kind != BlockOrderKind::row_major) {
    return Violation{"workload.block_order",
                     "stream-K hands its workers out in order; an order of output tiles does not "
                     "apply to them",
                     "leave block_order out"};
  }
  const std::uint64_t iterations = s.batch.count * g.rows * g.cols * g.steps;
  if (d.workers > iterations) {
    return Violation{"workload.decomposition.workers",
                     fmt::format("more workers than K-steps of all tiles ({} tiles x {} K-steps "
                                 "= {})",
                                 s.batch.count * g.rows * g.cols, g.steps, iterations),
                     fmt::format("use at most {}", iterations)};
  }
  if (d.workers > 0 && s.stages > 1 && s.stages > iterations / d.workers) {
    return Violation{"workload.stages",
                     fmt::format("more stages than a worker's K-steps ({} over {} workers: {} "
                                 "in the shortest range)",
                                 iterations, d.workers, iterations / d.workers),
                     fmt::format("use at most {}", iterations / d.workers)};
  }
  return std::nullopt;
}

// The largest count the model forms is Q without reuse, 2 M N K e + M N e bytes a GEMM of the
// batch, the FLOPs the edge tiles issue over the matrix padded to whole tiles, or the address of
// the last batch's matrices and the split-K partial sums: keep them within 63 bits. Worked out
// in 64 bits with overflow checks (the chooser asks it of tens of thousands of candidates): every
// step is a factor or a part of the sum, so a step past 64 bits means a sum past 63.
std::optional<Violation> check_size(const GemmSpec& s, const GemmGrid& g) {
  const auto padded = [](std::uint64_t whole, std::uint64_t blocks, std::uint64_t tile) {
    return std::max(whole, blocks * tile);
  };
  // first x rest... into `out`; true past 64 bits.
  const auto product = [](std::uint64_t& out, std::uint64_t first, auto... rest) {
    out = first;
    return (__builtin_mul_overflow(out, std::uint64_t{rest}, &out) || ...);
  };
  std::uint64_t issued = 0;    // 2 x the padded M N K x e
  std::uint64_t partials = 0;  // M N x 8 x (1 + 2 x splits)
  std::uint64_t twice_splits = 0;
  std::uint64_t largest = 0;
  bool over = product(issued, padded(s.m, g.rows, s.tile.m), padded(s.n, g.cols, s.tile.n),
                      padded(s.k, g.steps, s.tile.k), 2 * element_bytes(s.dtype)) ||
              product(twice_splits, std::uint64_t{2}, s.decomposition.splits) ||
              product(partials, s.m, s.n, std::uint64_t{8}, twice_splits + 1) ||
              __builtin_add_overflow(issued, partials, &largest) ||
              __builtin_mul_overflow(largest, s.batch.count, &largest);
  if (!over && s.batch.count > 1) {
    std::uint64_t strides = 0;
    std::uint64_t last_batch = 0;  // the address of the last GEMM's matrices, in bytes x 8
    over = __builtin_add_overflow(s.stride_a(), s.stride_b(), &strides) ||
           __builtin_add_overflow(strides, s.stride_c(), &strides) ||
           product(last_batch, strides, std::uint64_t{8}, s.batch.count - 1) ||
           __builtin_add_overflow(largest, last_batch, &largest);
  }
  if (over || largest >= (std::uint64_t{1} << 63)) {
    return Violation{
        "workload",
        fmt::format("{}M x N x K = {} x {} x {} is too large: FLOP and byte counts would overflow "
                    "64 bits",
                    s.batch.count > 1 ? fmt::format("a batch of {} x ", s.batch.count) : "", s.m,
                    s.n, s.k),
        "reduce the matrix sizes"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Violation> check_rules(const GemmSpec& s) {
  if (!s.epilogue.empty() &&
      (s.batch.count > 1 || s.decomposition.kind == GemmDecomposition::stream_k)) {
    return Violation{"workload.epilogue",
                     s.batch.count > 1 ? "an epilogue is fused into a single GEMM, not a batch"
                                       : "an epilogue is fused into data-parallel or split-K "
                                         "GEMMs, not stream-K",
                     "run the epilogue as an elementwise workload after the GEMM"};
  }
  const GemmGrid g = grid_of(s);
  if (auto v = check_size(s, g)) return v;
  if (s.batch.stride_c && *s.batch.stride_c < s.m * s.n) {
    return Violation{"workload.batch_stride.c",
                     fmt::format("the GEMMs of a batch would write over each other's C (M x N = "
                                 "{} elements)",
                                 s.m * s.n),
                     fmt::format("use a stride of at least {}", s.m * s.n)};
  }
  if (s.awaits_choice()) {
    // Chosen against the machine later (choose_tile): nothing of the tile to check yet, but a
    // value set on the typed spec (a sweep's) would be overwritten by the choice.
    if (s.stages != 0) {
      return Violation{"workload.stages", "is chosen by tile: auto",
                       "sweep it with a base file that gives the tile"};
    }
    if (s.register_tile.m != 0 || s.register_tile.n != 0) {
      return Violation{"workload.register_tile", "is chosen by tile: auto",
                       "sweep it with a base file that gives the tile"};
    }
    return std::nullopt;
  }
  if (s.tile_auto && !s.choice) {
    return Violation{"workload.tile",
                     "replaces tile: auto, which also chooses the stages and the register tile",
                     "sweep the tile with a base file that gives a tile and its stages"};
  }
  if (auto v = check_fits("workload.tile.m", s.tile.m, s.m, "m", s.strategy)) return v;
  if (auto v = check_fits("workload.tile.n", s.tile.n, s.n, "n", s.strategy)) return v;
  if (auto v = check_fits("workload.tile.k", s.tile.k, s.k, "k", s.strategy)) return v;
  if (g.steps > kMaxStepsPerBlock) {
    return Violation{
        "workload.tile.k",
        fmt::format("a block would run {} / {} = {} K-steps; at most {} fit a block's program", s.k,
                    s.tile.k, g.steps, kMaxStepsPerBlock),
        "use a larger tile.k"};
  }
  if (s.stages > g.steps && s.stages > 1) {
    return Violation{"workload.stages",
                     fmt::format("more stages than K-steps ({} / {} = {})", s.k, s.tile.k, g.steps),
                     "use at most that many"};
  }
  const RegisterTile& r = s.register_tile;
  if (auto v = check_nests("workload.register_tile.m", r.m, s.tile.m, "tile.m")) return v;
  if (auto v = check_nests("workload.register_tile.n", r.n, s.tile.n, "tile.n")) return v;
  if (s.warp_tile) {
    const WarpTile& w = *s.warp_tile;
    if (auto v = check_nests("workload.warp_tile.m", w.m, s.tile.m, "tile.m")) return v;
    if (auto v = check_nests("workload.warp_tile.n", w.n, s.tile.n, "tile.n")) return v;
    if (auto v = check_holds("workload.warp_tile.m", w.m, r.m, "register_tile.m")) return v;
    if (auto v = check_holds("workload.warp_tile.n", w.n, r.n, "register_tile.n")) return v;
  }
  if (s.promotion_interval > 0 &&
      (s.strategy != GemmStrategy::tiled || s.decomposition.kind == GemmDecomposition::stream_k)) {
    return Violation{"workload.promotion_interval",
                     s.strategy != GemmStrategy::tiled
                         ? "promotion is a tensor-core kernel's (strategy: tiled)"
                         : "promotion is modelled for data-parallel and split-K GEMMs, not "
                           "stream-K",
                     "set promotion_interval: none"};
  }
  if (s.block_order.kind == BlockOrderKind::grouped && s.block_order.group > g.rows) {
    return Violation{
        "workload.block_order.group",
        fmt::format("a group spans at most the grid's block rows (m / tile.m = {})", g.rows),
        fmt::format("use a group of at most {}", g.rows)};
  }
  if (auto v = check_decomposition(s, g)) return v;
  return check_cluster(s);
}

std::optional<Violation> check_split_rules(const GemmSpec& s) {
  return check_split_rules(s, grid_of(s));
}

std::optional<Violation> check_split_rules(const GemmSpec& s, const GemmGrid& g) {
  if (auto v = check_size(s, g)) return v;
  return check_decomposition(s, g);
}

std::uint64_t sram_read_elements_per_k(const GemmSpec& s, std::uint32_t warp_size) {
  if (s.strategy != GemmStrategy::tiled) return 0;
  const TileShape& t = s.tile;
  if (s.warp_tile) {
    // Each warp (or warpgroup) of (B_M/W_M)(B_N/W_N) reads W_M elements of A and W_N of B.
    const WarpTile& w = *s.warp_tile;
    return (t.m / w.m) * (t.n / w.n) * (w.m + w.n);
  }
  // Threads are numbered along n first: the block's thread grid has B_N/R_N columns, and a warp
  // is warp_size consecutive threads of it. A warp reads the R_M elements of A of each grid row it
  // spans and the R_N of B of each column, once: threads that read the same word get it from one
  // bank access.
  const RegisterTile& r = s.register_tile;
  const std::uint64_t columns = t.n / r.n;
  const std::uint64_t threads = (t.m / r.m) * columns;
  if (threads == 0) return 0;  // a register tile larger than the tile: refused by check_rules
  const std::uint64_t width = std::max<std::uint32_t>(1, warp_size);
  const auto warp_reads = [&](std::uint64_t first, std::uint64_t last) {  // threads, inclusive
    const std::uint64_t rows = last / columns - first / columns + 1;
    const std::uint64_t cols =
        rows == 1   ? last - first + 1
        : rows == 2 ? std::min(columns, columns - first % columns + last % columns + 1)
                    : columns;
    return rows * r.m + cols * r.n;
  };
  // Every warp alike when a warp covers whole rows or lies within one (the usual shapes).
  const std::uint64_t whole_warps = threads / width;
  if (columns % width == 0 || (width % columns == 0 && threads % width == 0)) {
    return whole_warps * warp_reads(0, width - 1) +
           (threads % width == 0 ? 0 : warp_reads(whole_warps * width, threads - 1));
  }
  std::uint64_t elements = 0;
  for (std::uint64_t first = 0; first < threads; first += width)
    elements += warp_reads(first, std::min(threads, first + width) - 1);
  return elements;
}

std::uint64_t sram_reads_per_step_of(const GemmSpec& s, std::uint32_t warp_size) {
  return sram_read_elements_per_k(s, warp_size) * s.tile.k * element_bytes(s.dtype);
}

std::uint64_t warp_instructions_per_step_of(const GemmSpec& s, std::uint32_t warp_size) {
  if (s.strategy != GemmStrategy::tiled || !multiplies_on_lanes(s.dtype)) return 0;
  // The widest a thread moves in one instruction: ld.shared.v4.b32 (LDS.128), and cp.async's
  // 16 bytes [PTX ISA].
  constexpr std::uint64_t kWidestAccessBytes = 16;
  const std::uint64_t e = element_bytes(s.dtype);
  const RegisterTile& r = s.register_tile;
  const std::uint64_t threads = threads_per_block(s);
  if (threads == 0) return 0;  // a register tile larger than the tile: refused by check_rules
  const std::uint64_t warps =
      ceil_div(threads, std::uint64_t{std::max<std::uint32_t>(1, warp_size)});
  const std::uint64_t per_k =
      r.m * r.n + ceil_div(r.m * e, kWidestAccessBytes) + ceil_div(r.n * e, kWidestAccessBytes);
  const std::uint64_t tile_bytes = (s.tile.m + s.tile.n) * s.tile.k * e;
  const std::uint64_t copies = ceil_div(tile_bytes, kWidestAccessBytes * threads);
  return warps * (s.tile.k * per_k + copies + 1);
}

std::uint64_t threads_per_block(const GemmSpec& s) {
  return (s.tile.m / s.register_tile.m) * (s.tile.n / s.register_tile.n);
}

ThreadRegisters thread_registers(const GemmSpec& s) {
  const RegisterTile& r = s.register_tile;
  ThreadRegisters t;
  t.accumulators = ceil_div(r.m * r.n * element_bytes(s.accumulator), kRegisterBytes);
  t.fragments = ceil_div((r.m + r.n) * element_bytes(s.dtype), kRegisterBytes);
  t.overhead = s.register_overhead;
  t.given = s.registers_per_thread.has_value();
  t.total = t.given ? *s.registers_per_thread : t.accumulators + t.fragments + t.overhead;
  return t;
}

Footprint footprint(const GemmSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  Footprint f;
  f.stages = s.stages;
  f.accumulator_bytes = s.tile.m * s.tile.n * element_bytes(s.accumulator);
  if (s.strategy == GemmStrategy::tiled) {
    f.input_bytes_per_stage = (s.tile.m * s.tile.k + s.tile.k * s.tile.n) * e;
    f.input_bytes = f.input_bytes_per_stage * s.stages;
    f.sram_bytes = f.input_bytes;
  }
  assign_registers(f, threads_per_block(s), thread_registers(s).total, target);
  return f;
}

Analysis analyze(const GemmSpec& s, const Roof& roof, const KernelTarget& target) {
  if (s.decomposition.kind == GemmDecomposition::stream_k) return analyze_stream_k(s, roof, target);
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t batch = s.batch.count;
  const bool tiled = s.strategy == GemmStrategy::tiled;
  const GemmGrid g = grid_of(s);
  const std::uint64_t splits =
      s.decomposition.kind == GemmDecomposition::split_k ? s.decomposition.splits : 1;
  // The matrix padded to whole tiles: what the edge tiles compute and land in SRAM (predicated
  // lanes and zero-filled rows included). Equal to M, N, K when the tiles divide them.
  const std::uint64_t mp = g.rows * s.tile.m, np = g.cols * s.tile.n, kp = g.steps * s.tile.k;
  Analysis a;
  a.flops = batch * 2 * s.m * s.n * s.k;
  a.issued_flops = batch * 2 * mp * np * kp;
  // An element of A is read once per group of outputs along N that shares it on chip: the block
  // column (in SRAM) when tiled, else the thread (R_N, in registers; 1 without reuse). B
  // likewise. A cluster fetches a tile once for all its blocks (C_N block columns, C_M rows).
  // Edge tiles read only what lies in the matrix. Splitting K moves none of this: each split
  // reads its own K-steps.
  const std::uint64_t a_copies = tiled ? g.cols / s.cluster.n : s.n / s.register_tile.n;
  const std::uint64_t b_copies = tiled ? g.rows / s.cluster.m : s.m / s.register_tile.m;
  a.hbm_read_bytes = batch * (a_copies * s.m * s.k * e + b_copies * s.k * s.n * e);
  a.hbm_write_bytes = batch * s.m * s.n * e;  // C written once, never read
  // Split-K: every split but the last writes its partial sums of C in the accumulator type,
  // the last reads them back and adds them to its own, on the vector units over whole tiles.
  const std::uint64_t partials = partial_sum_bytes(s);
  a.hbm_write_bytes += partials;
  a.hbm_read_bytes += partials;
  a.hbm_register_read_bytes = partials;  // the last split adds them in registers
  a.vector_flops = (splits - 1) * batch * mp * np + promotion_flops(s);
  a.issued_flops += a.vector_flops;
  // A fused epilogue: its FLOPs useful for the outputs, issued over whole tiles in FP32 on the
  // vector units; each operand read into registers: a bias once per block row, a residual once.
  for (const EpilogueStep& step : s.epilogue) {
    const std::uint64_t per_element = info_of(step.op).flops_per_element;
    a.flops += batch * s.m * s.n * per_element;
    a.vector_flops += batch * mp * np * per_element;
    a.issued_flops += batch * mp * np * per_element;
    const std::uint64_t operand = step.operand == EpilogueStep::Operand::bias ? g.rows * s.n * e
                                  : step.operand == EpilogueStep::Operand::residual ? s.m * s.n * e
                                                                                    : 0;
    a.hbm_read_bytes += batch * operand;
    a.hbm_register_read_bytes += batch * operand;
  }
  if (tiled) {
    // Whole tiles land in every block's SRAM; threads (or warps) read them into registers, each
    // element reused over the register (or warp) tile.
    a.sram_write_bytes = batch * (g.cols * mp * kp * e + g.rows * kp * np * e);
    a.sram_read_bytes =
        batch * g.rows * g.cols * kp * sram_read_elements_per_k(s, target.warp_size) * e;
    a.warp_instructions =
        batch * g.rows * g.cols * g.steps * warp_instructions_per_step_of(s, target.warp_size);
  }
  a.roof = roof;
  a.roofline =
      roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof, a.vector_flops, a.warp_instructions);
  a.footprint = footprint(s, target);
  // Spilled registers travel both ways once per K-step after a block's first (see
  // staged_loop.hpp): every block of the splits of every tile, steps - splits times in all.
  const std::uint64_t spill_bytes =
      a.footprint.threads * a.footprint.spilled_registers_per_thread * kRegisterBytes;
  a.local_read_bytes = a.local_write_bytes =
      batch * g.rows * g.cols * (g.steps - splits) * spill_bytes;
  return a;
}

namespace {

// What the blocks of one band of a split-K grid (or the whole data-parallel grid) do after their
// K loop: hand their partial sums to the last split, or reduce the others' and write C.
enum class SplitRole { whole, hands_over, reduces };

// The block program of a band: its K-slice, `steps` K-steps from `first_step` for split 0 (each
// later split `split_steps` further on), then what its role does with the accumulators. The
// band's first split is `first_split`: its K-steps decide which tile is partial (only the last
// split holds the last K-step).
Program band_program(const GemmSpec& s, const GemmTiles& tiles, const Footprint& f,
                     const KernelTarget& target, std::uint64_t first_step, std::uint64_t steps,
                     std::uint64_t split_steps, std::uint64_t first_split, SplitRole role) {
  const bool tiled = s.strategy == GemmStrategy::tiled;
  std::vector<std::string> names{"A", "B", "C", "local", "partial"};
  for (const TensorRef& tensor : tensors(s)) {
    if (tensor.role == TensorRole::input && tensor.name != "A" && tensor.name != "B")
      names.push_back(tensor.name);  // the epilogue's operands, in step order
  }
  ProgramBuilder builder(names);
  constexpr std::uint8_t kA = 0, kB = 1, kC = 2, kLocal = 3, kPartial = 4, kEpilogue = 5;
  StagedLoopShape shape;
  shape.stages = s.stages;
  // Barriers guard buffers every thread of the block shares; operands in registers need none.
  if (tiled) shape.barrier = target.barrier;
  if (f.spilled_registers_per_thread > 0) {
    // Each block's spilled registers, past everything else.
    shape.spill = spill_per_block(kLocal, tiles.layout().local,
                                  f.threads * f.spilled_registers_per_thread * kRegisterBytes,
                                  tiles.grid().cols);
  }
  StagedLoop loop(builder, shape);
  const TileShape& t = s.tile;
  // Every K-step's compute reads the same operands and issues the same instructions.
  const std::uint64_t step_reads = tiles.sram_reads_per_step(target.warp_size);
  const std::uint64_t step_instructions = warp_instructions_per_step_of(s, target.warp_size);
  // Promotions (promotion_interval): after the K-step in which each interval of K ends, and after
  // the last, an FMA an accumulator each, before the next MMA.
  for (std::uint64_t i = 0; i < steps; ++i) {
    const std::uint64_t step = first_step + i;
    const std::uint64_t k_step = step + first_split * split_steps;
    loop.add_step({Op::load(kA, static_cast<std::uint32_t>(step),
                            tiles.a_tile(step, split_steps, k_step), tiles.a_lands()),
                   Op::load(kB, static_cast<std::uint32_t>(step),
                            tiles.b_tile(step, split_steps, k_step), tiles.b_lands())},
                  Op::compute(static_cast<std::uint32_t>(step), 2 * t.m * t.n * t.k, step_reads)
                      .issuing(step_instructions));
    if (const std::uint64_t promotions = promotions_after(s, i, steps); promotions > 0) {
      loop.add_after_compute(
          Op::compute(static_cast<std::uint32_t>(step), promotions * 2 * t.m * t.n, 0)
              .in_type(DataType::fp32));
    }
  }
  const std::uint32_t last = static_cast<std::uint32_t>(first_step + steps - 1);
  std::uint32_t result = loop.last_compute();
  if (role == SplitRole::hands_over) {
    // The partial sums go to the split's own workspace slice; the flag counts them once they
    // are in memory.
    const std::uint32_t store = builder.add(Op::store(kPartial, last, tiles.partial_tile(0, true)));
    builder.depend(result, store, EdgeKind::data);
    const std::uint32_t signal = builder.add(Op::signal(last, tiles.tile_flag()));
    builder.depend(store, signal, EdgeKind::data);
    return builder.compile();
  }
  if (role == SplitRole::reduces) {
    // After its own K-slice (the others' are under way meanwhile), the last split waits for
    // every other split's flag, reads their partial sums into registers and adds them.
    const std::uint64_t others = tiles.splits() - 1;
    const std::uint32_t wait =
        builder.add(Op::wait(last, tiles.tile_flag(), static_cast<std::uint32_t>(others)));
    builder.depend(result, wait, EdgeKind::data);
    const std::uint32_t add =
        builder.add(Op::compute(last, others * t.m * t.n, 0).in_type(DataType::fp32));
    builder.depend(result, add, EdgeKind::data);
    for (std::uint64_t slice = 0; slice < others; ++slice) {
      const std::uint32_t load = builder.add(Op::load(kPartial, static_cast<std::uint32_t>(slice),
                                                      tiles.partial_tile(slice, false), 0));
      builder.depend(wait, load, EdgeKind::data);
      builder.depend(load, add, EdgeKind::data);
    }
    result = add;
  }
  if (!s.epilogue.empty()) {
    // The epilogue on the finished tile: its operands loaded into registers, then its FLOPs.
    std::uint64_t flops = 0;
    for (const EpilogueStep& step : s.epilogue) flops += info_of(step.op).flops_per_element;
    const std::uint32_t epilogue =
        builder.add(Op::compute(last, flops * t.m * t.n, 0).in_type(DataType::fp32));
    builder.depend(result, epilogue, EdgeKind::data);
    for (std::size_t i = 0; i < s.epilogue.size(); ++i) {
      if (s.epilogue[i].operand == EpilogueStep::Operand::none) continue;
      const std::uint32_t load = builder.add(
          Op::load(static_cast<std::uint8_t>(kEpilogue + i), last, tiles.epilogue_tile(i), 0));
      builder.depend(result, load, EdgeKind::data);
      builder.depend(load, epilogue, EdgeKind::data);
    }
    result = epilogue;
  }
  // Partial sums stay in registers until the last K-step; C is written once.
  const std::uint32_t store = builder.add(Op::store(kC, 0, tiles.c_tile()));
  builder.depend(result, store, EdgeKind::data);
  return builder.compile();
}

}  // namespace

Kernel build_kernel(const GemmSpec& s, const KernelTarget& target) {
  if (s.decomposition.kind == GemmDecomposition::stream_k) return build_stream_k_kernel(s, target);
  const GemmTiles tiles(s);
  const GemmGrid& g = tiles.grid();
  const Footprint f = footprint(s, target);
  const std::uint64_t splits = tiles.splits();
  const std::uint64_t rows = tiles.split_rows();  // block rows a split

  Kernel kernel;
  kernel.name = describe(s);
  kernel.compute_type = s.dtype;
  kernel.grid_rows = splits * rows;
  kernel.grid_cols = g.cols;
  if (splits == 1) {
    kernel.program = band_program(s, tiles, f, target, 0, g.steps, 0, 0, SplitRole::whole);
  } else {
    // The first steps % splits splits take one K-step more than the rest: a band of their own.
    const KSlice first = k_slice(s, 0), last = k_slice(s, splits - 1);
    const std::uint64_t longer = g.steps % splits;
    kernel.program = band_program(s, tiles, f, target, first.first_step, first.steps, first.steps,
                                  0, SplitRole::hands_over);
    if (longer > 0 && longer < splits - 1) {
      // Split j >= longer starts at K-step j x steps + longer.
      kernel.bands.push_back(
          ProgramBand{longer * rows, band_program(s, tiles, f, target, longer, last.steps,
                                                  last.steps, longer, SplitRole::hands_over)});
    }
    kernel.bands.push_back(
        ProgramBand{(splits - 1) * rows, band_program(s, tiles, f, target, longer, last.steps,
                                                      last.steps, splits - 1, SplitRole::reduces)});
    kernel.flags = rows * g.cols;
  }
  take_block_resources(kernel, f);
  kernel.block_order = s.block_order;
  kernel.block_order.cluster_rows = s.cluster.m;
  kernel.block_order.cluster_cols = s.cluster.n;
  return kernel;
}

std::vector<TensorRef> tensors(const GemmSpec& s) {
  const GemmTiles tiles(s);
  const GemmLayout& l = tiles.layout();
  // A matrix, or a batch of them at their stride (the span it covers when not packed).
  auto matrix = [&](std::uint64_t rows, std::uint64_t cols, std::uint64_t stride) {
    if (s.batch.count == 1) return TensorShape{{rows, cols}};
    if (stride == rows * cols) return TensorShape{{s.batch.count, rows, cols}};
    return TensorShape{{(s.batch.count - 1) * stride + rows * cols}};
  };
  std::vector<TensorRef> out{
      TensorRef{"A", TensorRole::input, matrix(s.m, s.k, s.stride_a()), s.dtype, l.a},
      TensorRef{"B", TensorRole::input, matrix(s.k, s.n, s.stride_b()), s.dtype, l.b}};
  for (std::size_t i = 0; i < s.epilogue.size(); ++i) {
    const EpilogueStep::Operand operand = s.epilogue[i].operand;
    if (operand == EpilogueStep::Operand::none) continue;
    // "bias", "residual"; a second of the same kind is "bias2".
    std::size_t same = 0;
    for (std::size_t j = 0; j < i; ++j) same += s.epilogue[j].operand == operand;
    const std::string name =
        std::string(name_of(operand)) + (same > 0 ? std::to_string(same + 1) : "");
    const TensorShape shape =
        operand == EpilogueStep::Operand::bias ? TensorShape{{s.n}} : TensorShape{{s.m, s.n}};
    out.push_back(TensorRef{name, TensorRole::input, shape, s.dtype, l.epilogue[i]});
  }
  out.push_back(TensorRef{"C", TensorRole::output, matrix(s.m, s.n, s.stride_c()), s.dtype, l.c});
  if (tiles.splits() > 1) {
    out.push_back(TensorRef{"partial", TensorRole::workspace,
                            TensorShape{{tiles.splits() - 1, s.batch.count, s.m, s.n}},
                            s.accumulator, l.workspace});
  } else if (s.decomposition.kind == GemmDecomposition::stream_k) {
    out.push_back(TensorRef{"partial", TensorRole::workspace,
                            TensorShape{{s.decomposition.workers, s.tile.m, s.tile.n}},
                            s.accumulator, l.workspace});
  }
  return out;
}

std::string WorkloadKind<GemmSpec>::short_label(const GemmSpec& g) {
  if (g.strategy == GemmStrategy::no_reuse) return "no reuse";
  const std::string tile = g.tile.m == g.tile.n && g.tile.n == g.tile.k
                               ? fmt::format("t = {}", g.tile.m)
                               : fmt::format("{}x{}x{}", g.tile.m, g.tile.n, g.tile.k);
  std::string label = fmt::format("{}, {} stage{}", tile, g.stages, g.stages == 1 ? "" : "s");
  if (g.block_order.kind == BlockOrderKind::grouped) {
    label += fmt::format(", grouped {}", g.block_order.group);
  } else if (g.block_order.kind == BlockOrderKind::column_major) {
    label += ", column-major";
  }
  return label;
}

std::optional<Violation> WorkloadKind<GemmSpec>::check_threads(const GemmSpec& spec,
                                                               const KernelTarget& limits) {
  if (spec.cluster.blocks() > limits.max_cluster_size) {
    return Violation{
        "workload.cluster",
        limits.max_cluster_size == 1
            ? fmt::format("a cluster of {} x {} blocks, but the cores have no thread-block "
                          "clusters (hardware.cores.max_cluster_size is 1)",
                          spec.cluster.m, spec.cluster.n)
            : fmt::format("a cluster of {} x {} = {} blocks, but a cluster holds at most {} "
                          "(hardware.cores.max_cluster_size)",
                          spec.cluster.m, spec.cluster.n, spec.cluster.blocks(),
                          limits.max_cluster_size),
        "use a smaller cluster, or leave cluster out"};
  }
  if (!spec.warp_tile) return std::nullopt;
  // A warp tile is what one warp's (or warpgroup's) threads compute together: exactly that many
  // register tiles.
  const WarpTile& w = *spec.warp_tile;
  if (w.warps > 1 && !limits.warpgroup_mma) {
    return Violation{"workload.warp_tile.warps",
                     fmt::format("{} warps sharing one matrix instruction need warpgroup MMA, "
                                 "which the cores lack (hardware.cores.warpgroup_mma is false)",
                                 w.warps),
                     "use warps: 1 (a warp's mma), or a machine with warpgroup MMA"};
  }
  if (w.warps > 1 && multiplies_on_lanes(spec.dtype)) {
    return Violation{"workload.warp_tile.warps",
                     fmt::format("{} warps share operands only in a warpgroup's matrix "
                                 "instruction (wgmma), which takes TF32 and narrower types; {} "
                                 "multiply-adds are each lane's own, its operands read by its warp",
                                 w.warps, name_of(spec.dtype)),
                     "use warps: 1, or a type of the tensor cores (tf32, bf16, fp16, fp8, int8)"};
  }
  const RegisterTile& r = spec.register_tile;
  const std::uint64_t threads = (w.m / r.m) * (w.n / r.n);
  const std::uint64_t wanted = std::uint64_t{limits.warp_size} * w.warps;
  if (threads == wanted) return std::nullopt;
  const std::string group =
      w.warps == 1 ? fmt::format("a warp has {}", limits.warp_size)
                   : fmt::format("{} warps of {} have {}", w.warps, limits.warp_size, wanted);
  return Violation{"workload.warp_tile",
                   fmt::format("a warp tile of {} x {} with a register tile of {} x {} has {} "
                               "threads but {} (hardware.cores.warp_size)",
                               w.m, w.n, r.m, r.n, threads, group),
                   "choose warp_tile so that (m / register_tile.m) x (n / register_tile.n) "
                   "equals the warp size times warp_tile.warps"};
}

ThreadRegistersNote WorkloadKind<GemmSpec>::thread_registers_note(const GemmSpec& spec) {
  ThreadRegistersNote note;
  const ThreadRegisters r = thread_registers(spec);
  if (r.given) {
    note.limit_key = "workload.registers_per_thread";  // the count was written outright
  } else {
    note.breakdown = fmt::format(" ({} + {} + {} overhead)", counted(r.accumulators, "accumulator"),
                                 counted(r.fragments, "operand fragment"), r.overhead);
  }
  note.limit_fix =
      "use a smaller register_tile, or set 'spill: local' to keep the excess in local memory";
  note.spills = spec.spill == SpillPolicy::local;
  return note;
}

}  // namespace ridgeline
