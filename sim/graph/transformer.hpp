// `kind: transformer`: the graph of a decoder-only model's forward pass, written from its shape.
// The embedding lookup (a gather of the tokens' rows), then each layer: a norm, the Q, K and V
// projections, the rotary position embeddings of Q and K (a kernel each), attention (fused,
// flash-style, or unfused: a batched GEMM of scores, a softmax, a batched GEMM with V), the
// output projection, a residual add, a norm, the feed-forward network (gated: gate and up
// projections, SiLU x up, down; or up, GELU, down) and a residual add. Then a final norm, the pick
// of each sequence's last position (unless every position's logits are asked for) and the LM
// head. Not modelled: in decode the write of the new token's K and V into the cache (the attention
// reads the cache, a graph input, with the new token in it).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/graph/graph_listing.hpp"

namespace ridgeline {

struct TransformerGraph {
  GraphListing graph;       ///< what a `kind: graph` workload would list
  std::string description;  ///< one line: the model's shape, the phase, the tokens
  std::vector<std::pair<std::string, std::string>> fields;  ///< its keys as read, for reports
};

/// Reads the transformer's keys (each with its own rules, unknown keys refused) and writes its
/// graph. Throws ConfigError.
TransformerGraph transformer_graph(const ConfigNode& workload);

}  // namespace ridgeline
