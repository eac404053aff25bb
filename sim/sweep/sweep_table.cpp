#include "sim/sweep/sweep_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "sim/charts/chart_scale.hpp"
#include "sim/config/config_node.hpp"
#include "sim/sweep/sweep_expression.hpp"
#include "sim/sweep/sweep_summary.hpp"
#include "sim/util/config_error.hpp"

namespace ridgeline {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
// The levels whose slopes are the machine's: HBM and each shared level's port, whatever the
// chain holds, from the columns analytical.levels.<name>.bandwidth_bytes_per_s in the report's
// order. Not SRAM's: its bandwidth depends on the kernel's mix of reads and writes, and the
// sweep's points sit at I at HBM. Returns the level's name, or empty for any other column.
std::string machine_level_of(const std::string& column) {
  constexpr std::string_view prefix = "analytical.levels.";
  constexpr std::string_view suffix = ".bandwidth_bytes_per_s";
  if (column.size() <= prefix.size() + suffix.size() || column.rfind(prefix, 0) != 0 ||
      column.compare(column.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return {};
  }
  std::string level = column.substr(prefix.size(), column.size() - prefix.size() - suffix.size());
  return level == "sram" ? std::string() : level;
}

std::string axis_list(const std::vector<std::string>& axes) {
  std::string list;
  for (const auto& a : axes) list += (list.empty() ? "" : ", ") + a;
  return list.empty() ? "none" : list;
}

// A file axis's value as a chart label: the file's name without its folder and extension.
std::string file_label(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

}  // namespace

std::string check_axis_name(const std::string& name, const std::vector<std::string>& axes,
                            const std::string& option) {
  const std::string bare = name.rfind("axis.", 0) == 0 ? name.substr(5) : name;
  if (std::find(axes.begin(), axes.end(), bare) != axes.end()) return bare;
  std::string fix;
  // A key named by its last part ("stages" for workload.stages) is meant, if only one ends so.
  std::vector<std::string> ending;
  for (const auto& a : axes) {
    if (a.size() > bare.size() && a.compare(a.size() - bare.size(), bare.size(), bare) == 0 &&
        a[a.size() - bare.size() - 1] == '.')
      ending.push_back(a);
  }
  if (ending.size() == 1) {
    fix = "did you mean '" + ending.front() + "'? ";
  } else if (auto near = did_you_mean(bare, axes)) {
    fix = "did you mean '" + *near + "'? ";
  }
  fix += "the sweep's axes: " + axis_list(axes);
  throw ConfigError(SourceLocation{option}, "", name, "not an axis of the sweep", fix);
}

std::size_t SweepTable::axis_index(const std::string& name, const std::string& option) const {
  std::vector<std::string> names;
  for (const SweepAxis& a : axes_) names.push_back(a.name);
  const std::string bare = check_axis_name(name, names, option);
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), bare) - names.begin());
}

std::string SweepTable::inputs(std::size_t i) const {
  std::string text;
  for (std::size_t a = 0; a < axes_.size(); ++a) {
    const std::uint32_t v = value(i, a);
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", axes_[a].name,
                        v < axes_[a].values.size() ? axes_[a].values[v].text : "");
  }
  return text;
}

SweepTable SweepTable::read(const std::string& directory) {
  SweepTable t;
  t.directory_ = directory;
  t.manifest_ = read_manifest(directory);
  const std::string jsonl = directory + "/results.jsonl";
  if (!std::filesystem::exists(jsonl)) {
    throw ConfigError(SourceLocation{directory}, "", "", "holds no results.jsonl",
                      "give a directory written by 'ridgeline sweep --out' or 'sweep-merge'");
  }

  const bool simulated = !t.manifest_.analytical;
  t.figures_[0] =
      simulated ? SweepFigure{"time", "simulated.time_s", "s", "simulated time", false}
                : SweepFigure{"time", "analytical.t_ideal_s", "s", "T_ideal (analytical)", false};
  t.figures_[1] = simulated ? SweepFigure{"FLOP/s", "simulated.achieved_flop_per_s", "FLOP/s",
                                          "achieved FLOP/s (simulated)", true}
                            : SweepFigure{"FLOP/s", "analytical.roof_flop_per_s", "FLOP/s",
                                          "roof FLOP/s (analytical)", true};

  ColumnTable columns;
  std::optional<SweepSummary> summary;
  std::vector<Expression> pareto;
  try {
    summary.emplace(t.manifest_.objectives, t.manifest_.pareto, columns);
    for (const std::string& name : t.manifest_.pareto) {
      for (const Objective& o : t.manifest_.objectives) {
        if (o.name != name) continue;
        t.pareto_objectives_.push_back(o);
        pareto.emplace_back(o.expression, columns);
      }
    }
  } catch (const ExpressionError& error) {
    throw ConfigError(SourceLocation{directory + "/sweep.json"}, "objectives", "", error.what(),
                      "the file was changed by hand: run the sweep again");
  }
  if (pareto.size() != 2) {
    t.pareto_objectives_.clear();
    pareto.clear();
  }

  const ColumnId point_id = columns.intern("point");
  const ColumnId status_id = columns.intern("status");
  const ColumnId reason_id = columns.intern("reason");
  const ColumnId figure_id[2] = {columns.intern(t.figures_[0].column),
                                 columns.intern(t.figures_[1].column)};
  const ColumnId a_intensity = columns.intern("analytical.intensity_flop_per_byte");
  const ColumnId a_flop = columns.intern("analytical.roof_flop_per_s");
  const ColumnId s_intensity = columns.intern("simulated.intensity_flop_per_byte");
  const ColumnId s_flop = columns.intern("simulated.achieved_flop_per_s");
  const ColumnId name_id = columns.intern("hardware.name");
  const ColumnId dtype_id = columns.intern("workload.dtype");
  const ColumnId peak_id = columns.intern("analytical.peak_flop_per_s");
  const ColumnId hbm_id = columns.intern("analytical.hbm_bytes_per_s");

  const auto number = [](const Row& row, ColumnId id) {
    const Cell* cell = row.find(id);
    const auto value = cell ? cell->number() : std::nullopt;
    return value ? *value : kNone;
  };
  const auto text = [](const Row& row, ColumnId id) {
    const Cell* cell = row.find(id);
    return cell ? cell_text(*cell) : std::string();
  };

  std::vector<int> axis_of;  // column id -> axis index, -1 none, -2 not looked at yet
  std::vector<std::optional<std::string>> level_of;  // column id -> machine level; unset: not
                                                     // looked at yet
  std::vector<std::unordered_map<std::string, std::uint32_t>> value_ids;
  std::vector<std::vector<std::uint32_t>> axis_values;  // per axis, per point
  std::unordered_map<std::string, std::uint32_t> reason_ids;
  std::map<std::string, std::uint32_t> machine_ids;
  Row row;
  for_each_line(jsonl, [&](std::string_view line) {
    if (!parse_json_line(line, columns, row)) return;
    const Cell* point_cell = row.find(point_id);
    const Cell* status_cell = row.find(status_id);
    if (point_cell == nullptr || status_cell == nullptr) return;
    summary->add(row);
    const std::size_t index = t.points_.size();
    SweepPoint p;
    p.point = point_cell->integer;
    const std::string& status = status_cell->text;
    p.status = status == "ok"       ? SweepPointStatus::ok
               : status == "failed" ? SweepPointStatus::failed
                                    : SweepPointStatus::skipped;

    // The swept values: axis columns in the order rows give them.
    axis_of.resize(columns.size(), -2);
    for (std::size_t c = 0; c < row.size(); ++c) {
      const ColumnId id = row.column(c);
      if (axis_of[id] == -2) {
        const std::string& name = columns.name(id);
        axis_of[id] = -1;
        if (name.rfind("axis.", 0) == 0) {
          axis_of[id] = static_cast<int>(t.axes_.size());
          t.axes_.push_back(SweepAxis{name.substr(5), {}, false, false});
          value_ids.emplace_back();
          axis_values.emplace_back(index, kNoValue);  // points before had none
        }
      }
      if (axis_of[id] < 0) continue;
      const auto a = static_cast<std::size_t>(axis_of[id]);
      const Cell& cell = row.cell(c);
      const std::string value_text = cell_text(cell);
      const auto [it, added] = value_ids[a].emplace(value_text, t.axes_[a].values.size());
      if (added) {
        const auto n = cell.number();
        t.axes_[a].values.push_back({value_text, value_text, n ? *n : kNone});
      }
      axis_values[a].push_back(it->second);
    }
    for (auto& values : axis_values) {
      if (values.size() == index) values.push_back(kNoValue);
    }

    if (p.status != SweepPointStatus::ok) {
      const Cell* reason = row.find(reason_id);
      const std::string reason_text = reason ? cell_text(*reason) : std::string();
      const auto [it, added] = reason_ids.emplace(reason_text, t.reasons_.size());
      if (added) t.reasons_.push_back(reason_text);
      p.reason = it->second;
      for (double& f : p.figure) f = kNone;
      for (double& f : p.pareto) f = kNone;
      t.points_.push_back(p);
      return;
    }
    for (int f = 0; f < 2; ++f) p.figure[f] = number(row, figure_id[f]);
    for (std::size_t o = 0; o < 2; ++o) {
      p.pareto[o] = kNone;
      if (o >= pareto.size()) continue;
      const Expression::Result r = pareto[o].evaluate(row);
      if (r.kind == Expression::Kind::number && std::isfinite(r.number)) p.pareto[o] = r.number;
    }
    p.analytical_intensity = number(row, a_intensity);
    p.analytical_flop_per_s = number(row, a_flop);
    p.simulated_intensity = number(row, s_intensity);
    p.simulated_flop_per_s = number(row, s_flop);

    SweepMachine m{text(row, name_id), text(row, dtype_id), number(row, peak_id), {}};
    level_of.resize(columns.size());
    for (std::size_t c = 0; c < row.size(); ++c) {
      const ColumnId id = row.column(c);
      if (!level_of[id]) level_of[id] = machine_level_of(columns.name(id));
      if (level_of[id]->empty()) continue;
      const auto bandwidth = row.cell(c).number();
      if (bandwidth && std::isfinite(*bandwidth)) m.levels.emplace_back(*level_of[id], *bandwidth);
    }
    if (m.levels.empty()) m.levels.emplace_back("hbm", number(row, hbm_id));
    std::string key = fmt::format("{}\n{}\n{}", m.name, m.dtype, m.peak_flop_per_s);
    for (const auto& [level, bandwidth] : m.levels) key += fmt::format("\n{}={}", level, bandwidth);
    const auto [it, added] = machine_ids.emplace(key, t.machines_.size());
    if (added) t.machines_.push_back(std::move(m));
    p.machine = it->second;
    t.points_.push_back(p);
  });
  t.axis_values_ = std::move(axis_values);

  for (SweepAxis& axis : t.axes_) {
    std::vector<double> numbers;
    axis.numeric = !axis.values.empty();
    for (const auto& v : axis.values) {
      if (!std::isfinite(v.number)) axis.numeric = false;
      numbers.push_back(v.number);
    }
    axis.log = axis.numeric && fits_log(numbers);
    if (axis.name == "hardware" || axis.name == "workload") {
      for (auto& v : axis.values) v.label = file_label(v.text);
    }
  }

  // A machine whose levels are part of another's with the same peak (a vector add moves no
  // SRAM bytes; a GEMM on the same machine does) is that machine.
  std::vector<std::uint32_t> same_as(t.machines_.size());
  for (std::size_t i = 0; i < t.machines_.size(); ++i) {
    same_as[i] = static_cast<std::uint32_t>(i);
    const SweepMachine& m = t.machines_[i];
    for (std::size_t j = 0; j < t.machines_.size(); ++j) {
      const SweepMachine& n = t.machines_[j];
      if (j == i || n.name != m.name || n.dtype != m.dtype ||
          n.peak_flop_per_s != m.peak_flop_per_s || n.levels.size() <= m.levels.size())
        continue;
      const bool within = std::all_of(m.levels.begin(), m.levels.end(), [&](const auto& level) {
        return std::find(n.levels.begin(), n.levels.end(), level) != n.levels.end();
      });
      if (within) {
        same_as[i] = static_cast<std::uint32_t>(j);
        break;
      }
    }
  }
  std::vector<std::uint32_t> renumber(t.machines_.size());
  std::vector<SweepMachine> kept;
  for (std::size_t i = 0; i < t.machines_.size(); ++i) {
    if (same_as[i] != i) continue;
    renumber[i] = static_cast<std::uint32_t>(kept.size());
    kept.push_back(t.machines_[i]);
  }
  for (SweepPoint& p : t.points_) {
    if (p.status == SweepPointStatus::ok) p.machine = renumber[same_as[p.machine]];
  }
  t.machines_ = std::move(kept);
  // Machines that share a name (a sweep of bandwidths on one preset) are told apart by figures.
  std::map<std::string, int> named;
  for (const SweepMachine& m : t.machines_) ++named[m.name];
  for (SweepMachine& m : t.machines_) {
    if (named[m.name] > 1) {
      m.name += fmt::format(" (P {}FLOP/s, HBM {}B/s)", si(m.peak_flop_per_s),
                            si(m.levels.front().second));
    }
  }
  t.summary_ = summary->json();
  return t;
}

}  // namespace ridgeline
