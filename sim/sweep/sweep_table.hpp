// A sweep's results read back for its charts: the results directory's manifest and, from
// results.jsonl, each point's status, reason and swept values, and the few figures the charts
// draw (time, FLOP/s, the roofline's intensities, the Pareto pair's objectives). Kept compact
// (some hundred bytes a point) so that a sweep of millions of points can be drawn; the summary
// is recomputed by the sweep's own SweepSummary from the same rows, so it equals summary.json.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/report/report.hpp"
#include "sim/sweep/sweep_results.hpp"

namespace ridgeline {

/// One swept key (`axis.<key>` column), its values in the sweep's order.
struct SweepAxis {
  struct Value {
    std::string text;   ///< as the results hold it ("2TB/s", "{m: 64, n: 64, k: 64}", "2")
    std::string label;  ///< for chart ticks: a file axis's file name without folder and .yaml
    double number = 0;  ///< what the text stands for (numeric axes)
  };
  std::string name;  ///< "workload.tile" (the column without "axis.")
  std::vector<Value> values;
  bool numeric = false;  ///< every value stands for a number: a linear or log axis, else ordered
                         ///< categories
  bool log = false;      ///< numeric and spread as fits_log says
};

/// A figure the charts plot per point, simulated in a simulated sweep, analytical otherwise.
struct SweepFigure {
  std::string name;    ///< "time" or "FLOP/s"
  std::string column;  ///< e.g. "simulated.time_s"
  std::string unit;    ///< "s", "FLOP/s"
  std::string label;   ///< "simulated time", "T_ideal (analytical)", ...
  bool maximize = false;
};

/// One machine's ceilings as its points' rows give them (a roof of the sweep's roofline).
struct SweepMachine {
  std::string name;  ///< hardware.name, with its peak and bandwidth when names repeat
  std::string dtype;
  double peak_flop_per_s = 0;
  std::vector<std::pair<std::string, double>> levels;  ///< name, bytes/s: hbm, l2 if any
};

enum class SweepPointStatus : std::uint8_t { ok, failed, skipped };

struct SweepPoint {
  std::uint64_t point = 0;
  SweepPointStatus status = SweepPointStatus::ok;
  std::uint32_t reason = 0;   ///< into SweepTable::reasons (failed and skipped points)
  std::uint32_t machine = 0;  ///< into SweepTable::machines (ok points)
  double figure[2] = {};      ///< per SweepTable::figures; NaN where the row has none
  double pareto[2] = {};      ///< the Pareto pair's objectives; NaN where none
  double analytical_intensity = 0, analytical_flop_per_s = 0;  ///< at HBM
  double simulated_intensity = 0, simulated_flop_per_s = 0;    ///< NaN in analytical sweeps
};

class SweepTable {
 public:
  /// Reads DIR's sweep.json and results.jsonl. Throws ConfigError when DIR holds no sweep.
  static SweepTable read(const std::string& directory);

  const std::string& directory() const { return directory_; }
  const SweepManifest& manifest() const { return manifest_; }
  bool simulated() const { return !manifest_.analytical; }
  const std::vector<SweepAxis>& axes() const { return axes_; }
  const std::vector<SweepPoint>& points() const { return points_; }
  static constexpr std::uint32_t kNoValue = ~std::uint32_t{0};
  /// Value index of axis `a` for the i-th point of points(); kNoValue when its row has none.
  std::uint32_t value(std::size_t i, std::size_t a) const { return axis_values_[a][i]; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::vector<SweepMachine>& machines() const { return machines_; }
  const SweepFigure& figure(std::size_t f) const { return figures_[f]; }
  /// The two objectives of the Pareto front, when the sweep has one.
  const std::vector<Objective>& pareto_objectives() const { return pareto_objectives_; }
  /// SweepSummary::json() of these rows: what summary.json holds.
  const Json& summary() const { return summary_; }

  /// The axis named `name` ("workload.tile" or "axis.workload.tile"). Throws ConfigError naming
  /// `option` when there is none, with the nearest name and the sweep's axes.
  std::size_t axis_index(const std::string& name, const std::string& option) const;
  /// "workload.tile={m: 32, n: 32, k: 32}, workload.stages=1" for the i-th point.
  std::string inputs(std::size_t i) const;

 private:
  std::string directory_;
  SweepManifest manifest_;
  std::vector<SweepAxis> axes_;
  std::vector<SweepPoint> points_;
  std::vector<std::vector<std::uint32_t>> axis_values_;  // per axis, per point
  std::vector<std::string> reasons_;
  std::vector<SweepMachine> machines_;
  SweepFigure figures_[2];
  std::vector<Objective> pareto_objectives_;
  Json summary_;
};

/// Checks `name` against the swept keys `axes` (without "axis."); throws ConfigError naming
/// `option` (e.g. "--color-by") with a suggestion and the list. Returns the name without
/// "axis.".
std::string check_axis_name(const std::string& name, const std::vector<std::string>& axes,
                            const std::string& option);

}  // namespace ridgeline
