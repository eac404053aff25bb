#include "workloads/analysis.hpp"

#include <algorithm>
#include <limits>

#include "models/hardware.hpp"
#include "models/kernel_target.hpp"

namespace ridgeline {

Roof roof_of(const HardwareParams& hardware, DataType type) {
  return Roof{hardware.peak_flop_per_s(type), hardware.hbm_bytes_per_s(),
              hardware.peak_flop_per_s(DataType::fp32), hardware.warp_instructions_per_s()};
}

std::string_view name_of(Bound bound) { return bound == Bound::memory ? "memory" : "compute"; }

double issue_time_s(std::uint64_t warp_instructions, const Roof& roof) {
  return roof.warp_instructions_per_s > 0
             ? static_cast<double>(warp_instructions) / roof.warp_instructions_per_s
             : 0;
}

bool issue_binds(std::uint64_t issued_flops, std::uint64_t vector_flops, const Roof& roof,
                 std::uint64_t warp_instructions) {
  return issue_time_s(warp_instructions, roof) > compute_time_s(issued_flops, vector_flops, roof);
}

double compute_time_s(std::uint64_t issued_flops, std::uint64_t vector_flops, const Roof& roof,
                      std::uint64_t warp_instructions) {
  const std::uint64_t vector = std::min(vector_flops, issued_flops);
  double flops_s = static_cast<double>(issued_flops - vector) / roof.peak_flop_per_s;
  if (vector > 0) flops_s += static_cast<double>(vector) / roof.vector_flop_per_s;
  return std::max(flops_s, issue_time_s(warp_instructions, roof));
}

Roofline roofline(std::uint64_t flops, std::uint64_t issued_flops, std::uint64_t bytes,
                  const Roof& roof, std::uint64_t vector_flops, std::uint64_t warp_instructions) {
  Roofline r;
  const auto f = static_cast<double>(flops);
  const std::uint64_t executed = std::max(issued_flops, flops);
  const auto issued = static_cast<double>(executed);
  const auto q = static_cast<double>(bytes);
  r.intensity_flop_per_byte = q > 0 ? f / q : std::numeric_limits<double>::infinity();
  r.ridge_flop_per_byte = roof.peak_flop_per_s / roof.hbm_bytes_per_s;
  // Useful FLOP/s at P: the share of issued lanes that do useful work (all, without edge tiles).
  // No FLOPs take no time, whatever P.
  r.t_compute_s = flops ? compute_time_s(executed, vector_flops, roof, warp_instructions) : 0;
  const bool issue = issue_binds(executed, vector_flops, roof, warp_instructions);
  const double useful_peak = (vector_flops > 0 || issue) && r.t_compute_s > 0 ? f / r.t_compute_s
                             : issued > 0 ? roof.peak_flop_per_s * f / issued
                                          : roof.peak_flop_per_s;
  r.roof_flop_per_s = std::min(useful_peak, roof.hbm_bytes_per_s * r.intensity_flop_per_byte);
  r.t_memory_s = q / roof.hbm_bytes_per_s;
  r.t_ideal_s = std::max(r.t_compute_s, r.t_memory_s);
  // Compare times rather than I with the ridge: the same test without a second rounding.
  r.bound = r.t_memory_s > r.t_compute_s ? Bound::memory : Bound::compute;
  return r;
}

void assign_registers(Footprint& f, std::uint64_t threads, std::uint64_t registers_per_thread,
                      const KernelTarget& target) {
  f.threads = threads;
  f.warps = (threads + target.warp_size - 1) / target.warp_size;
  const std::uint64_t limit = target.max_registers_per_thread;
  const std::uint64_t allocated =
      limit != 0 ? std::min(registers_per_thread, limit) : registers_per_thread;
  f.registers_per_thread = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(registers_per_thread, std::numeric_limits<std::uint32_t>::max()));
  f.allocated_registers_per_thread = static_cast<std::uint32_t>(allocated);
  f.spilled_registers_per_thread = f.registers_per_thread - f.allocated_registers_per_thread;
  // A warp's registers are allocated for all its lanes, whether or not each holds a thread.
  f.register_bytes = f.warps * target.warp_size * allocated * kRegisterBytes;
}

Occupancy occupancy(const Footprint& footprint, const CoreCapacity& capacity) {
  Occupancy result{capacity.max_blocks, "max_resident_blocks"};
  auto limit = [&](std::uint64_t need, std::uint64_t have, const char* name) {
    if (need == 0) return;
    const std::uint64_t fit = have / need;
    if (fit < result.blocks_per_core) result = Occupancy{fit, name};
  };
  limit(footprint.sram_bytes, capacity.sram_bytes, "sram");
  limit(footprint.register_bytes, capacity.register_bytes, "registers");
  if (capacity.max_warps != 0) limit(footprint.warps, capacity.max_warps, "warps");
  result.active_warps = result.blocks_per_core * footprint.warps;
  result.max_warps = capacity.max_warps;
  return result;
}

}  // namespace ridgeline
