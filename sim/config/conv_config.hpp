// workload kind `conv`: YAML -> ConvSpec (docs/CONFIG.md).
#pragma once

#include "sim/config/workload_config.hpp"
#include "workloads/conv.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<ConvSpec> : ReadsNoFiles {
  static ConvSpec parse(const ConfigNode& workload);
};

}  // namespace ridgeline
