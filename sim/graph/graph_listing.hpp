// A graph of kernels as a generator makes it (sim/graph/transformer.hpp): what a `kind: graph`
// document lists, in plain structures, so that the graph reader checks and orders it as it does
// a document without its being written as YAML and read back (a transformer's hundreds of
// kernels are most of an `analyze`'s time that way: docs/PERFORMANCE.md, "Graphs of kernels").
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ridgeline {

struct GraphListing {
  struct Kernel {
    std::string name;
    std::size_t workload = 0;         ///< into `workloads`
    std::vector<std::string> reads;   ///< graph tensors, in the order of the workload's inputs
    std::vector<std::string> writes;  ///< in the order of its outputs
  };
  std::vector<std::string> inputs;  ///< the graph's inputs (`inputs:`)
  /// The distinct workloads, each a map a `workload:` document of its own would hold; kernels
  /// that run the same workload name the same one.
  std::vector<YAML::Node> workloads;
  std::vector<Kernel> kernels;                  ///< in the order written (`kernels:`)
  std::vector<std::vector<std::string>> fused;  ///< kernels that run as one (`fuse:`)
};

}  // namespace ridgeline
