#include "workloads/graph.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <functional>
#include <map>
#include <queue>

namespace ridgeline {

namespace {

// Edges from a kernel to those it waits for.
using DependencyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<DependencyGraph>::vertex_descriptor;
using Edge = boost::graph_traits<DependencyGraph>::edge_descriptor;

// Records the tree edges of the search, and the first back edge: a kernel that waits, through
// the search's path, for itself.
struct CycleFinder : boost::default_dfs_visitor {
  std::vector<Vertex>* parent;
  std::optional<Edge>* back;
  void tree_edge(Edge edge, const DependencyGraph& graph) const {
    (*parent)[boost::target(edge, graph)] = boost::source(edge, graph);
  }
  void back_edge(Edge edge, const DependencyGraph&) const {
    if (!*back) *back = edge;
  }
};

std::optional<KernelCycle> find_cycle(const std::vector<std::vector<std::size_t>>& dependencies) {
  DependencyGraph graph(dependencies.size());
  for (std::size_t i = 0; i < dependencies.size(); ++i) {
    for (std::size_t on : dependencies[i]) boost::add_edge(i, on, graph);
  }
  std::vector<Vertex> parent(dependencies.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = i;
  std::optional<Edge> back;
  boost::depth_first_search(graph, boost::visitor(CycleFinder{{}, &parent, &back}));
  if (!back) return std::nullopt;
  // The back edge goes from `from` to `to`, an ancestor of it on the search's path: the path
  // from `to` down to `from` closes the ring.
  const Vertex from = boost::source(*back, graph);
  const Vertex to = boost::target(*back, graph);
  KernelCycle cycle;
  for (Vertex v = from; v != to; v = parent[v]) cycle.kernels.push_back(v);
  cycle.kernels.push_back(to);
  // Each waits for the next: `to` waits (down the tree) for ..., which waits for `from`, which
  // waits for `to`. Listed from `to`: reverse the walk up the tree.
  std::reverse(cycle.kernels.begin(), cycle.kernels.end());
  return cycle;
}

// For each kernel, the kernels that wait for it, and how many it waits for.
struct Waiters {
  std::vector<std::vector<std::size_t>> waiting_on_me;
  std::vector<std::size_t> unmet;
};
Waiters waiters_of(const std::vector<std::vector<std::size_t>>& dependencies) {
  Waiters w{std::vector<std::vector<std::size_t>>(dependencies.size()),
            std::vector<std::size_t>(dependencies.size(), 0)};
  for (std::size_t i = 0; i < dependencies.size(); ++i) {
    w.unmet[i] = dependencies[i].size();
    for (std::size_t on : dependencies[i]) w.waiting_on_me[on].push_back(i);
  }
  return w;
}

}  // namespace

RunOrder run_order(const std::vector<std::vector<std::size_t>>& dependencies) {
  RunOrder result;
  if (auto cycle = find_cycle(dependencies)) {
    result.cycle = std::move(cycle);
    return result;
  }
  // Kahn's algorithm, the lowest index first among the kernels ready: the file's order wherever
  // the dependencies allow it.
  const std::size_t n = dependencies.size();
  auto [waiting_on_me, unmet] = waiters_of(dependencies);
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < n; ++i) {
    if (unmet[i] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    const std::size_t next = ready.top();
    ready.pop();
    result.order.push_back(next);
    for (std::size_t waiter : waiting_on_me[next]) {
      if (--unmet[waiter] == 0) ready.push(waiter);
    }
  }
  return result;
}

std::vector<std::vector<std::size_t>> with_stream_order(
    const std::vector<std::vector<std::size_t>>& dependencies,
    const std::vector<std::size_t>& order, const std::vector<std::string>& stream) {
  std::vector<std::vector<std::size_t>> waits_for = dependencies;
  std::map<std::string, std::size_t> last_of;  // each stream's latest kernel so far
  for (std::size_t i : order) {
    auto [last, first] = last_of.try_emplace(stream[i], i);
    if (first) continue;
    std::vector<std::size_t>& on = waits_for[i];
    if (std::find(on.begin(), on.end(), last->second) == on.end()) {
      on.insert(std::upper_bound(on.begin(), on.end(), last->second), last->second);
    }
    last->second = i;
  }
  return waits_for;
}

SharedSchedule shared_machine_schedule(const std::vector<std::vector<std::size_t>>& waits_for,
                                       const std::vector<std::size_t>& order,
                                       const std::vector<double>& time_s,
                                       const std::vector<KernelDemand>& demand) {
  const std::size_t n = waits_for.size();
  auto [waiting_on_me, unmet] = waiters_of(waits_for);
  std::vector<double> left = time_s;  // of each kernel's own time
  // Kernels ready to start, by their place in the run order (a min-heap of places).
  std::vector<std::size_t> place(n, 0);
  for (std::size_t p = 0; p < order.size(); ++p) place[order[p]] = p;
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i : order) {
    if (unmet[i] == 0) ready.push(place[i]);
  }
  std::vector<std::size_t> running;
  std::size_t finished = 0;
  double now = 0;
  SharedSchedule schedule;
  schedule.start_s.assign(n, 0);
  schedule.finish_s.assign(n, 0);
  const auto clamp = [](double x) { return std::min(1.0, std::max(0.0, x)); };
  while (finished < n) {
    while (!ready.empty()) {  // everything ready starts, in the run order
      const std::size_t i = order[ready.top()];
      ready.pop();
      schedule.start_s[i] = now;
      running.push_back(i);
    }
    if (running.empty()) break;  // a cycle: run_order refuses those first
    KernelDemand sum;
    for (std::size_t i : running) {
      sum.cores += clamp(demand[i].cores);
      sum.compute += clamp(demand[i].compute);
      sum.memory += clamp(demand[i].memory);
    }
    double rate = 1;
    for (double used : {sum.cores, sum.compute, sum.memory}) {
      if (used > 1) rate = std::min(rate, 1 / used);
    }
    std::size_t next = running.front();  // the first to finish at this rate
    for (std::size_t i : running) {
      if (left[i] < left[next]) next = i;
    }
    const double step = left[next];
    now += step / rate;
    std::vector<std::size_t> still;
    for (std::size_t i : running) {
      left[i] = i == next ? 0 : left[i] - step;
      // Kernels that end with it (equal times, up to rounding) end now.
      if (i == next || left[i] <= 1e-12 * time_s[i]) {
        ++finished;
        schedule.finish_s[i] = now;
        for (std::size_t waiter : waiting_on_me[i]) {
          if (--unmet[waiter] == 0) ready.push(place[waiter]);
        }
      } else {
        still.push_back(i);
      }
    }
    running = std::move(still);
  }
  schedule.time_s = now;
  return schedule;
}

CriticalPath critical_path(const std::vector<std::vector<std::size_t>>& dependencies,
                           const std::vector<std::size_t>& order,
                           const std::vector<double>& time_s) {
  const std::size_t n = dependencies.size();
  std::vector<double> finish(n, 0);
  std::vector<std::size_t> via(n, n);  // the dependency on the longest chain ending here
  for (std::size_t i : order) {
    double start = 0;
    for (std::size_t on : dependencies[i]) {  // the latest to finish; the first of equals
      if (via[i] == n || finish[on] > start) {
        start = finish[on];
        via[i] = on;
      }
    }
    finish[i] = start + time_s[i];
  }
  CriticalPath path;
  std::size_t last = n;
  for (std::size_t i : order) {
    if (last == n || finish[i] > finish[last]) last = i;
  }
  if (last == n) return path;
  path.time_s = finish[last];
  for (std::size_t k = last; k != n; k = via[k]) path.kernels.push_back(k);
  std::reverse(path.kernels.begin(), path.kernels.end());
  return path;
}

}  // namespace ridgeline
