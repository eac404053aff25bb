// What kernels over arrays of elements share (the vector add, the streaming kernels, element-wise
// operators): a column of blocks of `block_elements` each, the last one taking what is left, an
// analysis that moves every byte once, and the block that loads, computes and stores once.
// Plain C++.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

/// Where a block loads or stores one tensor.
struct TensorAccess {
  std::uint8_t tensor = 0;  ///< index into the program's tensor names
  AddressPattern pattern;
};

/// A block that loads each of `loads` (one request a tensor, in issue order: a block's warps
/// load consecutive elements, which coalesce, into registers), computes `flops` once they are in
/// (none when 0) and stores `store` after that (none when unset).
inline Program load_compute_store(std::vector<std::string> tensor_names,
                                  const std::vector<TensorAccess>& loads, std::uint64_t flops,
                                  const std::optional<TensorAccess>& store) {
  ProgramBuilder builder(std::move(tensor_names));
  std::vector<std::uint32_t> issued;
  for (const TensorAccess& access : loads) {
    const std::uint32_t load = builder.add(Op::load(access.tensor, 0, access.pattern, 0));
    if (!issued.empty()) builder.depend(issued.back(), load, EdgeKind::issue_order);
    issued.push_back(load);
  }
  std::vector<std::uint32_t> before_store = issued;
  if (flops > 0) {
    const std::uint32_t compute = builder.add(Op::compute(0, flops, 0));
    for (std::uint32_t load : issued) builder.depend(load, compute, EdgeKind::data);
    before_store = {compute};
  }
  if (store) {
    const std::uint32_t written = builder.add(Op::store(store->tensor, 0, store->pattern));
    for (std::uint32_t op : before_store) builder.depend(op, written, EdgeKind::data);
  }
  return builder.compile();
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
