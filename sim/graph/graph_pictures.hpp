// A graph's pictures: the roofline with every distinct kernel as a point whose area is its share
// of the time, a Gantt chart of the kernels over time, the timeline trace (one slice per kernel,
// Chrome / Perfetto trace events), and the HTML report that holds the table and both charts.
#pragma once

#include <string>
#include <vector>

#include "sim/charts/roofline_chart.hpp"
#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_run.hpp"

namespace ridgeline {

/// The roof of the data type with the most FLOPs in the graph, HBM's slope (and the L2's), and
/// per distinct kernel its analytical point (hollow: F / T_ideal at F / Q) and, with `simulated`,
/// its simulated one (filled: F / time at F / the HBM bytes it moved).
RooflineChart graph_roofline(const GraphConfig& config,
                             const std::vector<KernelSimulation>* simulated);

/// The kernels one after another as the graph runs them (simulated times, else T_ideal): a lane
/// per distinct kernel, a bar per kernel, as SVG.
std::string graph_gantt_svg(const GraphConfig& config,
                            const std::vector<KernelSimulation>* simulated);

/// The kernels with their streams at once (streams_schedule): a lane per stream, a bar per
/// kernel from its start to its finish, as SVG.
std::string graph_streams_gantt_svg(const GraphConfig& config,
                                    const std::vector<KernelSimulation>* simulated);

/// The same schedule as trace events: one complete slice ("X") per kernel on one track, its
/// figures as arguments, and beneath it counters ("C") of what each kernel kept busy of the
/// HBM, the compute units and the block slots, on average over its run, and, where the kernels'
/// runs reported their busy profiles (KernelSimulation::busy), the per-unit tracks: the cores'
/// loads, compute and stores, the L2's port and the HBM over each kernel's run; with several
/// streams, a second process with a track per stream and the kernels at once. Times in
/// microseconds, as the format has them.
std::string graph_timeline_json(const GraphConfig& config,
                                const std::vector<KernelSimulation>& simulated);

/// One self-contained page: the totals, the kernels' table, the roofline and the Gantt chart
/// (and, with several streams, the streams' one).
std::string render_graph_html(const GraphConfig& config,
                              const std::vector<KernelSimulation>* simulated);

}  // namespace ridgeline
