// import_onnx() for the executable: from the importer's library beside it, loaded on the first
// ONNX model. The executable compiles this in place of sim/onnx/onnx_import.cpp
// (sim/onnx/CMakeLists.txt, ridgeline_onnx_import).
#include "sim/config/onnx_import.hpp"

namespace ridgeline {

OnnxImport import_onnx(const ConfigNode& workload, bool skip_unsupported) {
  static const OnnxAbi& importer = build_library_abi<OnnxAbi>();
  return importer.import(workload, skip_unsupported);
}

}  // namespace ridgeline
