// Conversions between the models' integer picoseconds and SystemC's sc_time.
// Elaboration checks that SystemC's time resolution is one picosecond, so both are one integer.
#pragma once

#include <systemc>

#include "models/units.hpp"

namespace ridgeline {

inline Time to_time(const sc_core::sc_time& t) { return Time::from_ps(t.value()); }
inline sc_core::sc_time to_sc_time(Time t) { return sc_core::sc_time::from_value(t.ps()); }
inline Time now() { return to_time(sc_core::sc_time_stamp()); }

/// True when sc_time's integer value counts picoseconds (SystemC's default resolution).
inline bool systemc_resolution_is_ps() {
  return sc_core::sc_get_time_resolution() == sc_core::sc_time(1, sc_core::SC_PS);
}

}  // namespace ridgeline
