// The SystemC shell of a core's compute unit; the timing is ComputeUnitTiming (compute_unit.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <systemc>

#include "models/compute_unit.hpp"
#include "models/data_type.hpp"
#include "models/units.hpp"

namespace ridgeline {

class ComputeUnit : public sc_core::sc_module {
 public:
  ComputeUnit(sc_core::sc_module_name name, const ComputeUnitParams& params, Clock clock)
      : sc_module(name), timing(params, clock) {}
  ComputeUnitTiming timing;
};

}  // namespace ridgeline
