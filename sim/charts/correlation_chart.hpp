// Simulated against measured, as `ridgeline validate --svg` draws it: one log-log panel per kind
// of figure (bandwidth, FLOP/s, time, latency), the y = x line and a band of +-10 % around it,
// a marker per case coloured by the machine measured, named in its tooltip.
#pragma once

#include <string>
#include <vector>

namespace ridgeline {

struct CorrelationPoint {
  std::string name;    ///< the case
  std::string group;   ///< the machine: one colour each, in the order first seen
  std::string figure;  ///< the panel: "bandwidth", "flop_rate", ...
  std::string unit;    ///< of measured and simulated: "B/s", "FLOP/s", "s"
  double measured = 0;
  double simulated = 0;
};

/// The chart; an empty string when no point has positive figures.
std::string render_correlation_chart(const std::vector<CorrelationPoint>& points);

}  // namespace ridgeline
