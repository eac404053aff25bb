#include "sim/config/onnx_import.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "sim/config/workload_config.hpp"
#include "sim/onnx/onnx_kernels.hpp"
#include "sim/onnx/onnx_model.hpp"

namespace ridgeline {

namespace {

constexpr const char* kSkipFix = "--skip-unsupported reports it instead";

bool in_default_domain(const onnx::NodeProto& node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

// The tensors that hold only sizes or axes: every reader takes them as a shape operand
// (Reshape's target, Unsqueeze's axes) or is itself a node whose outputs are all such tensors
// (Shape, Gather and Concat over dimensions, Constant). They are worked out on the host before a
// kernel is launched: no kernel computes them and none reads them.
std::set<std::string> shape_tensors(const onnx::GraphProto& graph) {
  std::map<std::string, std::vector<std::pair<int, int>>> readers;  // tensor -> (node, slot)
  for (int i = 0; i < graph.node_size(); ++i) {
    for (int slot = 0; slot < graph.node(i).input_size(); ++slot) {
      readers[graph.node(i).input(slot)].emplace_back(i, slot);
    }
  }
  std::set<std::string> outputs;
  for (const auto& output : graph.output()) outputs.insert(output.name());
  std::set<std::string> shapes;
  std::vector<bool> computes_shapes(static_cast<std::size_t>(graph.node_size()), false);
  // Backwards: a node's readers come after it, and are decided first.
  for (int i = graph.node_size() - 1; i >= 0; --i) {
    const onnx::NodeProto& node = graph.node(i);
    bool all = node.output_size() > 0;
    for (const std::string& output : node.output()) {
      if (output.empty()) continue;
      const auto found = readers.find(output);
      bool shape = outputs.count(output) == 0 && found != readers.end();
      if (shape) {
        for (const auto& [reader, slot] : found->second) {
          const onnx::NodeProto& r = graph.node(reader);
          shape = shape && (is_shape_operand(r.op_type(), slot) ||
                            computes_shapes[static_cast<std::size_t>(reader)]);
        }
      }
      all = all && shape;
    }
    computes_shapes[static_cast<std::size_t>(i)] = all;
    if (all) shapes.insert(node.output().begin(), node.output().end());
  }
  return shapes;
}

// A kernel's workload read back as the existing reader reads it: a translation that breaks a
// kind's rule is a node that does not map, reported with the rule.
void check_loads(const OnnxKernel& kernel) {
  YAML::Node document;
  document["workload"] = YAML::Clone(kernel.workload);
  try {
    parse_workload(load_document_tree("<kernel " + kernel.name + ">", document, "workload", {}));
  } catch (const ConfigError& error) {
    throw UnsupportedNode(fmt::format("its {} kernel would break a rule of the kind: {}: {}",
                                      kernel.workload["kind"].as<std::string>(), error.key_path(),
                                      error.rule()));
  }
}

YAML::Node flow_list(const std::vector<std::string>& names) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (const std::string& name : names) list.push_back(name);
  list.SetStyle(YAML::EmitterStyle::Flow);
  return list;
}

// The graph as it is put together node by node, in the model's order (ONNX's nodes are sorted:
// a tensor is written before it is read).
class GraphAssembly {
 public:
  GraphAssembly(const OnnxModel& model, std::string dtype)
      : model_(model), dtype_(std::move(dtype)), shape_tensors_(shape_tensors(graph())) {
    for (const auto& node : graph().node()) {
      read_tensors_.insert(node.input().begin(), node.input().end());
      tensor_names_.insert(node.input().begin(), node.input().end());
      tensor_names_.insert(node.output().begin(), node.output().end());
    }
    for (const auto& output : graph().output()) read_tensors_.insert(output.name());
    for (const auto& input : graph().input()) tensor_names_.insert(input.name());
    for (const auto& weight : graph().initializer()) tensor_names_.insert(weight.name());
  }

  const onnx::GraphProto& graph() const { return model_.proto.graph(); }

  /// Adds node `index`'s kernels, or its output as a name for its input; throws UnsupportedNode.
  void add(int index) {
    const onnx::NodeProto& node = graph().node(index);
    if (computes_shapes(node)) return;  // on the host, before any kernel runs
    if (!in_default_domain(node)) {
      throw UnsupportedNode(
          fmt::format("an operator of domain '{}', not ONNX's own", node.domain()));
    }
    if (node.op_type() == "Constant") return;  // a graph input of the kernels that read it
    if (is_reshaping_op(node.op_type())) {
      aliases_[node.output(0)] = underlying(node.input(0));
      return;
    }
    const OnnxNodeContext context{model_, dtype_, node_name(index), read_tensors_,
                                  [this](const std::string& base) { return new_tensor(base); }};
    std::vector<OnnxKernel> kernels = kernels_of(node, context);
    for (const OnnxKernel& kernel : kernels) check_loads(kernel);
    for (OnnxKernel& kernel : kernels) {
      for (std::string& read : kernel.reads) read = underlying(read);
      kernel.name = unique(kernel.name, kernel_names_);
      kernels_.push_back(std::move(kernel));
    }
  }

  /// "Relu_3" for a node without a name: its operator and its place in the graph.
  std::string node_name(int index) const {
    const onnx::NodeProto& node = graph().node(index);
    return node.name().empty() ? fmt::format("{}_{}", node.op_type(), index) : node.name();
  }

  std::size_t kernel_count() const { return kernels_.size(); }

  /// The `kind: graph` map.
  YAML::Node document() const {
    std::set<std::string> written;
    for (const OnnxKernel& kernel : kernels_)
      written.insert(kernel.writes.begin(), kernel.writes.end());
    std::vector<std::string> inputs;  // in the order the kernels first read them
    std::set<std::string> listed;
    YAML::Node kernels(YAML::NodeType::Sequence);
    for (const OnnxKernel& kernel : kernels_) {
      for (const std::string& read : kernel.reads) {
        if (written.count(read) == 0 && listed.insert(read).second) inputs.push_back(read);
      }
      YAML::Node entry;
      entry["name"] = kernel.name;
      entry["reads"] = flow_list(kernel.reads);
      entry["writes"] = flow_list(kernel.writes);
      entry["workload"] = kernel.workload;
      kernels.push_back(entry);
    }
    YAML::Node graph;
    graph["kind"] = "graph";
    graph["inputs"] = flow_list(inputs);
    graph["kernels"] = kernels;
    return graph;
  }

 private:
  bool computes_shapes(const onnx::NodeProto& node) const {
    for (const std::string& output : node.output()) {
      if (!output.empty() && shape_tensors_.count(output) == 0) return false;
    }
    return node.output_size() > 0;
  }

  // The tensor whose data a name stands for, through the reshaping operators.
  std::string underlying(const std::string& name) const {
    const auto alias = aliases_.find(name);
    return alias == aliases_.end() ? name : alias->second;
  }

  // `base`, or base_2, base_3, ...: the first not in `taken`, which it joins.
  static std::string unique(const std::string& base, std::set<std::string>& taken) {
    std::string name = base;
    for (int n = 2; taken.count(name) != 0; ++n) name = fmt::format("{}_{}", base, n);
    taken.insert(name);
    return name;
  }

  std::string new_tensor(const std::string& base) { return unique(base, tensor_names_); }

  const OnnxModel& model_;
  std::string dtype_;
  std::set<std::string> shape_tensors_;
  std::set<std::string> read_tensors_;  // read by a node, or an output of the graph
  std::set<std::string> tensor_names_;  // every name the model uses, and the ones made up
  std::set<std::string> kernel_names_;
  std::map<std::string, std::string> aliases_;  // a reshaping operator's output -> its data
  std::vector<OnnxKernel> kernels_;
};

}  // namespace

OnnxImport import_onnx(const ConfigNode& workload, bool skip_unsupported) {
  workload.optional("kind");  // `onnx`: the caller's to read
  const ConfigNode path = workload.required("path");
  const std::string dtype(name_of(parse_data_type(workload.required("dtype"))));
  const std::optional<ConfigNode> shapes = workload.optional("shapes");
  workload.reject_unknown_keys();

  const OnnxModel model = read_onnx_model(workload, path, shapes);
  GraphAssembly assembly(model, dtype);
  OnnxImport result;
  for (int index = 0; index < assembly.graph().node_size(); ++index) {
    try {
      assembly.add(index);
    } catch (const UnsupportedNode& unsupported) {
      const onnx::NodeProto& node = assembly.graph().node(index);
      const std::string what = fmt::format("node '{}' (op {}): {}", assembly.node_name(index),
                                           node.op_type(), unsupported.what());
      if (!skip_unsupported) path.fail("cannot map " + what, kSkipFix);
      result.skipped.push_back(what);
    }
  }
  if (assembly.kernel_count() == 0) {
    path.fail("the model holds no node that maps to a kernel",
              result.skipped.empty() ? ""
                                     : fmt::format("{} of its nodes were left out, the first {}",
                                                   result.skipped.size(), result.skipped.front()));
  }
  result.graph = assembly.document();
  return result;
}

}  // namespace ridgeline
