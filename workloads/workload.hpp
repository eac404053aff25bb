// Any workload Ridgeline knows, and the three things asked of it: a name, the analytical model
// and the kernel the simulator runs.
#pragma once

#include <string>
#include <variant>

#include "workloads/gemm.hpp"
#include "workloads/vector_add.hpp"

namespace ridgeline {

using WorkloadSpec = std::variant<VectorAddSpec, GemmSpec>;

inline std::string describe(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return describe(s); }, spec);
}
inline Analysis analyze(const WorkloadSpec& spec, const Roof& roof,
                        const KernelTarget& target = {}) {
  return std::visit([&](const auto& s) { return analyze(s, roof, target); }, spec);
}
inline Kernel build_kernel(const WorkloadSpec& spec, const KernelTarget& target = {}) {
  return std::visit([&](const auto& s) { return build_kernel(s, target); }, spec);
}
inline DataType compute_type(const WorkloadSpec& spec) {
  return std::visit([](const auto& s) { return s.dtype; }, spec);
}

}  // namespace ridgeline
