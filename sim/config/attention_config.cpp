#include "sim/config/attention_config.hpp"

#include <algorithm>

namespace ridgeline {

namespace {

constexpr std::uint64_t kMaxLength = std::uint64_t{1} << 24;

}  // namespace

AttentionSpec WorkloadParser<AttentionSpec>::parse(const ConfigNode& w) {
  AttentionSpec spec;
  if (auto batch = w.optional("batch")) spec.batch = batch->positive_count_at_most(1u << 20);
  spec.heads = w.required("heads").positive_count_at_most(1u << 16);
  spec.kv_heads = spec.heads;
  if (auto kv = w.optional("kv_heads")) spec.kv_heads = kv->positive_count_at_most(1u << 16);
  spec.query_length = w.required("query_length").positive_count_at_most(kMaxLength);
  spec.key_length = spec.query_length;
  if (auto keys = w.optional("key_length"))
    spec.key_length = keys->positive_count_at_most(kMaxLength);
  spec.head_dim = w.required("head_dim").positive_count_at_most(1u << 12);
  spec.dtype = parse_data_type(w.required("dtype"));
  if (auto causal = w.optional("causal")) spec.causal = causal->choice({"true", "false"}) == "true";
  // Defaults: FlashAttention-2's 128 x 64 tiles and 4 warps, no larger than the sequences.
  spec.tile.q = std::min<std::uint64_t>(128, spec.query_length);
  spec.tile.kv = std::min<std::uint64_t>(64, spec.key_length);
  if (auto tile = w.optional("tile")) {
    spec.tile.q = tile->required("q").positive_count_at_most(kMaxLength);
    spec.tile.kv = tile->required("kv").positive_count_at_most(kMaxLength);
    tile->reject_unknown_keys();
  }
  spec.warps = std::min<std::uint64_t>(4, spec.tile.q);
  if (auto warps = w.optional("warps")) spec.warps = warps->positive_count_at_most(64);
  spec.stages = 2;
  if (auto stages = w.optional("stages")) {
    spec.stages = static_cast<std::uint32_t>(stages->positive_count_at_most(kMaxStepsPerBlock));
  } else if (spec.kv_steps(0) < 2) {
    spec.stages = 1;  // one key tile: nothing to overlap
  }
  if (auto overhead = w.optional("register_overhead")) {
    spec.register_overhead = static_cast<std::uint32_t>(overhead->count());
    if (spec.register_overhead > (1u << 16)) overhead->fail("must be at most 65536");
  }
  // The rules between these values are check_rules(AttentionSpec).
  return spec;
}

}  // namespace ridgeline
