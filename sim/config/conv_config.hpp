// workload kind `conv`: YAML -> ConvSpec (docs/CONFIG.md).
#pragma once

#include "sim/config/workload_config.hpp"
#include "workloads/conv.hpp"

namespace ridgeline {

template <>
struct WorkloadParser<ConvSpec> : ReadsNoFiles {
  static ConvSpec parse(const ConfigNode& workload);
  /// `tile: auto`: chooses the tile for `hardware` (choose_conv_tile).
  static void check_inputs(const std::function<ConfigNode()>& document, ConvSpec& spec,
                           const HardwareParams& hardware);
};

}  // namespace ridgeline
