// The figures a run's reports show beside the analytical ones, derived from its counters once:
// the text, JSON and CSV reports, the levels table and the limiter all read them from here (the
// HTML report and the charts read them from the JSON), so each figure has one expression.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "models/compute_unit.hpp"
#include "models/core.hpp"
#include "models/energy.hpp"
#include "models/sram.hpp"
#include "sim/config/run_config.hpp"
#include "sim/report/levels.hpp"
#include "sim/run/simulate.hpp"

namespace ridgeline {

/// The run's one answer to "memory- or compute-bound?": of every resource's lower bound on the
/// time (F / P for compute, Q_level / BW_level for HBM, each shared level and SRAM, with the Q
/// each level carried in the run), the longest binds. Its time over the run's is how close the
/// run came to that roof; the invariants keep it at or below 100 %. For a kernel it is the
/// achieved FLOP/s over the lowest roof of the hierarchical roofline at the intensities measured.
struct Verdict {
  std::string bound = "memory";  ///< "memory" or "compute"
  std::string limit = "hbm";     ///< "compute", or the memory level: "hbm", "l2", "sram"
  double roof_s = 0;             ///< the binding resource's lower bound on the time
  double percent_of_roof = 0;    ///< 100 x roof_s / time
  /// The roof in FLOP/s: P, or BW_level x I_level measured (0 for a memory trace).
  double roof_flop_per_s = 0;
};

struct RunFigures {
  double time_s = 0;
  double core_time_s = 0;  ///< run time x cores (none for a memory trace)
  std::uint64_t flops = 0;         ///< useful: the problem's F
  std::uint64_t issued_flops = 0;  ///< what the compute units executed (edge tiles' lanes too)
  std::uint64_t hbm_bytes = 0;
  double flop_per_s = 0;
  double hbm_bytes_per_s = 0;
  double intensity_flop_per_byte = 0;  ///< F / Q at HBM
  Verdict verdict;
  double percent_of_note_roof = 0;  ///< of the seed note's roof (its Q: no cache between)
  double hbm_busy = 0;              ///< fraction of channel-time transferring
  /// Fraction of core-time the compute units ran at their rate: F / (P x time), to the cycle.
  double compute_busy = 0;
  /// Fraction of core-time the compute units were held, busy, by SRAM operand reads.
  double operand_stall = 0;
  /// Fraction of core-time the compute units were held, busy, by the issue of warp instructions.
  double issue_stall = 0;
  double overlap_fraction = 0;  ///< of the shorter of memory activity and compute, overlapped

  // Totals over cores (time spans are summed core-time).
  CoreStats cores;
  ComputeUnitStats compute;
  SramStats sram;
  double resident_blocks_mean = 0;  ///< per core
  double active_warps_mean = 0;     ///< per core
  std::string full_by = "none";     ///< the resource that kept cores full the longest
  double full_by_s = 0;

  Levels levels;  ///< the hierarchical roofline as the run measured it
  /// The run's energy at the clock it ran at; none without hardware.energy.
  std::optional<KernelEnergy> energy;
};

RunFigures run_figures(const RunConfig& config, const SimulationResult& result);

}  // namespace ridgeline
