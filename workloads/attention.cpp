#include "workloads/attention.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"
#include "workloads/staged_loop.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

// Q, K, V and O one after the other, each aligned.
struct AttentionLayout {
  std::uint64_t q = 0;
  std::uint64_t k = 0;
  std::uint64_t v = 0;
  std::uint64_t o = 0;
};
AttentionLayout layout_of(const AttentionSpec& s) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t q = s.batch * s.heads * s.query_length * s.head_dim * e;
  const std::uint64_t kv = s.batch * s.kv_heads * s.key_length * s.head_dim * e;
  const std::vector<std::uint64_t> at = one_after_another({q, kv, kv, q});
  return AttentionLayout{at[0], at[1], at[2], at[3]};
}

// Query rows of query tile i (the last may be short).
std::uint64_t q_rows(const AttentionSpec& s, std::uint64_t i) {
  return std::min(s.tile.q, s.query_length - i * s.tile.q);
}
// Keys in key tile j (the last may be short).
std::uint64_t kv_rows(const AttentionSpec& s, std::uint64_t j) {
  return std::min(s.tile.kv, s.key_length - j * s.tile.kv);
}

// (query, key) pairs a query tile's queries see, over the whole of query_length.
std::uint64_t pairs_seen(const AttentionSpec& s) {
  const std::uint64_t sq = s.query_length, sk = s.key_length;
  if (!s.causal) return sq * sk;
  // Query i sees i + 1 + (sk - sq) keys.
  return sq * (sk - sq) + sq * (sq + 1) / 2;
}

struct PerStep {
  std::uint64_t matrix_flops = 0;  // S = Q K^T and O += P V, whole tiles
  std::uint64_t vector_flops = 0;  // the online softmax and O's rescaling
  std::uint64_t sram_reads = 0;    // Q rows, and K and V for every warp
};
PerStep per_step(const AttentionSpec& s) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t bq = s.tile.q, bkv = s.tile.kv, d = s.head_dim;
  return PerStep{4 * bq * bkv * d, 5 * bq * bkv + bq * d, bq * d * e + s.warps * 2 * bkv * d * e};
}
// At a block's end: O divided by the sums, the sums inverted.
std::uint64_t final_vector_flops(const AttentionSpec& s) {
  return s.tile.q * s.head_dim + s.tile.q;
}

}  // namespace

std::uint64_t AttentionSpec::keys_seen(std::uint64_t query) const {
  return causal ? query + 1 + (key_length - query_length) : key_length;
}

std::uint64_t AttentionSpec::kv_steps(std::uint64_t q_tile) const {
  const std::uint64_t last = std::min(query_length, (q_tile + 1) * tile.q) - 1;
  return (keys_seen(last) + tile.kv - 1) / tile.kv;
}

std::string describe(const AttentionSpec& s) {
  std::string heads = counted(s.heads, "head");
  if (s.kv_heads != s.heads) heads += fmt::format(" ({} K/V)", s.kv_heads);
  return fmt::format(
      "attention {}{} {}, batch {}, {}, {} queries x {} keys of {}, fused, tiles {}x{}, {}",
      s.causal ? "causal " : "", name_of(s.dtype), heads, s.batch, counted(s.warps, "warp"),
      s.query_length, s.key_length, s.head_dim, s.tile.q, s.tile.kv, counted(s.stages, "stage"));
}

std::string WorkloadKind<AttentionSpec>::short_label(const AttentionSpec& s) {
  return fmt::format("attention{}, {}x{}", s.causal ? " causal" : "", s.tile.q, s.tile.kv);
}

std::optional<Violation> check_rules(const AttentionSpec& s) {
  using u128 = unsigned __int128;
  const u128 largest = u128{s.batch} * s.heads * s.query_length * s.key_length * s.head_dim * 16;
  if (largest >= (u128{1} << 63)) {
    return Violation{"workload",
                     "the sizes are too large: FLOP and byte counts would overflow "
                     "64 bits",
                     "use a smaller batch, fewer heads or shorter sequences"};
  }
  if (s.heads % s.kv_heads != 0) {
    return Violation{"workload.kv_heads",
                     fmt::format("must divide heads = {}: each K/V head serves a group of query "
                                 "heads",
                                 s.heads),
                     "use a divisor of heads"};
  }
  if (s.causal && s.key_length < s.query_length) {
    return Violation{
        "workload.key_length",
        fmt::format("a causal mask needs at least as many keys as queries ({})", s.query_length),
        "use key_length >= query_length, or causal: false"};
  }
  if (s.tile.q > s.query_length) {
    return Violation{"workload.tile.q",
                     fmt::format("the tile is larger than query_length = {}", s.query_length),
                     fmt::format("use a tile of at most {}", s.query_length)};
  }
  if (s.tile.kv > s.key_length) {
    return Violation{"workload.tile.kv",
                     fmt::format("the tile is larger than key_length = {}", s.key_length),
                     fmt::format("use a tile of at most {}", s.key_length)};
  }
  if (s.warps > s.tile.q) {
    return Violation{
        "workload.warps",
        fmt::format("each warp takes query rows of the tile: at most tile.q = {}", s.tile.q),
        fmt::format("use at most {} warps", s.tile.q)};
  }
  const std::uint64_t fewest = s.kv_steps(0), most = s.kv_steps(s.q_tiles() - 1);
  if (most > kMaxStepsPerBlock) {
    return Violation{"workload.tile.kv",
                     fmt::format("a block would run {} key tiles; at most {} fit a block's "
                                 "program",
                                 most, kMaxStepsPerBlock),
                     "use a larger tile.kv"};
  }
  if (s.stages > 1 && s.stages > fewest) {
    return Violation{"workload.stages",
                     fmt::format("more stages than the first query tile's key tiles ({})", fewest),
                     fmt::format("use at most {}", fewest)};
  }
  return std::nullopt;
}

namespace {

std::uint64_t thread_registers(const AttentionSpec& s, std::uint32_t warp_size) {
  // A warp's query rows: O's accumulators and S's scores in FP32, one k16 slice of operand
  // fragments, and the running max and sum, shared by its threads.
  const std::uint64_t rows = (s.tile.q + s.warps - 1) / s.warps;
  const std::uint64_t e = element_bytes(s.dtype);
  return ceil_div(rows * s.head_dim, warp_size) + ceil_div(rows * s.tile.kv, warp_size) +
         ceil_div((rows + s.tile.kv) * 16 * e, warp_size * kRegisterBytes) +
         2 * ceil_div(rows, warp_size) + s.register_overhead;
}

}  // namespace

ThreadRegistersNote WorkloadKind<AttentionSpec>::thread_registers_note(const AttentionSpec&) {
  ThreadRegistersNote note;
  note.breakdown = " (a warp's O accumulators and scores in FP32, operand fragments, max and sum)";
  note.limit_key = "workload.warps";
  note.limit_fix = "use more warps or a smaller tile";
  return note;
}

Footprint footprint(const AttentionSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  Footprint f;
  f.stages = s.stages;
  f.input_bytes_per_stage = 2 * s.tile.kv * s.head_dim * e;  // a K and a V tile
  f.input_bytes = f.input_bytes_per_stage * s.stages;
  f.accumulator_bytes = s.tile.q * s.head_dim * 4;           // O in FP32
  f.sram_bytes = f.input_bytes + s.tile.q * s.head_dim * e;  // and the Q tile
  assign_registers(f, s.warps * target.warp_size, thread_registers(s, target.warp_size), target);
  return f;
}

Analysis analyze(const AttentionSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype), d = s.head_dim;
  const std::uint64_t heads = s.batch * s.heads;
  const PerStep step = per_step(s);
  std::uint64_t steps = 0, kv_bytes = 0;
  for (std::uint64_t i = 0; i < s.q_tiles(); ++i) {
    steps += s.kv_steps(i);
    for (std::uint64_t j = 0; j < s.kv_steps(i); ++j) kv_bytes += 2 * kv_rows(s, j) * d * e;
  }
  Analysis a;
  a.flops = heads * 4 * d * pairs_seen(s);
  a.vector_flops = heads * (steps * step.vector_flops + s.q_tiles() * final_vector_flops(s));
  a.issued_flops = heads * steps * step.matrix_flops + a.vector_flops;
  a.hbm_read_bytes = heads * (s.query_length * d * e + kv_bytes);
  a.hbm_write_bytes = heads * s.query_length * d * e;
  // Whole tiles land in SRAM: Q once a block, K and V each step.
  a.sram_write_bytes = heads * (s.q_tiles() * s.tile.q * d * e + steps * 2 * s.tile.kv * d * e);
  a.sram_read_bytes = heads * steps * step.sram_reads;
  a.roof = roof;
  a.roofline = roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof, a.vector_flops);
  a.footprint = footprint(s, target);
  return a;
}

namespace {

// The program of query tile `i` (any block row of it: the batch and head come from the row).
Program q_tile_program(const AttentionSpec& s, std::uint64_t i, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype), d = s.head_dim;
  const std::uint64_t heads = s.batch * s.heads;
  const AttentionLayout l = layout_of(s);
  const PerStep step = per_step(s);
  ProgramBuilder builder({"Q", "K", "V", "O"});
  constexpr std::uint8_t kQ = 0, kK = 1, kV = 2, kO = 3;
  // Block row r: query tile r / (batch x heads), then batch x heads + head.
  auto rows_of_q = [&](std::uint64_t base) {
    AddressPattern p;
    p.region_of_block0 = Region{base, q_rows(s, i), d * e, d * e, 1};
    p.block_row_bytes = s.query_length * d * e;
    p.outer = RowGroup{heads, s.tile.q * d * e};
    return p;
  };
  // A K/V head serves heads / kv_heads consecutive query heads.
  auto kv_tile = [&](std::uint64_t base, std::uint64_t j) {
    AddressPattern p;
    p.region_of_block0 = Region{base + j * s.tile.kv * d * e, kv_rows(s, j), d * e, d * e, 1};
    p.outer = RowGroup{heads, 0};
    p.inner = RowGroup{s.heads / s.kv_heads, s.key_length * d * e};
    return p;
  };
  const std::uint32_t q = builder.add(Op::load(kQ, 0, rows_of_q(l.q), s.tile.q * d * e));
  StagedLoopShape shape;
  shape.stages = s.stages;
  shape.barrier = target.barrier;
  StagedLoop loop(builder, shape);
  std::uint32_t softmax = 0;
  const std::uint64_t steps = s.kv_steps(i);
  for (std::uint64_t j = 0; j < steps; ++j) {
    const auto label = static_cast<std::uint32_t>(j);
    const std::uint32_t matrix =
        loop.add_step({Op::load(kK, label, kv_tile(l.k, j), s.tile.kv * d * e),
                       Op::load(kV, label, kv_tile(l.v, j), s.tile.kv * d * e)},
                      Op::compute(label, step.matrix_flops, step.sram_reads));
    // The scores need Q; each step's products wait for the rescaling of the one before.
    builder.depend(j == 0 ? q : softmax, matrix, EdgeKind::data);
    softmax = builder.add(Op::compute(label, step.vector_flops, 0).in_type(DataType::fp32));
    builder.depend(matrix, softmax, EdgeKind::data);
  }
  const auto last = static_cast<std::uint32_t>(steps - 1);
  const std::uint32_t normalise =
      builder.add(Op::compute(last, final_vector_flops(s), 0).in_type(DataType::fp32));
  builder.depend(softmax, normalise, EdgeKind::data);
  const std::uint32_t store = builder.add(Op::store(kO, last, rows_of_q(l.o)));
  builder.depend(normalise, store, EdgeKind::data);
  return builder.compile();
}

}  // namespace

Kernel build_kernel(const AttentionSpec& s, const KernelTarget& target) {
  const std::uint64_t heads = s.batch * s.heads;
  Kernel kernel;
  kernel.name = describe(s);
  kernel.compute_type = s.dtype;
  kernel.grid_rows = s.q_tiles() * heads;
  kernel.grid_cols = 1;
  kernel.program = q_tile_program(s, 0, target);
  // Query tiles that run the same program share a band: its key tiles and rows are the same.
  for (std::uint64_t i = 1; i < s.q_tiles(); ++i) {
    if (s.kv_steps(i) == s.kv_steps(i - 1) && q_rows(s, i) == q_rows(s, i - 1)) continue;
    kernel.bands.push_back(ProgramBand{i * heads, q_tile_program(s, i, target)});
  }
  take_block_resources(kernel, footprint(s, target));
  return kernel;
}

std::vector<TensorRef> tensors(const AttentionSpec& s) {
  const AttentionLayout l = layout_of(s);
  const TensorShape q{{s.batch, s.heads, s.query_length, s.head_dim}};
  const TensorShape kv{{s.batch, s.kv_heads, s.key_length, s.head_dim}};
  return {TensorRef{"Q", TensorRole::input, q, s.dtype, l.q},
          TensorRef{"K", TensorRole::input, kv, s.dtype, l.k},
          TensorRef{"V", TensorRole::input, kv, s.dtype, l.v},
          TensorRef{"O", TensorRole::output, q, s.dtype, l.o}};
}

}  // namespace ridgeline
