// One ONNX node as the kernels of existing workload kinds that compute it: MatMul and Gemm as
// gemm (Gemm's bias as an element-wise add after it), a 2-D Conv as conv (its bias likewise), the
// element-wise operators as elementwise, Softmax and LayerNormalization as row_reduction. Each
// kernel's `workload:` is a single-kernel workload document; its reads and writes are bound in
// order to the kind's input and output tensors (WorkloadKind<Spec>::tensors), each of the ONNX
// tensor's element count.
#pragma once

#include <onnx/onnx_pb.h>
#include <yaml-cpp/yaml.h>

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/onnx/onnx_model.hpp"

namespace ridgeline {

/// A kernel of the graph, its tensors by their ONNX names.
struct OnnxKernel {
  std::string name;
  std::vector<std::string> reads;   ///< the kind's input tensors, in order
  std::vector<std::string> writes;  ///< its output tensors, in order
  YAML::Node workload;              ///< the kernel's workload document
};

/// A node no kernel kind computes faithfully; what() says why ("it is a grouped convolution").
class UnsupportedNode : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What translating a node needs beside the node.
struct OnnxNodeContext {
  const OnnxModel& model;
  std::string dtype;                          ///< every kernel's data type, by name ("bf16")
  std::string kernel_name;                    ///< the node's kernel; a second one is named after it
  const std::set<std::string>& read_tensors;  ///< what some node reads or the graph outputs
  /// A tensor name the model does not use, from `base`: for a tensor between two kernels.
  std::function<std::string(const std::string& base)> new_tensor_name;
};

/// The operators whose output is their first input's data in another shape (Reshape, Flatten,
/// Squeeze, Unsqueeze, Identity): no kernel, the output a name for the input.
bool is_reshaping_op(const std::string& op_type);
/// Whether input `slot` of a node of `op_type` is read for its values as sizes or axes, not as
/// data (Reshape's target shape, Squeeze's and Unsqueeze's axes).
bool is_shape_operand(const std::string& op_type, int slot);

/// The kernels that compute `node` (one; two for a Gemm with a bias), in the order they run.
/// Throws UnsupportedNode for an operator not mapped, or a use of one that no kind computes.
std::vector<OnnxKernel> kernels_of(const onnx::NodeProto& node, const OnnxNodeContext& context);

}  // namespace ridgeline
