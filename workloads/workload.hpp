// Any workload Ridgeline knows, and the three things asked of it: a name, the analytical model
// and the kernel the simulator runs.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "workloads/gemm.hpp"
#include "workloads/memory_trace.hpp"
#include "workloads/vector_add.hpp"

namespace ridgeline {

using WorkloadSpec = std::variant<VectorAddSpec, GemmSpec, MemoryTraceSpec>;

// The variant's functions are templates that accept exactly WorkloadSpec: a workload kind that
// lacks its own describe / analyze / build_kernel then fails to compile, instead of converting
// back to a WorkloadSpec and calling these again forever.
template <class Spec, class = std::enable_if_t<std::is_same_v<Spec, WorkloadSpec>>>
std::string describe(const Spec& spec) {
  return std::visit([](const auto& s) { return describe(s); }, spec);
}
template <class Spec, class = std::enable_if_t<std::is_same_v<Spec, WorkloadSpec>>>
Analysis analyze(const Spec& spec, const Roof& roof, const KernelTarget& target = {}) {
  return std::visit([&](const auto& s) { return analyze(s, roof, target); }, spec);
}
template <class Spec, class = std::enable_if_t<std::is_same_v<Spec, WorkloadSpec>>>
Kernel build_kernel(const Spec& spec, const KernelTarget& target = {}) {
  return std::visit([&](const auto& s) { return build_kernel(s, target); }, spec);
}
/// "no reuse", "t = 64, 2 stages", "64x128x32, 1 stage", "vector add": the seed note's row names
/// (", grouped 8" or ", column-major" added when the blocks are not handed out row-major).
inline std::string short_label(const WorkloadSpec& spec) {
  if (const auto* g = std::get_if<GemmSpec>(&spec)) {
    if (g->strategy == GemmStrategy::no_reuse) return "no reuse";
    const std::string tile = g->tile.m == g->tile.n && g->tile.n == g->tile.k
                                 ? fmt::format("t = {}", g->tile.m)
                                 : fmt::format("{}x{}x{}", g->tile.m, g->tile.n, g->tile.k);
    std::string label = fmt::format("{}, {} stage{}", tile, g->stages, g->stages == 1 ? "" : "s");
    if (g->block_order.kind == BlockOrderKind::grouped) {
      label += fmt::format(", grouped {}", g->block_order.group);
    } else if (g->block_order.kind == BlockOrderKind::column_major) {
      label += ", column-major";
    }
    return label;
  }
  if (const auto* t = std::get_if<MemoryTraceSpec>(&spec)) {  // "trace random-64B"
    std::string name = t->path.substr(t->path.rfind('/') + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
    return "trace " + name;
  }
  return "vector add";
}

/// The rules between a workload's values (see check_rules of each spec). vector_add has none
/// beyond what reading it checks.
inline std::optional<Violation> check_rules(const WorkloadSpec& spec) {
  if (const auto* gemm = std::get_if<GemmSpec>(&spec)) return check_rules(*gemm);
  return std::nullopt;
}
inline DataType compute_type(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return s.dtype; }, spec);
}

}  // namespace ridgeline
