// Any workload Ridgeline knows, and what is asked of one: each function here is a fold over the
// variant's kinds that reads only the kind's traits (WorkloadKind<Spec>, workload_kind.hpp), so a
// kind that lacks a piece fails to compile.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "workloads/attention.hpp"
#include "workloads/conv.hpp"
#include "workloads/elementwise.hpp"
#include "workloads/gather.hpp"
#include "workloads/gemm.hpp"
#include "workloads/memory_trace.hpp"
#include "workloads/row_reduction.hpp"
#include "workloads/stream.hpp"
#include "workloads/vector_add.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

// The order is the order in which messages list the kinds ("choose one of: gemm, ...").
using WorkloadSpec =
    std::variant<GemmSpec, VectorAddSpec, MemoryTraceSpec, StreamSpec, ElementwiseSpec,
                 RowReductionSpec, AttentionSpec, ConvSpec, GatherSpec>;

/// The traits of the kind `spec` (a GemmSpec, ...) is.
template <class Spec>
using KindOf = WorkloadKind<std::decay_t<Spec>>;

/// A stand-in for one kind, to fold over the kinds without a value of each.
template <class Spec>
struct KindTag {
  using type = Spec;
};

template <class... Specs, class F>
void for_each_kind_of(std::variant<Specs...>*, F& f) {
  (f(KindTag<Specs>{}), ...);
}
/// Calls `f(KindTag<Spec>{})` for each kind of WorkloadSpec, in the variant's order.
template <class F>
void for_each_workload_kind(F&& f) {
  for_each_kind_of(static_cast<WorkloadSpec*>(nullptr), f);
}

// The variant's functions are templates that accept exactly WorkloadSpec: called with one kind's
// spec they would convert it back to a WorkloadSpec instead of using that kind's own function.
template <class Spec, class = std::enable_if_t<std::is_same_v<Spec, WorkloadSpec>>>
std::string describe(const Spec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::describe(s); }, spec);
}
template <class Spec, class = std::enable_if_t<std::is_same_v<Spec, WorkloadSpec>>>
Analysis analyze(const Spec& spec, const Roof& roof, const KernelTarget& target = {}) {
  return std::visit([&](const auto& s) { return KindOf<decltype(s)>::analyze(s, roof, target); },
                    spec);
}
/// The block program and grid; throws std::logic_error for a kind without one (it runs on trace
/// players, which the simulation elaborates instead).
template <class Spec, class = std::enable_if_t<std::is_same_v<Spec, WorkloadSpec>>>
Kernel build_kernel(const Spec& spec, const KernelTarget& target = {}) {
  return std::visit(
      [&](const auto& s) -> Kernel {
        using Kind = KindOf<decltype(s)>;
        if constexpr (Kind::runs_on == Runner::cores) {
          return Kind::build_kernel(s, target);
        } else {
          throw std::logic_error(fmt::format(
              "a {} workload is replayed by trace players, not run as a kernel", Kind::name));
        }
      },
      spec);
}

/// "gemm", "vector_add", "memory_trace": the `kind:` of the workload file.
inline std::string_view kind_name(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::name; }, spec);
}
inline Runner runs_on(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::runs_on; }, spec);
}
/// "no reuse", "t = 64, 2 stages", "vector add", "trace random-64B": the report's short name.
inline std::string short_label(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::short_label(s); }, spec);
}
/// The rules between a workload's values (see check_rules of each spec): the first one broken.
inline std::optional<Violation> check_rules(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::check_rules(s); }, spec);
}
/// The rules against the machine's threads a kind has beyond the counts of its footprint.
inline std::optional<Violation> check_thread_rules(const WorkloadSpec& spec,
                                                   const KernelTarget& limits) {
  return std::visit([&](const auto& s) { return KindOf<decltype(s)>::check_threads(s, limits); },
                    spec);
}
inline LimitKeys limit_keys(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::limit_keys; }, spec);
}
inline ThreadRegistersNote thread_registers_note(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::thread_registers_note(s); },
                    spec);
}
/// The format the compute units execute: the roof's P, the type the machine must list.
inline DataType compute_type(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::compute_type(s); }, spec);
}
/// What of the workload runs on the vector units in FP32 beside its own type, or null.
inline const char* vector_work(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::vector_work(s); }, spec);
}
/// The tensors the workload reads and writes (none for a memory trace).
inline std::vector<TensorRef> workload_tensors(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::tensors(s); }, spec);
}
/// A line the text report prints under its title (what `tile: auto` chose), or "".
inline std::string report_note(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return KindOf<decltype(s)>::report_note(s); }, spec);
}

/// The report's `workload` leaves after its description and label: `kind`, then the kind's own
/// fields, as visitor.text(dotted_name, std::string_view) and visitor.integer(dotted_name,
/// std::uint64_t). Names are literals relative to `workload` ("tile.m"). The JSON report and the
/// sweep's typed cells both read this list, so the two cannot disagree.
template <class Visitor>
void visit_fields(const WorkloadSpec& spec, Visitor& visitor) {
  std::visit(
      [&](const auto& s) {
        using Kind = KindOf<decltype(s)>;
        visitor.text("kind", Kind::name);
        Kind::visit_fields(s, visitor);
      },
      spec);
}

}  // namespace ridgeline
