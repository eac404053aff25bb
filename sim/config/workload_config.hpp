// workload: YAML -> WorkloadSpec, with the rules each workload's parameters must follow.
//
// Each kind's reading is a WorkloadParser<Spec> beside its WorkloadKind<Spec> traits: the one for
// gemm and vector_add in workload_config.cpp, memory_trace's in memory_trace_config.hpp. The
// functions below are folds over the variant's kinds, by kind name.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "models/hardware.hpp"
#include "sim/config/config_node.hpp"
#include "workloads/tensor.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

/// A file a workload reads, by the key that names it.
struct WorkloadInputFile {
  std::string key_path;       ///< "workload.path"
  std::string absolute_path;  ///< as opened, made absolute
};

// A kind's reading from YAML. Each specialisation gives:
//   static Spec parse(const ConfigNode& workload)  each key's own rules, unknown keys aside
//   static void check_inputs(const std::function<ConfigNode()>& document, Spec&,
//                            const HardwareParams&)
//                                            reads the files the spec names against the machine
//                                            (throws ConfigError); `document` gives the
//                                            workload document, read only when asked for
//   static std::vector<WorkloadInputFile> input_files(const Spec&)
template <class Spec>
struct WorkloadParser;  // no primary definition: a kind without a parser fails to compile

/// The check_inputs and input_files of a kind that reads nothing but its own document.
struct ReadsNoFiles {
  template <class Spec>
  static void check_inputs(const std::function<ConfigNode()>&, Spec&, const HardwareParams&) {}
  template <class Spec>
  static std::vector<WorkloadInputFile> input_files(const Spec&) {
    return {};
  }
};

// Values several kinds read alike.
/// One of the data types, by name.
DataType parse_data_type(const ConfigNode& node);
/// A tensor's shape: a list of 1 to 4 dimensions, each 1 to 2^32.
TensorShape parse_shape(const ConfigNode& node);

// The keys of a tiled GEMM's blocks, which a convolution's implicit GEMM shares.
/// `tile: {m, n, k}`, each at least 1.
TileShape parse_tile_shape(const ConfigNode& tile);
/// `register_tile: {m, n}`.
RegisterTile parse_register_tile(const ConfigNode& registers);
/// `warp_tile: {m, n, warps}`; warps 1 (a warp's mma, the default) or 4 (a warpgroup's wgmma).
WarpTile parse_warp_tile(const ConfigNode& warp);
/// `tile: auto`: refuses each of `keys` (what the choice sets: stages, register and warp tiles,
/// ...) given beside it.
void refuse_beside_tile_auto(const ConfigNode& workload, std::initializer_list<const char*> keys);
/// `tile: auto` found no candidate that fits a core of `hardware`: the error, at workload.tile.
[[noreturn]] void fail_no_tile_fits(const std::function<ConfigNode()>& document,
                                    const HardwareParams& hardware);
/// A thread's registers beyond the derived count: `register_overhead`, or `registers_per_thread`
/// outright (not both), and `spill` (refuse or local) above the machine's limit.
struct ThreadRegisterKeys {
  std::uint32_t overhead = 0;
  std::optional<std::uint64_t> given;
  SpillPolicy spill = SpillPolicy::refuse;
};
ThreadRegisterKeys parse_thread_register_keys(const ConfigNode& workload);

/// Reads and checks a `workload:` document: each key's own rules, then the rules between them.
WorkloadSpec parse_workload(const ConfigNode& workload);

/// Each key's own rules only (units, ranges, choices, unknown keys); the rules between values
/// (check_rules) are left to the caller, which may change values first (sweeps).
WorkloadSpec parse_workload_fields(const ConfigNode& workload);

/// Reads what the workload names (a trace's every line) against `hardware`; throws ConfigError.
/// `document` is asked for the workload document only by kinds that read files.
void check_workload_inputs(const std::function<ConfigNode()>& document, WorkloadSpec& spec,
                           const HardwareParams& hardware);

/// The files the workload reads (a trace), for a document that must find them from elsewhere.
std::vector<WorkloadInputFile> workload_input_files(const WorkloadSpec& spec);

}  // namespace ridgeline
