#include "sim/onnx/onnx_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ridgeline {

namespace {

// Operators newer than the schemas of Debian's ONNX library (1.12: opset 17), whose shapes its
// inference cannot work out, leaving every tensor after them without one. Each gives its output
// its input's shape, which import adds itself before running the inference again.
constexpr std::array<std::string_view, 1> kShapePreservingNewerOps{"Gelu"};

constexpr std::uint64_t kMaxDimension = std::uint64_t{1} << 32;

// Whether every dimension has a size.
bool is_static(const onnx::TypeProto& type) {
  if (!type.tensor_type().has_shape()) return false;
  const auto& dims = type.tensor_type().shape().dim();
  return std::all_of(dims.begin(), dims.end(), [](const auto& d) { return d.has_dim_value(); });
}

// The input's dimensions with its dynamic ones given `given`'s sizes; a fixed size must agree.
void substitute(onnx::ValueInfoProto& input, const ConfigNode& given) {
  const std::vector<ConfigNode> sizes = given.items("dimensions");
  const bool stated = input.type().tensor_type().has_shape();
  onnx::TensorShapeProto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
  if (!stated) {  // no shape in the model: the sizes make one
    for (std::size_t i = 0; i < sizes.size(); ++i) shape->add_dim();
  }
  const std::string stated_dims = dims_text(*shape);
  if (static_cast<std::size_t>(shape->dim_size()) != sizes.size()) {
    given.fail(fmt::format("the model's input '{}' has {} dimensions, {}, not {}", input.name(),
                           shape->dim_size(), stated_dims, sizes.size()),
               "give a size for each of its dimensions");
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::uint64_t size = sizes[i].positive_count_at_most(kMaxDimension);
    onnx::TensorShapeProto_Dimension* dim = shape->mutable_dim(static_cast<int>(i));
    if (dim->has_dim_value() && static_cast<std::uint64_t>(dim->dim_value()) != size) {
      sizes[i].fail(fmt::format("dimension {} of the model's input '{}' {} is fixed at {}", i,
                                input.name(), stated_dims, dim->dim_value()),
                    fmt::format("give {}", dim->dim_value()));
    }
    dim->set_dim_value(static_cast<std::int64_t>(size));
  }
}

// "x: [8, 512]" with the fixed sizes kept and 1 for each dynamic one: an example for a message.
std::string example_shape(const onnx::ValueInfoProto& input) {
  std::vector<std::string> sizes;
  for (const auto& dim : input.type().tensor_type().shape().dim()) {
    sizes.push_back(dim.has_dim_value() ? std::to_string(dim.dim_value()) : "1");
  }
  return fmt::format("{}: [{}]", input.name(), fmt::join(sizes, ", "));
}

// Gives the inputs the sizes `shapes` lists; every input with dynamic dimensions must have one.
void give_input_shapes(onnx::GraphProto& graph, const ConfigNode& workload,
                       const std::optional<ConfigNode>& shapes) {
  std::set<std::string> weights;
  for (const auto& initializer : graph.initializer()) weights.insert(initializer.name());
  std::vector<onnx::ValueInfoProto*> inputs;  // the model's inputs: what is not a weight
  std::vector<std::string> input_names;
  for (auto& input : *graph.mutable_input()) {
    if (weights.count(input.name()) != 0) continue;
    inputs.push_back(&input);
    input_names.push_back(input.name());
  }
  std::set<std::string> given;
  if (shapes) {
    for (const std::string& name : shapes->keys()) {
      const ConfigNode sizes = shapes->required(name);
      const auto input = std::find(input_names.begin(), input_names.end(), name);
      if (input == input_names.end()) {
        sizes.fail(
            fmt::format("the model has no input '{}'{}", name,
                        weights.count(name) != 0 ? " (it is a weight, whose shape is fixed)" : ""),
            fmt::format("its inputs: {}", fmt::join(input_names, ", ")));
      }
      substitute(*inputs[static_cast<std::size_t>(input - input_names.begin())], sizes);
      given.insert(name);
    }
    shapes->reject_unknown_keys();  // every key was asked for: this finds one given twice
  }
  for (const onnx::ValueInfoProto* input : inputs) {
    if (given.count(input->name()) != 0 || is_static(input->type())) continue;
    const bool stated = input->type().tensor_type().has_shape();
    const std::string rule =
        stated ? fmt::format("the model's input '{}' has dynamic dimensions, {}", input->name(),
                             dims_text(input->type().tensor_type().shape()))
               : fmt::format("the model states no shape for its input '{}'", input->name());
    const std::string fix =
        stated
            ? fmt::format("give its sizes in shapes, e.g. 'shapes: {{{}}}'", example_shape(*input))
            : fmt::format("give its sizes in shapes: 'shapes: {{{}: [...]}}'", input->name());
    if (shapes) shapes->fail(rule, fix);
    // Reported as a missing key is: at the map, under the key's path.
    throw ConfigError(workload.location(), workload.key_path() + ".shapes", "", rule, fix);
  }
}

// The types of every size known, that the graph states or inference found, by tensor name.
std::map<std::string, const onnx::TypeProto*> static_types(const onnx::GraphProto& graph) {
  std::map<std::string, const onnx::TypeProto*> types;
  for (const auto* list : {&graph.input(), &graph.value_info(), &graph.output()}) {
    for (const auto& value : *list) {
      if (is_static(value.type())) types.emplace(value.name(), &value.type());
    }
  }
  return types;
}

// The shape a Reshape gives its input, from the target's values (as data propagation found
// them): 0 copies the input's dimension (unless allowzero), -1 takes what is left.
std::optional<onnx::TensorShapeProto> reshaped(const onnx::TensorShapeProto& input,
                                               const onnx::TensorShapeProto& target,
                                               bool allow_zero) {
  std::int64_t elements = 1;
  for (const auto& dim : input.dim()) elements *= dim.dim_value();
  std::int64_t known = 1;
  int left = -1;  // the dimension of -1
  onnx::TensorShapeProto shape;
  for (int i = 0; i < target.dim_size(); ++i) {
    if (!target.dim(i).has_dim_value()) return std::nullopt;
    std::int64_t size = target.dim(i).dim_value();
    if (size == 0 && !allow_zero) {
      if (i >= input.dim_size()) return std::nullopt;
      size = input.dim(i).dim_value();
    }
    if (size == -1 && left < 0) {
      left = i;
      shape.add_dim();
      continue;
    }
    if (size < 0) return std::nullopt;
    known *= size;
    shape.add_dim()->set_dim_value(size);
  }
  if (left >= 0) {
    if (known == 0 || elements % known != 0) return std::nullopt;
    shape.mutable_dim(left)->set_dim_value(elements / known);
  } else if (known != elements) {
    return std::nullopt;
  }
  return shape;
}

// What ONNX's inference misses that import works out itself: the outputs of
// kShapePreservingNewerOps, and a Reshape's whose target data propagation computed (1.12's
// Reshape reads only a target stored in the file). Gives them their shapes; false when it found
// none to give.
bool give_missed_shapes(onnx::GraphProto& graph,
                        const std::unordered_map<std::string, onnx::TensorShapeProto>& data) {
  const std::map<std::string, const onnx::TypeProto*> types = static_types(graph);
  std::vector<std::pair<std::string, onnx::TypeProto>> found;
  for (const auto& node : graph.node()) {
    if (node.input_size() < 1 || node.output_size() < 1) continue;
    const auto input = types.find(node.input(0));
    if (input == types.end() || types.count(node.output(0)) != 0) continue;
    const bool newer = std::find(kShapePreservingNewerOps.begin(), kShapePreservingNewerOps.end(),
                                 node.op_type()) != kShapePreservingNewerOps.end();
    if (newer) found.emplace_back(node.output(0), *input->second);
    const auto target = node.input_size() > 1 ? data.find(node.input(1)) : data.end();
    if (node.op_type() == "Reshape" && target != data.end()) {
      const bool allow_zero =
          std::any_of(node.attribute().begin(), node.attribute().end(),
                      [](const auto& a) { return a.name() == "allowzero" && a.i() != 0; });
      if (auto shape = reshaped(input->second->tensor_type().shape(), target->second, allow_zero)) {
        onnx::TypeProto type = *input->second;
        *type.mutable_tensor_type()->mutable_shape() = *shape;
        found.emplace_back(node.output(0), type);
      }
    }
  }
  for (auto& [name, type] : found) {
    auto output = std::find_if(graph.mutable_output()->begin(), graph.mutable_output()->end(),
                               [&](const auto& value) { return value.name() == name; });
    onnx::ValueInfoProto* value =
        output != graph.mutable_output()->end() ? &*output : graph.add_value_info();
    value->set_name(name);
    *value->mutable_type() = type;
  }
  return !found.empty();
}

void infer_shapes(onnx::ModelProto& model, const ConfigNode& path) {
  // Data propagation works out the values of tensors of sizes (Shape, Gather, Concat of an
  // input's own dimensions), from which exporters compute a Reshape's target for dynamic inputs.
  const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0,
                                            /*enable_data_propagation=*/true);
  std::unordered_map<std::string, onnx::TensorShapeProto> data;
  do {
    data.clear();
    try {
      onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options, &data);
    } catch (const std::exception& error) {
      path.fail(fmt::format("ONNX's shape inference stopped: {}", printable(error.what(), 200)),
                "check the sizes given in shapes against the model");
    }
  } while (give_missed_shapes(*model.mutable_graph(), data));
}

void record(const onnx::ValueInfoProto& value, std::map<std::string, OnnxDims>& shapes) {
  if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) return;
  OnnxDims dims;
  for (const auto& dim : value.type().tensor_type().shape().dim()) {
    if (!dim.has_dim_value() || dim.dim_value() < 0) return;
    dims.push_back(static_cast<std::uint64_t>(dim.dim_value()));
  }
  shapes[value.name()] = dims;
}

std::map<std::string, OnnxDims> static_shapes(const onnx::GraphProto& graph) {
  std::map<std::string, OnnxDims> shapes;
  for (const auto& initializer : graph.initializer()) {
    OnnxDims dims;
    for (std::int64_t dim : initializer.dims()) dims.push_back(static_cast<std::uint64_t>(dim));
    shapes[initializer.name()] = dims;
  }
  for (const auto* list : {&graph.input(), &graph.value_info(), &graph.output()}) {
    for (const auto& value : *list) record(value, shapes);
  }
  return shapes;
}

}  // namespace

std::string dims_text(const onnx::TensorShapeProto& shape) {
  std::vector<std::string> dims;
  for (const auto& dim : shape.dim()) {
    dims.push_back(dim.has_dim_value()   ? std::to_string(dim.dim_value())
                   : dim.has_dim_param() ? dim.dim_param()
                                         : "?");
  }
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

std::string dims_text(const OnnxDims& dims) { return fmt::format("[{}]", fmt::join(dims, ", ")); }

std::uint64_t element_count(const OnnxDims& dims) {
  std::uint64_t count = 1;
  for (std::uint64_t dim : dims) count *= dim;
  return count;
}

OnnxModel read_onnx_model(const ConfigNode& workload, const ConfigNode& path,
                          const std::optional<ConfigNode>& shapes) {
  const std::string file_name = resolve_path(path);
  const std::string fix = "check the path (a relative path starts at the workload file's folder)";
  std::ifstream file(file_name, std::ios::binary);
  if (!file) path.fail(fmt::format("cannot open the ONNX model '{}'", file_name), fix);
  OnnxModel model;
  // An empty file, or one of another format that happens to parse, holds no graph.
  if (!model.proto.ParseFromIstream(&file) || model.proto.graph().node_size() == 0) {
    path.fail(
        fmt::format("'{}' is not an ONNX model (a ModelProto with a graph of nodes)", file_name),
        fix);
  }
  for (const auto& opset : model.proto.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") model.opset = opset.version();
  }
  if (model.opset == 0) {
    path.fail(
        fmt::format("the model '{}' imports no version of ONNX's operators (ai.onnx)", file_name),
        "export it with an opset_import of the default domain");
  }
  give_input_shapes(*model.proto.mutable_graph(), workload, shapes);
  infer_shapes(model.proto, path);
  model.shapes = static_shapes(model.proto.graph());
  return model;
}

}  // namespace ridgeline
