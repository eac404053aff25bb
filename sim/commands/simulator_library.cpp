#include "sim/commands/simulator_library.hpp"

#include "sim/run/simulator_abi.hpp"

namespace ridgeline {

SimulationResult simulate_in_library(const RunConfig& config, const WaveformOptions& traces,
                                     ActivityObserver* also) {
  static const SimulatorAbi& simulator = build_library_abi<SimulatorAbi>();
  return simulator.simulate(config, traces, also);
}

}  // namespace ridgeline
