// Evaluates a sweep's points in this process: each point's configuration, checked by the same
// rules as `ridgeline run` (errors name the sweep file's line where a swept value is at fault),
// its analytical figures, and its constraints.
//
// Fast because YAML is read once per axis value, not once per point: every value is read with
// the ordinary parser over its base document (so a bad value is reported once, where it was
// written), and a point copies the typed fields its values fill (sweep_fields) onto the base's
// typed parameters, then applies the rules between values (check_rules, check_data_type,
// check_fits) to the typed result. A key the fast path does not know is read the slow way: the
// point's whole document, every time (the last one is remembered).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/config/run_config.hpp"
#include "sim/sweep/report_cells.hpp"
#include "sim/sweep/sweep_expression.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace ridgeline {

enum class PointStatus : std::uint8_t { ok, failed, skipped };
std::string_view name_of(PointStatus status);

/// The columns every row starts with.
struct RowHead {
  ColumnId point;   ///< the point's index in the whole sweep
  ColumnId status;  ///< ok, failed, skipped
  ColumnId reason;  ///< why it failed or was skipped; empty when ok
};

class SweepEvaluator {
 public:
  /// Reads the base documents and every axis value once; compiles the constraints. Throws
  /// ConfigError for a bad sweep (not for a bad point: that is the point's row).
  SweepEvaluator(const SweepSpec& spec, ColumnTable& columns);
  ~SweepEvaluator();

  /// Fills `row` with the point's head, swept inputs (axis.<key>) and, once its configuration
  /// holds, the report's hardware, workload and analytical leaves. Returns its status: ok (it
  /// may run), failed (a rule broken; the reason says which, where) or skipped (a constraint).
  PointStatus evaluate(std::uint64_t point, Row& row);

  /// The row's head and swept inputs only, with the given status and reason.
  void add_head(std::uint64_t point, PointStatus status, std::string_view reason, Row& row);
  /// Changes the status and reason of a row that has its head.
  void set_status(Row& row, PointStatus status, std::string_view reason);

  /// The point's hardware and workload documents with every value placed: what `ridgeline run`
  /// reads for it. Throws ConfigError when they do not read.
  std::pair<std::string, std::string> documents(std::uint64_t point);

  /// The configuration evaluate() last resolved (valid when it returned ok or skipped).
  const RunConfig& config() const { return config_; }

  /// Column names rows can have: the swept inputs, the report's leaves (`simulated` adds the
  /// simulation's), for checking names in expressions before anything runs.
  std::set<std::string> known_columns(bool simulated) const;

  const RowHead& head() const { return head_; }

  /// Points evaluated the slow way so far (documents read whole); for the benchmark and tests.
  std::uint64_t slow_documents() const { return slow_documents_; }

  /// The warnings of every document read so far (the base files, each axis value over its base,
  /// points read whole), each once: a warning that holds for many points is one entry. Those of
  /// the base files and axis values are all known once the evaluator is built.
  const std::vector<ConfigWarning>& warnings() const { return warnings_; }

 private:
  /// Skips (or fails) the point whose row breaks a constraint; nothing when all hold.
  std::optional<PointStatus> check_constraints(Row& row);
  struct Base;
  struct KeyPlan;
  struct Resolved;

  // Refuses the sweep when a key it sets is unknown in every base document of its root (a
  // typo would otherwise fail every point, one row at a time).
  void check_keys_known() const;
  void decode(std::uint64_t point);
  // Resolves the typed parameters of one root (HardwareParams or WorkloadSpec, the latter with
  // each key's own rules only); false, with the reason in failure_, on an error.
  template <class Params>
  bool resolve(Params& out);
  std::vector<PlacedValue> placed_values(bool hardware_root) const;
  ConfigNode workload_document() const;  // the point's, read whole
  std::string located(const Violation& violation) const;
  std::string compose_located(const Violation& violation, bool hardware_root,
                              std::optional<std::size_t> holder) const;
  void add_inputs(Row& row);
  void note_warnings(const std::vector<ConfigWarning>& found);
  void add_report_cells(Row& row);

  const SweepSpec& spec_;
  ColumnTable& columns_;
  RowHead head_{};
  std::vector<ColumnId> axis_columns_;  // one per swept key, in swept_keys() order
  std::vector<const SweptKey*> keys_;
  std::vector<std::size_t> key_axis_;  // axis of each key
  std::vector<Base> hardware_bases_;
  std::vector<Base> workload_bases_;
  std::vector<KeyPlan> plans_;              // per key (file axes have none set up)
  std::vector<std::size_t> hardware_keys_;  // swept keys below hardware:, workload:
  std::vector<std::size_t> workload_keys_;
  std::optional<std::size_t> hardware_file_key_;  // the axis of files, if any
  std::optional<std::size_t> workload_file_key_;
  std::vector<char> hardware_fast_;  // per base: every swept key takes the fast way
  std::vector<char> workload_fast_;
  std::vector<Expression> constraints_;
  ShapeCache shapes_;
  std::vector<char> shape_checked_;
  std::vector<char> shape_from_json_;

  // The point being evaluated.
  std::vector<std::uint32_t> indices_;
  std::optional<std::uint64_t> evaluated_;  // the point config_ holds, when it evaluated ok
  bool decoded_ = false;
  std::uint64_t decoded_point_ = 0;
  std::size_t hardware_base_ = 0;
  std::size_t workload_base_ = 0;
  RunConfig config_;
  std::string failure_;
  std::unique_ptr<Resolved> last_hardware_;  // the slow path's memory
  std::unique_ptr<Resolved> last_workload_;
  std::uint64_t slow_documents_ = 0;
  mutable std::unordered_map<std::string, std::string> located_;  // messages already composed
  std::vector<ConfigWarning> warnings_;
  std::set<std::string> warning_texts_;  // of warnings_
};

}  // namespace ridgeline
