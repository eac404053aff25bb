// The ONNX importer's library (libridgeline_onnx.so): import_onnx() and ONNX's and protobuf's
// libraries behind it, which the executable loads only for a `kind: onnx` workload
// (sim/util/build_library.hpp).
#include "sim/config/onnx_import.hpp"

extern "C" __attribute__((visibility("default"))) const ridgeline::BuildStamp*
ridgeline_onnx_abi() {
  static const ridgeline::OnnxAbi abi{ridgeline::OnnxAbi::this_build(), &ridgeline::import_onnx};
  return &abi.stamp;
}
