// workload kind `gather`: YAML -> GatherSpec (docs/CONFIG.md).
#pragma once

#include "sim/config/workload_config.hpp"
#include "workloads/gather.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<GatherSpec> : ReadsNoFiles {
  static GatherSpec parse(const ConfigNode& workload);
};

}  // namespace ridgeline
