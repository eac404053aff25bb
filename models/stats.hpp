// How a component's statistics describe themselves: every counter is declared once, with its name,
// unit and meaning, in the component's Stats::visit; reports walk that list instead of naming
// counters by strings on the hot path.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "models/units.hpp"

namespace ridgeline {

/// Receives one statistic: its name (snake_case, unit-suffixed), value, unit and description.
using StatVisitor = std::function<void(std::string_view name, double value, std::string_view unit,
                                       std::string_view description)>;

inline double as_stat(std::uint64_t count) { return static_cast<double>(count); }
inline double as_stat(Time span) { return span.seconds(); }

}  // namespace ridgeline
