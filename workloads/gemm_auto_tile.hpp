// `tile: auto`: the tile, stages, register and warp tiles and the split-K of a tiled GEMM chosen
// for a machine, as a cuBLAS-style heuristic does: every candidate of a fixed set that fits a
// core is estimated by the analytical model with the machine's occupancy and waves, and the
// fastest estimate wins.
//
// Candidates: tiles B_M from {16, 32, 64, 128, 256} (M itself when M < 16), B_N from {32, 64, 128,
// 256} (N when N < 32), B_K from {32, 64, 128} (K when K < 32), each no larger than its matrix
// size; 1 to 4 stages; 1, 2, 4 or 8 warps a block, laid out as a grid of warp tiles over the
// block's outputs, each warp's threads as square a grid as divides the warp tile (its register
// tile), operand fragments shared by the warp (warp_tile; by a warpgroup of four warps as well,
// on cores with warpgroup MMA); split-K over 1, 2, 4, ... 64 splits (at most the K-steps).
//
// The estimate of a candidate on the machine, c cores, the busiest running n = ceil(blocks / c)
// blocks, r of them resident at once, each of k K-steps (of its split):
//   a K-step of a block: compute t_c (its FLOPs at the core's rate, or its SRAM operand reads
//   and tile landings at the ports, the longer) and fetch t_f = (L + t_x (+ t_c with one
//   stage)) / stages, L the load latency (a miss's: the later of the HBM's and the L2's far
//   partition's, which a tile's first read reaches at once), t_x its tiles' bytes at the core's
//   share of BW; the r blocks share the compute unit and the core's in-flight limit: a step
//   takes max(r t_c, t_f, r x its bytes x L / the limit)
//   pipeline  ceil(n / r) x k x that step
//   time      the longest of the pipeline, Q_HBM / BW and Q / the L2's port, plus the blocks'
//             launches (ceil(n / r) x the launch latency) and, with split-K, the last split's
//             tail (L and its partial sums at the core's share of BW, or, where they all fit
//             the L2, the far hit latency and the core's share of the L2's port) and its adds
//             at FP32.
// Q is the note's (every tile's A and B panels read); Q_HBM is what of it the L2 does not serve:
// the blocks running at once (c cores x r, in the grid's block order) read a rows of A panels and b
// columns of B panels, and while those fit the L2 together each A panel comes from HBM once, B once
// in all if it stays in the L2 beside them, else once a wave. Without an L2, when they do not fit,
// and for split-K, Q_HBM = Q (less the partial sums where the L2 holds them). Where `block_order`
// is not given, each candidate takes the order among row-major and groups of 4, 8 and 16 block rows
// whose Q_HBM is least.
// Equal times go to the candidate with the most room on its other terms (compute, SRAM,
// latency, HBM and L2 times compared longest first: where one binds, a run's queues take the
// room the others leave), then to fewer splits, fewer blocks, fewer stages, then fewer threads
// (the order they are listed in). On cores with thread-block clusters the winner is then
// tried as a 2 x 1 and a 1 x 2 cluster (its tiles multicast, each read once a pair at the L2),
// and the faster estimate kept.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware.hpp"
#include "workloads/gemm.hpp"

namespace ridgeline {

/// The estimate of one GEMM configuration on a machine.
struct TileEstimate {
  double time_s = 0;
  /// The longest term: "compute", "sram", "issue", "latency", "in_flight" (the pipeline's step), or
  /// "hbm", "l2" (the memory's bandwidth).
  std::string_view limited_by;  // a literal: the chooser makes tens of thousands of estimates
  double compute_s = 0;
  double sram_s = 0;
  double hbm_s = 0;
  double l2_s = 0;
  double latency_s = 0;
  double launch_s = 0;
  double reduction_s = 0;
  /// The block order estimated: the spec's, or, where the chooser picks it, the best of its.
  BlockOrderParams block_order;
};

/// The estimate of `spec` (a tiled GEMM whose tile is set) on `hardware`, as the chooser makes it.
TileEstimate estimate_tile(const GemmSpec& spec, const HardwareParams& hardware);

/// compute_s, sram_s, latency_s, hbm_s and l2_s, longest first: the first is what binds, the
/// others the margin left on the other resources. The chooser compares them where two estimates
/// are equal.
std::array<double, 5> ranked_terms(const TileEstimate& estimate);

/// The block tiles the chooser weighs (each with every warp layout, stages and, where allowed,
/// split), and what else it may try.
struct TileCandidates {
  std::vector<std::uint64_t> m, n, k;  ///< block tile sizes
  bool split_k = true;                 ///< split-K over 1, 2, 4, ... 64 (machines with FP32)
  bool clusters = true;                ///< the winner as a 2 x 1 and 1 x 2 cluster
  /// Leave unestimated a candidate whose lower bound is above the best of its kind so far (false:
  /// estimate every one, which gives the same choice, only slower: a test's check of the bound).
  bool bounded = true;
};
/// A GEMM's own candidates (above): B_M from {16, ..., 256}, B_N from {32, ..., 256}, B_K from
/// {32, 64, 128}, each no larger than its matrix size (the size itself below them all).
TileCandidates gemm_tile_candidates(const GemmSpec& spec);

/// `spec` (tile: auto) with its tile, stages, register and warp tiles and split chosen for
/// `hardware`, and `choice` saying what and why; std::nullopt when no candidate fits a core.
std::optional<GemmSpec> choose_tile(const GemmSpec& spec, const HardwareParams& hardware);
/// The same over `candidates` (a kernel that runs as a GEMM with tiles of its own rules: an
/// implicit-GEMM convolution).
std::optional<GemmSpec> choose_tile(const GemmSpec& spec, const HardwareParams& hardware,
                                    const TileCandidates& candidates);

}  // namespace ridgeline
