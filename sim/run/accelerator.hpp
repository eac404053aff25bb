// Elaboration: the one place where modules are created and wired, from HardwareParams and the
// kernel to run. Cores pull blocks from the scheduler and send memory requests down the chain of
// shared memory levels (the L2 when the hardware has one) to the HBM. For a memory trace, trace
// players take the cores' places and replay the trace into the same memory.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "models/core_module.hpp"
#include "models/hardware.hpp"
#include "models/hbm_module.hpp"
#include "models/kernel.hpp"
#include "models/memory_level_module.hpp"
#include "models/scheduler_module.hpp"
#include "models/trace_player_module.hpp"
#include "models/wakeup_queue_module.hpp"
#include "sim/waveforms/waveform_layout.hpp"
#include "workloads/memory_trace.hpp"

namespace ridgeline {

class Accelerator : public sc_core::sc_module {
 public:
  Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware, const Kernel& kernel);
  /// One trace player per core, each with the core's in-flight limits and the trace's access size
  /// and issue interval, pulling from `trace`.
  Accelerator(sc_core::sc_module_name name, const HardwareParams& hardware, AccessSource& trace,
              const MemoryTraceSpec& spec);

  /// Tells `observer` (null: nobody) what every unit does: cores (and their SRAM), trace players,
  /// the shared levels' ports, the HBM's channels.
  void observe(ActivityObserver* observer);
  /// Its units by their module names, for the waveforms.
  WaveformLayout waveform_layout() const;

  Hbm hbm;
  /// The shared levels between the cores and the HBM, from the cores outwards: the cores send to
  /// levels[0], each level's misses go to the next, the last one's to the HBM.
  std::vector<std::unique_ptr<MemoryLevelModule>> levels;
  BlockScheduler scheduler;
  WakeupQueue wakeups;
  std::vector<std::unique_ptr<Core>> cores;
  std::vector<std::unique_ptr<TracePlayer>> players;
  /// The kernel's flags, which its blocks signal and wait on (empty when it has none).
  FlagBoard flags{0};

 private:
  /// Creates the hardware's shared levels and chains them to the HBM.
  void chain_levels(const HardwareParams& hardware);
  /// Where the cores (or players) send their requests: the first level, or the HBM.
  MemoryTargetSocket& memory_port();
};

}  // namespace ridgeline
