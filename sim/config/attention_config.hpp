// workload kind `attention`: YAML -> AttentionSpec (docs/CONFIG.md).
#pragma once

#include "sim/config/workload_config.hpp"
#include "workloads/attention.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<AttentionSpec> : ReadsNoFiles {
  static AttentionSpec parse(const ConfigNode& workload);
};

}  // namespace ridgeline
