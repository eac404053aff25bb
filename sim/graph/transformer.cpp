#include "sim/graph/transformer.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <map>

#include "sim/config/workload_config.hpp"

namespace ridgeline {

namespace {

struct TransformerShape {
  std::uint64_t hidden = 0;
  std::uint64_t heads = 0;
  std::uint64_t kv_heads = 0;
  std::uint64_t ffn = 0;
  bool gated_ffn = true;
  std::uint64_t layers = 0;
  std::uint64_t vocabulary = 0;
  std::uint64_t batch = 1;
  bool prefill = true;
  std::uint64_t sequence = 0;
  std::string dtype;
  bool fused_attention = true;
  std::string norm = "rms_norm";
  bool fuse_epilogues = false;  ///< residual adds (and GELU) into the GEMMs before them
  bool rope = true;             ///< rotary position embedding of Q and K, a kernel each
  bool last_logits = true;      ///< prefill: the head runs on each sequence's last position

  /// Rows the language-model head runs on: one a sequence, or every token.
  std::uint64_t head_rows() const { return last_logits ? batch : tokens(); }

  std::uint64_t head_dim() const { return hidden / heads; }
  std::uint64_t tokens() const { return batch * (prefill ? sequence : 1); }  ///< rows of a layer
  std::uint64_t query_length() const { return prefill ? sequence : 1; }
  /// Keys attended to: the prompt, or the cache and the new token.
  std::uint64_t key_length() const { return prefill ? sequence : sequence + 1; }
};

TransformerShape read_shape(const ConfigNode& w) {
  TransformerShape s;
  constexpr std::uint64_t kMaxWidth = std::uint64_t{1} << 20;
  s.hidden = w.required("hidden").positive_count_at_most(kMaxWidth);
  const ConfigNode heads = w.required("heads");
  s.heads = heads.positive_count_at_most(1u << 16);
  s.kv_heads = s.heads;
  std::optional<ConfigNode> kv = w.optional("kv_heads");
  if (kv) s.kv_heads = kv->positive_count_at_most(1u << 16);
  s.ffn = w.required("ffn").positive_count_at_most(kMaxWidth);
  if (auto gated = w.optional("gated_ffn"))
    s.gated_ffn = gated->choice({"true", "false"}) == "true";
  s.layers = w.required("layers").positive_count_at_most(1024);
  s.vocabulary = w.required("vocabulary").positive_count_at_most(1u << 24);
  if (auto batch = w.optional("batch")) s.batch = batch->positive_count_at_most(1u << 16);
  s.prefill = w.required("phase").choice({"prefill", "decode"}) == "prefill";
  s.sequence = w.required("sequence").positive_count_at_most(1u << 20);
  s.dtype = w.required("dtype").text();
  parse_data_type(w.required("dtype"));  // one of the data types
  if (auto attention = w.optional("attention")) {
    s.fused_attention = attention->choice({"fused", "unfused"}) == "fused";
  }
  if (auto norm = w.optional("norm")) s.norm = norm->choice({"rms_norm", "layer_norm"});
  if (auto fusion = w.optional("fusion")) {
    s.fuse_epilogues = fusion->choice({"none", "epilogues"}) == "epilogues";
  }
  if (auto rope = w.optional("rope")) s.rope = rope->choice({"true", "false"}) == "true";
  if (auto logits = w.optional("logits")) s.last_logits = logits->choice({"last", "all"}) == "last";
  w.reject_unknown_keys();

  if (s.hidden % s.heads != 0) {
    heads.fail(fmt::format("{} heads do not divide hidden {}: a head is hidden / heads wide",
                           s.heads, s.hidden),
               "give a number of heads that divides hidden");
  }
  if (s.heads % s.kv_heads != 0) {
    kv->fail(fmt::format("{} kv_heads do not divide heads {}: each K/V head serves heads / "
                         "kv_heads query heads",
                         s.kv_heads, s.heads),
             "give a divisor of heads");
  }
  return s;
}

// A workload's shape: a list of its dimensions.
YAML::Node shape_of(std::initializer_list<std::uint64_t> dims) {
  YAML::Node shape(YAML::NodeType::Sequence);
  shape.SetStyle(YAML::EmitterStyle::Flow);
  for (std::uint64_t d : dims) shape.push_back(d);
  return shape;
}

using Names = std::vector<std::string>;

class GraphWriter {
 public:
  explicit GraphWriter(const TransformerShape& shape) : s_(shape) {}

  // Kernels that run as one: a GEMM and the element-wise kernels after it, as its epilogue.
  void fuse(Names kernels) {
    if (s_.fuse_epilogues) graph_.fused.push_back(std::move(kernels));
  }

  void input(const std::string& tensor) { graph_.inputs.push_back(tensor); }

  // `workload` is one of distinct()'s: the kernel refers to it, as every kernel of the same
  // workload does.
  void kernel(const std::string& name, Names reads, Names writes, std::size_t workload) {
    graph_.kernels.push_back(
        GraphListing::Kernel{name, workload, std::move(reads), std::move(writes)});
  }

  // The workload `key` names, written by `make` (with the model's dtype) the first time: the
  // layers repeat a few workloads, each written once (the reader analyses each distinct workload
  // once either way).
  template <class Make>
  std::size_t distinct(const std::string& key, Make&& make) {
    auto [found, fresh] = workloads_.try_emplace(key, graph_.workloads.size());
    if (fresh) {
      YAML::Node w = make();
      w["dtype"] = s_.dtype;
      graph_.workloads.push_back(w);
    }
    return found->second;
  }

  // C [m, n] = A [m, k] x B [k, n], `batch` of them, tiled as `tile: auto` chooses.
  std::size_t gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k, std::uint64_t batch = 1) {
    return distinct(fmt::format("gemm {} {} {} {}", m, n, k, batch), [&] {
      YAML::Node w;
      w["kind"] = "gemm";
      w["m"] = m;
      w["n"] = n;
      w["k"] = k;
      if (batch > 1) w["batch"] = batch;
      w["strategy"] = "tiled";
      w["tile"] = "auto";
      return w;
    });
  }
  // Rows of a [table_rows, columns] table picked by `indices` int32 indices.
  std::size_t gather(std::uint64_t table_rows, std::uint64_t columns, std::uint64_t indices) {
    return distinct(fmt::format("gather {} {} {}", table_rows, columns, indices), [&] {
      YAML::Node w;
      w["kind"] = "gather";
      w["table"] = shape_of({table_rows, columns});
      w["indices"] = indices;
      return w;
    });
  }
  std::size_t norm(std::uint64_t rows, std::uint64_t columns) {
    return distinct(fmt::format("norm {} {}", rows, columns), [&] {
      YAML::Node w;
      w["kind"] = "row_reduction";
      w["operation"] = s_.norm;
      w["shape"] = shape_of({rows, columns});
      w["passes"] = 1;
      return w;
    });
  }
  std::size_t elementwise(const std::string& operation, std::uint64_t rows, std::uint64_t columns,
                          int inputs) {
    return distinct(fmt::format("elementwise {} {} {} {}", operation, rows, columns, inputs), [&] {
      YAML::Node w;
      w["kind"] = "elementwise";
      w["operation"] = operation;
      YAML::Node shapes(YAML::NodeType::Sequence);
      for (int i = 0; i < inputs; ++i) shapes.push_back(shape_of({rows, columns}));
      w["inputs"] = shapes;
      return w;
    });
  }

  // A norm's reads: the rows, then its weight (and LayerNorm's bias), graph inputs.
  Names norm_reads(const std::string& x, const std::string& prefix) {
    input(prefix + ".weight");
    if (s_.norm == "layer_norm") {
      input(prefix + ".bias");
      return {x, prefix + ".weight", prefix + ".bias"};
    }
    return {x, prefix + ".weight"};
  }

  void layer(std::uint64_t l, const std::string& x) {
    const std::string p = fmt::format("layers.{}.", l);
    const std::uint64_t t = s_.tokens();
    const std::uint64_t d = s_.head_dim();
    kernel(p + "attn_norm", norm_reads(x, p + "attn_norm"), {p + "attn_norm.out"},
           norm(t, s_.hidden));
    for (const auto& [proj, heads] : {std::pair<std::string, std::uint64_t>{"q", s_.heads},
                                      {"k", s_.kv_heads},
                                      {"v", s_.kv_heads}}) {
      const std::string weight = p + proj + "_proj.weight";
      input(weight);
      kernel(p + proj + "_proj", {p + "attn_norm.out", weight}, {p + proj},
             gemm(t, heads * d, s_.hidden));
    }
    // The rotary position embedding rotates Q and K by their tokens' positions: a kernel of its
    // own each, as vLLM's rotary kernel runs it.
    std::string q = p + "q";
    std::string k = p + "k";
    if (s_.rope) {
      for (auto& [tensor, heads] :
           {std::pair<std::string*, std::uint64_t>{&q, s_.heads}, {&k, s_.kv_heads}}) {
        const std::string name = *tensor + "_rope";
        kernel(name, {*tensor}, {name + ".out"}, elementwise("rope", t, heads * d, 1));
        *tensor = name + ".out";
      }
    }
    // Prefill attends to the prompt's own K and V; decode to the cache, which holds the new
    // token's too (its append, one token's K and V a layer, is not a kernel here).
    std::string v = p + "v";
    if (!s_.prefill) {
      k = p + "k_cache";
      v = p + "v_cache";
      input(k);
      input(v);
    }
    if (s_.fused_attention) {
      const std::size_t attention = distinct("attention", [&] {
        YAML::Node w;
        w["kind"] = "attention";
        w["batch"] = s_.batch;
        w["heads"] = s_.heads;
        w["kv_heads"] = s_.kv_heads;
        w["query_length"] = s_.query_length();
        w["key_length"] = s_.key_length();
        w["head_dim"] = d;
        w["causal"] = s_.prefill ? "true" : "false";
        return w;
      });
      kernel(p + "attention", {q, k, v}, {p + "attn"}, attention);
    } else {
      // The query heads that share a K/V head are stacked along M, so one GEMM of the batch
      // serves them all: batch x kv_heads GEMMs of (group x queries) x keys x head_dim.
      const std::uint64_t group = s_.heads / s_.kv_heads;
      const std::uint64_t rows = group * s_.query_length();
      const std::uint64_t gemms = s_.batch * s_.kv_heads;
      kernel(p + "scores", {q, k}, {p + "scores"}, gemm(rows, s_.key_length(), d, gemms));
      const std::size_t softmax = distinct("softmax", [&] {
        YAML::Node w;
        w["kind"] = "row_reduction";
        w["operation"] = "softmax";
        w["shape"] = shape_of({gemms * rows, s_.key_length()});
        w["passes"] = 1;
        return w;
      });
      kernel(p + "softmax", {p + "scores"}, {p + "probs"}, softmax);
      kernel(p + "context", {p + "probs", v}, {p + "attn"}, gemm(rows, d, s_.key_length(), gemms));
    }
    input(p + "o_proj.weight");
    kernel(p + "o_proj", {p + "attn", p + "o_proj.weight"}, {p + "o"},
           gemm(t, s_.hidden, s_.heads * d));
    kernel(p + "attn_residual", {p + "o", x}, {p + "h"}, elementwise("add", t, s_.hidden, 2));
    fuse({p + "o_proj", p + "attn_residual"});
    kernel(p + "ffn_norm", norm_reads(p + "h", p + "ffn_norm"), {p + "ffn_norm.out"},
           norm(t, s_.hidden));
    std::vector<std::string> projections{"up"};
    if (s_.gated_ffn) projections.insert(projections.begin(), "gate");
    for (const std::string& proj : projections) {
      const std::string weight = p + proj + "_proj.weight";
      input(weight);
      kernel(p + proj + "_proj", {p + "ffn_norm.out", weight}, {p + proj},
             gemm(t, s_.ffn, s_.hidden));
    }
    if (s_.gated_ffn) {
      kernel(p + "silu_mul", {p + "gate", p + "up"}, {p + "act"},
             elementwise("silu_mul", t, s_.ffn, 2));
    } else {
      kernel(p + "gelu", {p + "up"}, {p + "act"}, elementwise("gelu", t, s_.ffn, 1));
      fuse({p + "up_proj", p + "gelu"});
    }
    input(p + "down_proj.weight");
    kernel(p + "down_proj", {p + "act", p + "down_proj.weight"}, {p + "down"},
           gemm(t, s_.hidden, s_.ffn));
    kernel(p + "ffn_residual", {p + "down", p + "h"}, {p + "out"},
           elementwise("add", t, s_.hidden, 2));
    fuse({p + "down_proj", p + "ffn_residual"});
  }

  GraphListing write() {
    const std::uint64_t t = s_.tokens();
    // The token ids pick rows of the embedding table.
    input("embed_tokens.weight");
    input("tokens");
    kernel("embed", {"embed_tokens.weight", "tokens"}, {"embeddings"},
           gather(s_.vocabulary, s_.hidden, t));
    std::string x = "embeddings";
    for (std::uint64_t l = 0; l < s_.layers; ++l) {
      layer(l, x);
      x = fmt::format("layers.{}.out", l);
    }
    kernel("final_norm", norm_reads(x, "final_norm"), {"final_norm.out"}, norm(t, s_.hidden));
    // Generation needs the next token's logits only: each sequence's last position is picked
    // before the head, as inference engines do.
    std::string head_input = "final_norm.out";
    if (s_.head_rows() < t) {
      input("last_positions");
      kernel("select_last", {head_input, "last_positions"}, {"final_norm.last"},
             gather(t, s_.hidden, s_.head_rows()));
      head_input = "final_norm.last";
    }
    input("lm_head.weight");
    kernel("lm_head", {head_input, "lm_head.weight"}, {"logits"},
           gemm(s_.head_rows(), s_.vocabulary, s_.hidden));
    return std::move(graph_);
  }

 private:
  const TransformerShape& s_;
  GraphListing graph_;
  std::map<std::string, std::size_t> workloads_;  // distinct()'s, by key: into graph_.workloads
};

}  // namespace

TransformerGraph transformer_graph(const ConfigNode& workload) {
  const TransformerShape s = read_shape(workload);
  TransformerGraph result;
  result.graph = GraphWriter(s).write();
  result.description = fmt::format(
      "transformer: {} layers, hidden {}, {} heads ({} K/V), ffn {}{}, vocabulary {}; {} x batch "
      "{}, attention {}, {}",
      s.layers, s.hidden, s.heads, s.kv_heads, s.ffn, s.gated_ffn ? " gated" : "", s.vocabulary,
      s.prefill ? fmt::format("prefill of {} tokens", s.sequence)
                : std::string("decode step (one token a sequence)"),
      s.batch, s.fused_attention ? "fused" : "unfused", s.dtype);
  if (!s.prefill) result.description += fmt::format(", {} tokens in the KV cache", s.sequence);
  result.fields = {{"hidden", std::to_string(s.hidden)},
                   {"heads", std::to_string(s.heads)},
                   {"kv_heads", std::to_string(s.kv_heads)},
                   {"ffn", std::to_string(s.ffn)},
                   {"gated_ffn", s.gated_ffn ? "true" : "false"},
                   {"layers", std::to_string(s.layers)},
                   {"vocabulary", std::to_string(s.vocabulary)},
                   {"batch", std::to_string(s.batch)},
                   {"phase", s.prefill ? "prefill" : "decode"},
                   {"sequence", std::to_string(s.sequence)},
                   {"dtype", s.dtype},
                   {"attention", s.fused_attention ? "fused" : "unfused"},
                   {"norm", s.norm},
                   {"fusion", s.fuse_epilogues ? "epilogues" : "none"},
                   {"rope", s.rope ? "true" : "false"},
                   {"logits", s.last_logits ? "last" : "all"}};
  return result;
}

}  // namespace ridgeline
