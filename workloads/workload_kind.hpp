// A workload kind's traits: everything the rest of Ridgeline asks of one kind, in one struct beside
// its spec (gemm.hpp, vector_add.hpp, memory_trace.hpp). The folds over WorkloadSpec
// (workload.hpp) read only these, so a kind that lacks a piece fails to compile instead of
// throwing at run time. Its YAML parser lives in sim/config/ (WorkloadParser, workload_config.hpp).
//
// Each specialisation WorkloadKind<Spec> gives:
//   name                     "gemm": the `kind:` a workload file names it by, the report's kind
//   runs_on                  on cores as thread blocks (a kernel), or on trace players
//   describe, short_label    the report's description and label
//   check_rules              the rules between the spec's values (std::nullopt: none broken)
//   analyze                  the analytical model on a roof
//   build_kernel             the block program and grid (only where runs_on is Runner::cores)
//   compute_type             the format the compute units execute (the spec's dtype unless the
//                            kind computes in another: element-wise math in FP32)
//   report_note              a line the text report prints under its title ("" for none)
//   tensors                  the tensors it reads and writes: name, role, shape, data type and
//                            address, for a graph to connect kernels by (none by default)
//   vector_work              what of it runs on the vector units in FP32 beside its own type
//                            ("the split-K reduction"), which needs the machine's fp32; null
//                            for none (the default)
// (runs_on, describe, analyze, build_kernel, compute_type and report_note come from deriving
// RunsOnCores<Spec> or RunsOnTracePlayers<Spec>, which call the spec's own functions; a kind
// replaces compute_type or report_note by defining its own.)
//   limit_keys               where a block that does not fit the machine is reported
//   check_threads            rules against the machine's threads beyond the footprint's counts
//   thread_registers_note    how a thread's registers are explained and what their limit allows
//   visit_fields             the report's `workload` leaves after `kind`, one list for the JSON
//                            report and the sweep's typed cells
//   visit_sweepable_fields   keys a sweep may copy into a point's spec without reading it again
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/tensor.hpp"

namespace ridgeline {

template <class Spec>
struct WorkloadKind;  // no primary definition: a spec without traits is no workload kind

/// What runs a workload in the simulation.
enum class Runner {
  cores,          ///< thread blocks of a kernel, dispatched to the cores
  trace_players,  ///< a stream of memory accesses replayed by the trace players (no FLOPs)
};

/// The configuration keys at which a block that does not fit the machine is reported: each is
/// the key that sets the quantity, so the message points at what to change.
struct LimitKeys {
  const char* footprint;         ///< SRAM or register bytes per block above a core's
  const char* threads;           ///< threads or warps per block above a core's
  const char* threads_fallback;  ///< where `threads` is not written in the file ("" for none)
};

/// What a kind says about the registers one of its threads needs, beside the count itself.
struct ThreadRegistersNote {
  std::string breakdown;  ///< " (8 accumulators + 2 operand fragments + 0 overhead)", or empty
  /// Where needing more than the per-thread limit is reported; null: LimitKeys::threads.
  const char* limit_key = nullptr;
  const char* limit_fix = "";  ///< how to come back under the limit
  bool spills = false;         ///< the excess goes to local memory instead of being refused
};

namespace kind_detail {
// Unqualified calls: argument-dependent lookup finds the spec's own functions (describe(GemmSpec)
// in gemm.hpp, ...), declared after this header, when the traits are used.
template <class Spec>
std::string describe_spec(const Spec& spec) {
  return describe(spec);
}
template <class Spec>
Analysis analyze_spec(const Spec& spec, const Roof& roof, const KernelTarget& target) {
  return analyze(spec, roof, target);
}
template <class Spec>
Kernel build_spec_kernel(const Spec& spec, const KernelTarget& target) {
  return build_kernel(spec, target);
}
}  // namespace kind_detail

/// A kind's describe and analyze: the spec's own describe(spec) and analyze(spec, roof, target).
template <class Spec>
struct ModelledBySpecFunctions {
  static std::string describe(const Spec& spec) { return kind_detail::describe_spec(spec); }
  static DataType compute_type(const Spec& spec) { return spec.dtype; }
  static std::string report_note(const Spec&) { return {}; }
  static std::vector<TensorRef> tensors(const Spec&) { return {}; }
  static const char* vector_work(const Spec&) { return nullptr; }
  static Analysis analyze(const Spec& spec, const Roof& roof, const KernelTarget& target) {
    return kind_detail::analyze_spec(spec, roof, target);
  }
};

/// A kind that runs as thread blocks on the cores: its kernel is build_kernel(spec, target).
template <class Spec>
struct RunsOnCores : ModelledBySpecFunctions<Spec> {
  static constexpr Runner runs_on = Runner::cores;
  static Kernel build_kernel(const Spec& spec, const KernelTarget& target) {
    return kind_detail::build_spec_kernel(spec, target);
  }
};

/// A kind replayed by the trace players: no kernel, no blocks, no FLOPs.
template <class Spec>
struct RunsOnTracePlayers : ModelledBySpecFunctions<Spec> {
  static constexpr Runner runs_on = Runner::trace_players;
};

}  // namespace ridgeline
