// hardware.energy and hardware.power_limit: the energy of each action and static power, and the
// average power a kernel may draw. The reference of every key is docs/CONFIG.md ("energy").
#pragma once

#include "models/hardware.hpp"
#include "sim/config/config_node.hpp"

namespace ridgeline {

/// Reads the optional `energy` map and `power_limit` of `hardware` into `params`, whose cores,
/// L2 and HBM are read already (a FLOP energy is needed for each type the cores run, an L2
/// energy when there is an L2, the row rule's bytes unless hbm.dram gives the row). A power
/// limit needs the energy section and must lie above its static power. Throws ConfigError.
void parse_energy(const ConfigNode& hardware, HardwareParams& params);

}  // namespace ridgeline
