// A graph workload read and checked on a machine: `kind: graph` as written, `kind: transformer`
// as its generator writes it (sim/graph/transformer.hpp), `kind: onnx` as the ONNX importer
// translates the model (sim/config/onnx_import.hpp). Each kernel is a single-kernel workload
// (gemm, elementwise, row_reduction, attention, ...) read by the one workload reader and analysed
// on the machine; kernels that are the same workload share one analysis and one simulation.
//
// The L2 between kernels: a kernel finds an input in the L2 at its start when the tensor was
// touched (read or written) by an earlier kernel and the bytes of the distinct tensors touched
// since then, with its own, fit the L2's capacity (least-recently-used reuse distance, whole
// tensors, touched in each kernel's order: its reads, then its writes). The simulation starts
// such a kernel with those tensors' lines in the L2: read by a kernel since they were last
// written (RunConfig::l2_resident, copied in the partitions near the cores), or written and not
// read since (RunConfig::l2_written, at home only).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/run_config.hpp"
#include "workloads/graph.hpp"

namespace ridgeline {

/// A kernel as it runs: the distinct workload and the tensors it finds in the L2.
struct GraphRun {
  RunConfig config;      ///< the kernel's workload analysed on the machine; l2_resident and
                         ///< l2_written set
  std::string document;  ///< its `workload:` document as YAML, for a run of its own
  std::vector<std::size_t> kernels;  ///< the graph's kernels that are this run, in run order
};

/// The device memory a graph occupies, nothing moved off the device: the graph's inputs
/// (weights, caches, the prompt) for the whole run, and each tensor a kernel writes from that
/// kernel until its last reader (a tensor no kernel reads, an output, to the end). A fused
/// group's intermediates never exist. A kernel's own scratch (split-K's partial sums) is not
/// counted.
struct GraphMemory {
  std::uint64_t input_bytes = 0;  ///< the inputs', held throughout
  std::uint64_t peak_bytes = 0;   ///< inputs and live written tensors, at their most
  std::size_t peak_kernel = 0;    ///< the kernel during which the peak is reached
};

struct GraphConfig {
  std::string hardware_path;
  std::string workload_path;
  std::vector<std::string> overrides;
  HardwareParams hardware;
  std::string kind;         ///< the workload's kind: "graph", "transformer" or "onnx"
  std::string description;  ///< "transformer: 32 layers, hidden 4096, ... prefill of 2048 tokens"
  /// The generator's keys (transformer: hidden, heads, ...) as the report lists them.
  std::vector<std::pair<std::string, std::string>> fields;

  std::vector<std::string> inputs;                     ///< graph tensors given before it runs
  std::vector<GraphKernel> kernels;                    ///< as written (or generated)
  std::vector<std::vector<std::size_t>> dependencies;  ///< kernel_dependencies
  std::vector<std::size_t> order;                      ///< the run order (run_order)
  std::vector<std::size_t> run_of;                     ///< kernel -> its GraphRun
  std::vector<GraphRun> runs;  ///< the distinct kernels, in order of first run
  /// Per kernel: the bytes of its inputs found in the L2 at its start.
  std::vector<std::uint64_t> l2_resident_bytes;
  /// Per kernel: HBM bytes its fused group saves (the group's kernels' Q apart, less its own
  /// Q); 0 for a kernel not fused.
  std::vector<std::uint64_t> fusion_saved_bytes;
  GraphMemory memory;
  std::vector<ConfigWarning> warnings;  ///< hardware's, then the workload's
  /// ONNX nodes left out with --skip-unsupported: "node 'name' (op Foo): why".
  std::vector<std::string> skipped;

  const RunConfig& kernel_config(std::size_t kernel) const { return runs[run_of[kernel]].config; }
};

/// The kinds whose workload is a graph of kernels rather than one kernel.
bool is_graph_kind(std::string_view kind);

/// Whether the workload document names a graph kind: read alone, without the hardware file, so
/// that a command can send a graph to load_graph_config before reading a machine for one kernel.
/// False for a document that cannot be read (the single-kernel reader then reports why).
bool workload_is_graph(const ConfigInput& workload, const std::vector<std::string>& overrides);

/// Reads both files, applies the overrides, generates the graph where the kind does, checks
/// every kernel and every tensor, orders the kernels, and refuses a graph whose memory
/// (GraphMemory) outgrows the HBM's capacity where the DRAM gives one. An ONNX operator that maps
/// to no kernel is an error unless `skip_unsupported`, which leaves it out and lists it. Throws
/// ConfigError.
GraphConfig load_graph_config(const std::string& hardware_path, const std::string& workload_path,
                              const std::vector<std::string>& overrides,
                              bool skip_unsupported = false);
/// The same for documents that may be given as text (a sweep's point).
GraphConfig load_graph_config(const ConfigInput& hardware, const ConfigInput& workload,
                              const std::vector<std::string>& overrides,
                              bool skip_unsupported = false);

}  // namespace ridgeline
