// What a workload must know of the cores to shape its thread blocks: how threads group into
// warps (register allocation and occupancy count whole warps), how many threads a block and
// registers a thread may have (above the latter, registers spill to local memory), what a
// block-wide barrier costs (a program has barrier ops only where they cost something), and
// whether the cores have Hopper's thread-block clusters and warpgroup matrix instructions. Part
// of the hardware's parameters; the defaults are cores without these limits or features, on which
// every program keeps the shape it had before they were modelled.
#pragma once

#include <cstdint>

#include "models/units.hpp"

namespace ridgeline {

struct KernelTarget {
  std::uint32_t warp_size = 32;                ///< threads a warp holds
  std::uint32_t max_threads_per_block = 0;     ///< 0 = no limit
  std::uint32_t max_registers_per_thread = 0;  ///< 32-bit registers a thread may hold; 0 = no limit
  Cycles barrier;                              ///< cost of one barrier; 0 = barriers not modelled
  /// Blocks a thread-block cluster may hold (Hopper: 8, the portable size); 1 = no clusters.
  std::uint32_t max_cluster_size = 1;
  /// Matrix instructions of a warpgroup (4 warps sharing operands read from SRAM, Hopper's
  /// wgmma); false: a warp's at most (mma).
  bool warpgroup_mma = false;
};

/// Bytes of one register: registers are 32 bits wide, as on every GPU.
inline constexpr std::uint64_t kRegisterBytes = 4;

}  // namespace ridgeline
