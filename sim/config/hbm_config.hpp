// The HBM keys beyond bandwidth, latency, channels and interleave: pseudo-channels, the mode,
// and in detailed mode the address mapping, the DRAM geometry and its timings. The reference of
// every key is docs/CONFIG.md.
#pragma once

#include "models/hbm.hpp"
#include "sim/config/config_node.hpp"

namespace ridgeline {

/// Reads `pseudo_channels`, `mode`, `address_mapping` and `dram` of the `hbm` map into `hbm`,
/// whose channels and interleave are already read, and checks them together.
void parse_hbm_organisation(const ConfigNode& hbm, HbmParams& params);

}  // namespace ridgeline
