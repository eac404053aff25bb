// One run as a self-contained HTML page: no network, no scripts; the config, the analytical and
// simulated figures, the roofline, where the time went, the footprint and occupancy. Readable on a
// narrow screen and printable. Every number comes from the run's JSON report.
#pragma once

#include <string>

#include "sim/waveforms/busy_timeline.hpp"
#include "sim/report/report.hpp"

namespace ridgeline {

/// The start of a self-contained page (doctype, head with the shared style, body, main) and its
/// end: the run report's and the sweep report's look.
std::string html_page_start(const std::string& title);
std::string html_page_end();

/// The page of `report`; with `busy` (collected from the same run), a timeline chart of the units'
/// busy time.
std::string render_html_report(const Json& report, const BusyTimeline* busy = nullptr);

}  // namespace ridgeline
