// workload kind onnx: an ONNX model translated into a graph workload, each node a kernel of an
// existing kind (gemm, elementwise, row_reduction) or, for the operators that only reinterpret a
// shape, no kernel at all. The reference of the keys and of what maps is docs/CONFIG.md, "ONNX
// models".
//
// Declared here, with the workload kinds' readers, and defined by the importer (sim/onnx, which
// links ONNX's libraries) or, in the executable, by the call into the importer's library beside
// it (sim/commands/onnx_library.cpp): the graph reader calls import_onnx() alike in both, and the
// executable starts without ONNX's libraries (sim/util/build_library.hpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/util/build_library.hpp"

namespace ridgeline {

/// What `workload: {kind: onnx, path: model.onnx, dtype: bf16, shapes: {input_name: [8, 512]}}`
/// stands for.
struct OnnxImport {
  YAML::Node graph;                  ///< the `kind: graph` workload map
  std::vector<std::string> skipped;  ///< "node 'name' (op Foo): why", with skip_unsupported
};

/// Reads the model the `kind: onnx` node names (`path`, relative to the workload file's folder),
/// infers its shapes (ONNX's shape inference) after substituting `shapes` for the inputs' dynamic
/// dimensions, and translates every node, every kernel in `dtype`. Throws ConfigError at the key
/// at fault for: an unreadable or malformed file, an input with dynamic dimensions and no entry
/// in `shapes`, a shape given for no input, and a node that maps to no kernel kind (the message
/// names the node and its operator), unless `skip_unsupported`, which records such a node in
/// `skipped` and leaves it out (its outputs then become graph inputs of the kernels that read
/// them).
OnnxImport import_onnx(const ConfigNode& workload, bool skip_unsupported);

/// What the importer's library (libridgeline_onnx.so, sim/onnx/onnx_entry.cpp) hands the
/// executable: import_onnx().
struct OnnxAbi {
  BuildStamp stamp;  // first: build_library_abi reads it
  OnnxImport (*import)(const ConfigNode& workload, bool skip_unsupported) = nullptr;

  static constexpr const char* kFile = "libridgeline_onnx.so";
  static constexpr const char* kEntry = "ridgeline_onnx_abi";
  /// The stamp of this build's importer: what crosses is the workload's node and the import.
  static BuildStamp this_build() { return build_stamp<ConfigNode, ConfigDocument, OnnxImport>(); }
};

}  // namespace ridgeline
