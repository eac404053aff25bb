#include "models/program.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/topological_sort.hpp>
#include <limits>

namespace ridgeline {

struct ProgramGraph {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, Op, EdgeKind>;
  Graph graph;
  std::vector<std::uint32_t> topological_order;  // filled by compile()
};

namespace {

// Finds one op on a cycle, for the error message.
struct BackEdgeFinder : boost::default_dfs_visitor {
  std::uint32_t* on_cycle;
  template <class Edge, class Graph>
  void back_edge(Edge edge, const Graph& graph) const {
    *on_cycle = static_cast<std::uint32_t>(boost::target(edge, graph));
  }
};

}  // namespace

const char* name_of(OpKind kind) {
  switch (kind) {
    case OpKind::load:
      return "load";
    case OpKind::compute:
      return "compute";
    case OpKind::store:
      return "store";
    case OpKind::barrier:
      return "barrier";
    case OpKind::signal:
      return "signal";
    case OpKind::wait:
      return "wait";
  }
  return "?";
}

std::string Program::label(std::uint32_t op) const {
  const Op& o = ops_.at(op);
  std::string text = name_of(o.kind);
  if (o.is_memory()) text += " " + tensor_names_.at(o.tensor);
  text += (o.is_memory() ? "_" : " ") + std::to_string(o.step);
  return text;
}

bool Program::posted(std::uint32_t op) const {
  if (ops_[op].kind != OpKind::store) return false;
  for (const Successor* s = successors_begin(op); s != successors_end(op); ++s) {
    if (s->kind != EdgeKind::issue_order) return false;
  }
  return true;
}

Time Program::critical_path(const std::function<OpTiming(const Op&)>& timing) const {
  // Longest path over the library's topological order.
  std::vector<Time> start(ops_.size());
  Time longest;
  for (std::uint32_t op : graph_->topological_order) {
    const OpTiming t = timing(ops_[op]);
    longest = max(longest, start[op] + (posted(op) ? t.occupancy : t.completion));
    for (const Successor* s = successors_begin(op); s != successors_end(op); ++s) {
      const Time ready =
          start[op] + (s->kind == EdgeKind::issue_order ? t.occupancy : t.completion);
      start[s->op] = max(start[s->op], ready);
    }
  }
  return longest;
}

ProgramBuilder::ProgramBuilder(std::vector<std::string> tensor_names)
    : graph_(std::make_unique<ProgramGraph>()), tensor_names_(std::move(tensor_names)) {}

ProgramBuilder::~ProgramBuilder() = default;

std::uint32_t ProgramBuilder::add(const Op& op) {
  if (op.is_memory() && op.tensor >= tensor_names_.size()) {
    throw ProgramError("op names tensor " + std::to_string(op.tensor) + " but the program has " +
                       std::to_string(tensor_names_.size()) + " tensors");
  }
  return static_cast<std::uint32_t>(boost::add_vertex(op, graph_->graph));
}

void ProgramBuilder::depend(std::uint32_t from, std::uint32_t to, EdgeKind kind) {
  const auto count = boost::num_vertices(graph_->graph);
  if (from >= count || to >= count) {
    throw ProgramError("edge " + std::to_string(from) + " -> " + std::to_string(to) +
                       " names an op that does not exist");
  }
  boost::add_edge(from, to, kind, graph_->graph);
}

Program ProgramBuilder::compile() {
  const auto& graph = graph_->graph;
  Program program;
  program.tensor_names_ = tensor_names_;
  const std::size_t count = boost::num_vertices(graph);
  program.ops_.reserve(count);
  for (std::size_t v = 0; v < count; ++v) program.ops_.push_back(graph[v]);

  std::vector<ProgramGraph::Graph::vertex_descriptor> reversed;
  try {
    boost::topological_sort(graph, std::back_inserter(reversed));
  } catch (const boost::not_a_dag&) {
    std::uint32_t on_cycle = 0;
    boost::depth_first_search(graph, boost::visitor(BackEdgeFinder{{}, &on_cycle}));
    throw ProgramError("the block program has a dependency cycle through '" +
                       program.label(on_cycle) + "'");
  }
  graph_->topological_order.assign(reversed.rbegin(), reversed.rend());

  program.first_.assign(count + 1, 0);
  program.pending_done_.assign(count, 0);
  program.pending_buffer_.assign(count, 0);
  program.pending_issue_.assign(count, 0);
  for (std::size_t v = 0; v < count; ++v) {
    program.first_[v + 1] =
        program.first_[v] + static_cast<std::uint32_t>(boost::out_degree(v, graph));
  }
  program.successors_.resize(program.first_[count]);
  std::vector<std::uint32_t> cursor(program.first_.begin(), program.first_.end() - 1);
  auto bump = [](std::uint16_t& counter) {
    if (counter == std::numeric_limits<std::uint16_t>::max()) {
      throw ProgramError("an op has more than 65535 predecessors");
    }
    ++counter;
  };
  for (auto [edge, end] = boost::edges(graph); edge != end; ++edge) {
    const auto from = static_cast<std::uint32_t>(boost::source(*edge, graph));
    const auto to = static_cast<std::uint32_t>(boost::target(*edge, graph));
    const EdgeKind kind = graph[*edge];
    program.successors_[cursor[from]++] = Successor{to, kind};
    if (kind == EdgeKind::issue_order) {
      bump(program.pending_issue_[to]);
    } else {
      bump(program.pending_done_[to]);
      if (kind == EdgeKind::buffer_reuse) bump(program.pending_buffer_[to]);
    }
  }
  program.graph_ = std::shared_ptr<const ProgramGraph>(std::move(graph_));
  graph_ = std::make_unique<ProgramGraph>();
  return program;
}

}  // namespace ridgeline
