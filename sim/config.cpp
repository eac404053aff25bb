#include "sim/config.hpp"

#include <fmt/format.h>

#include "sim/config_node.hpp"
#include "sim/hardware_config.hpp"
#include "sim/memory_trace_config.hpp"
#include "sim/quantity.hpp"
#include "sim/workload_config.hpp"

namespace ridgeline {

Roof roof_of(const HardwareParams& hardware, DataType type) {
  return Roof{hardware.peak_flop_per_s(type), hardware.hbm_bytes_per_s()};
}

namespace {

void check_override_roots(const std::vector<std::string>& overrides) {
  for (const auto& assignment : overrides) {
    if (assignment.rfind("hardware.", 0) == 0 || assignment.rfind("workload.", 0) == 0) continue;
    throw ConfigError(SourceLocation{"--set " + assignment, 0, 0}, "", "",
                      "an override's key path starts with 'hardware.' or 'workload.'",
                      "e.g. --set workload.tile.m=32 or --set hardware.hbm.bandwidth=2TB/s");
  }
}

// The rules that tie the workload to the machine, reported at the workload's keys.
void check_data_type(const ConfigNode& workload, const RunConfig& config) {
  const HardwareParams& hw = config.hardware;
  const DataType type = compute_type(config.workload);
  if (!hw.core.compute.flops_per_cycle[index_of(type)]) {
    std::string listed;
    for (DataType t : kAllDataTypes) {
      if (hw.core.compute.flops_per_cycle[index_of(t)])
        listed += (listed.empty() ? "" : ", ") + std::string(name_of(t));
    }
    workload.required("dtype").fail(
        fmt::format("hardware '{}' gives no {} throughput (cores.compute.throughput)", hw.name,
                    name_of(type)),
        "use a data type it lists (" + listed + ") or add its throughput to the hardware file");
  }
}

void check_fits(const ConfigNode& workload, const RunConfig& config) {
  const HardwareParams& hw = config.hardware;
  const Footprint& f = config.analysis.footprint;
  const auto where = [&]() {
    return workload.optional("tile") ? *workload.optional("tile") : workload;
  };
  if (f.sram_bytes > hw.core.sram.capacity_bytes) {
    where().fail(
        fmt::format("one block needs {} of SRAM ({} of inputs x {} stage{}) but a core has "
                    "{} (hardware.cores.sram.capacity)",
                    format_bytes(f.sram_bytes), format_bytes(f.input_bytes_per_stage), f.stages,
                    f.stages == 1 ? "" : "s", format_bytes(hw.core.sram.capacity_bytes)),
        "use a smaller tile, fewer stages or more SRAM");
  }
  if (f.register_bytes > hw.core.registers.capacity_bytes) {
    where().fail(
        fmt::format("one block needs {} of registers but a core has {} "
                    "(hardware.cores.registers.capacity)",
                    format_bytes(f.register_bytes), format_bytes(hw.core.registers.capacity_bytes)),
        "use a smaller tile or more registers");
  }
}

}  // namespace

RunConfig load_config(const std::string& hardware_path, const std::string& workload_path,
                      const std::vector<std::string>& overrides) {
  check_override_roots(overrides);
  RunConfig config;
  config.hardware_path = hardware_path;
  config.workload_path = workload_path;
  config.overrides = overrides;
  const ConfigNode hardware = load_document(hardware_path, "hardware", overrides);
  config.hardware = parse_hardware(hardware);
  const ConfigNode workload = load_document(workload_path, "workload", overrides);
  config.workload = parse_workload(workload);
  if (auto* trace = std::get_if<MemoryTraceSpec>(&config.workload)) {
    scan_memory_trace(workload, *trace, config.hardware);  // no FLOPs: no data type to check
  } else {
    check_data_type(workload, config);
  }
  config.analysis =
      analyze(config.workload, roof_of(config.hardware, compute_type(config.workload)));
  check_fits(workload, config);
  config.occupancy = occupancy(config.analysis.footprint,
                               CoreCapacity{config.hardware.core.sram.capacity_bytes,
                                            config.hardware.core.registers.capacity_bytes,
                                            config.hardware.core.max_resident_blocks});
  return config;
}

}  // namespace ridgeline
