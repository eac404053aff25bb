#include "sim/config/run_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sim/config/config_node.hpp"
#include "sim/config/hardware_config.hpp"
#include "sim/config/quantity.hpp"
#include "sim/config/workload_config.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

void check_override_roots(const std::vector<std::string>& overrides) {
  for (const auto& assignment : overrides) {
    if (assignment.rfind("hardware.", 0) == 0 || assignment.rfind("workload.", 0) == 0) continue;
    throw ConfigError(SourceLocation{"--set " + assignment, 0, 0}, "", "",
                      "an override's key path starts with 'hardware.' or 'workload.'",
                      "e.g. --set workload.tile.m=32 or --set hardware.hbm.bandwidth=2TB/s");
  }
}

void set_l2_resident(RunConfig& config, const std::vector<std::string>& names,
                     L2CacheTiming::LeftBy left_by) {
  if (names.empty()) return;
  const bool read = left_by == L2CacheTiming::LeftBy::reads;
  const char* option = read ? "--l2-resident" : "--l2-written";
  const SourceLocation where{option, 0, 0};
  if (!config.hardware.l2) {
    throw ConfigError(where, "", fmt::format("{}", fmt::join(names, ",")),
                      fmt::format("hardware '{}' has no L2 to hold them", config.hardware.name),
                      fmt::format("give a machine with an l2 section, or leave {} out", option));
  }
  std::vector<std::string> inputs;
  for (const TensorRef& tensor : workload_tensors(config.workload)) {
    if (tensor.role == TensorRole::input) inputs.push_back(tensor.name);
  }
  const std::vector<std::string>& other = read ? config.l2_written : config.l2_resident;
  for (const std::string& name : names) {
    if (std::find(inputs.begin(), inputs.end(), name) == inputs.end()) {
      throw ConfigError(
          where, "", name,
          fmt::format("is not an input tensor of this {}", kind_name(config.workload)),
          fmt::format("its inputs: {}", fmt::join(inputs, ", ")));
    }
    if (std::find(other.begin(), other.end(), name) != other.end()) {
      throw ConfigError(where, "", name,
                        fmt::format("is given to {} too: a kernel before left it read or written",
                                    read ? "--l2-written" : "--l2-resident"),
                        "name it in one of the two");
    }
  }
  (read ? config.l2_resident : config.l2_written) = names;
}

std::optional<Violation> check_data_type(const HardwareParams& hw, const WorkloadSpec& workload) {
  if (runs_on(workload) == Runner::trace_players) return std::nullopt;  // no FLOPs: no type
  const DataType type = compute_type(workload);
  const auto listed_type = [&](DataType t) { return hw.core.compute.flops_per_cycle[index_of(t)]; };
  if (listed_type(type) && !listed_type(DataType::fp32)) {
    if (const char* what = vector_work(workload)) {
      return Violation{
          "workload",
          fmt::format("{} runs on the vector units in FP32, and hardware '{}' gives no fp32 "
                      "throughput (cores.compute.throughput)",
                      what, hw.name),
          "add an fp32 throughput to the hardware file"};
    }
  }
  if (listed_type(type)) return std::nullopt;
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
  const std::string where = limit_keys(workload).footprint;
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
        fmt::format("one block needs {} of registers ({} threads in {} warps x {} registers) but "
                    "a core has {} (hardware.cores.registers.capacity)",
                    format_bytes(f.register_bytes), f.threads, f.warps,
                    f.allocated_registers_per_thread,
                    format_bytes(hw.core.registers.capacity_bytes)),
        "use a smaller tile or more registers"};
  }
  return std::nullopt;
}

std::optional<Violation> check_threads(const HardwareParams& hw, const WorkloadSpec& workload,
                                       const Footprint& f) {
  const KernelTarget& limits = hw.threads;
  const LimitKeys keys = limit_keys(workload);
  const std::string threads_key = keys.threads;
  const std::string threads_fallback = keys.threads_fallback;
  if (auto violation = check_thread_rules(workload, limits)) return violation;
  if (limits.max_threads_per_block != 0 && f.threads > limits.max_threads_per_block) {
    return Violation{threads_key,
                     fmt::format("one block has {} threads but a core runs at most {} "
                                 "(hardware.cores.max_threads_per_block)",
                                 f.threads, limits.max_threads_per_block),
                     "give each thread more outputs (a larger register_tile) or use a smaller tile",
                     threads_fallback};
  }
  const std::uint32_t max_warps = hw.core.max_warps;
  if (max_warps != 0 && f.warps > max_warps) {
    return Violation{threads_key,
                     fmt::format("one block has {} warps of {} threads but a core holds at most {} "
                                 "(hardware.cores.max_warps)",
                                 f.warps, limits.warp_size, max_warps),
                     "give each thread more outputs (a larger register_tile) or use a smaller tile",
                     threads_fallback};
  }
  if (f.spilled_registers_per_thread == 0) return std::nullopt;
  const ThreadRegistersNote note = thread_registers_note(workload);
  if (note.spills) return std::nullopt;
  const std::string need =
      fmt::format("a thread needs {} registers{}", f.registers_per_thread, note.breakdown);
  const std::string fix = note.limit_fix;
  const std::string key = note.limit_key ? note.limit_key : threads_key;
  return Violation{
      key,
      fmt::format("{} but a thread may hold {} (hardware.cores.registers.max_per_thread)", need,
                  limits.max_registers_per_thread),
      fix, key == threads_key ? threads_fallback : ""};
}

Analysis analyze_on(const HardwareParams& hw, const WorkloadSpec& workload) {
  return analyze(workload, roof_of(hw, compute_type(workload)), hw.threads);
}

Occupancy occupancy_on(const HardwareParams& hw, const Footprint& footprint) {
  return occupancy(footprint,
                   CoreCapacity{hw.core.sram.capacity_bytes, hw.core.registers.capacity_bytes,
                                hw.core.max_resident_blocks, hw.core.max_warps});
}

namespace {

// At the key if it is written, else at the fallback if that is, else at the deepest key written
// on the way to it.
[[noreturn]] void fail_at(const ConfigNode& document, const Violation& violation) {
  for (const std::string& path : {violation.key_path, violation.fallback_key_path}) {
    if (path.empty()) continue;
    const ConfigNode node = document.find(path);
    if (node.key_path() == path) node.fail(violation.rule, violation.fix);
  }
  document.find(violation.key_path).fail(violation.rule, violation.fix);
}

}  // namespace

std::optional<Violation> check_and_analyze(RunConfig& config,
                                           const std::function<ConfigNode()>& workload_document) {
  check_workload_inputs(workload_document, config.workload, config.hardware);
  if (auto violation = check_data_type(config.hardware, config.workload)) return violation;
  config.analysis = analyze_on(config.hardware, config.workload);
  if (auto violation = apply_power_limit(config)) return violation;
  const Footprint& footprint = config.analysis.footprint;
  if (auto violation = check_threads(config.hardware, config.workload, footprint)) return violation;
  if (auto violation = check_fits(config.hardware, config.workload, footprint)) return violation;
  config.occupancy = occupancy_on(config.hardware, footprint);
  return std::nullopt;
}

ConfigNode load_input(const ConfigInput& input, std::string_view root,
                      const std::vector<std::string>& overrides) {
  return input.text ? load_document_text(input.path, *input.text, root, overrides)
                    : load_document(input.path, root, overrides);
}

void append_warnings(const ConfigNode& hardware, const ConfigNode& workload,
                     std::vector<ConfigWarning>& warnings) {
  for (const ConfigNode* document : {&hardware, &workload}) {
    const std::vector<ConfigWarning>& found = document->warnings();
    warnings.insert(warnings.end(), found.begin(), found.end());
  }
}

RunConfig load_config(const std::string& hardware_path, const std::string& workload_path,
                      const std::vector<std::string>& overrides) {
  return load_config(ConfigInput{hardware_path, std::nullopt},
                     ConfigInput{workload_path, std::nullopt}, overrides);
}

RunConfig load_config(const ConfigInput& hardware_input, const ConfigInput& workload_input,
                      const std::vector<std::string>& overrides) {
  check_override_roots(overrides);
  RunConfig config;
  config.hardware_path = hardware_input.path;
  config.workload_path = workload_input.path;
  config.overrides = overrides;
  const ConfigNode hardware = load_input(hardware_input, "hardware", overrides);
  config.hardware = parse_hardware(hardware);
  const ConfigNode workload = load_input(workload_input, "workload", overrides);
  config.workload = parse_workload(workload);
  const YAML::Mark mark = workload.yaml().Mark();
  config.workload_location = SourceLocation{workload_input.path, mark.is_null() ? 0 : mark.line + 1,
                                            mark.is_null() ? 0 : mark.column + 1};
  if (auto violation = check_and_analyze(config, [&] { return workload; })) {
    // The power limit's violation is the hardware's; every other one is the workload's.
    const bool of_hardware = violation->key_path.rfind("hardware.", 0) == 0;
    fail_at(of_hardware ? hardware : workload, *violation);
  }
  append_warnings(hardware, workload, config.warnings);
  return config;
}

}  // namespace ridgeline
