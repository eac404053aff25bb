#include "workloads/conv_auto_tile.hpp"

#include <algorithm>
#include <vector>

#include "workloads/gemm_auto_tile.hpp"

namespace ridgeline {

namespace {

// The divisors of `n` among `sizes`, and `n` itself when it is at most `most`; the largest
// divisor up to `most` where that leaves none.
std::vector<std::uint64_t> dividing_sizes(std::uint64_t n,
                                          std::initializer_list<std::uint64_t> sizes,
                                          std::uint64_t most) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t size : sizes) {
    if (size <= n && n % size == 0) out.push_back(size);
  }
  if (n <= most && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  if (out.empty()) {
    std::uint64_t d = most;
    while (n % d != 0) --d;
    out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<ConvSpec> choose_conv_tile(const ConvSpec& spec, const HardwareParams& hardware) {
  const std::uint64_t p = spec.out_height(), q = spec.out_width();
  if (p == 0 || q == 0) return std::nullopt;  // check_rules refuses the filter first
  TileCandidates sizes;
  for (std::uint64_t rows = 1; rows <= p && (rows == 1 || rows * q <= 256); ++rows) {
    sizes.m.push_back(rows * q);
  }
  sizes.n = dividing_sizes(spec.filters, {16, 32, 64, 128, 256}, 256);
  sizes.k = dividing_sizes(spec.channels, {16, 32, 64, 128}, 128);
  sizes.split_k = false;
  sizes.clusters = false;
  GemmSpec gemm = implicit_gemm(spec);
  gemm.block_order = BlockOrderParams{};  // the convolution's own order: not the chooser's
  gemm.block_order_auto = false;
  std::optional<GemmSpec> chosen = choose_tile(gemm, hardware, sizes);
  if (!chosen) return std::nullopt;
  ConvSpec out = spec;
  out.tile = chosen->tile;
  out.stages = chosen->stages;
  out.register_tile = chosen->register_tile;
  out.warp_tile = chosen->warp_tile;
  out.choice = chosen->choice;
  return out;
}

}  // namespace ridgeline
