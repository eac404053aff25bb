// `kind: transformer`: the graph of a decoder-only model's forward pass, written from its shape.
// Each layer: a norm, the Q, K and V projections, attention (fused, flash-style, or unfused: a
// batched GEMM of scores, a softmax, a batched GEMM with V), the output projection, a residual
// add, a norm, the feed-forward network (gated: gate and up projections, SiLU x up, down; or up,
// GELU, down) and a residual add. Then a final norm and the LM head over every position.
// Not modelled: the embedding lookup (its output is the graph's input), rotary position
// embeddings, and in decode the write of the new token's K and V into the cache (the attention
// reads the cache, a graph input, with the new token in it).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/config/config_node.hpp"

namespace ridgeline {

struct TransformerGraph {
  YAML::Node graph;         ///< a `kind: graph` workload map
  std::string description;  ///< one line: the model's shape, the phase, the tokens
  std::vector<std::pair<std::string, std::string>> fields;  ///< its keys as read, for reports
};

/// Reads the transformer's keys (each with its own rules, unknown keys refused) and writes its
/// graph. Throws ConfigError.
TransformerGraph transformer_graph(const ConfigNode& workload);

}  // namespace ridgeline
