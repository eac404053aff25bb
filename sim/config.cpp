#include "sim/config.hpp"

#include <fmt/format.h>

#include "sim/config_node.hpp"
#include "sim/hardware_config.hpp"
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

}  // namespace

std::optional<Violation> check_data_type(const HardwareParams& hw, const WorkloadSpec& workload) {
  const DataType type = compute_type(workload);
  if (hw.core.compute.flops_per_cycle[index_of(type)]) return std::nullopt;
  std::string listed;
  for (DataType t : kAllDataTypes) {
    if (hw.core.compute.flops_per_cycle[index_of(t)])
      listed += (listed.empty() ? "" : ", ") + std::string(name_of(t));
  }
  return Violation{
      "workload.dtype",
      fmt::format("hardware '{}' gives no {} throughput (cores.compute.throughput)", hw.name,
                  name_of(type)),
      "use a data type it lists (" + listed + ") or add its throughput to the hardware file"};
}

std::optional<Violation> check_fits(const HardwareParams& hw, const WorkloadSpec& workload,
                                    const Footprint& f) {
  // Reported at the tile, the workload's key that sets the footprint, where there is one.
  const std::string where =
      std::holds_alternative<GemmSpec>(workload) ? "workload.tile" : "workload";
  if (f.sram_bytes > hw.core.sram.capacity_bytes) {
    return Violation{
        where,
        fmt::format("one block needs {} of SRAM ({} of inputs x {} stage{}) but a core has "
                    "{} (hardware.cores.sram.capacity)",
                    format_bytes(f.sram_bytes), format_bytes(f.input_bytes_per_stage), f.stages,
                    f.stages == 1 ? "" : "s", format_bytes(hw.core.sram.capacity_bytes)),
        "use a smaller tile, fewer stages or more SRAM"};
  }
  if (f.register_bytes > hw.core.registers.capacity_bytes) {
    return Violation{
        where,
        fmt::format("one block needs {} of registers but a core has {} "
                    "(hardware.cores.registers.capacity)",
                    format_bytes(f.register_bytes), format_bytes(hw.core.registers.capacity_bytes)),
        "use a smaller tile or more registers"};
  }
  return std::nullopt;
}

Analysis analyze_on(const HardwareParams& hw, const WorkloadSpec& workload) {
  return analyze(workload, roof_of(hw, compute_type(workload)));
}

Occupancy occupancy_on(const HardwareParams& hw, const Footprint& footprint) {
  return occupancy(footprint,
                   CoreCapacity{hw.core.sram.capacity_bytes, hw.core.registers.capacity_bytes,
                                hw.core.max_resident_blocks});
}

namespace {

[[noreturn]] void fail_at(const ConfigNode& document, const Violation& violation) {
  document.find(violation.key_path).fail(violation.rule, violation.fix);
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
  if (auto violation = check_data_type(config.hardware, config.workload))
    fail_at(workload, *violation);
  config.analysis = analyze_on(config.hardware, config.workload);
  if (auto violation = check_fits(config.hardware, config.workload, config.analysis.footprint))
    fail_at(workload, *violation);
  config.occupancy = occupancy_on(config.hardware, config.analysis.footprint);
  return config;
}

}  // namespace ridgeline
