#include "models/trace_player.hpp"

#include <cassert>

namespace ridgeline {

void TracePlayerStats::add(const TracePlayerStats& other) {
  StatFields::add(other);
  latency.merge(other.latency);  // not a counter: the histogram merges bucket by bucket
}

}  // namespace ridgeline
