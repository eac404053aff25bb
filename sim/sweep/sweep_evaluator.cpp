#include "sim/sweep/sweep_evaluator.hpp"

#include <fmt/format.h>

#include <iostream>
#include <limits>
#include <type_traits>

#include "sim/config/hardware_config.hpp"
#include "sim/config/hardware_guards.hpp"
#include "sim/config/workload_config.hpp"
#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_report.hpp"
#include "sim/report/report.hpp"
#include "sim/sweep/sweep_fields.hpp"

namespace ridgeline {

std::string_view name_of(PointStatus status) {
  switch (status) {
    case PointStatus::ok:
      return "ok";
    case PointStatus::failed:
      return "failed";
    case PointStatus::skipped:
      return "skipped";
  }
  return "?";
}

// A base document: a hardware or workload file with the sweep's `set:` values placed.
struct SweepEvaluator::Base {
  std::string file;
  std::string text;
  YAML::Node parsed;                       // the text as YAML, cloned to write documents out
  std::optional<ConfigNode> tree;          // where rules broken by base values are reported
  std::optional<HardwareParams> hardware;  // read alone; none when it does not read alone
  std::optional<WorkloadSpec> workload;    // each key's own rules only
  /// A graph of kernels (kind: graph, transformer, onnx): its points are read whole, by the
  /// graph reader, and their rows are the graph's figures.
  bool graph = false;
};

// How a swept key reaches a point's typed parameters.
struct SweepEvaluator::KeyPlan {
  struct Entry {
    std::optional<HardwareParams> hardware;  // the base read with this value
    std::optional<WorkloadSpec> workload;
    std::string error;  // the value breaks its key's own rules
  };
  bool hardware_root = false;
  const FieldSetter* setter = nullptr;
  std::vector<char> fast;                  // [base]: copy fields, or read documents whole
  std::vector<std::vector<Entry>> values;  // [base][value]
};

// The slow path remembers the last document it read.
struct SweepEvaluator::Resolved {
  std::size_t base = 0;
  std::vector<std::uint32_t> indices;
  std::string error;
  HardwareParams hardware;
  WorkloadSpec workload;
};

namespace {

constexpr const char* kPowerLimitKey = "hardware.power_limit";

}  // namespace

SweepEvaluator::SweepEvaluator(const SweepSpec& spec, ColumnTable& columns)
    : spec_(spec), columns_(columns), last_hardware_(), last_workload_() {
  head_ = RowHead{columns.intern("point"), columns.intern("status"), columns.intern("reason")};
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    for (const SweptKey& key : spec.axes[a].keys) {
      keys_.push_back(&key);
      key_axis_.push_back(a);
      axis_columns_.push_back(columns.intern("axis." + key.key_path));
    }
  }

  // Base documents: the one given, or one per value of the axis of files.
  auto bases = [&](const std::string& root, const std::string& given) {
    std::vector<Base> list;
    std::vector<std::string> files;
    for (const SweptKey* key : keys_) {
      if (key->key_path == root)
        for (const AxisValue& v : key->values) files.push_back(v.file);
    }
    if (files.empty()) files.push_back(given);
    for (const auto& file : files) {
      Base base;
      base.file = file;
      base.text = read_config_file(file);
      try {
        base.parsed = YAML::Load(base.text);
      } catch (const YAML::Exception&) {
        // load_document_text says where, below.
      }
      const YAML::Node kind = base.parsed.IsMap() && base.parsed[root].IsMap()
                                  ? base.parsed[root]["kind"]
                                  : YAML::Node();
      base.graph =
          root == "workload" && kind && kind.IsScalar() && is_graph_kind(kind.as<std::string>());
      try {
        base.tree = load_document_text(file, base.text, root, {}, spec.fixed);
        if (base.graph) {
          // Read whole at each point.
        } else if (root == "hardware") {
          base.hardware = parse_hardware(*base.tree);
        } else {
          base.workload = parse_workload_fields(*base.tree);
        }
        note_warnings(base.tree->warnings());
      } catch (const ConfigError&) {
        // Points over this base read their documents whole and report what breaks there.
      }
      list.push_back(std::move(base));
    }
    return list;
  };
  hardware_bases_ = bases("hardware", spec.hardware_file);
  workload_bases_ = bases("workload", spec.workload_file);
  check_keys_known();

  // Each value of each swept key, read once over each base.
  plans_.resize(keys_.size());
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    const SweptKey& key = *keys_[k];
    if (key.is_file()) continue;
    KeyPlan& plan = plans_[k];
    plan.hardware_root = key.root() == "hardware";
    plan.setter = find_field_setter(key.key_path);
    const std::vector<Base>& list = plan.hardware_root ? hardware_bases_ : workload_bases_;
    plan.fast.assign(list.size(), 0);
    plan.values.resize(list.size());
    for (std::size_t b = 0; b < list.size(); ++b) {
      const Base& base = list[b];
      if (plan.setter == nullptr ||
          !(plan.hardware_root ? base.hardware.has_value() : base.workload.has_value())) {
        continue;
      }
      if (!plan.hardware_root) {
        WorkloadSpec probe = *base.workload;
        if (!plan.setter->workload(probe, *base.workload)) continue;  // not this kind's key
      }
      bool fast = true;
      for (const AxisValue& value : key.values) {
        KeyPlan::Entry entry;
        std::vector<PlacedValue> placed = spec.fixed;
        placed.push_back(PlacedValue{key.key_path, value.node, value.where});
        try {
          const ConfigNode document =
              load_document_text(base.file, base.text, key.root(), {}, placed);
          if (plan.hardware_root) {
            entry.hardware = parse_hardware(document);
          } else {
            entry.workload = parse_workload_fields(document);
          }
          note_warnings(document.warnings());
        } catch (const ConfigError& error) {
          // The value's own fault, or something only the whole point can tell.
          if (!at_or_below(error.key_path(), key.key_path)) {
            fast = false;
            break;
          }
          entry.error = error.what();
        }
        plan.values[b].push_back(std::move(entry));
      }
      plan.fast[b] = fast;
      if (!fast) plan.values[b].clear();
    }
  }
  // Per base, whether every swept key of its root takes the fast way.
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    if (keys_[k]->key_path == "hardware") hardware_file_key_ = k;
    if (keys_[k]->key_path == "workload") workload_file_key_ = k;
    if (keys_[k]->is_file()) continue;
    (plans_[k].hardware_root ? hardware_keys_ : workload_keys_).push_back(k);
  }
  auto all_fast = [&](const std::vector<Base>& list, const std::vector<std::size_t>& keys,
                      bool hardware_root) {
    std::vector<char> fast(list.size());
    for (std::size_t b = 0; b < list.size(); ++b) {
      fast[b] = hardware_root ? list[b].hardware.has_value() : list[b].workload.has_value();
      for (std::size_t k : keys) fast[b] = fast[b] && plans_[k].fast[b];
    }
    return fast;
  };
  hardware_fast_ = all_fast(hardware_bases_, hardware_keys_, true);
  workload_fast_ = all_fast(workload_bases_, workload_keys_, false);

  for (const Constraint& constraint : spec.constraints) {
    try {
      constraints_.emplace_back(constraint.expression, columns);
    } catch (const ExpressionError& error) {
      constraint.node.fail(fmt::format("at character {}: {}", error.offset() + 1, error.what()));
    }
  }
  // Names must be columns rows have; constraints run before any simulation.
  const std::set<std::string> known = known_columns(false);
  if (!known.empty()) {
    for (std::size_t i = 0; i < constraints_.size(); ++i) {
      for (ColumnId id : constraints_[i].columns()) {
        const std::string& name = columns.name(id);
        if (known.count(name)) continue;
        std::string fix =
            "names are result columns: axis.<key>, hardware.*, workload.*, "
            "analytical.*";
        if (name.rfind("simulated.", 0) == 0 || name.rfind("components.", 0) == 0) {
          fix = "constraints decide before anything is simulated: use analytical.* figures";
        } else if (auto near = did_you_mean(name, {known.begin(), known.end()})) {
          fix = "did you mean '" + *near + "'?";
        }
        spec.constraints[i].node.fail(fmt::format("unknown column '{}'", name), fix);
      }
    }
  }
}

SweepEvaluator::~SweepEvaluator() = default;

void SweepEvaluator::note_warnings(const std::vector<ConfigWarning>& found) {
  for (const ConfigWarning& warning : found) {
    std::string text = warning.text();
    if (warning_texts_.insert(text).second) warnings_.push_back(warning);
  }
}

void SweepEvaluator::check_keys_known() const {
  std::vector<PlacedValue> keys = spec_.fixed;
  for (const SweptKey* key : keys_) {
    if (!key->is_file()) {
      keys.push_back(
          PlacedValue{key->key_path, key->values.front().node, key->values.front().where});
    }
  }
  for (const PlacedValue& key : keys) {
    const bool hardware_root = key.key_path.rfind("hardware.", 0) == 0;
    // Each key alone over each base file: an error calling the key (or a map on its way)
    // unknown is about the key, whatever the other values; any other outcome lets points tell.
    std::optional<ConfigError> unknown;
    for (const Base& base : hardware_root ? hardware_bases_ : workload_bases_) {
      if (base.graph) {  // its points say (a transformer's keys are the generator's)
        unknown.reset();
        break;
      }
      try {
        const ConfigNode document = load_document_text(
            base.file, base.text, hardware_root ? "hardware" : "workload", {}, {key});
        if (hardware_root) {
          parse_hardware(document);
        } else {
          parse_workload_fields(document);
        }
      } catch (const ConfigError& error) {
        if (error.rule().rfind("unknown key", 0) == 0 &&
            at_or_below(key.key_path, error.key_path())) {
          if (!unknown) unknown = error;
          continue;
        }
      }
      unknown.reset();  // known here (or broken otherwise): the points say
      break;
    }
    if (unknown) throw *unknown;
  }
}

std::set<std::string> SweepEvaluator::known_columns(bool simulated) const {
  std::set<std::string> names;
  for (ColumnId id : {head_.point, head_.status, head_.reason}) names.insert(columns_.name(id));
  for (ColumnId id : axis_columns_) names.insert(columns_.name(id));
  // A power limit the sweep gives (set or swept) brings its own leaves to bases that have none.
  bool sets_power_limit = false;
  for (const PlacedValue& key : spec_.fixed) sets_power_limit |= key.key_path == kPowerLimitKey;
  for (const SweptKey* key : keys_) sets_power_limit |= key->key_path == kPowerLimitKey;
  bool any = false;
  for (const Base& hardware : hardware_bases_) {
    for (const Base& workload : workload_bases_) {
      if (hardware.hardware && workload.graph) {
        try {
          const GraphConfig graph =
              load_graph_config(ConfigInput{hardware.file, hardware.text},
                                ConfigInput{workload.file, workload.text}, {});
          // A simulation's leaves without simulating: each run's figures empty.
          const std::vector<KernelSimulation> nothing(graph.runs.size());
          for_each_leaf(
              without_kernel_lists(graph_report_json(graph, simulated ? &nothing : nullptr)),
              [&](const std::string& path, const Json&) {
                if (path.rfind("config.", 0) != 0) names.insert(path);
              });
          any = true;
        } catch (const ConfigError&) {
          // The base alone breaks a rule: its points say which.
        }
        continue;
      }
      if (!hardware.hardware || !workload.workload) continue;
      RunConfig config;
      config.hardware = *hardware.hardware;
      config.workload = *workload.workload;
      if (runs_on(config.workload) == Runner::cores) {
        // What the base leaves to the machine (a `tile: auto`) chosen, as each point chooses it:
        // the model cannot analyse a tile not yet chosen. (A trace's file is read by its points.)
        try {
          check_workload_inputs([&] { return *workload.tree; }, config.workload, config.hardware);
        } catch (const ConfigError&) {
          continue;  // the base breaks a rule on this machine: its points say which
        }
      }
      any = true;
      config.analysis = analyze_on(config.hardware, config.workload);
      if (sets_power_limit && config.hardware.power_limit_uw == 0) {
        // Any limit names the same leaves: one no kernel reaches leaves the clock as it is.
        config.hardware.power_limit_uw = std::numeric_limits<std::uint64_t>::max();
      }
      apply_power_limit(config);  // a limit no clock meets fails the points, not the names
      config.occupancy = occupancy_on(config.hardware, config.analysis.footprint);
      // A simulation's leaves without simulating: empty counters, with the parts this machine
      // and workload would report (a detailed DRAM, a trace's players).
      SimulationResult nothing;
      if (config.hardware.hbm.dram) nothing.dram.emplace();
      if (runs_on(config.workload) == Runner::trace_players) nothing.trace.emplace();
      for_each_leaf(report_json(config, simulated ? &nothing : nullptr),
                    [&](const std::string& path, const Json&) {
                      if (path.rfind("config.", 0) != 0) names.insert(path);
                    });
    }
  }
  if (!any) return {};  // no base reads alone: nothing to check names against
  return names;
}

void SweepEvaluator::decode(std::uint64_t point) {
  if (decoded_ && point == decoded_point_ + 1 && point < spec_.points) {
    // The next point: count up like an odometer, last axis fastest (no divisions).
    for (std::size_t a = indices_.size(); a-- > 0;) {
      if (++indices_[a] < spec_.axes[a].size()) break;
      indices_[a] = 0;
    }
  } else {
    spec_.decode(point, indices_);
  }
  decoded_ = true;
  decoded_point_ = point;
  hardware_base_ = hardware_file_key_ ? indices_[key_axis_[*hardware_file_key_]] : 0;
  workload_base_ = workload_file_key_ ? indices_[key_axis_[*workload_file_key_]] : 0;
}

std::vector<PlacedValue> SweepEvaluator::placed_values(bool hardware_root) const {
  std::vector<PlacedValue> placed = spec_.fixed;
  for (std::size_t k : hardware_root ? hardware_keys_ : workload_keys_) {
    const AxisValue& value = keys_[k]->values[indices_[key_axis_[k]]];
    placed.push_back(PlacedValue{keys_[k]->key_path, value.node, value.where});
  }
  return placed;
}

template <class Params>
bool SweepEvaluator::resolve(Params& out) {
  constexpr bool kHardware = std::is_same_v<Params, HardwareParams>;
  const std::size_t b = kHardware ? hardware_base_ : workload_base_;
  const Base& base = kHardware ? hardware_bases_[b] : workload_bases_[b];
  const std::vector<std::size_t>& keys = kHardware ? hardware_keys_ : workload_keys_;
  if ((kHardware ? hardware_fast_ : workload_fast_)[b]) {
    if constexpr (kHardware) {
      out = *base.hardware;
    } else {
      out = *base.workload;
    }
    for (std::size_t k : keys) {
      const KeyPlan::Entry& entry = plans_[k].values[b][indices_[key_axis_[k]]];
      if (!entry.error.empty()) {
        failure_ = entry.error;
        return false;
      }
      if constexpr (kHardware) {
        plans_[k].setter->hardware(out, *entry.hardware);
      } else {
        plans_[k].setter->workload(out, *entry.workload);
      }
    }
    return true;
  }
  // The slow way: the whole document, unless it is the one read last time.
  std::unique_ptr<Resolved>& last = kHardware ? last_hardware_ : last_workload_;
  std::vector<std::uint32_t> values;
  for (std::size_t k : keys) values.push_back(indices_[key_axis_[k]]);
  if (!last || last->base != b || last->indices != values) {
    auto resolved = std::make_unique<Resolved>();
    resolved->base = b;
    resolved->indices = values;
    ++slow_documents_;
    try {
      const ConfigNode document = load_document_text(
          base.file, base.text, kHardware ? "hardware" : "workload", {}, placed_values(kHardware));
      if constexpr (kHardware) {
        resolved->hardware = parse_hardware(document);
      } else {
        resolved->workload = parse_workload_fields(document);
      }
      note_warnings(document.warnings());
    } catch (const ConfigError& error) {
      resolved->error = error.what();
    }
    last = std::move(resolved);
  }
  if (!last->error.empty()) {
    failure_ = last->error;
    return false;
  }
  if constexpr (kHardware) {
    out = last->hardware;
  } else {
    out = last->workload;
  }
  return true;
}

// The message load_config would give, at the swept value's line when a swept value holds the
// key, else at the base file's.
std::string SweepEvaluator::located(const Violation& violation) const {
  const bool hardware_root = violation.key_path.rfind("hardware", 0) == 0;
  // Where it is reported depends on which value holds the key: the same violation there reads
  // the same, so it is composed once (building a ConfigNode costs microseconds).
  std::optional<std::size_t> holder;
  for (std::size_t k : hardware_root ? hardware_keys_ : workload_keys_) {
    if (at_or_below(violation.key_path, keys_[k]->key_path)) holder = k;
  }
  std::string memo_key = holder
                             ? fmt::format("{}:{}", *holder, indices_[key_axis_[*holder]])
                             : fmt::format("{}", hardware_root ? hardware_base_ : workload_base_);
  memo_key +=
      fmt::format("|{}|{}|{}|{}", hardware_root, violation.key_path, violation.rule, violation.fix);
  if (auto it = located_.find(memo_key); it != located_.end()) return it->second;
  if (located_.size() > 65536) located_.clear();
  return located_[memo_key] = compose_located(violation, hardware_root, holder);
}

std::string SweepEvaluator::compose_located(const Violation& violation, bool hardware_root,
                                            std::optional<std::size_t> holder) const {
  if (holder) {
    const SweptKey& key = *keys_[*holder];
    const AxisValue& value = key.values[indices_[key_axis_[*holder]]];
    // Down to the key inside the value, with fresh handles (assigning to a yaml-cpp handle
    // would write into the sweep file's tree) and const look-ups (which add no keys).
    std::vector<YAML::Node> chain{value.node};
    std::string rest = violation.key_path.substr(key.key_path.size());
    while (!rest.empty()) {
      rest.erase(0, 1);  // the dot
      const auto dot = rest.find('.');
      const std::string part = rest.substr(0, dot);
      rest = dot == std::string::npos ? std::string() : rest.substr(dot);
      const YAML::Node& parent = chain.back();
      if (!parent.IsMap() || !parent[part].IsDefined()) break;
      chain.push_back(parent[part]);
    }
    auto document = std::make_shared<ConfigDocument>();
    document->path = spec_.path;
    document->placed[key.key_path] = value.where;
    return ConfigNode(chain.back(), violation.key_path, document)
        .error(violation.rule, violation.fix)
        .what();
  }
  // Not swept: where the base document (with the `set:` values) has it.
  const Base& base =
      hardware_root ? hardware_bases_[hardware_base_] : workload_bases_[workload_base_];
  if (base.tree)
    return base.tree->find(violation.key_path).error(violation.rule, violation.fix).what();
  return ConfigError(SourceLocation{base.file, 0, 0}, violation.key_path, "", violation.rule,
                     violation.fix)
      .what();
}

void SweepEvaluator::add_inputs(Row& row) {
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    row.add(axis_columns_[k]).assign(keys_[k]->values[indices_[key_axis_[k]]].cell);
  }
}

void SweepEvaluator::set_status(Row& row, PointStatus status, std::string_view reason) {
  row.find(head_.status)->set_text(name_of(status));
  Cell* cell = row.find(head_.reason);
  if (reason.empty()) {
    cell->kind = Cell::Kind::empty;
  } else {
    cell->set_text(reason);
  }
}

void SweepEvaluator::add_head(std::uint64_t point, PointStatus status, std::string_view reason,
                              Row& row) {
  decode(point);
  row.clear();
  row.add(head_.point).set_integer(point);
  row.add(head_.status);
  row.add(head_.reason);
  set_status(row, status, reason);
  add_inputs(row);
}

void SweepEvaluator::add_report_cells(Row& row) {
  const std::size_t shape = config_.workload.index();
  if (shape >= shape_checked_.size()) {
    shape_checked_.resize(shape + 1, 0);
    shape_from_json_.resize(shape + 1, 0);
  }
  if (!shape_checked_[shape]) {
    // The typed cells must be the report's leaves exactly; if the report has grown a field the
    // typed path lacks, take the report's way for this shape (slower, still complete).
    Row typed, from_json;
    add_analytical_cells(config_, columns_, shapes_, typed);
    add_report_json_cells(report_json(config_, nullptr), columns_, from_json);
    bool same = typed.size() == from_json.size();
    for (std::size_t i = 0; same && i < typed.size(); ++i) {
      same = typed.column(i) == from_json.column(i) && typed.cell(i) == from_json.cell(i);
    }
    if (!same) {
      std::cerr << "ridgeline: note: the sweep's fast row writer lacks some report fields; rows "
                   "of this workload kind are written from the full report (slower)\n";
    }
    shape_checked_[shape] = 1;
    shape_from_json_[shape] = !same;
  }
  if (shape_from_json_[shape]) {
    add_report_json_cells(report_json(config_, nullptr), columns_, row);
  } else {
    add_analytical_cells(config_, columns_, shapes_, row);
  }
}

std::optional<PointStatus> SweepEvaluator::check_constraints(Row& row) {
  auto fail = [&](const std::string& reason) {
    set_status(row, PointStatus::failed, reason);
    return PointStatus::failed;
  };
  for (const Expression& constraint : constraints_) {
    const Expression::Result result = constraint.evaluate(row);
    if (result.kind == Expression::Kind::boolean && result.number != 0) continue;
    if (result.kind == Expression::Kind::boolean) {
      std::string values;
      for (ColumnId id : constraint.columns()) {
        const Cell* cell = row.find(id);
        if (cell == nullptr) continue;
        const std::string text = cell->kind == Cell::Kind::integer ? std::to_string(cell->integer)
                                 : cell->kind == Cell::Kind::real  ? format_real(cell->real)
                                                                   : cell->text;
        values += fmt::format("{}{} = {}", values.empty() ? "" : ", ", columns_.name(id), text);
      }
      set_status(row, PointStatus::skipped,
                 fmt::format("constraint '{}' is false ({})", constraint.text(), values));
      return PointStatus::skipped;
    }
    return fail(fmt::format("constraint '{}' cannot be decided: {}", constraint.text(),
                            result.missing ? fmt::format("{} has no value for this point",
                                                         columns_.name(*result.missing))
                            : result.kind == Expression::Kind::none ? result.text
                                                                    : "it is not a comparison"));
  }
  return std::nullopt;
}

PointStatus SweepEvaluator::evaluate(std::uint64_t point, Row& row) {
  evaluated_.reset();
  add_head(point, PointStatus::ok, {}, row);
  auto fail = [&](const std::string& reason) {
    set_status(row, PointStatus::failed, reason);
    return PointStatus::failed;
  };
  if (!resolve(config_.hardware)) return fail(failure_);
  if (workload_bases_[workload_base_].graph) {
    // A graph's point: its documents read whole by the graph reader, its row the graph's
    // figures (each kernel's are in the point's report, not in the row).
    try {
      const auto [hardware, workload] = documents(point);
      const GraphConfig graph =
          load_graph_config(ConfigInput{hardware_bases_[hardware_base_].file, hardware},
                            ConfigInput{workload_bases_[workload_base_].file, workload}, {});
      add_report_json_cells(without_kernel_lists(graph_report_json(graph, nullptr)), columns_, row);
    } catch (const ConfigError& error) {
      return fail(error.what());
    }
    if (auto skipped = check_constraints(row)) return *skipped;
    evaluated_ = point;
    return PointStatus::ok;
  }
  if (!resolve(config_.workload)) return fail(failure_);
  if (auto violation = check_rules(config_.workload)) return fail(located(*violation));
  // The files a workload names (a trace's loads and stores are counted, its addresses checked
  // against this machine) are read every point, since the machine may change (slow, but as `run`
  // does it).
  try {
    check_workload_inputs([&] { return workload_document(); }, config_.workload, config_.hardware);
  } catch (const ConfigError& error) {
    return fail(error.what());
  }
  if (auto violation = check_data_type(config_.hardware, config_.workload))
    return fail(located(*violation));
  config_.analysis = analyze_on(config_.hardware, config_.workload);
  config_.power_limit.reset();
  if (auto violation = apply_power_limit(config_)) return fail(located(*violation));
  config_.occupancy = occupancy_on(config_.hardware, config_.analysis.footprint);
  add_report_cells(row);
  if (auto skipped = check_constraints(row)) return *skipped;
  const Footprint& footprint = config_.analysis.footprint;
  if (auto violation = check_threads(config_.hardware, config_.workload, footprint))
    return fail(located(*violation));
  if (auto violation = check_fits(config_.hardware, config_.workload, footprint))
    return fail(located(*violation));
  evaluated_ = point;
  return PointStatus::ok;
}

ConfigNode SweepEvaluator::workload_document() const {
  const Base& base = workload_bases_[workload_base_];
  return load_document_text(base.file, base.text, "workload", {}, placed_values(false));
}

std::pair<std::string, std::string> SweepEvaluator::documents(std::uint64_t point) {
  decode(point);
  const Base& hardware = hardware_bases_[hardware_base_];
  const Base& workload = workload_bases_[workload_base_];
  std::vector<PlacedValue> workload_values = placed_values(false);
  if (workload.graph) {
    // An ONNX model's file, from wherever the child runs.
    const ConfigNode document =
        load_document_text(workload.file, workload.text, "workload", {}, workload_values);
    const std::optional<ConfigNode> kind = document.optional("kind");
    const std::optional<ConfigNode> path = document.optional("path");
    if (kind && kind->text() == "onnx" && path) {
      workload_values.push_back(PlacedValue{"workload.path", YAML::Node(resolve_path(*path)),
                                            SourceLocation{workload.file, 0, 0}});
    }
  } else {
    // The point's workload: the one just evaluated, or read now.
    const WorkloadSpec spec =
        evaluated_ && *evaluated_ == point
            ? config_.workload
            : parse_workload_fields(load_document_text(workload.file, workload.text, "workload", {},
                                                       workload_values));
    // The files as this point found them, from wherever the child runs.
    for (const WorkloadInputFile& file : workload_input_files(spec)) {
      workload_values.push_back(PlacedValue{file.key_path, YAML::Node(file.absolute_path),
                                            SourceLocation{workload.file, 0, 0}});
    }
  }
  // From the parsed files (cloned: placing values changes the tree), not their text: the
  // points' values were all read already, so nothing is left to report where.
  // A point's hardware leaves out the stated figures its values change the machine away from,
  // which the point was not checked against (check_stated_figures).
  const auto emit = [](const Base& base, const char* root, const std::vector<PlacedValue>& values) {
    const ConfigNode document =
        base.parsed ? load_document_tree(base.file, YAML::Clone(base.parsed), root, {}, values)
                    : load_document_text(base.file, base.text, root, {}, values);
    if (std::string_view(root) == "hardware") remove_unchecked_stated_figures(document);
    return emit_document(document);
  };
  return {emit(hardware, "hardware", placed_values(true)),
          emit(workload, "workload", workload_values)};
}

}  // namespace ridgeline
