// C = A @ B with A M x K, B K x N, C M x N, row-major, in one data type.
//
// Strategies (the seed note, section 3 and 4):
// - no_reuse: every multiply reads its A and B element from HBM. Blocks of tile.m x tile.n
//   outputs, one thread each, stream their operands straight into registers, tile.k at a time;
//   nothing is kept.
// - register_tiled: local blocking only. Each thread computes register_tile.m x register_tile.n
//   outputs and reads, per k, its R_M elements of A and R_N of B from memory straight into
//   registers, where each is used R_N (or R_M) times; no shared memory. With a 1 x 1 register
//   tile this is no_reuse.
// - tiled: shared-memory blocking. A block computes a tile.m x tile.n output tile; per K-step it
//   loads a tile.m x tile.k tile of A and a tile.k x tile.n tile of B into SRAM, keeps `stages`
//   such buffers (1 = single, 2 = double buffering, more = multi-stage) and accumulates in
//   registers; C is written once. Each thread computes register_tile.m x register_tile.n outputs
//   (local blocking on top), which sets how many operand bytes compute reads from SRAM:
//   (B_M/R_M)(B_N/R_N)(R_M + R_N) B_K e per K-step. Barriers guard the shared buffers.
//   With a warp_tile W_M x W_N (the outputs of one warp, its threads' register tiles together)
//   the warp reads each operand fragment from SRAM once for all its threads, as tensor-core
//   matrix instructions load their fragments: (B_M/W_M)(B_N/W_N)(W_M + W_N) B_K e per K-step.
//   A warp tile of `warps: 4` is a Hopper warpgroup's (wgmma): its four warps' outputs, their
//   operands read from SRAM once for the 128 threads.
// - A cluster of C_M x C_N blocks (Hopper's thread-block clusters, tiled only) shares its tiles
//   by TMA multicast: the C_N blocks of a cluster's block row need the same A tile, and each
//   fetches a C_N-th of it (its rows) for all of them; the C_M blocks of a column share B so.
//   Every block's SRAM still receives whole tiles; the L2 and HBM serve each tile once per
//   cluster. A block waits for its own slice only: the cluster's blocks start together and fetch
//   their slices side by side, which the model takes to land together.
// Local blocking divides the traffic of the level that feeds the registers (HBM without shared
// memory, SRAM with it) by the register tile; shared-memory blocking divides HBM traffic by the
// block tile.
//
// A batch of `batch` GEMMs of one shape, each matrix `batch_stride` elements after the one before
// (0: one matrix all the GEMMs share), runs as one grid: the batch's block rows one after the
// other (cuBLAS's strided batched GEMM).
//
// Decompositions of the K loop (tiled only), for grids too small to fill the machine (a skinny
// decode GEMM has a few output tiles and a long K):
// - split_k: each output tile's K-steps are split among `splits` blocks. Every split but the last
//   writes its partial sums (in the accumulator type) to a workspace and signals the tile's flag;
//   the last split computes its own K-slice, waits for the others' flags, reads their partials,
//   adds them (on the vector units, in FP32) and writes C (CUTLASS's split-K with an in-kernel
//   reduction). The splits are the grid's outermost rows, so every split is handed out before
//   the last one that waits for it, and the wait always ends.
// - stream_k: `workers` blocks share the K-steps of all tiles evenly (gemm_stream_k.hpp).
//
// `tile: auto` picks the tile, stages, register and warp tiles and the split from candidates by
// this model and the machine's occupancy (gemm_auto_tile.hpp), and says what it picked and why.
//
// Registers per thread: accumulators ceil(R_M R_N a / 4) + operand fragments
// ceil((R_M + R_N) e / 4) + `register_overhead` (addresses, indices, loop counters), unless
// `registers_per_thread` gives the count outright. Above the machine's per-thread limit the
// excess spills to local memory (spill: local) or the configuration is refused (spill: refuse).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/elementwise.hpp"
#include "workloads/tensor.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

enum class GemmStrategy { no_reuse, tiled, register_tiled };
std::string_view name_of(GemmStrategy strategy);

/// What happens to registers a thread needs beyond the machine's per-thread limit.
enum class SpillPolicy { refuse, local };

struct TileShape {
  std::uint64_t m = 0;  ///< B_M, rows of C per block
  std::uint64_t n = 0;  ///< B_N, columns of C per block
  std::uint64_t k = 0;  ///< B_K, K-step
};

struct RegisterTile {
  std::uint64_t m = 1;  ///< outputs per thread along M
  std::uint64_t n = 1;  ///< outputs per thread along N
};

/// The outputs of the warps that read their operand fragments from SRAM together: one warp
/// (mma after ldmatrix) or a warpgroup of four (Hopper's wgmma).
struct WarpTile {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  std::uint32_t warps = 1;  ///< 1: a warp; 4: a warpgroup
};

/// A batch of GEMMs of one shape: their count, and each matrix's distance from the one before, in
/// elements (unset: packed, one after the other; 0: every GEMM reads the same matrix).
struct GemmBatch {
  std::uint64_t count = 1;
  std::optional<std::uint64_t> stride_a;
  std::optional<std::uint64_t> stride_b;
  std::optional<std::uint64_t> stride_c;
};

enum class GemmDecomposition { data_parallel, split_k, stream_k };
std::string_view name_of(GemmDecomposition decomposition);

/// How the K loop of the output tiles is shared among blocks.
struct DecompositionParams {
  GemmDecomposition kind = GemmDecomposition::data_parallel;
  std::uint64_t splits = 1;   ///< split_k: blocks a tile's K-steps are split among
  std::uint64_t workers = 0;  ///< stream_k: blocks; 0 until chosen from the machine
};

/// What `tile: auto` chose, and why: the reports print it.
struct TileChoice {
  /// Configurations that fit the machine; each estimated unless a lower bound on its time
  /// (gemm_auto_tile.cpp, CandidateBound) was above the best of its kind already
  std::uint64_t candidates = 0;
  double estimated_time_s = 0;  ///< the winner's estimate
  std::string limited_by;       ///< the winner's longest term ("hbm", "latency", ...)
  std::string reason;           ///< one sentence: the winner against the best without it
};

/// A step of a fused epilogue: an element-wise operation applied to C's tile in registers before
/// it is stored (cuBLASLt's bias and GELU epilogues, a residual add), in FP32 on the vector units.
/// A binary operation's second operand is read from memory into registers: a vector of N
/// broadcast over the rows (a bias), or a matrix of C's shape (a residual).
struct EpilogueStep {
  enum class Operand : std::uint8_t { none, bias, residual };
  ElementwiseOp op = ElementwiseOp::relu;
  Operand operand = Operand::none;
};
std::string_view name_of(EpilogueStep::Operand operand);
/// "add(bias)", "gelu".
std::string epilogue_text(const std::vector<EpilogueStep>& epilogue);

/// Blocks of a thread-block cluster along M and N; 1 x 1 is no cluster.
struct ClusterShape {
  std::uint64_t m = 1;
  std::uint64_t n = 1;

  std::uint64_t blocks() const { return m * n; }
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
  /// The outputs of one warp (or warpgroup) when its threads share operand fragments read from
  /// SRAM (tiled only); unset, each thread reads its own operands.
  std::optional<WarpTile> warp_tile;
  ClusterShape cluster;  ///< blocks that multicast their tiles to each other (tiled only)
  std::uint32_t register_overhead = 0;                ///< registers per thread beyond the data
  std::optional<std::uint64_t> registers_per_thread;  ///< replaces the derived count when given
  SpillPolicy spill = SpillPolicy::refuse;
  BlockOrderParams block_order;  ///< the order output tiles are handed to cores
  GemmBatch batch;
  DecompositionParams decomposition;
  /// `tile: auto`: tile, stages, register and warp tiles and the split are chosen for the machine
  /// (choose_tile in gemm_auto_tile.hpp); until then tile is 0 x 0 x 0.
  bool tile_auto = false;
  /// `tile: auto` without a `block_order`: the chooser picks the order too.
  bool block_order_auto = false;
  std::optional<TileChoice> choice;  ///< set once chosen
  /// Applied to C in registers before the store, in order (data-parallel or split-K only).
  std::vector<EpilogueStep> epilogue;
  /// K elements between promotions (tiled; 0: none): each block adds its tensor cores' partial
  /// sums into FP32 accumulators on the vector units, one fused multiply-add an accumulator, then
  /// its next MMA starts (kFp8PromotionInterval).
  std::uint64_t promotion_interval = 0;

  /// Elements from one GEMM's A (B, C) to the next's.
  std::uint64_t stride_a() const { return batch.stride_a.value_or(m * k); }
  std::uint64_t stride_b() const { return batch.stride_b.value_or(k * n); }
  std::uint64_t stride_c() const { return batch.stride_c.value_or(m * n); }
  /// `tile: auto` not yet resolved against a machine.
  bool awaits_choice() const { return tile_auto && tile.m == 0; }
};

std::string describe(const GemmSpec& spec);

/// Output tiles of one GEMM and K-steps of each: ceil(M / B_M), ceil(N / B_N), ceil(K / B_K).
/// Where a tile does not divide the matrix (tiled only) the last block row, block column or K-step
/// is an edge tile: it loads and stores only what lies in the matrix and computes its whole tile,
/// its lanes outside predicated off (their FLOPs issued, not useful: Analysis::issued_flops).
struct GemmGrid {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  std::uint64_t steps = 0;
};
/// Inline: `tile: auto` asks for the grid of each of its tens of thousands of candidates.
inline GemmGrid grid_of(const GemmSpec& spec) {
  const auto blocks = [](std::uint64_t whole, std::uint64_t tile) -> std::uint64_t {
    return tile == 0 ? 0 : ceil_div(whole, tile);
  };
  return GemmGrid{blocks(spec.m, spec.tile.m), blocks(spec.n, spec.tile.n),
                  blocks(spec.k, spec.tile.k)};
}

/// The K-steps of split `split` of a split-K GEMM: the first steps % splits splits take one more.
struct KSlice {
  std::uint64_t first_step = 0;
  std::uint64_t steps = 0;
};
KSlice k_slice(const GemmSpec& spec, std::uint64_t split);

/// Hopper's tensor cores keep an FP8 MMA's partial sums in about 14 bits of mantissa, so its FP8
/// kernels add them into FP32 registers every 4 wgmma instructions of K = 32: every 128 K
/// elements (CUTLASS's mma_promotion_interval, 4 by default; DeepSeek-V3 report, section 3.3.2,
/// N_C = 128), unless fast accumulation is asked for. An FP8 tiled GEMM's default.
constexpr std::uint64_t kFp8PromotionInterval = 128;
constexpr std::uint64_t kMaxPromotionInterval = std::uint64_t{1} << 40;
/// Promotions one block makes over `steps` K-steps: one for each interval of K that ends within
/// them, and one for what the last interval left, ceil(steps B_K / interval) in all.
std::uint64_t promotions_over(const GemmSpec& spec, std::uint64_t steps);
/// Of those, the ones after K-step `step` (from 0): the intervals that end within it, and after
/// the last step what is left.
std::uint64_t promotions_after(const GemmSpec& spec, std::uint64_t step, std::uint64_t steps);
/// The FP32 FLOPs of every block's promotions: one fused multiply-add (2 FLOPs) an accumulator of
/// the padded tiles a promotion (an add alone takes the FMA's issue slot).
std::uint64_t promotion_flops(const GemmSpec& spec);
/// A split-K GEMM's partial sums: every split but the last writes its share of C in the
/// accumulator type, and the last reads them back (bytes each way; 0 without split-K).
std::uint64_t partial_sum_bytes(const GemmSpec& spec);

/// The rules that tie the spec's values together: every count fits 63 bits, tiles are no larger
/// than the matrix and divide it unless tiled, stages <= K-steps, the register tile divides the
/// tile (and the warp tile, which divides the tile), a block-order group spans at most the grid's
/// block rows, a cluster divides the grid and its slices the tiles. The first one broken, if any.
std::optional<Violation> check_rules(const GemmSpec& spec);
/// The rules of `spec`'s decomposition and the size its partial sums add: where the same spec
/// without a decomposition keeps check_rules, check_rules of `spec` is this (what tile: auto
/// asks of each split of a candidate it has checked unsplit).
std::optional<Violation> check_split_rules(const GemmSpec& spec);
/// The same, with `grid`, grid_of(spec), the caller's already (a split has its spec's grid).
std::optional<Violation> check_split_rules(const GemmSpec& spec, const GemmGrid& grid);
Analysis analyze(const GemmSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const GemmSpec& spec, const KernelTarget& target = {});
/// The A and B elements a block's compute reads from SRAM per k, as the banks deliver them: each
/// warp (or warpgroup, with a warp tile) reads every distinct element of its outputs' operands
/// once, since threads of a warp that read one word get it from one bank access (a broadcast).
/// Without a warp tile the threads are numbered along n first (threadIdx.x along a row of C, as
/// SIMT kernels index them so that their loads and stores coalesce); 0 unless tiled.
std::uint64_t sram_read_elements_per_k(const GemmSpec& spec, std::uint32_t warp_size);
/// Operand bytes compute reads from SRAM in one K-step of a block (tiled; 0 otherwise): B_K of
/// the elements above.
std::uint64_t sram_reads_per_step_of(const GemmSpec& spec, std::uint32_t warp_size);
/// The warp instructions one K-step of a block issues, where its multiply-adds are the lanes'
/// own (multiplies_on_lanes; tiled; 0 otherwise: not counted): per warp and k, one multiply-add
/// per output of a thread's register tile and its A and B fragments loaded from SRAM 16 bytes an
/// instruction (LDS.128); per warp and K-step, its share of the tiles copied into SRAM 16 bytes a
/// thread an instruction (cp.async) and one barrier. Loop and address arithmetic are left out.
std::uint64_t warp_instructions_per_step_of(const GemmSpec& spec, std::uint32_t warp_size);
/// Threads per block: one per register tile of the block's outputs.
std::uint64_t threads_per_block(const GemmSpec& spec);
/// The registers one thread needs (before any limit), and what they hold.
struct ThreadRegisters {
  std::uint64_t accumulators = 0;  ///< ceil(R_M R_N a / 4)
  std::uint64_t fragments = 0;     ///< ceil((R_M + R_N) e / 4): one k of A and B operands
  std::uint64_t overhead = 0;      ///< register_overhead
  bool given = false;              ///< registers_per_thread was set: `total` is that value
  std::uint64_t total = 0;
};
ThreadRegisters thread_registers(const GemmSpec& spec);
/// The block program and grid. The spec must be valid (check_rules).
Kernel build_kernel(const GemmSpec& spec, const KernelTarget& target = {});
/// A, B, the epilogue's operands (a bias [N], a residual like C; in step order), C ([batch,]
/// rows, columns; the batch's span when the strides are not packed) and the split-K or stream-K
/// workspace of partial sums, if any.
std::vector<TensorRef> tensors(const GemmSpec& spec);

/// The report's leaves of what `tile: auto` chose, when it did (a GEMM's or a convolution's).
template <class Visitor>
void visit_tile_choice(const std::optional<TileChoice>& choice, Visitor& visitor) {
  if (!choice) return;
  visitor.integer("tile_choice.candidates", choice->candidates);
  visitor.text("tile_choice.limited_by", choice->limited_by);
  visitor.text("tile_choice.reason", choice->reason);
}

/// The report's leaves of a GEMM's blocks: tile, stages, register and warp tiles (a convolution's
/// implicit GEMM has the same).
template <class Visitor>
void visit_block_fields(const GemmSpec& g, Visitor& visitor) {
  visitor.integer("tile.m", g.tile.m);
  visitor.integer("tile.n", g.tile.n);
  visitor.integer("tile.k", g.tile.k);
  visitor.integer("stages", g.stages);
  visitor.integer("register_tile.m", g.register_tile.m);
  visitor.integer("register_tile.n", g.register_tile.n);
  if (g.warp_tile) {
    visitor.integer("warp_tile.m", g.warp_tile->m);
    visitor.integer("warp_tile.n", g.warp_tile->n);
    visitor.integer("warp_tile.warps", g.warp_tile->warps);
  }
}

template <>
struct WorkloadKind<GemmSpec> : RunsOnCores<GemmSpec> {
  static constexpr std::string_view name = "gemm";
  // The tile sets a block's footprint; the register tile its threads (one per register tile).
  static constexpr LimitKeys limit_keys{"workload.tile", "workload.register_tile", "workload.tile"};

  /// "no reuse", "t = 64, 2 stages", "64x128x32, 1 stage, grouped 8": the seed note's row names.
  static std::string short_label(const GemmSpec& spec);
  static std::optional<Violation> check_rules(const GemmSpec& spec) {
    return ridgeline::check_rules(spec);
  }
  static std::vector<TensorRef> tensors(const GemmSpec& spec) { return ridgeline::tensors(spec); }
  /// Split-K and stream-K add their partial sums in FP32; an epilogue computes in FP32.
  static const char* vector_work(const GemmSpec& spec) {
    if (!spec.epilogue.empty()) return "the epilogue";
    return spec.decomposition.kind == GemmDecomposition::data_parallel ||
                   (spec.decomposition.kind == GemmDecomposition::split_k &&
                    spec.decomposition.splits == 1)
               ? nullptr
               : "the reduction of partial sums";
  }
  /// What `tile: auto` chose and why.
  static std::string report_note(const GemmSpec& spec) {
    return spec.choice ? "tile: auto chose " + spec.choice->reason : "";
  }
  /// A warp tile must be exactly one warp (or warpgroup) of register tiles; a warpgroup and a
  /// cluster need cores that have them.
  static std::optional<Violation> check_threads(const GemmSpec& spec, const KernelTarget& limits);
  static ThreadRegistersNote thread_registers_note(const GemmSpec& spec);

  template <class Visitor>
  static void visit_fields(const GemmSpec& g, Visitor& visitor) {
    visitor.integer("m", g.m);
    visitor.integer("n", g.n);
    visitor.integer("k", g.k);
    visitor.text("dtype", name_of(g.dtype));
    visitor.text("accumulator", name_of(g.accumulator));
    visitor.text("strategy", name_of(g.strategy));
    visit_block_fields(g, visitor);
    if (g.cluster.blocks() > 1) {
      visitor.integer("cluster.m", g.cluster.m);
      visitor.integer("cluster.n", g.cluster.n);
    }
    visitor.text("block_order.kind", name_of(g.block_order.kind));
    visitor.integer("block_order.group", g.block_order.group);
    if (g.batch.count > 1) {
      visitor.integer("batch", g.batch.count);
      visitor.integer("batch_stride.a", g.stride_a());
      visitor.integer("batch_stride.b", g.stride_b());
      visitor.integer("batch_stride.c", g.stride_c());
    }
    if (g.decomposition.kind != GemmDecomposition::data_parallel) {
      visitor.text("decomposition.kind", name_of(g.decomposition.kind));
      if (g.decomposition.kind == GemmDecomposition::split_k) {
        visitor.integer("decomposition.splits", g.decomposition.splits);
      } else {
        visitor.integer("decomposition.workers", g.decomposition.workers);
      }
    }
    if (!g.epilogue.empty()) visitor.text("epilogue", epilogue_text(g.epilogue));
    if (g.promotion_interval > 0) visitor.integer("promotion_interval", g.promotion_interval);
    visit_tile_choice(g.choice, visitor);
  }

  // Keys whose field depends on nothing but their own value (see sim/sweep/sweep_fields.hpp):
  // not dtype (the default accumulator follows it), strategy (a register tile is refused with
  // no_reuse), nor the keys a rule inside the parser ties together.
  template <class Visitor>
  static void visit_sweepable_fields(Visitor& visitor) {
    visitor("m", &GemmSpec::m);
    visitor("n", &GemmSpec::n);
    visitor("k", &GemmSpec::k);
    visitor("batch", &GemmSpec::batch, &GemmBatch::count);
    visitor("accumulator", &GemmSpec::accumulator);
    visitor("tile", &GemmSpec::tile);
    visitor("tile.m", &GemmSpec::tile, &TileShape::m);
    visitor("tile.n", &GemmSpec::tile, &TileShape::n);
    visitor("tile.k", &GemmSpec::tile, &TileShape::k);
    visitor("stages", &GemmSpec::stages);
    visitor("register_tile", &GemmSpec::register_tile);
    visitor("register_tile.m", &GemmSpec::register_tile, &RegisterTile::m);
    visitor("register_tile.n", &GemmSpec::register_tile, &RegisterTile::n);
  }
};

}  // namespace ridgeline
