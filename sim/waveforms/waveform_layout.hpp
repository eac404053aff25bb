// The traced machine's units by their place in the module hierarchy: the names the VCD's scopes
// and the timeline's tracks carry, e.g. top.core0.compute, top.core0.dma, top.hbm.ch3.pc1,
// top.l2.port.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/activity.hpp"

namespace ridgeline {

struct WaveformLayout {
  std::string top = "top";           ///< the accelerator's module
  std::vector<std::string> cores;    ///< each core's module, e.g. "top.core0"
  std::vector<std::string> players;  ///< each trace player's module (a memory trace)
  std::string hbm = "top.hbm";
  std::uint32_t channels = 1;
  std::uint32_t pseudo_channels = 1;  ///< per channel
  std::vector<std::string> levels;    ///< the shared levels' modules, from the cores outwards

  /// Groups of units (a timeline process each): the top, then cores, players, the HBM, the
  /// shared levels.
  std::uint32_t groups() const;
  std::string group_name(std::uint32_t group) const;
  std::uint32_t core_group(std::uint32_t core) const { return 1 + core; }
  std::uint32_t player_group(std::uint32_t player) const;
  std::uint32_t hbm_group() const;
  std::uint32_t level_group(std::uint32_t level) const { return hbm_group() + 1 + level; }

  /// HBM unit `unit` (channel x pseudo-channels + pseudo-channel): "ch3", or "ch3.pc1".
  std::string channel_name(std::uint32_t unit) const;
  /// The scope of a unit: "top.core0.compute", "top.core0.sram.read", "top.hbm.ch3.pc1",
  /// "top.l2.port", "top.player0.dma".
  std::string unit_path(UnitKind kind, std::uint32_t index) const;
  /// Its name within its group: "compute", "sram.read", "ch3.pc1", "port".
  std::string unit_leaf(UnitKind kind, std::uint32_t index) const;
  std::uint32_t group_of(UnitKind kind, std::uint32_t index) const;
};

}  // namespace ridgeline
