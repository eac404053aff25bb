// What a kernel's blocks move and compute over the whole grid, summed from their programs: the
// figures a workload's analysis must equal (Q read and written, F issued).
#pragma once

#include <cstdint>

#include "models/kernel.hpp"

namespace ridgeline::test {

struct KernelTraffic {
  std::uint64_t load_bytes = 0;
  std::uint64_t store_bytes = 0;
  std::uint64_t flops = 0;
};

/// Every block's loads, stores and computes, each block at its own coordinates.
inline KernelTraffic traffic_of(const Kernel& kernel) {
  KernelTraffic t;
  for (std::uint64_t row = 0; row < kernel.grid_rows; ++row) {
    for (std::uint64_t col = 0; col < kernel.grid_cols; ++col) {
      const BlockCoord block{row, col};
      for (const Op& op : kernel.program_for(block).ops()) {
        if (op.kind == OpKind::load) t.load_bytes += op.hbm_bytes(block);
        if (op.kind == OpKind::store) t.store_bytes += op.hbm_bytes(block);
        t.flops += op.flops;
      }
    }
  }
  return t;
}

}  // namespace ridgeline::test
