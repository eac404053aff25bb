#include "sim/onnx/onnx_kernels.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "workloads/elementwise.hpp"
#include "workloads/tensor.hpp"

namespace ridgeline {

namespace {

constexpr std::size_t kMaxKernelRank = 4;         // a shape of elementwise and row_reduction
constexpr std::uint64_t kMaxBlockThreads = 1024;  // CUDA's limit of threads a block

// The ONNX operators that are one of elementwise's operations as they are.
struct ElementwiseMapping {
  std::string_view op_type;
  std::string_view operation;
};
constexpr std::array<ElementwiseMapping, 10> kElementwiseOps{{
    {"Add", "add"},
    {"Sub", "sub"},
    {"Mul", "mul"},
    {"Div", "div"},
    {"Max", "max"},
    {"Min", "min"},
    {"Relu", "relu"},
    {"Sigmoid", "sigmoid"},
    {"Tanh", "tanh"},
    {"Exp", "exp"},
}};

YAML::Node flow(YAML::Node node) {
  node.SetStyle(YAML::EmitterStyle::Flow);
  return node;
}

YAML::Node dims_node(const std::vector<std::uint64_t>& dims) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (std::uint64_t dim : dims) list.push_back(dim);
  return flow(list);
}

std::uint64_t product(const OnnxDims& dims, std::size_t from, std::size_t to) {
  std::uint64_t count = 1;
  for (std::size_t i = from; i < to; ++i) count *= dims[i];
  return count;
}

const onnx::AttributeProto* find_attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attribute : node.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

std::int64_t int_attribute(const onnx::NodeProto& node, const std::string& name,
                           std::int64_t absent) {
  const onnx::AttributeProto* attribute = find_attribute(node, name);
  return attribute ? attribute->i() : absent;
}

std::string string_attribute(const onnx::NodeProto& node, const std::string& name,
                             const std::string& absent) {
  const onnx::AttributeProto* attribute = find_attribute(node, name);
  return attribute ? attribute->s() : absent;
}

bool has_input(const onnx::NodeProto& node, int slot) {
  return node.input_size() > slot && !node.input(slot).empty();
}

const OnnxDims& input_shape(const onnx::NodeProto& node, int slot, const OnnxNodeContext& c) {
  const auto shape = c.model.shapes.find(node.input(slot));
  if (shape == c.model.shapes.end()) {
    throw UnsupportedNode(
        fmt::format("the shape of its input '{}' is unknown (ONNX's shape inference found none)",
                    node.input(slot)));
  }
  return shape->second;
}

// An axis attribute (negative: counted from the last) as an index into `rank` dimensions.
std::size_t axis_index(std::int64_t axis, std::size_t rank) {
  const std::int64_t index = axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
  if (index < 0 || index >= static_cast<std::int64_t>(rank)) {
    throw UnsupportedNode(fmt::format("its axis {} lies outside its {} dimensions", axis, rank));
  }
  return static_cast<std::size_t>(index);
}

// --- gemm ---

struct GemmShape {
  std::uint64_t m = 0, n = 0, k = 0;
  std::uint64_t batch = 1;
  char shared = 0;  ///< 'a' or 'b': the operand every GEMM of the batch reads whole, or none
};

YAML::Node gemm_workload(const GemmShape& g, const std::string& dtype) {
  YAML::Node w;
  w["kind"] = "gemm";
  w["m"] = g.m;
  w["n"] = g.n;
  w["k"] = g.k;
  w["dtype"] = dtype;
  // The tile and its pipeline chosen for the machine, as a BLAS library's heuristic does.
  w["strategy"] = "tiled";
  w["tile"] = "auto";
  if (g.batch > 1) {
    w["batch"] = g.batch;
    if (g.shared != 0) {
      YAML::Node stride;
      stride[std::string(1, g.shared)] = 0;
      w["batch_stride"] = flow(stride);
    }
  }
  return flow(w);
}

OnnxDims without_leading_ones(OnnxDims dims) {
  dims.erase(dims.begin(),
             std::find_if(dims.begin(), dims.end(), [](std::uint64_t d) { return d != 1; }));
  return dims;
}

OnnxKernel matmul(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const OnnxDims& a = input_shape(node, 0, c);
  const OnnxDims& b = input_shape(node, 1, c);
  if (a.empty() || b.empty()) throw UnsupportedNode("it multiplies a scalar");
  // A 1-D operand is a row for A and a column for B, as numpy.matmul takes it.
  GemmShape g;
  g.m = a.size() == 1 ? 1 : a[a.size() - 2];
  g.k = a.back();
  g.n = b.size() == 1 ? 1 : b.back();
  // The dimensions before the matrices: a batch of GEMMs, one operand shared when the other's
  // batch dimensions are all 1 (a weight against a batch of activations).
  const OnnxDims batch_a(a.begin(),
                         a.end() - static_cast<long>(std::min<std::size_t>(a.size(), 2)));
  const OnnxDims batch_b(b.begin(),
                         b.end() - static_cast<long>(std::min<std::size_t>(b.size(), 2)));
  const std::uint64_t gemms_a = element_count(batch_a), gemms_b = element_count(batch_b);
  if (gemms_b == 1) {
    g.batch = gemms_a;
    g.shared = 'b';
  } else if (gemms_a == 1) {
    g.batch = gemms_b;
    g.shared = 'a';
  } else if (without_leading_ones(batch_a) == without_leading_ones(batch_b)) {
    g.batch = gemms_a;
  } else {
    throw UnsupportedNode(fmt::format(
        "its batch dimensions {} and {} broadcast against each other; a batched gemm shares a "
        "whole operand or none",
        dims_text(batch_a), dims_text(batch_b)));
  }
  return OnnxKernel{
      c.kernel_name, {node.input(0), node.input(1)}, {node.output(0)}, gemm_workload(g, c.dtype)};
}

// --- elementwise ---

// The inputs' shapes as elementwise takes them: a scalar as [1], and beyond 4 dimensions the
// leading ones folded into one, where every input either has them all or broadcasts along them
// all (folding keeps every element's place).
std::vector<TensorShape> kernel_shapes(const std::vector<OnnxDims>& inputs) {
  std::size_t rank = 1;
  for (const OnnxDims& input : inputs) rank = std::max(rank, input.size());
  std::vector<OnnxDims> aligned;
  OnnxDims output(rank, 1);
  for (const OnnxDims& input : inputs) {
    OnnxDims dims(rank - input.size(), 1);
    dims.insert(dims.end(), input.begin(), input.end());
    for (std::size_t i = 0; i < rank; ++i) output[i] = std::max(output[i], dims[i]);
    aligned.push_back(dims);
  }
  const std::size_t folded = rank > kMaxKernelRank ? rank - kMaxKernelRank + 1 : 0;
  std::vector<TensorShape> shapes;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (folded == 0) {
      shapes.push_back(TensorShape{inputs[i].empty() ? OnnxDims{1} : inputs[i]});
      continue;
    }
    const OnnxDims& dims = aligned[i];
    const bool whole =
        std::equal(dims.begin(), dims.begin() + static_cast<long>(folded), output.begin());
    const bool broadcast = product(dims, 0, folded) == 1;
    if (!whole && !broadcast) {
      throw UnsupportedNode(fmt::format(
          "it broadcasts {} against {} within the leading dimensions, which a kernel of at most "
          "{} dimensions cannot express",
          dims_text(inputs[i]), dims_text(output), kMaxKernelRank));
    }
    OnnxDims kept{whole ? product(output, 0, folded) : 1};
    kept.insert(kept.end(), dims.begin() + static_cast<long>(folded), dims.end());
    shapes.push_back(TensorShape{kept});
  }
  return shapes;
}

struct ElementwiseBlock {
  std::uint64_t threads = 0;
  std::uint64_t elements_per_thread = 0;
};

// elementwise refuses a block that cuts the run of a broadcast input unevenly (check_rules): the
// largest block up to the kind's default of outputs that cuts none, as threads x elements a
// thread, the most elements a thread that keeps the threads within a block's limit.
ElementwiseBlock block_for(const std::vector<TensorShape>& inputs) {
  TensorShape output = inputs.front();
  for (const TensorShape& input : inputs) {
    const auto broadcast = broadcast_shape(output, input);
    if (!broadcast) {
      throw UnsupportedNode(fmt::format("its inputs' shapes {} and {} do not broadcast",
                                        output.text(), input.text()));
    }
    output = *broadcast;
  }
  std::vector<std::uint64_t> periods;
  for (const TensorShape& input : inputs) {
    const auto pattern = broadcast_pattern(input, output);
    if (!pattern) {
      throw UnsupportedNode(fmt::format(
          "it stretches {} against {} along leading and trailing dimensions both, which "
          "elementwise does not model",
          input.text(), output.text()));
    }
    if (pattern->kind != BroadcastPattern::Kind::full) periods.push_back(pattern->period);
  }
  const ElementwiseSpec defaults;
  for (std::uint64_t outputs = defaults.threads * defaults.elements_per_thread; outputs > 0;
       --outputs) {
    const std::uint64_t block = std::min(outputs, output.elements());
    const bool even = std::all_of(periods.begin(), periods.end(), [&](std::uint64_t period) {
      return period % block == 0 || block % period == 0;
    });
    if (!even) continue;
    for (std::uint64_t per_thread = defaults.elements_per_thread; per_thread > 0; per_thread /= 2) {
      if (outputs % per_thread == 0 && outputs / per_thread <= kMaxBlockThreads) {
        return ElementwiseBlock{outputs / per_thread, per_thread};
      }
    }
  }
  return ElementwiseBlock{1, 1};  // not reached: a block of one output cuts no run
}

OnnxKernel elementwise_kernel(const std::string& name, std::string_view operation,
                              const std::vector<std::string>& reads,
                              const std::vector<OnnxDims>& shapes, const std::string& output,
                              const std::string& dtype) {
  const std::vector<TensorShape> inputs = kernel_shapes(shapes);
  YAML::Node w;
  w["kind"] = "elementwise";
  w["operation"] = std::string(operation);
  YAML::Node list(YAML::NodeType::Sequence);
  for (const TensorShape& input : inputs) list.push_back(dims_node(input.dims));
  w["inputs"] = flow(list);
  w["dtype"] = dtype;
  const ElementwiseSpec defaults;
  const ElementwiseBlock block = block_for(inputs);
  if (block.threads != defaults.threads ||
      block.elements_per_thread != defaults.elements_per_thread) {
    w["threads"] = block.threads;
    w["elements_per_thread"] = block.elements_per_thread;
  }
  return OnnxKernel{name, reads, {output}, flow(w)};
}

OnnxKernel elementwise_of(const onnx::NodeProto& node, const OnnxNodeContext& c,
                          std::string_view operation) {
  const std::uint32_t expected = info_of(*elementwise_op_named(operation)).inputs;
  if (node.input_size() != static_cast<int>(expected)) {
    throw UnsupportedNode(fmt::format("it has {} inputs; elementwise {} takes {}",
                                      node.input_size(), operation, expected));
  }
  std::vector<std::string> reads;
  std::vector<OnnxDims> shapes;
  for (int slot = 0; slot < node.input_size(); ++slot) {
    reads.push_back(node.input(slot));
    shapes.push_back(input_shape(node, slot, c));
  }
  return elementwise_kernel(c.kernel_name, operation, reads, shapes, node.output(0), c.dtype);
}

std::vector<OnnxKernel> gemm(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const OnnxDims& a = input_shape(node, 0, c);
  const OnnxDims& b = input_shape(node, 1, c);
  if (a.size() != 2 || b.size() != 2) {
    throw UnsupportedNode(
        fmt::format("its operands {} and {} are not matrices", dims_text(a), dims_text(b)));
  }
  // A transposed operand is another layout of the same elements: the gemm reads as many bytes.
  // alpha and beta scale in a real kernel's epilogue, FLOPs the model does not count.
  const bool trans_a = int_attribute(node, "transA", 0) != 0;
  const bool trans_b = int_attribute(node, "transB", 0) != 0;
  GemmShape g;
  g.m = trans_a ? a[1] : a[0];
  g.k = trans_a ? a[0] : a[1];
  g.n = trans_b ? b[0] : b[1];
  if (!has_input(node, 2)) {
    return {OnnxKernel{c.kernel_name,
                       {node.input(0), node.input(1)},
                       {node.output(0)},
                       gemm_workload(g, c.dtype)}};
  }
  // The bias C, broadcast to the output, as a kernel of its own after the product.
  const std::string product_name = c.new_tensor_name(node.output(0) + "_product");
  return {
      OnnxKernel{
          c.kernel_name, {node.input(0), node.input(1)}, {product_name}, gemm_workload(g, c.dtype)},
      elementwise_kernel(c.kernel_name + "_bias", "add", {product_name, node.input(2)},
                         {{g.m, g.n}, input_shape(node, 2, c)}, node.output(0), c.dtype)};
}

// --- conv ---

std::vector<std::int64_t> ints_attribute(const onnx::NodeProto& node, const std::string& name) {
  const onnx::AttributeProto* attribute = find_attribute(node, name);
  if (!attribute) return {};
  return {attribute->ints().begin(), attribute->ints().end()};
}

// The padding of each side of a 2-D Conv's input, in ONNX's order: top, left, bottom, right.
std::array<std::int64_t, 4> conv_pads(const onnx::NodeProto& node, const OnnxDims& x,
                                      const std::array<std::int64_t, 2>& kernel,
                                      const std::array<std::int64_t, 2>& strides) {
  const std::string auto_pad = string_attribute(node, "auto_pad", "NOTSET");
  std::array<std::int64_t, 4> pads{0, 0, 0, 0};
  if (auto_pad == "NOTSET") {
    const std::vector<std::int64_t> given = ints_attribute(node, "pads");
    if (!given.empty() && given.size() != 4) {
      throw UnsupportedNode(fmt::format("its pads have {} values, not 4", given.size()));
    }
    std::copy(given.begin(), given.end(), pads.begin());
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    // ceil(input / stride) outputs; the padding they need split in two, the odd one at the end
    // (SAME_UPPER) or at the beginning (SAME_LOWER).
    for (std::size_t d = 0; d < 2; ++d) {
      const auto input = static_cast<std::int64_t>(x[2 + d]);
      const std::int64_t outputs = (input + strides[d] - 1) / strides[d];
      const std::int64_t total =
          std::max<std::int64_t>(0, (outputs - 1) * strides[d] + kernel[d] - input);
      pads[d] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[2 + d] = total - pads[d];
    }
  } else if (auto_pad != "VALID") {
    throw UnsupportedNode(fmt::format("its auto_pad '{}' is none of ONNX's", auto_pad));
  }
  return pads;
}

// A 2-D Conv of one group, without dilation, with one stride and the same padding on every side,
// as conv with its tile chosen for the machine (tile: auto, as a GEMM's); its bias, as an
// elementwise add after it. The kernel reads and writes its own layouts (NHWC, KRSC): the bytes
// of ONNX's NCHW and KCRS tensors in another order, which a graph connects by element count.
std::vector<OnnxKernel> conv(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const OnnxDims& x = input_shape(node, 0, c);
  const OnnxDims& w = input_shape(node, 1, c);
  if (x.size() != 4 || w.size() != 4) {
    throw UnsupportedNode(
        fmt::format("its input {} and weights {} are not a 2-D convolution's, which conv computes",
                    dims_text(x), dims_text(w)));
  }
  if (const std::int64_t group = int_attribute(node, "group", 1); group != 1) {
    throw UnsupportedNode(
        fmt::format("it is a grouped convolution ({} groups); conv computes one group", group));
  }
  const std::vector<std::int64_t> dilations = ints_attribute(node, "dilations");
  if (std::any_of(dilations.begin(), dilations.end(), [](std::int64_t d) { return d != 1; })) {
    throw UnsupportedNode(
        fmt::format("it is dilated ([{}]); conv has no dilation", fmt::join(dilations, ", ")));
  }
  const std::array<std::int64_t, 2> kernel{static_cast<std::int64_t>(w[2]),
                                           static_cast<std::int64_t>(w[3])};
  std::array<std::int64_t, 2> strides{1, 1};
  if (const std::vector<std::int64_t> given = ints_attribute(node, "strides"); !given.empty()) {
    if (given.size() != 2) {
      throw UnsupportedNode(fmt::format("its strides have {} values, not 2", given.size()));
    }
    strides = {given[0], given[1]};
  }
  if (strides[0] < 1 || strides[1] < 1) {
    throw UnsupportedNode(
        fmt::format("its strides ({}, {}) are not positive", strides[0], strides[1]));
  }
  if (strides[0] != strides[1]) {
    throw UnsupportedNode(fmt::format(
        "its strides differ along the height and the width ({} and {}); conv has one stride",
        strides[0], strides[1]));
  }
  const std::array<std::int64_t, 4> pads = conv_pads(node, x, kernel, strides);
  if (pads[0] < 0 ||
      std::any_of(pads.begin(), pads.end(), [&](std::int64_t pad) { return pad != pads[0]; })) {
    throw UnsupportedNode(fmt::format(
        "its padding ({}, {}, {}, {}) is not the same on every side; conv pads every side "
        "alike",
        pads[0], pads[1], pads[2], pads[3]));
  }
  YAML::Node workload;
  workload["kind"] = "conv";
  workload["batch"] = x[0];
  workload["channels"] = x[1];
  workload["height"] = x[2];
  workload["width"] = x[3];
  workload["filters"] = w[0];
  YAML::Node filter;
  filter["r"] = w[2];
  filter["s"] = w[3];
  workload["kernel"] = flow(filter);
  workload["stride"] = strides[0];
  workload["padding"] = pads[0];
  workload["dtype"] = c.dtype;
  workload["tile"] = "auto";
  const std::vector<std::string> reads{node.input(0), node.input(1)};
  if (!has_input(node, 2)) {
    return {OnnxKernel{c.kernel_name, reads, {node.output(0)}, flow(workload)}};
  }
  // The bias, a value a filter, added to y [N, P, Q, K] in the kernel's layout. A filter larger
  // than the padded input is the conv kernel's error, reported first.
  const auto outputs = [&](std::size_t d) -> std::uint64_t {
    const std::int64_t padded = static_cast<std::int64_t>(x[2 + d]) + 2 * pads[0];
    return padded < kernel[d] ? 1
                              : static_cast<std::uint64_t>((padded - kernel[d]) / strides[0] + 1);
  };
  const std::string product_name = c.new_tensor_name(node.output(0) + "_product");
  return {OnnxKernel{c.kernel_name, reads, {product_name}, flow(workload)},
          elementwise_kernel(c.kernel_name + "_bias", "add", {product_name, node.input(2)},
                             {{x[0], outputs(0), outputs(1), w[0]}, input_shape(node, 2, c)},
                             node.output(0), c.dtype)};
}

// --- row_reduction ---

// The shape a reduction over the dimensions from `axis` on runs over: the input's own where it
// reduces the last alone within 4 dimensions, else rows by the reduced elements.
OnnxDims reduction_shape(const OnnxDims& x, std::size_t axis) {
  if (axis + 1 == x.size() && x.size() <= kMaxKernelRank) return x;
  return {product(x, 0, axis), product(x, axis, x.size())};
}

OnnxKernel row_reduction_kernel(const OnnxNodeContext& c, std::string_view operation,
                                const OnnxDims& shape, const std::vector<std::string>& reads,
                                const std::string& output) {
  YAML::Node w;
  w["kind"] = "row_reduction";
  w["operation"] = std::string(operation);
  w["shape"] = dims_node(shape);
  w["dtype"] = c.dtype;
  // A block's rows kept whole on chip: one read over HBM, the fused kernel frameworks run.
  w["passes"] = 1;
  return OnnxKernel{c.kernel_name, reads, {output}, flow(w)};
}

OnnxKernel softmax(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const OnnxDims& x = input_shape(node, 0, c);
  if (x.empty()) throw UnsupportedNode("it normalises a scalar");
  std::size_t axis = 0;
  if (c.model.opset >= 13) {
    const std::int64_t given = int_attribute(node, "axis", -1);
    axis = axis_index(given, x.size());
    if (axis + 1 != x.size()) {
      throw UnsupportedNode(fmt::format(
          "it normalises over axis {} of {}; a row reduction reduces the last axis ({}) only",
          given, dims_text(x), x.size() - 1));
    }
  } else {
    // Before opset 13 a Softmax flattens its input at `axis` (1 by default) into rows.
    axis = axis_index(int_attribute(node, "axis", 1), x.size());
  }
  return row_reduction_kernel(c, "softmax", reduction_shape(x, axis), {node.input(0)},
                              node.output(0));
}

OnnxKernel layer_norm(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const OnnxDims& x = input_shape(node, 0, c);
  if (x.empty()) throw UnsupportedNode("it normalises a scalar");
  // Normalising the dimensions from `axis` on is normalising rows of all their elements.
  const std::size_t axis = axis_index(int_attribute(node, "axis", -1), x.size());
  const std::uint64_t columns = product(x, axis, x.size());
  if (!has_input(node, 2)) {
    throw UnsupportedNode("it has no bias B; layer_norm applies a weight and a bias, or neither");
  }
  for (int slot : {1, 2}) {
    const OnnxDims& parameter = input_shape(node, slot, c);
    if (element_count(parameter) != columns) {
      throw UnsupportedNode(fmt::format(
          "its {} {} is not one value for each of the {} elements it normalises together",
          slot == 1 ? "scale" : "bias", dims_text(parameter), columns));
    }
  }
  for (int slot : {1, 2}) {  // the optional Mean and InvStdDev outputs
    if (node.output_size() > slot && c.read_tensors.count(node.output(slot)) != 0) {
      throw UnsupportedNode(
          fmt::format("its output '{}' (the {}) is read, which layer_norm "
                      "does not write",
                      node.output(slot), slot == 1 ? "mean" : "inverse standard deviation"));
    }
  }
  return row_reduction_kernel(c, "layer_norm", reduction_shape(x, axis),
                              {node.input(0), node.input(1), node.input(2)}, node.output(0));
}

// Rows of its data picked by its indices (an embedding lookup): a gather of the data as a table
// of rows, axis 0 only.
OnnxKernel gather(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const OnnxDims& data = input_shape(node, 0, c);
  if (data.empty()) throw UnsupportedNode("it gathers from a scalar");
  const std::int64_t axis = int_attribute(node, "axis", 0);
  if (axis_index(axis, data.size()) != 0) {
    throw UnsupportedNode(fmt::format(
        "it gathers along axis {} of {}; gather picks rows (axis 0) only", axis, dims_text(data)));
  }
  YAML::Node w;
  w["kind"] = "gather";
  w["table"] = dims_node({data[0], product(data, 1, data.size())});
  w["indices"] = std::max<std::uint64_t>(1, element_count(input_shape(node, 1, c)));
  w["dtype"] = c.dtype;
  return OnnxKernel{c.kernel_name, {node.input(0), node.input(1)}, {node.output(0)}, flow(w)};
}

// Why an operator that is not mapped is not.
std::string why_not_mapped(const std::string& op_type) {
  if (op_type == "Erf") {
    return "erf alone is none of elementwise's operations (its gelu_erf is x Phi(x), another "
           "function)";
  }
  if (op_type == "Transpose") {
    return "a transpose moves data, in a kernel no workload kind models yet";
  }
  return "no workload kind computes it";
}

}  // namespace

bool is_reshaping_op(const std::string& op_type) {
  return op_type == "Reshape" || op_type == "Flatten" || op_type == "Squeeze" ||
         op_type == "Unsqueeze" || op_type == "Identity";
}

bool is_shape_operand(const std::string& op_type, int slot) {
  return slot >= 1 && (op_type == "Reshape" || op_type == "Squeeze" || op_type == "Unsqueeze");
}

std::vector<OnnxKernel> kernels_of(const onnx::NodeProto& node, const OnnxNodeContext& c) {
  const std::string& op = node.op_type();
  if (op == "MatMul") return {matmul(node, c)};
  if (op == "Gemm") return gemm(node, c);
  if (op == "Conv") return conv(node, c);
  if (op == "Softmax") return {softmax(node, c)};
  if (op == "LayerNormalization") return {layer_norm(node, c)};
  if (op == "Gather") return {gather(node, c)};
  if (op == "Gelu") {
    // approximate="tanh" is PyTorch's tanh approximation; "none", the default, the exact form.
    const bool tanh = string_attribute(node, "approximate", "none") == "tanh";
    return {elementwise_of(node, c, tanh ? "gelu" : "gelu_erf")};
  }
  for (const ElementwiseMapping& mapping : kElementwiseOps) {
    if (op == mapping.op_type) return {elementwise_of(node, c, mapping.operation)};
  }
  throw UnsupportedNode(why_not_mapped(op));
}

}  // namespace ridgeline
