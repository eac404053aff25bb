// An ONNX model read for import: the file parsed, its inputs' dynamic dimensions given the sizes
// of the workload's `shapes`, and the shape of every tensor that ONNX's shape inference works out.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config_node.hpp"

namespace ridgeline {

/// A tensor's dimensions in elements, outermost first; empty for a scalar.
using OnnxDims = std::vector<std::uint64_t>;

struct OnnxModel {
  onnx::ModelProto proto;
  std::map<std::string, OnnxDims> shapes;  ///< every tensor whose dimensions are all known
  std::int64_t opset = 0;                  ///< the version of the default domain (ai.onnx)
};

/// Reads the model at `path` (a workload's key, resolved as resolve_path does), gives the inputs
/// the sizes `shapes` lists (a map of input name to dimensions) and infers the other tensors'
/// shapes. `workload` is the map that holds both, where a missing `shapes` is reported. Throws
/// ConfigError: the file unreadable or not a model, an input with dynamic dimensions that
/// `shapes` leaves out, a shape for no input or one that contradicts the model's fixed sizes.
OnnxModel read_onnx_model(const ConfigNode& workload, const ConfigNode& path,
                          const std::optional<ConfigNode>& shapes);

/// "[batch, 512]": dimensions as the model states them, a dynamic one by its name (or "?").
std::string dims_text(const onnx::TensorShapeProto& shape);
/// "[8, 512]".
std::string dims_text(const OnnxDims& dims);

/// The number of elements of a tensor of these dimensions.
std::uint64_t element_count(const OnnxDims& dims);

}  // namespace ridgeline
