// workload kind `row_reduction`: YAML -> RowReductionSpec (docs/CONFIG.md).
#pragma once

#include "sim/config/workload_config.hpp"
#include "workloads/row_reduction.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<RowReductionSpec> : ReadsNoFiles {
  static RowReductionSpec parse(const ConfigNode& workload);
};

}  // namespace ridgeline
