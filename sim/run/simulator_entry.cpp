// The simulator's library (libridgeline_simulator.so): simulate() and the SystemC models behind
// it, which the executable loads only when it simulates (sim/util/build_library.hpp).
#include "models/sc_main_stub.hpp"
#include "sim/run/simulator_abi.hpp"

extern "C" __attribute__((visibility("default"))) const ridgeline::BuildStamp*
ridgeline_simulator_abi() {
  static const ridgeline::SimulatorAbi abi{ridgeline::SimulatorAbi::this_build(),
                                           &ridgeline::simulate};
  return &abi.stamp;
}
