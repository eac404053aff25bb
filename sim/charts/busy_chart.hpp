// The HTML report's timeline chart: unit busy time over the run as strips of shaded buckets, one
// strip each for loads in flight, compute and stores in flight per core (all cores averaged, and
// core 0, when there are more than eight) and for the HBM's channels. A bucket's shade is the
// fraction of it the unit was busy; each strip carries its total busy time (data-busy-s), so the
// chart can be checked against the report.
#pragma once

#include <string>

#include "sim/waveforms/busy_timeline.hpp"

namespace ridgeline {

/// `requester` names the cores ("core") or trace players ("player"); `run_time` is the simulated
/// time the chart spans.
std::string render_busy_chart(const BusyTimeline& busy, Time run_time,
                              const std::string& requester);

}  // namespace ridgeline
