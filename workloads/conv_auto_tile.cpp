#include "workloads/conv_auto_tile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "workloads/gemm_auto_tile.hpp"

namespace ridgeline {

namespace {

// The divisors of `n` among `sizes`, and `n` itself when it is at most `most`; where that leaves
// none, the largest divisor up to `most`, and `n` itself when that divisor is below every size.
std::vector<std::uint64_t> dividing_sizes(std::uint64_t n,
                                          std::initializer_list<std::uint64_t> sizes,
                                          std::uint64_t most) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t size : sizes) {
    if (size <= n && n % size == 0) out.push_back(size);
  }
  if (n <= most && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  if (out.empty()) {  // n above the most, and none of the sizes divides it
    std::uint64_t d = most;
    while (n % d != 0) --d;
    out.push_back(d);
    // A small largest divisor (1 for a prime) makes tiny tiles: offer n whole too, for the
    // cores' limits to judge.
    if (d < *std::min_element(sizes.begin(), sizes.end())) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<ConvSpec> choose_conv_tile(const ConvSpec& spec, const HardwareParams& hardware) {
  const std::uint64_t p = spec.out_height(), q = spec.out_width();
  if (p == 0 || q == 0) return std::nullopt;  // check_rules refuses the filter first
  TileCandidates sizes;
  sizes.n = dividing_sizes(spec.filters, {16, 32, 64, 128, 256}, 256);
  sizes.k = dividing_sizes(spec.channels, {16, 32, 64, 128}, 128);
  sizes.split_k = false;
  sizes.clusters = false;
  // One choice for each t_P, over an implicit GEMM whose M counts every image's last row tile
  // whole (N ceil(P / t_P) t_P Q): the rows past P are computed as predicated lanes, and a GEMM
  // of N P Q rows would hide them. The fastest estimate wins; ties go to fewer rows.
  std::optional<GemmSpec> best;
  std::uint64_t candidates = 0;
  for (std::uint64_t rows = 1; rows <= p && (rows == 1 || rows * q <= 256); ++rows) {
    GemmSpec gemm = implicit_gemm(spec);
    gemm.m = spec.batch * ceil_div(p, rows) * rows * q;
    gemm.block_order = BlockOrderParams{};  // the convolution's own order: not the chooser's
    gemm.block_order_auto = false;
    sizes.m = {rows * q};
    std::optional<GemmSpec> chosen = choose_tile(gemm, hardware, sizes);
    if (!chosen) continue;
    candidates += chosen->choice->candidates;
    if (!best || chosen->choice->estimated_time_s < best->choice->estimated_time_s) {
      best = std::move(chosen);
    }
  }
  if (!best) return std::nullopt;
  ConvSpec out = spec;
  out.tile = best->tile;
  out.stages = best->stages;
  out.register_tile = best->register_tile;
  out.warp_tile = best->warp_tile;
  out.choice = best->choice;
  // The reason counts the winner's t_P's candidates: count them all.
  const std::string own = fmt::format("(of {} candidates", best->choice->candidates);
  if (const std::size_t at = out.choice->reason.find(own); at != std::string::npos) {
    out.choice->reason.replace(at, own.size(), fmt::format("(of {} candidates", candidates));
  }
  out.choice->candidates = candidates;
  return out;
}

}  // namespace ridgeline
