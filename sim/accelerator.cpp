#include "sim/accelerator.hpp"

#include <string>

namespace ridgeline {

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         const Kernel& kernel)
    : sc_module(name),
      hbm("hbm", hardware.hbm),
      scheduler("scheduler", kernel.grid_rows, kernel.grid_cols),
      wakeups("wakeups") {
  cores.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto core = std::make_unique<Core>(("core" + std::to_string(i)).c_str(), i, hardware.core,
                                       hardware.core_clock, kernel, wakeups);
    core->memory.bind(hbm.port);
    core->blocks.bind(scheduler);
    cores.push_back(std::move(core));
  }
}

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         AccessSource& trace, std::uint64_t access_bytes)
    : sc_module(name), hbm("hbm", hardware.hbm), scheduler("scheduler", 0, 0), wakeups("wakeups") {
  TracePlayerParams params;
  params.access_bytes = access_bytes;
  params.max_bytes_in_flight = hardware.core.max_bytes_in_flight;
  params.max_requests_in_flight = hardware.core.max_requests_in_flight;
  players.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto player = std::make_unique<TracePlayer>(("player" + std::to_string(i)).c_str(), i, params,
                                                trace, wakeups);
    player->memory.bind(hbm.port);
    players.push_back(std::move(player));
  }
}

}  // namespace ridgeline
