// A graph's report: every kernel's figures, analytical and simulated, and the graph's totals
// where a single kernel's report has its own (JSON `analytical` and `simulated`, each with a
// `kernels` list), as text (a table of kernels by share of time, identical kernels on one row)
// and as CSV (one row per kernel).
#pragma once

#include <string>
#include <vector>

#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_run.hpp"
#include "sim/report/report_table.hpp"
#include "sim/util/json.hpp"

namespace ridgeline {

/// `simulated`: the runs' figures (simulate_graph), or null for the analytical model only.
/// Throws InternalError when the totals are beyond what the machine can do (its HBM's peak).
Json graph_report_json(const GraphConfig& config, const std::vector<KernelSimulation>* simulated);
/// The name of a distinct kernel's row: "layers.*.q_proj" for kernels named alike but for their
/// numbers, "layers.*.q_proj + layers.*.k_proj" for one workload under several names.
std::string group_name(const GraphConfig& config, const std::vector<std::size_t>& kernels);
/// The time of one kernel of distinct kernel `run`: simulated, else T_ideal.
double run_time_s(const GraphConfig& config, const std::vector<KernelSimulation>* simulated,
                  std::size_t run);
/// The time of every kernel of distinct kernel `run`: simulated, else T_ideal.
double group_time_s(const GraphConfig& config, const std::vector<KernelSimulation>* simulated,
                    std::size_t run);
/// The graph's streams (`kernels[i].stream`), each once, in the order first met in the run.
std::vector<std::string> streams_of(const GraphConfig& config);
/// The kernels with their streams at once (shared_machine_schedule): their simulated times and
/// uses of the machine, or null for T_ideal and the roofline's (T_compute / T_ideal of the
/// compute units, T_memory / T_ideal of the HBM, no block slots).
SharedSchedule streams_schedule(const GraphConfig& config,
                                const std::vector<KernelSimulation>* simulated);
/// A row per distinct kernel, by share of the time: the text report's table and the HTML one's.
ReportTable graph_kernel_table(const GraphConfig& config,
                               const std::vector<KernelSimulation>* simulated);
/// The graph's totals, a line each: analytical, simulated, the L2 between kernels.
std::vector<std::string> graph_totals_lines(const GraphConfig& config,
                                            const std::vector<KernelSimulation>* simulated);

/// `report` (graph_report_json's) without its lists of kernels: the graph's figures alone, one
/// value each, as a sweep's row takes them.
Json without_kernel_lists(Json report);
std::string graph_report_text(const GraphConfig& config,
                              const std::vector<KernelSimulation>* simulated);
std::string graph_report_csv(const GraphConfig& config,
                             const std::vector<KernelSimulation>* simulated);

}  // namespace ridgeline
