// The SystemC shell of a core's SRAM; the timing is SramTiming (sram.hpp).
#pragma once

#include <cstdint>
#include <systemc>

#include "models/activity.hpp"
#include "models/sram.hpp"
#include "models/units.hpp"

namespace ridgeline {

class Sram : public sc_core::sc_module {
 public:
  Sram(sc_core::sc_module_name name, const SramParams& params, Clock clock)
      : sc_module(name), timing(params, clock) {}
  SramTiming timing;
};

}  // namespace ridgeline
