// A graph of kernels: the tensors each reads and writes, the order they run in, and the critical
// path. Plain C++; the YAML reader and the runs are in sim/graph/.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "workloads/workload.hpp"

namespace ridgeline {

/// One kernel of a graph: a workload of one of the kernel kinds, bound to graph tensors.
struct GraphKernel {
  std::string name;
  WorkloadSpec workload;
  std::vector<std::string> reads;   ///< graph tensors bound, in order, to the workload's inputs
  std::vector<std::string> writes;  ///< bound, in order, to its outputs
  /// Its stream: the kernels of one stream run one after another, in the run order; kernels of
  /// different streams may run at once when neither waits for the other. "" the default one.
  std::string stream;
};

/// For each kernel, the kernels it waits for: those that write a tensor it reads (ascending,
/// each once). `writer` gives the kernel that writes a tensor, or nothing for a graph input.
template <class WriterOf>
std::vector<std::vector<std::size_t>> kernel_dependencies(const std::vector<GraphKernel>& kernels,
                                                          WriterOf&& writer);

/// Kernels that wait for each other in a ring, in the order each waits for the next (the last
/// waits for the first).
struct KernelCycle {
  std::vector<std::size_t> kernels;
};

/// The order the kernels run in, one after another: every kernel after those it waits for, and
/// otherwise in the order given (the file's), so a graph written in order runs as written. Or,
/// when the dependencies have a cycle, one cycle (found by a depth-first search).
struct RunOrder {
  std::vector<std::size_t> order;    ///< empty when there is a cycle
  std::optional<KernelCycle> cycle;  ///< the cycle found, if any
};
RunOrder run_order(const std::vector<std::vector<std::size_t>>& dependencies);

/// The longest chain of dependent kernels by time: what the graph would take with as many
/// streams as it has independent kernels.
struct CriticalPath {
  std::vector<std::size_t> kernels;  ///< first to last
  double time_s = 0;                 ///< the sum of their times
};
/// `order` is run_order's; `time_s[i]` kernel i's time.
CriticalPath critical_path(const std::vector<std::vector<std::size_t>>& dependencies,
                           const std::vector<std::size_t>& order,
                           const std::vector<double>& time_s);

/// `dependencies` with, for each kernel, the kernel before it in its stream (`stream[i]`) in
/// `order`: what it waits for when streams run at once.
std::vector<std::vector<std::size_t>> with_stream_order(
    const std::vector<std::vector<std::size_t>>& dependencies,
    const std::vector<std::size_t>& order, const std::vector<std::string>& stream);

/// What a kernel uses of the machine while it runs alone, each a fraction of the whole (0 to 1):
/// its cores' block slots, its compute units' time and its HBM's time.
struct KernelDemand {
  double cores = 0;
  double compute = 0;
  double memory = 0;
};

/// When each kernel runs, and the graph's time (the last finish).
struct SharedSchedule {
  double time_s = 0;
  std::vector<double> start_s;   ///< per kernel
  std::vector<double> finish_s;  ///< per kernel
};
/// Every kernel starts as soon as all it waits for (`waits_for`, with the stream order) have
/// finished, and the kernels running at once share the machine: together they progress at the
/// rate min(1, 1 / (their cores), 1 / (their compute), 1 / (their memory)) of their own times,
/// each demand summed over them. One kernel at a time gives the sum of the times; kernels whose
/// demands fit the machine together take the longest of theirs. Never below the critical path,
/// never above the sum (at most n kernels at once each progress at 1/n or more).
SharedSchedule shared_machine_schedule(const std::vector<std::vector<std::size_t>>& waits_for,
                                       const std::vector<std::size_t>& order,
                                       const std::vector<double>& time_s,
                                       const std::vector<KernelDemand>& demand);

// ---- implementation of the template ----
template <class WriterOf>
std::vector<std::vector<std::size_t>> kernel_dependencies(const std::vector<GraphKernel>& kernels,
                                                          WriterOf&& writer) {
  std::vector<std::vector<std::size_t>> dependencies(kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    for (const std::string& tensor : kernels[i].reads) {
      const std::optional<std::size_t> producer = writer(tensor);
      if (producer) dependencies[i].push_back(*producer);
    }
    std::vector<std::size_t>& on = dependencies[i];
    std::sort(on.begin(), on.end());
    on.erase(std::unique(on.begin(), on.end()), on.end());
  }
  return dependencies;
}

}  // namespace ridgeline
