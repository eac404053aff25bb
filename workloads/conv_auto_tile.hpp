// `tile: auto` for a convolution: its implicit GEMM's tile chosen by the GEMM's chooser
// (gemm_auto_tile.hpp) over the tiles a convolution's blocks can have (conv.hpp): tile.m whole
// output rows of one image, t_P x Q for t_P = 1, 2, ... while t_P x Q <= 256 (one row, Q, where
// Q alone is more), tile.n a divisor of K among 16, 32, 64, 128, 256 (or K itself up to 256),
// tile.k a divisor of C among 16, 32, 64, 128 (or C itself up to 128); where none divides, the
// largest divisor up to the most, and the whole of K or C too where that divisor is smaller than
// 16 (a prime's is 1). Every warp layout and 1 to 4 stages, as for a GEMM; no split-K
// and no clusters (the convolution's blocks have neither), and its blocks in their own order.
//
// Each candidate is estimated as its implicit GEMM (N = K, K = C R S) with M = N ceil(P / t_P)
// t_P Q, every image's last row tile whole (its rows past P computed as predicated lanes): the
// im2col matrix's A panels read once a block column, as the convolution's Q counts them, except
// that the estimate counts the padding's taps too (the convolution does not load them) and sees
// the L2 serve a GEMM's panels, not the re-reads of overlapping receptive fields: it ranks tiles,
// and the run measures the one chosen. One choice for each t_P; the fastest wins, ties to fewer
// rows.
#pragma once

#include <optional>

#include "models/hardware.hpp"
#include "workloads/conv.hpp"

namespace ridgeline {

/// `spec` (tile: auto) with its tile, stages, register and warp tiles chosen for `hardware`, and
/// `choice` saying what and why; std::nullopt when no candidate fits a core.
std::optional<ConvSpec> choose_conv_tile(const ConvSpec& spec, const HardwareParams& hardware);

}  // namespace ridgeline
