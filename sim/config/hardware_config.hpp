// hardware: YAML -> HardwareParams. The reference of every key is docs/CONFIG.md.
#pragma once

#include "models/hardware.hpp"
#include "sim/config/config_node.hpp"

namespace ridgeline {

/// Reads and checks a `hardware:` document.
HardwareParams parse_hardware(const ConfigNode& hardware);

}  // namespace ridgeline
