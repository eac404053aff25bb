#include "sim/run/accelerator.hpp"

#include <string>

namespace ridgeline {

namespace {

// Binds a requester's socket to the memory it talks to: the L2 when there is one, else the HBM.
template <class Socket>
void bind_to_memory(Socket& socket, Hbm& hbm, L2Cache* l2) {
  if (l2) {
    socket.bind(l2->port);
  } else {
    socket.bind(hbm.port);
  }
}

std::unique_ptr<L2Cache> make_l2(const HardwareParams& hardware, Hbm& hbm) {
  if (!hardware.l2) return nullptr;
  auto l2 = std::make_unique<L2Cache>("l2", *hardware.l2);
  l2->memory.bind(hbm.port);
  return l2;
}

}  // namespace

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         const Kernel& kernel)
    : sc_module(name),
      hbm("hbm", hardware.hbm),
      scheduler("scheduler", kernel.grid_rows, kernel.grid_cols, kernel.block_order),
      wakeups("wakeups") {
  l2 = make_l2(hardware, hbm);
  cores.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto core = std::make_unique<Core>(("core" + std::to_string(i)).c_str(), i, hardware.core,
                                       hardware.core_clock, kernel, wakeups);
    bind_to_memory(core->memory, hbm, l2.get());
    core->blocks.bind(scheduler);
    cores.push_back(std::move(core));
  }
}

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         AccessSource& trace, std::uint64_t access_bytes)
    : sc_module(name), hbm("hbm", hardware.hbm), scheduler("scheduler", 0, 0), wakeups("wakeups") {
  l2 = make_l2(hardware, hbm);
  TracePlayerParams params;
  params.access_bytes = access_bytes;
  params.max_bytes_in_flight = hardware.core.max_bytes_in_flight;
  params.max_requests_in_flight = hardware.core.max_requests_in_flight;
  players.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto player = std::make_unique<TracePlayer>(("player" + std::to_string(i)).c_str(), i, params,
                                                trace, wakeups);
    bind_to_memory(player->memory, hbm, l2.get());
    players.push_back(std::move(player));
  }
}

void Accelerator::observe(ActivityObserver* observer) {
  hbm.observe(observer);
  if (l2) l2->observe(observer);
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
  if (l2) layout.l2 = l2->name();
  return layout;
}

}  // namespace ridgeline
