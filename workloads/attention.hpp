// Scaled dot-product attention, O = softmax(Q K^T / sqrt(d)) V for every head of a batch, in
// the fused form of FlashAttention-2 (Dao, 2023): a block keeps a tile of `tile.q` queries of
// one head on chip, streams the head's keys and values through SRAM `tile.kv` at a time
// (`stages` buffers), and keeps the scores S and probabilities P in registers with an online
// softmax (running max and sum, the output rescaled as they change); only Q, K, V and O cross
// HBM. Q [batch, heads, query_length, d], K and V [batch, kv_heads, key_length, d], O as Q.
//
// Heads and grouped-query attention: kv_heads divides heads, and the heads / kv_heads query
// heads of a group read the same K and V (each block its own copy: the note's Q counts no reuse
// across blocks; an L2 shares them in a run).
//
// Causal masking: query i (of query_length) sees the keys up to i + key_length - query_length
// (the last query the last key, as a prefill's queries and a decode step's one query see the
// cache). A block computes only the key tiles its queries see, whole (the masked part of the
// diagonal tile as predicated lanes: issued, not useful).
//
// A block has `warps` warps, each holding tile.q / warps query rows (FlashAttention-2 splits Q
// over warps): per key tile it reads its Q rows and the whole K and V tiles from SRAM, computes
// S = Q K^T and O += P V on the matrix units in the workload's type (2 FLOPs a multiply-add
// each: 4 tile.q tile.kv d a tile) and the softmax on the vector units in FP32: 5 FLOPs a score
// (scale, max, subtract, exp, add to the sum) and tile.q d for rescaling O; at the end O
// divided by the sum (tile.q d) and the sums inverted (tile.q).
//
// F (useful) = 4 d x (query, key) pairs seen x batch x heads; Q = Q and O once, K and V once a
// block a key tile it computes (clipped to the tensors).
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
#include "workloads/tensor.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

struct AttentionTile {
  std::uint64_t q = 128;  ///< queries a block
  std::uint64_t kv = 64;  ///< keys (and values) a step
};

struct AttentionSpec {
  std::uint64_t batch = 1;
  std::uint64_t heads = 1;
  std::uint64_t kv_heads = 1;
  std::uint64_t query_length = 1;
  std::uint64_t key_length = 1;
  std::uint64_t head_dim = 64;
  DataType dtype = DataType::bf16;
  bool causal = false;
  AttentionTile tile;
  std::uint32_t stages = 2;
  std::uint64_t warps = 4;
  std::uint32_t register_overhead = 0;  ///< registers a thread beyond its data

  std::uint64_t q_tiles() const { return (query_length + tile.q - 1) / tile.q; }
  /// Key tiles block row `q_tile` computes: all, or (causal) up to its last query's last key.
  std::uint64_t kv_steps(std::uint64_t q_tile) const;
  /// Keys query `query` sees.
  std::uint64_t keys_seen(std::uint64_t query) const;
};

std::string describe(const AttentionSpec& spec);
/// kv_heads divides heads; tiles no larger than the sequences; the sizes within 63 bits.
std::optional<Violation> check_rules(const AttentionSpec& spec);
Analysis analyze(const AttentionSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const AttentionSpec& spec, const KernelTarget& target = {});
/// Block rows by query tile (outermost), then batch and head; a band a query tile whose key
/// tiles or rows differ from the first's.
Kernel build_kernel(const AttentionSpec& spec, const KernelTarget& target = {});
/// "Q", "K", "V" and "O".
std::vector<TensorRef> tensors(const AttentionSpec& spec);

template <>
struct WorkloadKind<AttentionSpec> : RunsOnCores<AttentionSpec> {
  static constexpr std::string_view name = "attention";
  static constexpr LimitKeys limit_keys{"workload.tile", "workload.warps", "workload.tile"};

  /// "attention causal, 128x64".
  static std::string short_label(const AttentionSpec& spec);
  static std::optional<Violation> check_rules(const AttentionSpec& spec) {
    return ridgeline::check_rules(spec);
  }
  static std::optional<Violation> check_threads(const AttentionSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const AttentionSpec& spec);
  static std::vector<TensorRef> tensors(const AttentionSpec& spec) {
    return ridgeline::tensors(spec);
  }
  static const char* vector_work(const AttentionSpec&) { return "the softmax"; }

  template <class Visitor>
  static void visit_fields(const AttentionSpec& s, Visitor& visitor) {
    visitor.integer("batch", s.batch);
    visitor.integer("heads", s.heads);
    visitor.integer("kv_heads", s.kv_heads);
    visitor.integer("query_length", s.query_length);
    visitor.integer("key_length", s.key_length);
    visitor.integer("head_dim", s.head_dim);
    visitor.text("dtype", ridgeline::name_of(s.dtype));
    visitor.text("causal", s.causal ? "true" : "false");
    visitor.text("form", "fused");
    visitor.integer("tile.q", s.tile.q);
    visitor.integer("tile.kv", s.tile.kv);
    visitor.integer("stages", s.stages);
    visitor.integer("warps", s.warps);
  }
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
