#include "workloads/gemm.hpp"

#include <fmt/format.h>

#include "workloads/element_grid.hpp"
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

std::string describe(const GemmSpec& s) {
  std::string text =
      fmt::format("gemm {}x{}x{} {} {}", s.m, s.n, s.k, name_of(s.dtype), name_of(s.strategy));
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
  if (s.block_order.kind == BlockOrderKind::grouped) {
    text += fmt::format(", blocks grouped by {}", s.block_order.group);
  } else if (s.block_order.kind == BlockOrderKind::column_major) {
    text += ", blocks column-major";
  }
  return text;
}

namespace {

// `tile` is no larger than `whole`, and divides it unless edge tiles are modelled (tiled only).
std::optional<Violation> check_fits(const char* key, std::uint64_t tile, std::uint64_t whole,
                                    const char* matrix_dim, GemmStrategy strategy) {
  if (tile > whole) {
    return Violation{key,
                     fmt::format("the tile is larger than the matrix ({} = {})", matrix_dim, whole),
                     fmt::format("use a tile of at most {}", whole)};
  }
  if (whole % tile != 0 && strategy != GemmStrategy::tiled) {
    return Violation{key,
                     fmt::format("the tile does not divide the matrix ({} = {}); edge tiles are "
                                 "modelled for strategy: tiled only",
                                 matrix_dim, whole),
                     "choose a divisor of it, or use strategy: tiled"};
  }
  return std::nullopt;
}

// A register or warp tile nests in the tile above it: `key`'s `value` divides the `outer` one.
std::optional<Violation> check_nests(const char* key, std::uint64_t value, std::uint64_t outer,
                                     const char* outer_name) {
  if (outer % value == 0) return std::nullopt;
  return Violation{key, fmt::format("must divide {} = {}", outer_name, outer), ""};
}

// ...and holds whole tiles of the one below it: `key`'s `value` is a multiple of `inner`.
std::optional<Violation> check_holds(const char* key, std::uint64_t value, std::uint64_t inner,
                                     const char* inner_name) {
  if (value % inner == 0) return std::nullopt;
  return Violation{key, fmt::format("must be a multiple of {} = {}", inner_name, inner), ""};
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

GemmGrid grid_of(const GemmSpec& s) {
  const auto blocks = [](std::uint64_t whole, std::uint64_t tile) {
    return tile == 0 ? 0 : ceil_div(whole, tile);
  };
  return GemmGrid{blocks(s.m, s.tile.m), blocks(s.n, s.tile.n), blocks(s.k, s.tile.k)};
}

std::optional<Violation> check_rules(const GemmSpec& s) {
  // The largest count the model forms is Q without reuse, 2 M N K e + M N e bytes, or the FLOPs
  // the edge tiles issue over the matrix padded to whole tiles: keep them within 63 bits.
  using u128 = unsigned __int128;
  const GemmGrid g = grid_of(s);
  const auto padded = [](std::uint64_t whole, std::uint64_t blocks, std::uint64_t tile) {
    return std::max(whole, blocks * tile);
  };
  const u128 products = u128{padded(s.m, g.rows, s.tile.m)} * padded(s.n, g.cols, s.tile.n) *
                        padded(s.k, g.steps, s.tile.k);
  const u128 largest = 2 * products * element_bytes(s.dtype) + u128{s.m} * s.n * 8;
  if (largest >= (u128{1} << 63)) {
    return Violation{
        "workload",
        fmt::format(
            "M x N x K = {} x {} x {} is too large: FLOP and byte counts would overflow 64 bits",
            s.m, s.n, s.k),
        "reduce the matrix sizes"};
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
  if (s.block_order.kind == BlockOrderKind::grouped && s.block_order.group > g.rows) {
    return Violation{
        "workload.block_order.group",
        fmt::format("a group spans at most the grid's block rows (m / tile.m = {})", g.rows),
        fmt::format("use a group of at most {}", g.rows)};
  }
  return check_cluster(s);
}

namespace {

// The outputs whose operands are read from SRAM together: a warp's when the warp shares its
// fragments (warp_tile), else one thread's register tile.
RegisterTile sram_read_tile(const GemmSpec& s) {
  return s.warp_tile ? RegisterTile{s.warp_tile->m, s.warp_tile->n} : s.register_tile;
}

}  // namespace

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
  const std::uint64_t e = element_bytes(s.dtype);
  const bool tiled = s.strategy == GemmStrategy::tiled;
  const GemmGrid g = grid_of(s);
  // The matrix padded to whole tiles: what the edge tiles compute and land in SRAM (predicated
  // lanes and zero-filled rows included). Equal to M, N, K when the tiles divide them.
  const std::uint64_t mp = g.rows * s.tile.m, np = g.cols * s.tile.n, kp = g.steps * s.tile.k;
  Analysis a;
  a.flops = 2 * s.m * s.n * s.k;
  a.issued_flops = 2 * mp * np * kp;
  // An element of A is read once per group of outputs along N that shares it on chip: the block
  // column (in SRAM) when tiled, else the thread (R_N, in registers; 1 without reuse). B
  // likewise. A cluster fetches a tile once for all its blocks (C_N block columns, C_M rows).
  // Edge tiles read only what lies in the matrix.
  const std::uint64_t a_copies = tiled ? g.cols / s.cluster.n : s.n / s.register_tile.n;
  const std::uint64_t b_copies = tiled ? g.rows / s.cluster.m : s.m / s.register_tile.m;
  a.hbm_read_bytes = a_copies * s.m * s.k * e + b_copies * s.k * s.n * e;
  a.hbm_write_bytes = s.m * s.n * e;  // C written once, never read
  if (tiled) {
    // Whole tiles land in every block's SRAM; threads (or warps) read them into registers, each
    // element reused over the register (or warp) tile.
    const RegisterTile r = sram_read_tile(s);
    a.sram_write_bytes = g.cols * mp * kp * e + g.rows * kp * np * e;
    a.sram_read_bytes = (np / r.n) * mp * kp * e + (mp / r.m) * kp * np * e;
  }
  a.roof = roof;
  a.roofline = roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof);
  a.footprint = footprint(s, target);
  // Spilled registers travel both ways once per K-step after the first (see staged_loop.hpp).
  const std::uint64_t spill_bytes =
      a.footprint.threads * a.footprint.spilled_registers_per_thread * kRegisterBytes;
  a.local_read_bytes = a.local_write_bytes = g.rows * g.cols * (g.steps - 1) * spill_bytes;
  return a;
}

Kernel build_kernel(const GemmSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const MatrixLayout layout = gemm_layout(s.m, s.n, s.k, e);
  const TileShape& t = s.tile;
  const RegisterTile& r = s.register_tile;
  const bool tiled = s.strategy == GemmStrategy::tiled;
  const GemmGrid g = grid_of(s);
  const std::uint64_t steps = g.steps;
  const std::uint64_t grid_cols = g.cols;
  // Edge tiles load and store only what lies in the matrix: the last block row keeps the rows
  // left of A and C, the last block column the columns left of B and C, the last K-step the
  // columns left of A and rows left of B (predicated loads; the rest of the tile is zero-filled).
  const std::uint64_t edge_rows = s.m % t.m != 0 ? s.m : 0;
  const std::uint64_t edge_row_bytes = s.n % t.n != 0 ? s.n * e : 0;
  const auto k_left = [&](std::uint64_t step) { return std::min(t.k, s.k - step * t.k); };

  // A_k for block (r, c): rows [r B_M, +B_M), columns [k B_K, +B_K) of A. Straight into
  // registers, each column of threads reads that region for itself (B_N / R_N times); B_k
  // likewise once per row of threads.
  // In a cluster, each block fetches its share of the rows: A's B_M / C_N, B's B_K / C_M.
  const ClusterShape& cluster = s.cluster;
  auto a_tile = [&](std::uint64_t step) {
    AddressPattern p;
    const std::uint64_t rows = t.m / cluster.n;
    p.region_of_block0 =
        Region{layout.a + step * t.k * e, rows, k_left(step) * e, s.k * e, tiled ? 1 : t.n / r.n};
    p.block_row_bytes = t.m * s.k * e;
    p.tensor_rows = edge_rows;
    p.cluster_cols = static_cast<std::uint32_t>(cluster.n);
    p.member_col_bytes = rows * s.k * e;
    return p;
  };
  auto b_tile = [&](std::uint64_t step) {
    AddressPattern p;
    const std::uint64_t rows = k_left(step) / cluster.m;
    p.region_of_block0 =
        Region{layout.b + step * t.k * s.n * e, rows, t.n * e, s.n * e, tiled ? 1 : t.m / r.m};
    p.block_col_bytes = t.n * e;
    p.tensor_row_bytes = edge_row_bytes;
    p.cluster_rows = static_cast<std::uint32_t>(cluster.m);
    p.member_row_bytes = rows * s.n * e;
    return p;
  };
  AddressPattern c_tile;
  c_tile.region_of_block0 = Region{layout.c, t.m, t.n * e, s.n * e, 1};
  c_tile.block_row_bytes = t.m * s.n * e;
  c_tile.block_col_bytes = t.n * e;
  c_tile.tensor_rows = edge_rows;
  c_tile.tensor_row_bytes = edge_row_bytes;

  // Operand bytes compute reads from SRAM per K-step: each thread of (B_M/R_M)(B_N/R_N) reads
  // R_M elements of A and R_N of B per k (each warp of (B_M/W_M)(B_N/W_N), W_M and W_N).
  const RegisterTile reader = sram_read_tile(s);
  const std::uint64_t sram_reads =
      tiled ? (t.m / reader.m) * (t.n / reader.n) * (reader.m + reader.n) * t.k * e : 0;

  const Footprint f = footprint(s, target);
  ProgramBuilder builder({"A", "B", "C", "local"});
  constexpr std::uint8_t kA = 0, kB = 1, kC = 2, kLocal = 3;
  StagedLoopShape shape;
  shape.stages = s.stages;
  // Barriers guard buffers every thread of the block shares; operands in registers need none.
  if (tiled) shape.barrier = target.barrier;
  if (f.spilled_registers_per_thread > 0) {
    // Each block's spilled registers, one after the other past C (local memory is per thread).
    const std::uint64_t bytes = f.threads * f.spilled_registers_per_thread * kRegisterBytes;
    const std::uint64_t base = layout.c + align_up(s.m * s.n * e, kTensorAlignmentBytes);
    LocalSpill spill{kLocal, {}};
    spill.region.region_of_block0 = Region::contiguous(base, bytes);
    spill.region.block_row_bytes = grid_cols * bytes;
    spill.region.block_col_bytes = bytes;
    shape.spill = spill;
  }
  StagedLoop loop(builder, shape);
  for (std::uint64_t step = 0; step < steps; ++step) {
    const auto k = static_cast<std::uint32_t>(step);
    // Tiled loads land in SRAM; otherwise operands go straight to registers.
    const AddressPattern a_k = a_tile(step);
    const AddressPattern b_k = b_tile(step);
    // Whole tiles land in SRAM, the block's own slice and those its cluster multicasts to it.
    const std::uint64_t a_lands = tiled ? t.m * t.k * e : 0;
    const std::uint64_t b_lands = tiled ? t.k * t.n * e : 0;
    loop.add_step({Op::load(kA, k, a_k, a_lands), Op::load(kB, k, b_k, b_lands)},
                  Op::compute(k, 2 * t.m * t.n * t.k, sram_reads));
  }
  // Partial sums stay in registers until the last K-step; C is written once.
  const std::uint32_t store = builder.add(Op::store(kC, 0, c_tile));
  builder.depend(loop.last_compute(), store, EdgeKind::data);

  Kernel kernel;
  kernel.name = describe(s);
  kernel.compute_type = s.dtype;
  kernel.program = builder.compile();
  kernel.grid_rows = g.rows;
  kernel.grid_cols = grid_cols;
  take_block_resources(kernel, f);
  kernel.block_order = s.block_order;
  kernel.block_order.cluster_rows = cluster.m;
  kernel.block_order.cluster_cols = cluster.n;
  return kernel;
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
