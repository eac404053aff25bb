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
        fmt::format("one block needs {} of registers ({} threads in {} warps x {} registers) but "
                    "a core has {} (hardware.cores.registers.capacity)",
                    format_bytes(f.register_bytes), f.threads, f.warps,
                    f.allocated_registers_per_thread,
                    format_bytes(hw.core.registers.capacity_bytes)),
        "use a smaller tile or more registers");
  }
}

// The node that sets a block's threads: the register tile of a GEMM, `threads` of a vector add.
ConfigNode threads_node(const ConfigNode& workload) {
  for (const char* key : {"register_tile", "threads", "tile"}) {
    if (auto node = workload.optional(key)) return *node;
  }
  return workload;
}

// Threads per block and registers per thread against the cores' limits.
void check_threads(const ConfigNode& workload, const RunConfig& config) {
  const KernelTarget& limits = config.hardware.threads;
  const Footprint& f = config.analysis.footprint;
  if (limits.max_threads_per_block != 0 && f.threads > limits.max_threads_per_block) {
    threads_node(workload).fail(
        fmt::format("one block has {} threads but a core runs at most {} "
                    "(hardware.cores.max_threads_per_block)",
                    f.threads, limits.max_threads_per_block),
        "give each thread more outputs (a larger register_tile) or use a smaller tile");
  }
  const std::uint32_t max_warps = config.hardware.core.max_warps;
  if (max_warps != 0 && f.warps > max_warps) {
    threads_node(workload).fail(
        fmt::format("one block has {} warps of {} threads but a core holds at most {} "
                    "(hardware.cores.max_warps)",
                    f.warps, limits.warp_size, max_warps),
        "give each thread more outputs (a larger register_tile) or use a smaller tile");
  }
  if (f.spilled_registers_per_thread == 0) return;
  const auto* gemm = std::get_if<GemmSpec>(&config.workload);
  if (gemm && gemm->spill == SpillPolicy::local) return;
  std::string need = fmt::format("a thread needs {} registers", f.registers_per_thread);
  std::string fix = "set 'threads' higher or use smaller chunks";
  ConfigNode where = threads_node(workload);
  if (gemm) {
    const ThreadRegisters r = thread_registers(*gemm);
    if (r.given) {
      where = workload.required("registers_per_thread");
    } else {
      need += fmt::format(" ({} accumulators + {} operand fragments + {} overhead)", r.accumulators,
                          r.fragments, r.overhead);
    }
    fix = "use a smaller register_tile, or set 'spill: local' to keep the excess in local memory";
  }
  where.fail(fmt::format("{} but a thread may hold {} (hardware.cores.registers.max_per_thread)",
                         need, limits.max_registers_per_thread),
             fix);
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
      analyze(config.workload, roof_of(config.hardware, compute_type(config.workload)),
              config.hardware.threads);
  check_threads(workload, config);
  check_fits(workload, config);
  config.occupancy = occupancy(
      config.analysis.footprint,
      CoreCapacity{config.hardware.core.sram.capacity_bytes,
                   config.hardware.core.registers.capacity_bytes,
                   config.hardware.core.max_resident_blocks, config.hardware.core.max_warps});
  return config;
}

}  // namespace ridgeline
