// workload: YAML -> WorkloadSpec, with the rules each workload's parameters must follow.
#pragma once

#include "sim/config/config_node.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

/// Reads and checks a `workload:` document: each key's own rules, then the rules between them.
WorkloadSpec parse_workload(const ConfigNode& workload);

/// Each key's own rules only (units, ranges, choices, unknown keys); the rules between values
/// (check_rules) are left to the caller, which may change values first (sweeps).
WorkloadSpec parse_workload_fields(const ConfigNode& workload);

}  // namespace ridgeline
