// simulate() for the executable: from the simulator's shared library, libridgeline_simulator.so
// beside it (sim/run/simulator_entry.cpp), loaded on the first call. The executable links no
// SystemC itself, so that the commands that do not simulate (analyze, sweep --analytical, the
// reports, and the parents of the runs that do) start without loading SystemC's libraries and
// running their initialisation (docs/PERFORMANCE.md, "Start-up"). The tests, the benchmarks and
// the Python module call simulate() itself.
#pragma once

#include "sim/run/simulate.hpp"

namespace ridgeline {

/// simulate(), as the library beside the executable runs it. Throws std::runtime_error when the
/// library cannot be loaded or is of another build than the executable.
SimulationResult simulate_in_library(const RunConfig& config, const WaveformOptions& traces,
                                     ActivityObserver* also);

}  // namespace ridgeline
