// C[i] = A[i] + B[i] over `length` elements: one FLOP and three element transfers per element.
//
// Each thread block handles `block_elements` consecutive elements, `chunk_elements` at a time:
// load A and B chunks into registers, add, store the C chunk. `stages` chunks may be loading at
// once (software pipelining); the last block takes whatever is left. The block's `threads` share
// each chunk evenly; its operands live in their registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

struct VectorAddSpec {
  std::uint64_t length = 0;          ///< elements
  DataType dtype = DataType::fp32;   ///< A, B and C
  std::uint64_t block_elements = 0;  ///< elements per thread block
  std::uint64_t chunk_elements = 0;  ///< elements per load
  std::uint32_t stages = 2;          ///< chunks in flight per block
  std::uint64_t threads = 256;       ///< threads per block
};

std::string describe(const VectorAddSpec& spec);
Analysis analyze(const VectorAddSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const VectorAddSpec& spec, const KernelTarget& target = {});
Kernel build_kernel(const VectorAddSpec& spec, const KernelTarget& target = {});

template <>
struct WorkloadKind<VectorAddSpec> : RunsOnCores<VectorAddSpec> {
  static constexpr std::string_view name = "vector_add";
  // A block's footprint follows from several keys at once; its threads from `threads`.
  static constexpr LimitKeys limit_keys{"workload", "workload.threads", ""};

  static std::string short_label(const VectorAddSpec&) { return "vector add"; }
  /// None beyond what reading the spec checks (the parser clips the sizes to one another).
  static std::optional<Violation> check_rules(const VectorAddSpec&) { return std::nullopt; }
  static std::optional<Violation> check_threads(const VectorAddSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const VectorAddSpec&) {
    return ThreadRegistersNote{"", nullptr, "set 'threads' higher or use smaller chunks", false};
  }

  template <class Visitor>
  static void visit_fields(const VectorAddSpec& v, Visitor& visitor) {
    visitor.integer("length", v.length);
    visitor.text("dtype", name_of(v.dtype));
    visitor.integer("block_elements", v.block_elements);
    visitor.integer("chunk_elements", v.chunk_elements);
    visitor.integer("stages", v.stages);
  }
  /// None: the parser clips length, block_elements and chunk_elements to one another.
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
