// Any workload Ridgeline knows, and the three things asked of it: a name, the analytical model
// and the kernel the simulator runs.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "workloads/gemm.hpp"
#include "workloads/vector_add.hpp"

namespace ridgeline {

using WorkloadSpec = std::variant<VectorAddSpec, GemmSpec>;

inline std::string describe(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return describe(s); }, spec);
}
inline Analysis analyze(const WorkloadSpec& spec, const Roof& roof) {
  return std::visit([&](const auto& s) { return analyze(s, roof); }, spec);
}
inline Kernel build_kernel(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return build_kernel(s); }, spec);
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
