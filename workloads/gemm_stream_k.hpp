// Stream-K (Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense Matrix
// Multiplication on the GPU", PPoPP 2023): `workers` blocks, as many as the machine holds at
// once, share the K-steps of all output tiles evenly. The iterations (tile by tile, K-steps
// within a tile) are cut into `workers` contiguous ranges; a worker walks its range in one
// pipelined loop. Where a range starts inside a tile, that worker computes the tile's last
// K-steps first, writes its partial sums to its own workspace slot and signals the tile's flag;
// the worker whose range holds the tile's first K-step (its owner, which reaches it at the end of
// its range) waits for the flag, adds the partial sums of every other worker of the tile and
// writes C. The owners wait only for workers that are resident with them (the configuration
// refuses more workers than the machine holds), so every wait ends.
#pragma once

#include <cstdint>
#include <vector>

#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/gemm.hpp"

namespace ridgeline {

/// A run of consecutive K-steps of one output tile within a worker's range.
struct StreamKSegment {
  std::uint64_t tile = 0;  ///< (GEMM of the batch x tile rows + tile row) x tile columns + col
  std::uint64_t first_step = 0;  ///< its first K-step in the tile
  std::uint64_t steps = 0;
  bool owner() const { return first_step == 0; }
};

/// How the iterations fall to the workers, and what each tile needs to be reduced.
struct StreamKPlan {
  std::vector<std::vector<StreamKSegment>> workers;  ///< each worker's segments, in order
  /// Per tile, the workers other than its owner that compute some of its K-steps (0: the owner
  /// computes the whole tile), in worker order.
  std::vector<std::vector<std::uint64_t>> helpers;
};

/// Worker w takes iterations [w I / W, (w + 1) I / W) of the I = tiles x K-steps.
StreamKPlan stream_k_plan(const GemmSpec& spec);

/// F, Q and the rest: the data-parallel operand traffic, plus each helper's partial sums written
/// and read back, and the adds of the reductions (on the vector units).
Analysis analyze_stream_k(const GemmSpec& spec, const Roof& roof, const KernelTarget& target);
/// One program a worker (block row w, one column); the tiles' flags.
Kernel build_stream_k_kernel(const GemmSpec& spec, const KernelTarget& target);

}  // namespace ridgeline
