// The figures a run's reports show beside the analytical ones, derived from its counters once:
// the text, JSON and CSV reports, the levels table and the limiter all read them from here (the
// HTML report and the charts read them from the JSON), so each figure has one expression.
#pragma once

#include <cstdint>
#include <string>

#include "models/compute_unit.hpp"
#include "models/core.hpp"
#include "models/sram.hpp"
#include "sim/config/run_config.hpp"
#include "sim/report/levels.hpp"
#include "sim/run/simulate.hpp"

namespace ridgeline {

struct RunFigures {
  double time_s = 0;
  double core_time_s = 0;  ///< run time x cores (none for a memory trace)
  std::uint64_t flops = 0;
  std::uint64_t hbm_bytes = 0;
  double flop_per_s = 0;
  double hbm_bytes_per_s = 0;
  double intensity_flop_per_byte = 0;  ///< F / Q at HBM
  double percent_of_roof = 0;          ///< of the note's roof
  double hbm_busy = 0;                 ///< fraction of channel-time transferring
  double compute_busy = 0;             ///< fraction of core-time computing
  double overlap_fraction = 0;  ///< of the shorter of memory activity and compute, overlapped
  std::string bound;            ///< "memory" or "compute": the busier of HBM and compute

  // Totals over cores (time spans are summed core-time).
  CoreStats cores;
  ComputeUnitStats compute;
  SramStats sram;
  double resident_blocks_mean = 0;  ///< per core
  double active_warps_mean = 0;     ///< per core
  std::string full_by = "none";     ///< the resource that kept cores full the longest
  double full_by_s = 0;

  Levels levels;  ///< the hierarchical roofline as the run measured it
};

RunFigures run_figures(const RunConfig& config, const SimulationResult& result);

}  // namespace ridgeline
