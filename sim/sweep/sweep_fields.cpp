#include "sim/sweep/sweep_fields.hpp"

#include <array>

namespace ridgeline {

namespace {

// One line a key: the path and the member it fills (the parser in hardware_config.cpp and
// workload_config.cpp decides the value; this only copies it).
#define RIDGELINE_HARDWARE_FIELD(path, member)                                                     \
  FieldSetter {                                                                                    \
    path, [](HardwareParams& to, const HardwareParams& from) { to.member = from.member; }, nullptr \
  }
#define RIDGELINE_GEMM_FIELD(path, member)                          \
  FieldSetter {                                                     \
    path, nullptr, [](WorkloadSpec& to, const WorkloadSpec& from) { \
      auto* gemm = std::get_if<GemmSpec>(&to);                      \
      if (gemm == nullptr) return false;                            \
      gemm->member = std::get<GemmSpec>(from).member;               \
      return true;                                                  \
    }                                                               \
  }

const std::array kSetters = {
    RIDGELINE_HARDWARE_FIELD("hardware.clock", core_clock),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.count", cores),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.max_resident_blocks", core.max_resident_blocks),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram", core.sram),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram.capacity", core.sram.capacity_bytes),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram.read_bandwidth", core.sram.read_bytes_per_cycle),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram.write_bandwidth",
                             core.sram.write_bytes_per_cycle),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.registers.capacity", core.registers.capacity_bytes),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput", core.compute.flops_per_cycle),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp32",
                             core.compute.flops_per_cycle[index_of(DataType::fp32)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.tf32",
                             core.compute.flops_per_cycle[index_of(DataType::tf32)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.bf16",
                             core.compute.flops_per_cycle[index_of(DataType::bf16)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp16",
                             core.compute.flops_per_cycle[index_of(DataType::fp16)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp8",
                             core.compute.flops_per_cycle[index_of(DataType::fp8)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.int8",
                             core.compute.flops_per_cycle[index_of(DataType::int8)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.int32",
                             core.compute.flops_per_cycle[index_of(DataType::int32)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.pipeline_latency",
                             core.compute.pipeline_latency),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.bandwidth", hbm.peak_bandwidth),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.latency", hbm.access_latency),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.max_bytes_in_flight_per_core", core.max_bytes_in_flight),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.max_requests_in_flight_per_core",
                             core.max_requests_in_flight),
    RIDGELINE_GEMM_FIELD("workload.m", m),
    RIDGELINE_GEMM_FIELD("workload.n", n),
    RIDGELINE_GEMM_FIELD("workload.k", k),
    RIDGELINE_GEMM_FIELD("workload.accumulator", accumulator),
    RIDGELINE_GEMM_FIELD("workload.tile", tile),
    RIDGELINE_GEMM_FIELD("workload.tile.m", tile.m),
    RIDGELINE_GEMM_FIELD("workload.tile.n", tile.n),
    RIDGELINE_GEMM_FIELD("workload.tile.k", tile.k),
    RIDGELINE_GEMM_FIELD("workload.stages", stages),
    RIDGELINE_GEMM_FIELD("workload.register_tile", register_tile),
    RIDGELINE_GEMM_FIELD("workload.register_tile.m", register_tile.m),
    RIDGELINE_GEMM_FIELD("workload.register_tile.n", register_tile.n),
};

#undef RIDGELINE_HARDWARE_FIELD
#undef RIDGELINE_GEMM_FIELD

}  // namespace

const FieldSetter* find_field_setter(std::string_view key_path) {
  for (const FieldSetter& setter : kSetters)
    if (setter.key_path == key_path) return &setter;
  return nullptr;
}

std::vector<std::string_view> field_setter_keys() {
  std::vector<std::string_view> keys;
  for (const FieldSetter& setter : kSetters) keys.push_back(setter.key_path);
  return keys;
}

}  // namespace ridgeline
