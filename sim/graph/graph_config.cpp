#include "sim/graph/graph_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "sim/config/config_node.hpp"
#include "sim/config/hardware_config.hpp"
#include "sim/config/onnx_import.hpp"
#include "sim/config/workload_config.hpp"
#include "sim/graph/graph_listing.hpp"
#include "sim/graph/transformer.hpp"

namespace ridgeline {

bool is_graph_kind(std::string_view kind) {
  return kind == "graph" || kind == "transformer" || kind == "onnx";
}

bool workload_is_graph(const ConfigInput& workload, const std::vector<std::string>& overrides) {
  try {
    const std::optional<ConfigNode> kind =
        load_input(workload, "workload", overrides).optional("kind");
    return kind && kind->yaml().IsScalar() && is_graph_kind(kind->yaml().Scalar());
  } catch (const ConfigError&) {
    return false;
  }
}

namespace {

// A graph tensor as its first binding gave it, for the later ones to agree with.
struct TensorUse {
  TensorShape shape;
  DataType dtype = DataType::fp32;
  std::string how;  ///< "as kernel 'fc1' writes it"
  std::uint64_t bytes() const { return shape.elements() * element_bytes(dtype); }
};

// A violation of a kernel's workload, at its key below the kernel's `workload:` node (the rules
// name keys from `workload.`); the power limit's is the hardware's.
[[noreturn]] void fail_in_kernel(const ConfigNode& kernel_workload, const ConfigNode& hardware,
                                 const Violation& violation) {
  const bool of_hardware = violation.key_path.rfind("hardware.", 0) == 0;
  for (const std::string& path : {violation.key_path, violation.fallback_key_path}) {
    if (path.empty()) continue;
    std::string full = path;
    if (!of_hardware && path.rfind("workload", 0) == 0) {
      full = kernel_workload.key_path() + path.substr(std::string_view("workload").size());
    }
    const ConfigNode& root = of_hardware ? hardware : kernel_workload;
    const ConfigNode node = root.find(full);
    if (node.key_path() == full) node.fail(violation.rule, violation.fix);
  }
  (of_hardware ? hardware : kernel_workload).fail(violation.rule, violation.fix);
}

// The names in a list of tensor names.
std::vector<std::string> names_in(const ConfigNode& list, std::vector<ConfigNode>& nodes) {
  nodes = list.items("tensor names");
  std::vector<std::string> names;
  for (const ConfigNode& node : nodes) {
    std::string name = node.text();
    if (name.empty()) node.fail("a tensor's name is not empty", "e.g. x, layers.0.q");
    names.push_back(std::move(name));
  }
  return names;
}

// The kernel's own `workload:` document, for a run of its own; also what makes two kernels the
// same workload.
std::string document_of(const YAML::Node& workload) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "workload" << YAML::Value << workload << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

// A YAML value as one string, each scalar with its length: equal strings, equal values (what
// makes two kernels one workload), without the emitter's cost.
void append_canonical(const YAML::Node& node, std::string& out) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      out += std::to_string(node.Scalar().size());
      out += ':';
      out += node.Scalar();
      break;
    case YAML::NodeType::Sequence:
      out += '[';
      for (const YAML::Node& item : node) append_canonical(item, out);
      out += ']';
      break;
    case YAML::NodeType::Map:
      out += '{';
      for (const auto& entry : node) {
        append_canonical(entry.first, out);
        append_canonical(entry.second, out);
      }
      out += '}';
      break;
    default:
      out += '~';
  }
}
std::string canonical_text(const YAML::Node& node) {
  std::string out;
  append_canonical(node, out);
  return out;
}

std::string list_of(const std::vector<TensorRef>& refs) {
  std::vector<std::string> names;
  for (const TensorRef& ref : refs) names.push_back(ref.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

class GraphReader {
 public:
  // `hardware_overrides`: the --set arguments each kernel's run of its own is given.
  GraphReader(GraphConfig& config, const ConfigNode& hardware,
              std::vector<std::string> hardware_overrides)
      : config_(config), hardware_(hardware), hardware_overrides_(std::move(hardware_overrides)) {}

  void read(const ConfigNode& graph) {
    graph.required("kind").choice({"graph"});
    if (auto listed = graph.optional("inputs")) {
      std::vector<ConfigNode> nodes;
      const std::vector<std::string> names = names_in(*listed, nodes);
      for (std::size_t i = 0; i < names.size(); ++i) add_input(names[i], nodes[i]);
    }
    const ConfigNode kernels = graph.required("kernels");
    const std::vector<ConfigNode> items = kernels.items("kernels");
    if (items.empty()) kernels.fail("a graph has at least one kernel", "add a kernel");
    // Reserved: a ParsedKernel is copied, not moved, when a vector of them grows.
    std::vector<ParsedKernel> parsed;
    parsed.reserve(items.size());
    for (const ConfigNode& item : items) parsed.push_back(parse_kernel(item));
    std::vector<FuseGroup> groups;
    if (auto fuse = graph.optional("fuse")) {
      for (const ConfigNode& group : fuse->items("fused groups")) {
        FuseGroup& g = groups.emplace_back(FuseGroup{group, {}, {}});
        g.names = names_in(group, g.name_nodes);
      }
    }
    fuse_and_bind(parsed, groups);
    graph.reject_unknown_keys();
    complete(kernels);
  }

  // A generated graph: its kernels' workloads are reported below `document`'s
  // `kernels[i].workload`, as if it had been written out, and whatever else the graph breaks (the
  // generator's error, not the user's) at `at`, the workload's `kind` key.
  void read(const GraphListing& listing, const std::string& document, const ConfigNode& at) {
    for (const std::string& input : listing.inputs) add_input(input, at);
    auto documented = std::make_shared<ConfigDocument>();
    documented->path = document;
    std::vector<std::optional<ConfigNode>> workloads(listing.workloads.size());
    std::vector<ParsedKernel> parsed;
    parsed.reserve(listing.kernels.size());
    for (std::size_t k = 0; k < listing.kernels.size(); ++k) {
      const GraphListing::Kernel& kernel = listing.kernels[k];
      std::optional<ConfigNode>& workload = workloads[kernel.workload];
      if (!workload) {
        workload.emplace(listing.workloads[kernel.workload],
                         fmt::format("workload.kernels[{}].workload", k), documented);
      }
      ParsedKernel& added = parsed.emplace_back();
      added.kernel.name = kernel.name;
      if (kernel.name.empty() || !kernel_names_.insert(kernel.name).second) {
        at.fail(fmt::format("the generated graph names two kernels '{}'", kernel.name));
      }
      added.kernel.reads = kernel.reads;
      added.kernel.writes = kernel.writes;
      added.read_nodes.assign(kernel.reads.size(), at);
      added.write_nodes.assign(kernel.writes.size(), at);
      take_workload(added, *workload);
      take_tensors(added, at, at);
    }
    if (parsed.empty()) at.fail("the generated graph has no kernel");
    std::vector<FuseGroup> groups;
    for (const std::vector<std::string>& names : listing.fused) {
      groups.push_back(FuseGroup{at, names, std::vector<ConfigNode>(names.size(), at)});
    }
    fuse_and_bind(parsed, groups);
    complete(at);
  }

 private:
  // A kernel as read, before its tensors are bound to the graph's.
  struct ParsedKernel {
    GraphKernel kernel;
    std::size_t distinct = 0;  // analysed_
    std::vector<ConfigNode> read_nodes;
    std::vector<ConfigNode> write_nodes;
    std::vector<TensorRef> ins;
    std::vector<TensorRef> outs;
    std::uint64_t fusion_saved_bytes = 0;
    bool fused_away = false;  // merged into the kernel before it
    YAML::Node workload_yaml;  // its `workload:` map, which a fused group's GEMM takes on
    std::optional<ConfigNode> stream_node;
  };

  // A `fuse:` group: the kernels' names, where each was given, and the group.
  struct FuseGroup {
    ConfigNode group;
    std::vector<std::string> names;
    std::vector<ConfigNode> name_nodes;
  };

  void add_input(const std::string& name, const ConfigNode& node) {
    if (!input_nodes_.emplace(name, node).second) node.fail("is listed twice", "list it once");
    config_.inputs.push_back(name);
  }

  // The kernels once parsed: fused, and their tensors bound to the graph's.
  void fuse_and_bind(std::vector<ParsedKernel>& parsed, const std::vector<FuseGroup>& groups) {
    if (!groups.empty()) apply_fusion(groups, parsed);
    config_.kernels.reserve(parsed.size());
    config_.fusion_saved_bytes.reserve(parsed.size());
    distinct_of_.reserve(parsed.size());
    std::size_t reads = 0;
    for (const ParsedKernel& kernel : parsed) reads += kernel.ins.size();
    pending_reads_.reserve(reads);
    for (ParsedKernel& kernel : parsed) bind(kernel);
  }

  // The rest, once bound: the reads checked, the order (a cycle reported at `kernels`), the L2
  // between kernels and the memory.
  void complete(const ConfigNode& kernels) {
    check_reads();
    order(kernels);
    place_in_l2();
    measure_memory();
  }

  ParsedKernel parse_kernel(const ConfigNode& item) {
    ParsedKernel parsed;
    GraphKernel& kernel = parsed.kernel;
    const ConfigNode name = item.required("name");
    kernel.name = name.text();
    if (kernel.name.empty()) name.fail("a kernel's name is not empty", "e.g. q_proj");
    if (!kernel_names_.insert(kernel.name).second) {
      name.fail("another kernel has this name", "give each kernel its own name");
    }
    take_workload(parsed, item.required("workload"));
    kernel.reads = names_in(item.required("reads"), parsed.read_nodes);
    kernel.writes = names_in(item.required("writes"), parsed.write_nodes);
    if (auto stream = item.optional("stream")) {
      kernel.stream = stream->text();
      if (kernel.stream.empty()) stream->fail("a stream's name is not empty", "e.g. copy");
      parsed.stream_node = stream;
    }
    item.reject_unknown_keys();
    take_tensors(parsed, item.required("reads"), item.required("writes"));
    return parsed;
  }

  // The kernel's workload, `workload` (where its rules are reported), analysed once a distinct
  // workload.
  void take_workload(ParsedKernel& parsed, const ConfigNode& workload) {
    parsed.distinct = distinct_workload(workload, workload.yaml());
    parsed.kernel.workload = analysed_[parsed.distinct].workload;  // `tile: auto` resolved
    parsed.workload_yaml = workload.yaml();
  }

  // The workload's inputs and outputs, one graph tensor each (reported at `reads` and `writes`).
  void take_tensors(ParsedKernel& parsed, const ConfigNode& reads, const ConfigNode& writes) {
    const GraphKernel& kernel = parsed.kernel;
    for (TensorRef& ref : workload_tensors(kernel.workload)) {
      if (ref.role == TensorRole::input) parsed.ins.push_back(std::move(ref));
      if (ref.role == TensorRole::output) parsed.outs.push_back(std::move(ref));
    }
    const std::string what = kind_name(kernel.workload).data();
    if (kernel.reads.size() != parsed.ins.size()) {
      reads.fail(fmt::format("this {} reads {} tensors ({}), not {}", what, parsed.ins.size(),
                             list_of(parsed.ins), kernel.reads.size()),
                 "name one graph tensor for each, in that order");
    }
    if (kernel.writes.size() != parsed.outs.size()) {
      writes.fail(fmt::format("this {} writes {} tensors ({}), not {}", what, parsed.outs.size(),
                              list_of(parsed.outs), kernel.writes.size()),
                  "name one graph tensor for each, in that order");
    }
  }

  // The analysed workload of `yaml` (below `workload`, where its rules are reported): one met
  // before is the same kernel, read, checked and analysed once.
  std::size_t distinct_workload(const ConfigNode& workload, const YAML::Node& yaml) {
    // A generated graph's kernels share one node a workload: the same node, the same workload.
    for (const auto& [node, distinct] : distinct_nodes_) {
      if (node.is(yaml)) return distinct;
    }
    const std::string key = canonical_text(yaml);
    auto found = distinct_.find(key);
    const std::size_t distinct =
        found != distinct_.end() ? found->second : read_workload(workload, key);
    if (found == distinct_.end()) distinct_nodes_.emplace_back(yaml, distinct);
    return distinct;
  }

  // `fuse: [[gemm, elementwise, ...], ...]`: each group becomes its GEMM with the element-wise
  // kernels after it as its epilogue, their intermediate tensors never written to memory.
  void apply_fusion(const std::vector<FuseGroup>& groups, std::vector<ParsedKernel>& parsed) {
    std::map<std::string, std::size_t> index_of;
    for (std::size_t i = 0; i < parsed.size(); ++i) index_of[parsed[i].kernel.name] = i;
    std::set<std::size_t> in_a_group;
    for (const FuseGroup& g : groups) {
      if (g.names.size() < 2) {
        g.group.fail("a fused group has a GEMM and at least one element-wise kernel after it",
                     "e.g. [up_proj, gelu]");
      }
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < g.names.size(); ++i) {
        auto found = index_of.find(g.names[i]);
        if (found == index_of.end()) g.name_nodes[i].fail("no kernel has this name");
        if (!in_a_group.insert(found->second).second) {
          g.name_nodes[i].fail("is in a fused group already", "put each kernel in one group");
        }
        members.push_back(found->second);
      }
      fuse_group(g.group, g.name_nodes, members, parsed);
    }
    parsed.erase(std::remove_if(parsed.begin(), parsed.end(),
                                [](const ParsedKernel& k) { return k.fused_away; }),
                 parsed.end());
  }

  void fuse_group(const ConfigNode& group, const std::vector<ConfigNode>& name_nodes,
                  const std::vector<std::size_t>& members, std::vector<ParsedKernel>& parsed) {
    ParsedKernel& head = parsed[members.front()];
    const auto* gemm = std::get_if<GemmSpec>(&head.kernel.workload);
    if (!gemm) {
      name_nodes.front().fail(
          fmt::format("a fused group starts with a gemm, whose epilogue the "
                      "kernels after it become, not a kernel of kind {}",
                      kind_name(head.kernel.workload)));
    }
    GemmSpec fused = *gemm;
    YAML::Node document = YAML::Clone(head.workload_yaml);
    YAML::Node steps(YAML::NodeType::Sequence);
    std::uint64_t unfused_bytes = analysed_[head.distinct].analysis.hbm_bytes();
    std::string flowing = head.kernel.writes.front();  // C, as it leaves each step
    std::vector<std::string> intermediates;            // what the group keeps on chip
    std::string name = head.kernel.name;
    for (std::size_t m = 1; m < members.size(); ++m) {
      ParsedKernel& next = parsed[members[m]];
      const auto* op = std::get_if<ElementwiseSpec>(&next.kernel.workload);
      if (!op) {
        name_nodes[m].fail(fmt::format("a fused group's kernels after its gemm are elementwise, "
                                       "not {}",
                                       kind_name(next.kernel.workload)),
                           "fuse a gemm with the element-wise kernels that follow it");
      }
      if (next.kernel.stream != head.kernel.stream) {
        (next.stream_node ? *next.stream_node : name_nodes[m])
            .fail(fmt::format("is in stream '{}', the group's gemm in '{}': a fused group is one "
                              "kernel, in one stream",
                              next.kernel.stream, head.kernel.stream),
                  "put the group's kernels in one stream");
      }
      if (next.kernel.reads.front() != flowing) {
        name_nodes[m].fail(fmt::format("its first input is '{}', not '{}' that the kernel before "
                                       "it in the group writes",
                                       next.kernel.reads.front(), flowing),
                           "fuse kernels that take the GEMM's result, in order");
      }
      EpilogueStep step;
      step.op = op->operation;
      YAML::Node step_yaml;
      step_yaml["operation"] = std::string(info_of(op->operation).name);
      if (next.kernel.reads.size() == 2) {
        const std::uint64_t elements = next.ins[1].shape.elements();
        if (elements == fused.n) {
          step.operand = EpilogueStep::Operand::bias;
        } else if (elements == fused.m * fused.n) {
          step.operand = EpilogueStep::Operand::residual;
        } else {
          name_nodes[m].fail(
              fmt::format("its second input has {} elements: an epilogue reads a "
                          "vector of N = {} or a matrix like C ({} x {})",
                          elements, fused.n, fused.m, fused.n));
        }
        step_yaml["operand"] = std::string(name_of(step.operand));
        head.kernel.reads.push_back(next.kernel.reads[1]);
        head.read_nodes.push_back(next.read_nodes[1]);
      }
      fused.epilogue.push_back(step);
      steps.push_back(step_yaml);
      unfused_bytes += analysed_[next.distinct].analysis.hbm_bytes();
      intermediates.push_back(flowing);
      flowing = next.kernel.writes.front();
      name += "+" + next.kernel.name;
      head.kernel.writes = next.kernel.writes;
      head.write_nodes = next.write_nodes;
      next.fused_away = true;
    }
    // An intermediate that a kernel outside the group reads must reach memory: no fusion.
    for (const std::string& tensor : intermediates) {
      for (std::size_t k = 0; k < parsed.size(); ++k) {
        if (std::find(members.begin(), members.end(), k) != members.end()) continue;
        const std::vector<std::string>& reads = parsed[k].kernel.reads;
        if (std::find(reads.begin(), reads.end(), tensor) != reads.end()) {
          group.fail(fmt::format("kernel '{}' reads '{}', which the group keeps on chip",
                                 parsed[k].kernel.name, tensor),
                     "leave the kernel that writes it out of the group");
        }
      }
    }
    document["epilogue"] = steps;
    head.distinct = distinct_workload(group, document, fused);
    head.kernel.workload = analysed_[head.distinct].workload;
    head.kernel.name = name;
    head.ins.clear();
    head.outs.clear();
    for (TensorRef& ref : workload_tensors(head.kernel.workload)) {
      if (ref.role == TensorRole::input) head.ins.push_back(std::move(ref));
      if (ref.role == TensorRole::output) head.outs.push_back(std::move(ref));
    }
    const std::uint64_t fused_bytes = analysed_[head.distinct].analysis.hbm_bytes();
    head.fusion_saved_bytes = unfused_bytes > fused_bytes ? unfused_bytes - fused_bytes : 0;
  }

  // A fused group's GEMM: its spec given (the GEMM as resolved, with its epilogue), its rules
  // reported at the group.
  std::size_t distinct_workload(const ConfigNode& group, const YAML::Node& document,
                                const GemmSpec& spec) {
    const std::string key = canonical_text(document);
    if (auto found = distinct_.find(key); found != distinct_.end()) return found->second;
    if (auto violation = check_rules(WorkloadSpec{spec})) {
      group.fail(fmt::format("the fused kernel breaks a rule: {}", violation->rule),
                 violation->fix);
    }
    return analyse(group, WorkloadSpec{spec}, key, document);
  }

  void bind(ParsedKernel& parsed) {
    GraphKernel& kernel = parsed.kernel;
    const std::size_t index = config_.kernels.size();
    for (std::size_t i = 0; i < parsed.outs.size(); ++i) {
      const std::string& tensor = kernel.writes[i];
      if (input_nodes_.count(tensor)) {
        parsed.write_nodes[i].fail(
            "is a graph input (workload.inputs), given before the graph runs",
            "write a tensor of a new name");
      }
      if (auto other = writer_.find(tensor); other != writer_.end()) {
        parsed.write_nodes[i].fail(fmt::format("kernel '{}' writes this tensor already",
                                               config_.kernels[other->second].name),
                                   "a tensor is written once: give this output a name of its own");
      }
      writer_.emplace(tensor, index);
      agree(parsed.write_nodes[i], tensor, parsed.outs[i],
            fmt::format("as kernel '{}' writes it (its {})", kernel.name, parsed.outs[i].name));
    }
    for (std::size_t i = 0; i < parsed.ins.size(); ++i) {
      pending_reads_.push_back(
          PendingRead{parsed.read_nodes[i], kernel.reads[i], parsed.ins[i], kernel.name});
    }
    distinct_of_.push_back(parsed.distinct);
    config_.fusion_saved_bytes.push_back(parsed.fusion_saved_bytes);
    config_.kernels.push_back(std::move(kernel));
  }

  // A kernel's workload read and analysed on the machine: the first of its kind.
  std::size_t read_workload(const ConfigNode& workload, const std::string& key) {
    const std::string kind = workload.required("kind").text();
    if (is_graph_kind(kind)) {
      workload.required("kind").fail("a graph's kernel is one kernel, not a graph of its own",
                                     "write its kernels into this graph");
    }
    const WorkloadSpec spec = parse_workload(workload);
    if (runs_on(spec) != Runner::cores) {
      workload.required("kind").fail(
          fmt::format("a graph's kernels run on the cores; a {} is replayed by trace players",
                      kind_name(spec)),
          "run the trace on its own");
    }
    return analyse(workload, spec, key, workload.yaml());
  }

  // `spec` checked and analysed on the machine, its rules reported below `at`; `yaml` is its
  // workload as a run of its own reads it.
  std::size_t analyse(const ConfigNode& at, const WorkloadSpec& spec, const std::string& key,
                      const YAML::Node& yaml) {
    RunConfig run;
    run.hardware_path = config_.hardware_path;
    run.workload_path = fmt::format("{} ({})", config_.workload_path, at.key_path());
    run.overrides = hardware_overrides_;
    run.hardware = config_.hardware;
    run.workload = spec;
    const YAML::Mark mark = at.yaml().Mark();
    run.workload_location =
        SourceLocation{config_.workload_path, mark.is_null() ? 0 : mark.line + 1,
                       mark.is_null() ? 0 : mark.column + 1};
    if (auto violation = check_and_analyze(run, [&] { return at; })) {
      fail_in_kernel(at, hardware_, *violation);
    }
    analysed_.push_back(std::move(run));
    documents_.push_back(document_of(yaml));
    distinct_.emplace(key, analysed_.size() - 1);
    return analysed_.size() - 1;
  }

  // A binding of `tensor` to a kernel's tensor `ref` agrees with its first in elements and type.
  void agree(const ConfigNode& at, const std::string& tensor, const TensorRef& ref,
             const std::string& how) {
    auto [use, first] = uses_.try_emplace(tensor, TensorUse{ref.shape, ref.dtype, how});
    if (first) return;
    const TensorUse& known = use->second;
    if (known.shape.elements() != ref.shape.elements() || known.dtype != ref.dtype) {
      at.fail(
          fmt::format("tensor '{}' is {} {} ({} elements) {}, but {} {} ({} elements) {}: "
                      "shapes that do not agree",
                      tensor, known.shape.text(), name_of(known.dtype), known.shape.elements(),
                      known.how, ref.shape.text(), name_of(ref.dtype), ref.shape.elements(), how),
          "make the kernels' shapes and data types agree");
    }
  }

  void check_reads() {
    for (const PendingRead& read : pending_reads_) {
      const bool input = input_nodes_.count(read.tensor) > 0;
      if (!input && !writer_.count(read.tensor)) {
        read.node.fail(fmt::format("tensor '{}' is read, but no kernel writes it and "
                                   "workload.inputs does not list it",
                                   read.tensor),
                       "add it to workload.inputs, or write it in a kernel");
      }
      read_tensors_.insert(read.tensor);
      agree(read.node, read.tensor, read.ref,
            fmt::format("as kernel '{}' reads it (its {})", read.kernel, read.ref.name));
    }
    for (const auto& [name, node] : input_nodes_) {
      if (!read_tensors_.count(name)) {
        node.warn("is listed in workload.inputs, but no kernel reads it", "remove it");
      }
    }
  }

  void order(const ConfigNode& kernels) {
    config_.dependencies = kernel_dependencies(
        config_.kernels, [&](const std::string& tensor) -> std::optional<std::size_t> {
          auto found = writer_.find(tensor);
          if (found == writer_.end()) return std::nullopt;
          return found->second;
        });
    RunOrder order = run_order(config_.dependencies);
    if (order.cycle) {
      std::vector<std::string> steps;
      const std::vector<std::size_t>& ring = order.cycle->kernels;
      for (std::size_t i = 0; i < ring.size(); ++i) {
        steps.push_back(fmt::format("'{}' waits for '{}'", config_.kernels[ring[i]].name,
                                    config_.kernels[ring[(i + 1) % ring.size()]].name));
      }
      kernels.fail(fmt::format("the kernels wait for each other in a cycle: {} (each reads a "
                               "tensor the next writes)",
                               fmt::join(steps, ", ")),
                   "a kernel may read only tensors written before it: break the cycle");
    }
    config_.order = std::move(order.order);
  }

  // Which inputs each kernel finds in the L2, and the distinct runs that follow.
  void place_in_l2() {
    const std::uint64_t capacity = config_.hardware.l2 ? config_.hardware.l2->capacity_bytes : 0;
    std::list<std::string> recent;  // most recently touched first
    std::unordered_map<std::string, std::list<std::string>::iterator> where;
    auto touch = [&](const std::string& tensor) {
      if (auto found = where.find(tensor); found != where.end()) recent.erase(found->second);
      recent.push_front(tensor);
      where[tensor] = recent.begin();
    };
    // Tensors a kernel wrote and none has read since: their lines are at home only (a store goes
    // there), without the copies reads leave in the partitions of the cores that read them.
    std::set<std::string> written_unread;
    config_.run_of.assign(config_.kernels.size(), 0);
    config_.l2_resident_bytes.assign(config_.kernels.size(), 0);
    std::map<std::tuple<std::size_t, std::vector<std::string>, std::vector<std::string>>,
             std::size_t>
        run_index;
    for (std::size_t k : config_.order) {
      const GraphKernel& kernel = config_.kernels[k];
      std::vector<TensorRef> ins;
      for (TensorRef& ref : workload_tensors(kernel.workload)) {
        if (ref.role == TensorRole::input) ins.push_back(std::move(ref));
      }
      std::vector<std::string> resident;
      std::vector<std::string> written;
      std::uint64_t resident_bytes = 0;
      std::set<std::string> counted;
      for (std::size_t i = 0; i < kernel.reads.size(); ++i) {
        const std::string& tensor = kernel.reads[i];
        if (capacity == 0 || !where.count(tensor)) continue;
        std::uint64_t distance = uses_.at(tensor).bytes();
        for (const std::string& newer : recent) {
          if (newer == tensor) break;
          distance += uses_.at(newer).bytes();
          if (distance > capacity) break;
        }
        if (distance > capacity) continue;
        (written_unread.count(tensor) ? written : resident).push_back(ins[i].name);
        if (counted.insert(tensor).second) resident_bytes += uses_.at(tensor).bytes();
      }
      for (const std::string& tensor : kernel.reads) {
        touch(tensor);
        written_unread.erase(tensor);
      }
      for (const std::string& tensor : kernel.writes) {
        touch(tensor);
        written_unread.insert(tensor);
      }
      config_.l2_resident_bytes[k] = resident_bytes;

      const std::size_t distinct = distinct_of_[k];
      auto [run, fresh] = run_index.try_emplace({distinct, resident, written}, config_.runs.size());
      if (fresh) {
        GraphRun added;
        added.config = analysed_[distinct];
        added.config.l2_resident = resident;
        added.config.l2_written = written;
        added.document = documents_[distinct];
        config_.runs.push_back(std::move(added));
      }
      config_.runs[run->second].kernels.push_back(k);
      config_.run_of[k] = run->second;
    }
  }

  // GraphMemory over the run order: each written tensor from its writer's place to its last
  // reader's.
  void measure_memory() {
    GraphMemory& memory = config_.memory;
    memory = GraphMemory{};
    for (const std::string& input : config_.inputs) {
      if (auto use = uses_.find(input); use != uses_.end())
        memory.input_bytes += use->second.bytes();
    }
    std::vector<std::size_t> place(config_.kernels.size());
    for (std::size_t p = 0; p < config_.order.size(); ++p) place[config_.order[p]] = p;
    std::unordered_map<std::string, std::size_t> last_read;
    for (std::size_t k = 0; k < config_.kernels.size(); ++k) {
      for (const std::string& tensor : config_.kernels[k].reads) {
        if (!writer_.count(tensor)) continue;
        auto [at, fresh] = last_read.try_emplace(tensor, place[k]);
        if (!fresh) at->second = std::max(at->second, place[k]);
      }
    }
    std::vector<std::uint64_t> born(config_.order.size(), 0);
    std::vector<std::uint64_t> freed_after(config_.order.size(), 0);
    for (const auto& [tensor, writer] : writer_) {
      const std::uint64_t bytes = uses_.at(tensor).bytes();
      born[place[writer]] += bytes;
      if (auto read = last_read.find(tensor); read != last_read.end()) {
        freed_after[read->second] += bytes;
      }
    }
    std::uint64_t live = 0;
    memory.peak_bytes = memory.input_bytes;
    for (std::size_t p = 0; p < config_.order.size(); ++p) {
      live += born[p];
      if (memory.input_bytes + live > memory.peak_bytes) {
        memory.peak_bytes = memory.input_bytes + live;
        memory.peak_kernel = config_.order[p];
      }
      live -= freed_after[p];
    }
  }

  struct PendingRead {
    ConfigNode node;
    std::string tensor;
    TensorRef ref;
    std::string kernel;
  };

  GraphConfig& config_;
  const ConfigNode& hardware_;
  std::vector<std::string> hardware_overrides_;
  std::set<std::string> kernel_names_;
  std::map<std::string, ConfigNode> input_nodes_;
  std::unordered_map<std::string, std::size_t> writer_;
  std::unordered_map<std::string, TensorUse> uses_;
  std::vector<PendingRead> pending_reads_;
  std::set<std::string> read_tensors_;
  std::unordered_map<std::string, std::size_t> distinct_;  // canonical_text -> analysed_
  std::vector<std::pair<YAML::Node, std::size_t>> distinct_nodes_;  // each one's first node
  std::vector<RunConfig> analysed_;
  std::vector<std::string> documents_;    // analysed_'s workload documents
  std::vector<std::size_t> distinct_of_;  // kernel -> analysed_
};

// A graph that cannot be held in the HBM cannot run on the machine: no figure of it is real.
void check_memory(const GraphConfig& config, const ConfigNode& workload) {
  const HardwareParams& hw = config.hardware;
  if (!hw.hbm.dram) return;  // without the DRAM's organisation the memory has no capacity
  const std::uint64_t capacity = hw.hbm.geometry().capacity_bytes();
  const GraphMemory& memory = config.memory;
  if (memory.peak_bytes <= capacity) return;
  const auto gb = [](std::uint64_t bytes) { return fmt::format("{:.2f} GB", bytes / 1e9); };
  workload.required("kind").fail(
      fmt::format("the graph needs {} of device memory at its peak ({} of inputs such as "
                  "weights and caches, held throughout, and {} of tensors written by kernels, "
                  "live during kernel '{}'), but the HBM holds {} (hardware.hbm.dram)",
                  gb(memory.peak_bytes), gb(memory.input_bytes),
                  gb(memory.peak_bytes - memory.input_bytes),
                  config.kernels[memory.peak_kernel].name, gb(capacity)),
      "run it on a machine with more memory, or shrink it (a smaller batch or sequence, a "
      "narrower dtype); splitting a model over several GPUs is not modelled");
}

}  // namespace

GraphConfig load_graph_config(const std::string& hardware_path, const std::string& workload_path,
                              const std::vector<std::string>& overrides, bool skip_unsupported) {
  return load_graph_config(ConfigInput{hardware_path, std::nullopt},
                           ConfigInput{workload_path, std::nullopt}, overrides, skip_unsupported);
}

GraphConfig load_graph_config(const ConfigInput& hardware_input, const ConfigInput& workload_input,
                              const std::vector<std::string>& overrides, bool skip_unsupported) {
  check_override_roots(overrides);
  const std::string& workload_path = workload_input.path;
  GraphConfig config;
  config.hardware_path = hardware_input.path;
  config.workload_path = workload_path;
  config.overrides = overrides;
  const ConfigNode hardware = load_input(hardware_input, "hardware", overrides);
  config.hardware = parse_hardware(hardware);
  const ConfigNode workload = load_input(workload_input, "workload", overrides);
  config.kind = workload.required("kind").choice({"graph", "transformer", "onnx"});

  std::vector<std::string> hardware_overrides;
  for (const std::string& o : overrides) {
    if (o.rfind("hardware.", 0) == 0) hardware_overrides.push_back(o);
  }
  GraphReader reader(config, hardware, std::move(hardware_overrides));
  // A generated graph is read as a document of its own (`workload:` the graph), named after the
  // file it came from.
  auto read_generated = [&](const YAML::Node& document, const char* what) {
    reader.read(
        load_document_tree(fmt::format("{} ({})", workload_path, what), document, "workload", {}));
  };
  if (config.kind == "transformer") {
    TransformerGraph generated = transformer_graph(workload);
    config.description = generated.description;
    config.fields = generated.fields;
    reader.read(generated.graph, fmt::format("{} (the transformer's kernels)", workload_path),
                workload.required("kind"));
  } else if (config.kind == "onnx") {
    OnnxImport imported = import_onnx(workload, skip_unsupported);
    config.skipped = std::move(imported.skipped);
    YAML::Node document;
    document["workload"] = imported.graph;
    read_generated(document, "the ONNX model's kernels");
    config.description = fmt::format(
        "ONNX model {}: {} kernels ({} distinct){}", workload.required("path").text(),
        config.kernels.size(), config.runs.size(),
        config.skipped.empty() ? "" : fmt::format(", {} nodes skipped", config.skipped.size()));
  } else {
    reader.read(workload);
    config.description = fmt::format("graph of {} kernel{} ({} distinct)", config.kernels.size(),
                                     config.kernels.size() == 1 ? "" : "s", config.runs.size());
  }
  check_memory(config, workload);
  append_warnings(hardware, workload, config.warnings);
  return config;
}

}  // namespace ridgeline
