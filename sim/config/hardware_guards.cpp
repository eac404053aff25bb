#include "sim/config/hardware_guards.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

double gap(double simulated, double stated) { return std::fabs(simulated - stated) / stated; }

// "0.08 % below", "1.06 % above".
std::string gap_text(double simulated, double stated) {
  return fmt::format("{:.2f} % {}", 100 * gap(simulated, stated),
                     simulated < stated ? "below" : "above");
}

}  // namespace

void warn_dram_below_bandwidth(const ConfigNode& hbm, const HbmParams& params) {
  if (params.mode != HbmMode::detailed || !params.dram) return;
  const DramParams& dram = *params.dram;
  const std::uint64_t tccd_ps = dram.timing.tCCD_S.ps();
  if (tccd_ps == 0) return;
  const auto parts = static_cast<double>(params.units());
  const auto burst = static_cast<double>(dram.burst_bytes);
  const auto bandwidth = static_cast<double>(params.peak_bandwidth.bytes_per_second);
  const double ceiling = parts * burst * 1e12 / static_cast<double>(tccd_ps);
  if (ceiling >= bandwidth * (1 - kStatedTolerance)) return;
  hbm.find(hbm.key_path() + ".dram.timing.tCCD_S")
      .warn(fmt::format("caps the DRAM at {}, {} hbm.bandwidth = {}: each of the {} "
                        "pseudo-channels (channels x pseudo_channels) moves one {}-byte burst per "
                        "tCCD_S = {}, where hbm.bandwidth needs one every {}",
                        engineering(ceiling, "B/s"), gap_text(ceiling, bandwidth),
                        engineering(bandwidth, "B/s"), params.units(), dram.burst_bytes,
                        duration(static_cast<double>(tccd_ps) / 1e12),
                        duration(burst * parts / bandwidth)),
            "simulated runs fall short of the roofline's BW, which is hbm.bandwidth: make tCCD_S "
            "at most the burst time, or lower hbm.bandwidth");
}

}  // namespace ridgeline
