// One run as a self-contained HTML page: no network, no scripts; the config, the analytical and
// simulated figures, the roofline, where the time went, the footprint and occupancy. Readable on a
// narrow screen and printable. Every number comes from the run's JSON report.
#pragma once

#include <string>

#include "sim/report.hpp"

namespace ridgeline {

std::string render_html_report(const Json& report);

}  // namespace ridgeline
