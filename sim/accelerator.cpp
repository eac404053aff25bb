#include "sim/accelerator.hpp"

#include <string>

namespace ridgeline {

Accelerator::Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware,
                         const Kernel& kernel)
    : sc_module(name),
      hbm("hbm", hardware.hbm),
      scheduler("scheduler", kernel.grid_rows, kernel.grid_cols, kernel.block_order),
      wakeups("wakeups") {
  if (hardware.l2) {
    l2 = std::make_unique<L2Cache>("l2", *hardware.l2);
    l2->memory.bind(hbm.port);
  }
  cores.reserve(hardware.cores);
  for (std::uint32_t i = 0; i < hardware.cores; ++i) {
    auto core = std::make_unique<Core>(("core" + std::to_string(i)).c_str(), i, hardware.core,
                                       hardware.core_clock, kernel, wakeups);
    if (l2) {
      core->memory.bind(l2->port);
    } else {
      core->memory.bind(hbm.port);
    }
    core->blocks.bind(scheduler);
    cores.push_back(std::move(core));
  }
}

}  // namespace ridgeline
