#include "sim/run/accelerator.hpp"

#include <string>

#include "models/l2_cache_module.hpp"

namespace ridgeline {

void Accelerator::chain_levels(const HardwareParams& hardware) {
  // From the cores outwards, in the order HardwareParams::shared_levels() names them.
  if (hardware.l2)
    levels.push_back(std::make_unique<L2Cache>(kL2Name, *hardware.l2, hardware.cores));
  for (std::size_t i = 0; i < levels.size(); ++i) {
    MemoryTargetSocket& below = i + 1 < levels.size() ? levels[i + 1]->port() : hbm.port;
    levels[i]->memory().bind(below);
  }
}

MemoryTargetSocket& Accelerator::memory_port() {
  return levels.empty() ? hbm.port : levels.front()->port();
}

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         const Kernel& kernel)
    : sc_module(name),
      hbm("hbm", hardware.hbm),
      scheduler("scheduler", kernel.grid_rows, kernel.grid_cols, hardware.cores,
                kernel.block_order),
      wakeups("wakeups"),
      flags(kernel.flags) {
  chain_levels(hardware);
  cores.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto core = std::make_unique<Core>(("core" + std::to_string(i)).c_str(), i, hardware.core,
                                       hardware.core_clock, kernel, wakeups);
    core->memory.bind(memory_port());
    core->blocks.bind(scheduler);
    if (kernel.flags > 0) core->use_flags(&flags);
    cores.push_back(std::move(core));
  }
}

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         AccessSource& trace, const MemoryTraceSpec& spec)
    : sc_module(name),
      hbm("hbm", hardware.hbm),
      scheduler("scheduler", 0, 0, 0),
      wakeups("wakeups") {
  chain_levels(hardware);
  TracePlayerParams params;
  params.access_bytes = spec.access_bytes;
  params.issue_interval = spec.issue_interval;
  params.group_accesses = spec.group_accesses;
  params.max_bytes_in_flight = hardware.core.max_bytes_in_flight;
  params.max_requests_in_flight = hardware.core.max_requests_in_flight;
  players.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto player = std::make_unique<TracePlayer>(("player" + std::to_string(i)).c_str(), i, params,
                                                trace, wakeups);
    player->memory.bind(memory_port());
    players.push_back(std::move(player));
  }
}

void Accelerator::observe(ActivityObserver* observer) {
  hbm.observe(observer);
  for (std::uint32_t i = 0; i < levels.size(); ++i) levels[i]->observe(observer, i);
  for (auto& core : cores) core->observe(observer);
  for (auto& player : players) player->observe(observer);
}

WaveformLayout Accelerator::waveform_layout() const {
  WaveformLayout layout;
  layout.top = name();
  for (const auto& core : cores) layout.cores.emplace_back(core->name());
  for (const auto& player : players) layout.players.emplace_back(player->name());
  layout.hbm = hbm.name();
  layout.channels = hbm.timing().params().channels;
  layout.pseudo_channels = hbm.timing().params().pseudo_channels;
  for (const auto& level : levels) layout.levels.emplace_back(level->name());
  return layout;
}

}  // namespace ridgeline
