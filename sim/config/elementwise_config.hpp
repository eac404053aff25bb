// workload kind `elementwise`: YAML -> ElementwiseSpec (docs/CONFIG.md).
#pragma once

#include "sim/config/workload_config.hpp"
#include "workloads/elementwise.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<ElementwiseSpec> : ReadsNoFiles {
  static ElementwiseSpec parse(const ConfigNode& workload);
};

}  // namespace ridgeline
