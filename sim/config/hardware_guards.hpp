// Checks between figures of one hardware file that no key's own rule can see (docs/CONFIG.md,
// "Warnings"): the detailed DRAM's column rate against hbm.bandwidth: a DRAM whose bursts cannot
// come as fast as the bandwidth asks is named in a warning (the run still models it as given).
#pragma once

#include "models/hardware.hpp"
#include "sim/config/config_node.hpp"

namespace ridgeline {

/// How far apart two figures that should agree may lie before they are named, as a fraction of
/// the one they are measured against: 0.5 %, a timing or a bandwidth rounded to its printed
/// digits (a burst of 833.3 ps written 833ps) is not a disagreement.
inline constexpr double kStatedTolerance = 0.005;

/// In detailed mode, a warning on hbm.dram.timing.tCCD_S when one burst per tCCD_S on every
/// pseudo-channel falls short of hbm.bandwidth by more than kStatedTolerance.
void warn_dram_below_bandwidth(const ConfigNode& hbm, const HbmParams& params);

}  // namespace ridgeline
