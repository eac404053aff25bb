// What the simulator's library (libridgeline_simulator.so, sim/run/simulator_entry.cpp) hands the
// executable: simulate() (sim/util/build_library.hpp says how it is loaded).
#pragma once

#include "sim/run/simulate.hpp"
#include "sim/util/build_library.hpp"

namespace ridgeline {

struct SimulatorAbi {
  BuildStamp stamp;  // first: build_library_abi reads it
  SimulationResult (*simulate)(const RunConfig& config, const WaveformOptions& traces,
                               ActivityObserver* also) = nullptr;

  static constexpr const char* kFile = "libridgeline_simulator.so";
  static constexpr const char* kEntry = "ridgeline_simulator_abi";
  /// The stamp of this build's simulator: what crosses is the run's configuration, its trace
  /// options and its result.
  static BuildStamp this_build() {
    return build_stamp<RunConfig, WaveformOptions, SimulationResult>();
  }
};

}  // namespace ridgeline
