// workload: YAML -> WorkloadSpec, with the rules each workload's parameters must follow.
#pragma once

#include "sim/config_node.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

WorkloadSpec parse_workload(const ConfigNode& workload);

}  // namespace ridgeline
