// What kernels over arrays of elements share (the vector add, the streaming kernels): a column of
// blocks of `block_elements` each, the last one taking what is left, and an analysis that moves
// every byte once. Plain C++.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "workloads/analysis.hpp"

namespace ridgeline {

/// A block's threads, warps, SRAM and registers, as its footprint gives them.
inline void take_block_resources(Kernel& kernel, const Footprint& f) {
  kernel.threads_per_block = f.threads;
  kernel.warps_per_block = f.warps;
  kernel.sram_bytes_per_block = f.sram_bytes;
  kernel.register_bytes_per_block = f.register_bytes;
}

/// F = `flops` (all useful), Q = `read_bytes` + `write_bytes`, on `roof`.
inline Analysis streamed_analysis(std::uint64_t flops, std::uint64_t read_bytes,
                                  std::uint64_t write_bytes, const Roof& roof,
                                  const Footprint& footprint) {
  Analysis a;
  a.flops = flops;
  a.issued_flops = flops;
  a.hbm_read_bytes = read_bytes;
  a.hbm_write_bytes = write_bytes;
  a.roof = roof;
  a.roofline = roofline(a.flops, a.issued_flops, a.hbm_bytes(), roof);
  a.footprint = footprint;
  return a;
}

/// ceil(length / block_elements) blocks in a column; `program_of(n)` is the program of a block of
/// n elements, the last block's with what is left.
template <class ProgramOf>
Kernel element_grid_kernel(std::string name, DataType type, std::uint64_t length,
                           std::uint64_t block_elements, const Footprint& footprint,
                           ProgramOf program_of) {
  Kernel kernel;
  kernel.name = std::move(name);
  kernel.compute_type = type;
  kernel.grid_rows = (length + block_elements - 1) / block_elements;
  kernel.grid_cols = 1;
  kernel.program = program_of(std::min(block_elements, length));
  const std::uint64_t last = length - (kernel.grid_rows - 1) * block_elements;
  if (last != block_elements && kernel.grid_rows > 1) kernel.last_block_program = program_of(last);
  take_block_resources(kernel, footprint);
  return kernel;
}

}  // namespace ridgeline
