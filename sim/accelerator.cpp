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

}  // namespace ridgeline
