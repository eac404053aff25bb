#include "sim/waveforms/waveform_layout.hpp"

namespace ridgeline {

std::uint32_t WaveformLayout::groups() const {
  return 1 + static_cast<std::uint32_t>(cores.size() + players.size()) + 1 +
         static_cast<std::uint32_t>(levels.size());
}

std::uint32_t WaveformLayout::player_group(std::uint32_t player) const {
  return 1 + static_cast<std::uint32_t>(cores.size()) + player;
}

std::uint32_t WaveformLayout::hbm_group() const {
  return 1 + static_cast<std::uint32_t>(cores.size() + players.size());
}

std::string WaveformLayout::group_name(std::uint32_t group) const {
  if (group == 0) return top;
  if (group < player_group(0)) return cores[group - 1];
  if (group < hbm_group()) return players[group - player_group(0)];
  if (group == hbm_group()) return hbm;
  return levels[group - level_group(0)];
}

std::string WaveformLayout::channel_name(std::uint32_t unit) const {
  const std::string channel = "ch" + std::to_string(unit / pseudo_channels);
  if (pseudo_channels == 1) return channel;
  return channel + ".pc" + std::to_string(unit % pseudo_channels);
}

std::string WaveformLayout::unit_leaf(UnitKind kind, std::uint32_t index) const {
  switch (kind) {
    case UnitKind::compute:
      return "compute";
    case UnitKind::dma:
      return "dma";
    case UnitKind::barrier:
      return "barrier";
    case UnitKind::sram_read:
      return "sram.read";
    case UnitKind::sram_write:
      return "sram.write";
    case UnitKind::hbm:
      return channel_name(index);
    case UnitKind::level_port:
      return "port";
    case UnitKind::player:
      return "dma";  // a player stands in for a core's requests
  }
  return "?";
}

std::uint32_t WaveformLayout::group_of(UnitKind kind, std::uint32_t index) const {
  switch (kind) {
    case UnitKind::hbm:
      return hbm_group();
    case UnitKind::level_port:
      return level_group(index);
    case UnitKind::player:
      return player_group(index);
    default:
      return core_group(index);
  }
}

std::string WaveformLayout::unit_path(UnitKind kind, std::uint32_t index) const {
  return group_name(group_of(kind, index)) + "." + unit_leaf(kind, index);
}

}  // namespace ridgeline
