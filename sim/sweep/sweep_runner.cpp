#include "sim/sweep/sweep_runner.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "sim/graph/graph_report.hpp"
#include "sim/sweep/report_cells.hpp"
#include "sim/sweep/sweep_evaluator.hpp"
#include "sim/sweep/sweep_progress.hpp"
#include "sim/sweep/sweep_results.hpp"
#include "sim/sweep/sweep_summary.hpp"
#include "sim/util/child_process.hpp"
#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

// The objectives and Pareto pair as used (the file's, or the defaults), their names checked
// against the columns rows will have.
void resolve_objectives(const SweepSpec& spec, bool analytical, const SweepEvaluator& evaluator,
                        ColumnTable& columns, std::vector<Objective>& objectives,
                        std::vector<std::string>& pareto) {
  objectives.clear();
  std::vector<std::string> left_out;  // need simulated figures, in an analytical sweep
  const std::set<std::string> known = evaluator.known_columns(!analytical);
  const std::set<std::string> simulated =
      analytical ? evaluator.known_columns(true) : std::set<std::string>();
  for (const Objective& objective :
       spec.objectives.empty() ? default_objectives(analytical) : spec.objectives) {
    if (!objective.node) {  // the defaults
      objectives.push_back(objective);
      continue;
    }
    Expression expression;
    try {
      expression = Expression(objective.expression, columns);
    } catch (const ExpressionError& error) {
      objective.node->fail(fmt::format("at character {}: {}", error.offset() + 1, error.what()));
    }
    bool keep = true;
    for (ColumnId id : expression.columns()) {
      const std::string& name = columns.name(id);
      if (known.empty() || known.count(name)) continue;
      if (simulated.count(name)) {
        keep = false;
        continue;
      }
      std::string fix = "names are result columns, e.g. analytical.t_ideal_s";
      if (auto near = did_you_mean(name, {known.begin(), known.end()})) {
        fix = "did you mean '" + *near + "'?";
      }
      objective.node->fail(fmt::format("unknown column '{}'", name), fix);
    }
    if (keep) {
      objectives.push_back(objective);
    } else {
      left_out.push_back(objective.name);
    }
  }
  for (const auto& name : left_out) {
    std::cerr << "ridgeline: note: objective '" << name
              << "' needs simulated figures: left out of this analytical sweep's summary\n";
  }

  pareto = spec.pareto;
  if (!spec.pareto_node && objectives.size() >= 2)
    pareto = {objectives[0].name, objectives[1].name};
  for (const auto& name : pareto) {
    if (std::find(left_out.begin(), left_out.end(), name) != left_out.end()) {
      pareto.clear();  // noted above
      break;
    }
    const bool found = std::any_of(objectives.begin(), objectives.end(),
                                   [&](const Objective& o) { return o.name == name; });
    if (found) continue;
    std::string names;
    for (const Objective& o : objectives) names += (names.empty() ? "" : ", ") + o.name;
    spec.pareto_node->fail(fmt::format("no objective is named '{}'", name),
                           "objectives here: " + names);
  }
}

std::uint64_t points_in_shard(std::uint64_t points, const Shard& shard) {
  return points > shard.index ? (points - shard.index - 1) / shard.count + 1 : 0;
}

std::optional<std::string> read_file_if_there(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string status_of(const Row& row, const RowHead& head) {
  const Cell* cell = row.find(head.status);
  return cell ? cell->text : std::string();
}

std::string reason_of(const Row& row, const RowHead& head) {
  const Cell* cell = row.find(head.reason);
  return cell && cell->kind == Cell::Kind::text ? cell->text : std::string();
}

void finish(const SweepSummary& summary, const std::string& directory) {
  write_file_atomically(directory + "/summary.json", summary.json().dump(2) + "\n");
  std::cout << summary.text() << std::flush;
}

// Simulated points: each as `ridgeline run` on its resolved documents, in a process of its own.
void run_simulated(const SweepOptions& options, const Shard& shard, std::uint64_t total,
                   std::uint64_t resumed, SweepEvaluator& evaluator, ColumnTable& columns,
                   ResultsDirectory& results, SweepSummary& summary, SweepProgress& progress) {
  const RowHead& head = evaluator.head();
  // The children's stderr, in DIR: what a killed sweep leaves there is cleared by the next run.
  const std::string scratch = results.directory() + "/.running";
  std::filesystem::remove_all(scratch);
  std::filesystem::create_directories(scratch);
  ChildPool pool(self_executable(), options.jobs, options.point_timeout_s, scratch);
  std::map<std::uint64_t, Row> ready;  // finished, waiting for the points before them
  std::uint64_t next_write = resumed;
  std::uint64_t next_start = resumed;
  std::optional<std::uint64_t> prepared;  // the next point to run, its folder written
  auto point_of = [&](std::uint64_t k) { return shard.index + k * shard.count; };
  auto write_ready = [&]() {
    for (auto it = ready.find(next_write); it != ready.end(); it = ready.find(next_write)) {
      results.append(it->second);
      summary.add(it->second);
      ready.erase(it);
      ++next_write;
    }
  };
  auto keep = [&](std::uint64_t k, Row row) {
    progress.finished(point_of(k), status_of(row, head), reason_of(row, head), pool.running());
    ready.emplace(k, std::move(row));
  };
  // A simulated point's row: its report's leaves, or, when the simulation failed, the model's
  // figures with what happened.
  auto simulated_row = [&](std::uint64_t point, const ChildResult* failed, Row& row) {
    const std::string directory = results.point_directory(point);
    if (failed == nullptr) {
      const auto text = read_file_if_there(directory + "/report.json");
      const Json report = text ? Json::parse(*text, nullptr, false) : Json();
      if (report.is_object()) {
        evaluator.add_head(point, PointStatus::ok, {}, row);
        add_report_json_cells(without_kernel_lists(report), columns, row);
        return;
      }
    }
    evaluator.evaluate(point, row);
    evaluator.set_status(row, PointStatus::failed,
                         failed ? failed->failure() : "the simulation's report could not be read");
    // A failure leaves no report: its row is what records it, until its turn comes.
    std::string line;
    append_json_line(row, columns, line);
    write_file_atomically(directory + "/row.json", line);
  };
  // Readies the next point that runs, recording the ones that do not (skipped, failed a rule,
  // finished before a kill: a report, or a failure's row.json, is there).
  auto prepare = [&]() {
    while (!prepared && next_start < total) {
      const std::uint64_t k = next_start++;
      const std::uint64_t point = point_of(k);
      const std::string directory = results.point_directory(point);
      Row row;
      if (auto line = read_file_if_there(directory + "/row.json")) {
        if (!line->empty() && line->back() == '\n') line->pop_back();
        if (parse_json_line(*line, columns, row)) {
          progress.recovered(status_of(row, head));
          ready.emplace(k, std::move(row));
          continue;
        }
      }
      if (std::filesystem::exists(directory + "/report.json")) {
        simulated_row(point, nullptr, row);
        progress.recovered(status_of(row, head));
        ready.emplace(k, std::move(row));
        continue;
      }
      if (evaluator.evaluate(point, row) != PointStatus::ok) {
        keep(k, std::move(row));
        continue;
      }
      try {
        const auto [hardware, workload] = evaluator.documents(point);
        std::filesystem::create_directories(directory);
        // Plain writes: a kill before the point ends runs it again, writing them again.
        std::ofstream(directory + "/hardware.yaml", std::ios::binary | std::ios::trunc) << hardware;
        std::ofstream(directory + "/workload.yaml", std::ios::binary | std::ios::trunc) << workload;
      } catch (const ConfigError& error) {
        evaluator.set_status(row, PointStatus::failed, error.what());
        keep(k, std::move(row));
        continue;
      }
      prepared = k;
    }
  };
  auto start_prepared = [&]() {
    while (prepared && pool.has_room()) {
      // Run in the point's folder, so that its report names its files wherever DIR goes.
      pool.start(*prepared,
                 {"run", "hardware.yaml", "workload.yaml", "--quiet", "--json", "report.json"},
                 results.point_directory(point_of(*prepared)));
      prepared.reset();
      prepare();
    }
  };

  prepare();
  while (next_write < total) {
    start_prepared();
    write_ready();
    if (pool.running() == 0) continue;
    auto [k, result] = pool.wait();
    start_prepared();  // the freed slot works while this one's report is read
    Row row;
    simulated_row(point_of(k), result.ok() ? nullptr : &result, row);
    keep(k, std::move(row));
    write_ready();
  }
  std::filesystem::remove_all(scratch);
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  const SweepSpec spec = load_sweep(options.sweep_path);
  if (options.report.any()) {  // a misspelt axis is told now, not after the sweep
    std::vector<std::string> axes;
    for (const SweptKey* key : spec.swept_keys()) axes.push_back(key->key_path);
    check_report_axes(options.report, axes);
  }
  const Shard shard = options.shard.value_or(Shard{});
  ColumnTable columns;
  SweepEvaluator evaluator(spec, columns);
  // The configuration's warnings once each, not once a point: those of the base files and of
  // every axis value now, any that only a point read whole finds at the end.
  std::cerr << warning_lines(evaluator.warnings()) << std::flush;
  const std::size_t warned = evaluator.warnings().size();
  std::vector<Objective> objectives;
  std::vector<std::string> pareto;
  resolve_objectives(spec, options.analytical, evaluator, columns, objectives, pareto);
  SweepSummary summary(objectives, pareto, columns);

  const SweepManifest manifest{sweep_fingerprint(spec),
                               options.analytical,
                               spec.points,
                               shard,
                               spec.path,
                               objectives,
                               pareto};
  const std::uint64_t total = points_in_shard(spec.points, shard);
  SweepProgress progress(std::cerr, isatty(STDERR_FILENO) != 0, total, !options.analytical);
  ResultsDirectory results(options.out_directory, columns, options.analytical);
  const RowHead& head = evaluator.head();
  std::function<void(const Row&)> visit;
  if (!options.analytical) {
    visit = [&](const Row& row) {
      summary.add(row);
      progress.recovered(status_of(row, head));
    };
  }
  const std::uint64_t resumed = results.open(manifest, spec.text, visit);
  std::cerr << fmt::format(
      "sweep {}: {} points{}, {} to do here ({} {}), results in {}\n", spec.path, spec.points,
      shard.count > 1 ? ", shard " + shard.to_string() : std::string(), total - resumed,
      options.analytical ? "analytical" : "simulated",
      options.analytical ? "in this process" : fmt::format("{} at a time", options.jobs),
      options.out_directory);

  Row row;
  if (options.analytical) {
    // Points done before count in the summary: evaluating them again is cheaper than reading.
    for (std::uint64_t k = 0; k < resumed; ++k) {
      const PointStatus status = evaluator.evaluate(shard.index + k * shard.count, row);
      summary.add(row);
      progress.recovered(name_of(status));
    }
    for (std::uint64_t k = resumed; k < total; ++k) {
      const std::uint64_t point = shard.index + k * shard.count;
      const PointStatus status = evaluator.evaluate(point, row);
      results.append(row);
      summary.add(row);
      progress.finished(point, name_of(status), {}, 0);
    }
  } else {
    run_simulated(options, shard, total, resumed, evaluator, columns, results, summary, progress);
  }
  results.flush();
  progress.done();
  std::cerr << warning_lines({evaluator.warnings().begin() + static_cast<std::ptrdiff_t>(warned),
                              evaluator.warnings().end()})
            << std::flush;
  finish(summary, options.out_directory);
  write_sweep_report(options.out_directory, options.report);
  return 0;
}

// ---------------------------------------------------------------- merge

namespace {

// The complete lines of one shard's results, read one at a time.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : file_(path, std::ios::binary) { advance(); }
  bool done() const { return done_; }
  const std::string& line() const { return line_; }
  std::int64_t point() const { return point_; }
  void advance() {
    // A last line without its newline was cut short: it is no result.
    if (!std::getline(file_, line_) || file_.eof()) {
      done_ = true;
      return;
    }
    point_ = point_of_line(line_);
  }

 private:
  std::ifstream file_;
  std::string line_;
  std::int64_t point_ = -1;
  bool done_ = false;
};

// Walks the shards' rows in point order; `write` (when given) gets each point's line once.
void merge_pass(const std::vector<std::string>& directories, std::uint64_t points,
                const std::function<void(const std::string&)>& write) {
  std::vector<std::unique_ptr<LineReader>> readers;
  for (const auto& directory : directories) {
    readers.push_back(std::make_unique<LineReader>(directory + "/results.jsonl"));
  }
  std::uint64_t expected = 0;
  std::uint64_t missing = 0;
  std::optional<std::uint64_t> first_missing;
  for (;;) {
    std::int64_t lowest = -1;
    std::size_t from = 0;
    for (std::size_t i = 0; i < readers.size(); ++i) {
      if (readers[i]->done()) continue;
      if (readers[i]->point() < 0) {
        throw ConfigError(SourceLocation{directories[i] + "/results.jsonl", 0, 0}, "", "",
                          "holds a line that is not a result row", "it is written by a sweep");
      }
      if (lowest < 0 || readers[i]->point() < lowest) {
        lowest = readers[i]->point();
        from = i;
      }
    }
    if (lowest < 0) break;
    const auto point = static_cast<std::uint64_t>(lowest);
    if (point < expected) {
      throw ConfigError(SourceLocation{directories[from] + "/results.jsonl", 0, 0}, "", "",
                        fmt::format("point {} is out of order", point), "it was changed by hand");
    }
    if (point > expected) {
      missing += point - expected;
      if (!first_missing) first_missing = expected;
    }
    const std::string line = readers[from]->line();
    for (std::size_t i = 0; i < readers.size(); ++i) {
      if (readers[i]->done() || readers[i]->point() != lowest) continue;
      if (readers[i]->line() != line) {
        throw ConfigError(
            SourceLocation{directories[i], 0, 0}, "", "",
            fmt::format("point {} differs from its row in {}", point, directories[from]),
            "merge results of one sweep, run with the same files");
      }
      readers[i]->advance();
    }
    if (write) write(line);
    expected = point + 1;
  }
  if (expected < points) {
    missing += points - expected;
    if (!first_missing) first_missing = expected;
  }
  if (missing > 0) {
    throw ConfigError(SourceLocation{directories.front(), 0, 0}, "", "",
                      fmt::format("{} of the sweep's {} points have no result (the first is "
                                  "point {})",
                                  missing, points, *first_missing),
                      "merge every shard's directory, each run to its end");
  }
}

}  // namespace

int run_sweep_merge(const MergeOptions& options) {
  std::vector<SweepManifest> manifests;
  for (const auto& directory : options.directories) manifests.push_back(read_manifest(directory));
  const SweepManifest& first = manifests.front();
  for (std::size_t i = 1; i < manifests.size(); ++i) {
    const SweepManifest& m = manifests[i];
    if (m.fingerprint != first.fingerprint || m.analytical != first.analytical ||
        m.points != first.points) {
      throw ConfigError(SourceLocation{options.directories[i], 0, 0}, "", "",
                        fmt::format("holds another sweep than {} (or the same run with other "
                                    "files or mode)",
                                    options.directories.front()),
                        "merge the shards of one sweep");
    }
  }
  merge_pass(options.directories, first.points, {});  // complete and consistent, or nothing

  ColumnTable columns;
  SweepSummary summary(first.objectives, first.pareto, columns);
  SweepManifest merged = first;
  merged.shard = Shard{};
  ResultsDirectory out(options.out_directory, columns, /*batched=*/true);
  const auto sweep_text = read_file_if_there(options.directories.front() + "/sweep.yaml");
  if (out.open(merged, sweep_text.value_or("")) != 0) {
    throw ConfigError(SourceLocation{options.out_directory, 0, 0}, "", "",
                      "already holds merged results", "give an empty or new --out");
  }
  Row row;
  merge_pass(options.directories, first.points, [&](const std::string& line) {
    parse_json_line(line, columns, row);
    out.append(row);
    summary.add(row);
  });
  out.flush();
  // The simulated points' files, beside the merged results.
  for (const auto& directory : options.directories) {
    const std::filesystem::path points = std::filesystem::path(directory) / "points";
    if (!std::filesystem::is_directory(points)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(points)) {
      const auto target =
          std::filesystem::path(options.out_directory) / "points" / entry.path().filename();
      if (std::filesystem::exists(target)) continue;
      std::filesystem::create_directories(target.parent_path());
      std::filesystem::copy(entry.path(), target, std::filesystem::copy_options::recursive);
    }
  }
  std::cerr << fmt::format("sweep-merge: {} points from {} directories into {}\n", first.points,
                           options.directories.size(), options.out_directory);
  finish(summary, options.out_directory);
  return 0;
}

}  // namespace ridgeline
