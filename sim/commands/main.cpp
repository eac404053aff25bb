// The ridgeline command line: analyze, run, study, sweep, sweep-merge, sweep-report, validate.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <thread>

#include "sim/charts/roofline_chart.hpp"
#include "sim/commands/power_limit_runs.hpp"
#include "sim/commands/simulator_library.hpp"
#include "sim/commands/study.hpp"
#include "sim/commands/validate.hpp"
#include "sim/config/config_node.hpp"
#include "sim/config/run_config.hpp"
#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_pictures.hpp"
#include "sim/graph/graph_report.hpp"
#include "sim/graph/graph_run.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/report.hpp"
#include "sim/sweep/sweep_report.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/util/child_process.hpp"
#include "sim/util/config_error.hpp"
#include "sim/util/error_json.hpp"
#include "sim/util/internal_error.hpp"
#include "sim/util/json.hpp"
#include "sim/util/output_file.hpp"
#include "sim/util/version.hpp"
#include "sim/waveforms/busy_profile.hpp"
#include "sim/waveforms/waveform_options.hpp"

namespace {

using namespace ridgeline;

struct RunOptions {
  std::string hardware;
  std::string workload;
  std::vector<std::string> overrides;
  std::string json_path;
  std::string csv_path;
  std::string roofline_path;
  std::string html_path;
  bool quiet = false;
  WaveformOptions traces;
  std::vector<std::string> l2_resident;  ///< run: input tensors in the L2 at the start, read
  std::vector<std::string> l2_written;   ///< run: the same, written and not read since
  std::string busy_profile_path;         ///< run: the units' busy time over the run, as JSON
  unsigned jobs = 1;                     ///< run of a graph: kernels simulated at once
  bool skip_unsupported = false;         ///< an ONNX model: leave out what maps to no kernel
};

// The trace options as typed; read into RunOptions::traces once the command line is parsed.
struct WaveformOptionsText {
  std::string level;
  std::string start;
  std::string end;
  std::string limit;
  std::string rate_window;
};

// -j: CLI11's own range check says "not in range" of text that is no number at all.
const CLI::Validator kJobs(
    [](std::string& text) -> std::string {
      try {
        const std::uint64_t jobs = parse_count(text);
        if (jobs >= 1 && jobs <= 1024) return {};
      } catch (const QuantityError&) {
      }
      return fmt::format("value \"{}\": expected a whole number of processes from 1 to 1024", text);
    },
    "1..1024");

// --point-timeout: a finite number of seconds (NaN passes CLI::PositiveNumber, and a huge
// value overflows the clock the limit is measured on).
const CLI::Validator kPointTimeout(
    [](std::string& text) -> std::string {
      char* end = nullptr;
      const double seconds = std::strtod(text.c_str(), &end);
      if (!text.empty() && end == text.c_str() + text.size() && seconds > 0 && seconds <= 1e6)
        return {};
      return fmt::format("value \"{}\": expected seconds, more than 0 and at most 1000000", text);
    },
    "SECONDS");

void add_trace_arguments(CLI::App& command, WaveformOptions& traces, WaveformOptionsText& text) {
  command.add_option("--vcd", traces.vcd_path,
                     "write a VCD waveform (GTKWave) of the units' activity to this file, and a "
                     "GTKWave save file (.gtkw) beside it");
  command.add_option("--timeline", traces.timeline_path,
                     "write a timeline (Chrome / Perfetto trace event JSON) to this file");
  command.add_option("--trace", traces.patterns,
                     "trace only signals matching this hierarchy glob, e.g. 'top.core0.*' or "
                     "'top.hbm'; repeatable (default: all)");
  // The defaults are WaveformOptions' own, so that the help cannot drift from them.
  const WaveformOptions defaults;
  command.add_option("--trace-level", text.level,
                     fmt::format("detail: busy (1), counters (2: queues, in flight, blocks, "
                                 "stages) or rates (3: bandwidth and FLOP rate) (default: {})",
                                 name_of(defaults.level)));
  command.add_option("--trace-start", text.start,
                     "trace from this simulated time, e.g. 10us (default: the start)");
  command.add_option("--trace-end", text.end, "trace until this simulated time (default: the end)");
  command.add_option("--trace-limit", text.limit,
                     fmt::format("stop a trace file before it passes this size (default: {}MiB)",
                                 defaults.limit_bytes >> 20));
  command.add_option("--trace-rate-window", text.rate_window,
                     "window of the rate signals (default: about T_ideal / 1000)");
}

void read_trace_text(const WaveformOptionsText& text, WaveformOptions& traces) {
  if (!text.level.empty()) traces.level = parse_trace_level("--trace-level", text.level);
  if (!text.start.empty()) traces.start = parse_trace_time("--trace-start", text.start);
  if (!text.end.empty()) traces.end = parse_trace_time("--trace-end", text.end);
  if (!text.limit.empty()) traces.limit_bytes = parse_trace_size("--trace-limit", text.limit);
  if (!text.rate_window.empty()) {
    traces.rate_window = parse_trace_time("--trace-rate-window", text.rate_window);
  }
  const bool selected = !traces.patterns.empty() || !text.level.empty() || !text.start.empty() ||
                        !text.end.empty() || !text.limit.empty() || !text.rate_window.empty();
  if (selected && !traces.any()) {
    throw ConfigError(SourceLocation{"--trace options"}, "", "",
                      "they shape a trace, but no trace is asked for",
                      "add --vcd FILE or --timeline FILE");
  }
  check_trace_options(traces);
}

// The sweep report's options, shared by `sweep --report` and `sweep-report`.
void add_sweep_report_arguments(CLI::App& command, SweepReportOptions& report) {
  command.add_option("--roofline", report.roofline_path,
                     "draw every ok point on one roofline (a roof per machine) as SVG to this "
                     "file");
  command.add_option("--color-by", report.color_by,
                     "colour the roofline's points by this axis (default: the first axis that "
                     "varies), e.g. workload.tile");
  command.add_option("--heatmap", report.heatmap,
                     "the heat map's two axes, AXIS,AXIS (default: the first two that vary), "
                     "e.g. hardware,workload.tile");
}

// The options `analyze` and `run` share; `simulates` says whether the command has simulated
// figures for its pictures to show.
void add_config_arguments(CLI::App& command, RunOptions& options, bool simulates) {
  command.add_option("HARDWARE", options.hardware, "hardware file (YAML, top key 'hardware:')")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("WORKLOAD", options.workload, "workload file (YAML, top key 'workload:')")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("--set", options.overrides,
                     "override one value, e.g. --set workload.tile.m=32 or "
                     "--set hardware.hbm.bandwidth=2TB/s; repeatable, applied in order");
  command.add_option("--json", options.json_path, "write the full report as JSON to this file");
  command.add_option("--roofline", options.roofline_path,
                     simulates ? "draw the roofline (ceilings, ridge points, the kernel's "
                                 "analytical and simulated points) as SVG to this file"
                               : "draw the roofline (ceilings, ridge points, the kernel's "
                                 "analytical point) as SVG to this file");
  command.add_option("--report", options.html_path,
                     "write a self-contained HTML report (tables and charts) to this file");
  command.add_option("--csv", options.csv_path,
                     "write the report as one CSV row (with header); a graph: one row per kernel");
  command.add_flag("--skip-unsupported", options.skip_unsupported,
                   "an ONNX model: leave out the operators that map to no kernel, and list them, "
                   "instead of refusing the model (default: off)");
}

// The files asked of one run: its JSON and CSV, and the pictures from the same figures (for the
// report, with the busy timeline collected from the run when there was one).
void write_report_files(const RunOptions& options, const Json& report,
                        const BusyTimeline* busy = nullptr) {
  if (!options.json_path.empty()) write_file_atomically(options.json_path, report.dump(2) + "\n");
  if (!options.csv_path.empty()) write_file_atomically(options.csv_path, report_csv(report));
  if (!options.roofline_path.empty()) {
    write_file_atomically(options.roofline_path, render_roofline_svg(roofline_of({report}, {})));
  }
  if (!options.html_path.empty())
    write_file_atomically(options.html_path, render_html_report(report, busy));
}

// The run's configuration, its warnings printed on stderr (with --quiet too: they are not
// progress, and stdout stays the report's).
// The variable through which a `run` whose power limit's trials settled away from its own run's
// clock hands the clock and the trials to itself, re-executed to run at that clock (SystemC
// elaborates a machine once per process): the path of save_settled_power_limit's file.
constexpr const char* kSettledPowerLimitVariable = "RIDGELINE_SETTLED_POWER_LIMIT";

RunConfig load_and_warn(const RunOptions& options) {
  RunConfig config = load_config(options.hardware, options.workload, options.overrides);
  // A re-executed run's warnings were printed by the process it replaced.
  if (!std::getenv(kSettledPowerLimitVariable)) {
    std::cerr << warning_lines(config.warnings) << std::flush;
  }
  return config;
}

// A graph workload (kind: graph, transformer, onnx): its kernels' figures and the graph's
// totals, its roofline (a point per distinct kernel), its HTML report (with a Gantt chart) and
// its timeline (a slice per kernel). The VCD and the per-unit timeline are a single kernel's.
int graph_command(const RunOptions& options, bool simulate) {
  for (const auto& [asked, option] :
       {std::pair{!options.traces.vcd_path.empty() || !options.traces.patterns.empty(),
                  "--vcd / --trace"},
        std::pair{!options.l2_resident.empty(), "--l2-resident"},
        std::pair{!options.l2_written.empty(), "--l2-written"},
        std::pair{!options.busy_profile_path.empty(), "--busy-profile"}}) {
    if (asked) {
      throw ConfigError(
          SourceLocation{option, 0, 0}, "", "",
          fmt::format("is for a single kernel; {} is a graph of kernels", options.workload),
          "leave it out, or run one of the graph's kernels as a workload of its "
          "own");
    }
  }
  const GraphConfig config = load_graph_config(options.hardware, options.workload,
                                               options.overrides, options.skip_unsupported);
  std::cerr << warning_lines(config.warnings) << std::flush;
  std::vector<KernelSimulation> runs;
  // The timeline draws each kernel's units under its slices: their runs report them.
  if (simulate) runs = simulate_graph(config, options.jobs, !options.traces.timeline_path.empty());
  const std::vector<KernelSimulation>* simulated = simulate ? &runs : nullptr;
  if (!options.json_path.empty()) {
    write_file_atomically(options.json_path, graph_report_json(config, simulated).dump(2) + "\n");
  }
  if (!options.csv_path.empty())
    write_file_atomically(options.csv_path, graph_report_csv(config, simulated));
  if (!options.roofline_path.empty()) {
    write_file_atomically(options.roofline_path,
                          render_roofline_svg(graph_roofline(config, simulated)));
  }
  if (!options.html_path.empty())
    write_file_atomically(options.html_path, render_graph_html(config, simulated));
  if (simulate && !options.traces.timeline_path.empty())
    write_file_atomically(options.traces.timeline_path, graph_timeline_json(config, runs));
  if (!options.quiet) std::cout << graph_report_text(config, simulated);
  return 0;
}

// The single-kernel configuration, or nothing when the workload is a graph of kernels, which
// the graph's reader takes instead (told apart before the hardware file is read: a graph's
// reader reads it again).
std::optional<RunConfig> load_kernel(const RunOptions& options) {
  if (workload_is_graph(ConfigInput{options.workload, std::nullopt}, options.overrides))
    return std::nullopt;
  return load_and_warn(options);
}

int analyze_command(const RunOptions& options) {
  const std::optional<RunConfig> loaded = load_kernel(options);
  if (!loaded) return graph_command(options, false);
  const RunConfig& config = *loaded;
  write_report_files(options, report_json(config, nullptr));
  if (!options.quiet) std::cout << report_text(config, nullptr);
  return 0;
}

// `argv`: the command line, to re-execute it at the clock a power limit's trials settle on.
int run_command(const RunOptions& options, char** argv) {
  std::optional<RunConfig> loaded = load_kernel(options);
  if (!loaded) return graph_command(options, true);
  RunConfig& config = *loaded;
  set_l2_resident(config, options.l2_resident);
  set_l2_resident(config, options.l2_written, L2CacheTiming::LeftBy::writes);
  const char* settled = std::getenv(kSettledPowerLimitVariable);
  if (settled) {
    resume_settled_power_limit(config, settled);
    unsetenv(kSettledPowerLimitVariable);
  }
  // The report's timeline chart needs the units' busy time over the run: watched only for it.
  std::optional<BusyTimeline> busy;
  if (!options.html_path.empty() || !options.busy_profile_path.empty())
    busy.emplace(config.hardware.cores, config.hardware.hbm.units());
  const SimulationResult result =
      simulate_in_library(config, options.traces, busy ? &*busy : nullptr);
  if (busy) busy->cover(result.time);
  Json report = report_json(config, &result);
  if (config.power_limit && !settled) {
    // This run, at the analytical model's clock, is the first trial of it; more are child
    // processes (sim/commands/power_limit_runs). Where they settle on another clock, the
    // command runs again at it, in this process's place.
    const std::uint64_t clock_hz = config.hardware.core_clock.frequency_hz;
    if (!settle_power_limit(config, trial_of_report(report, clock_hz))) {
      setenv(kSettledPowerLimitVariable, save_settled_power_limit(config).c_str(), 1);
      execv(self_executable().c_str(), argv);  // returns only where it failed
      throw InternalError(fmt::format("could not run again at the power limit's clock, {} Hz: {}",
                                      config.hardware.core_clock.frequency_hz,
                                      std::strerror(errno)));
    }
    report = report_json(config, &result);  // with the trial, which is this run
  }
  write_report_files(options, report, busy ? &*busy : nullptr);
  if (!options.busy_profile_path.empty()) {
    const BusyProfile profile = busy_profile(*busy, result.time, config.hardware.l2.has_value());
    write_file_atomically(options.busy_profile_path, busy_profile_json(profile).dump() + "\n");
  }
  if (!options.quiet) std::cout << report_text(config, &result);
  return 0;
}

// A command-line mistake as one line, like a ConfigError: what is wrong and where to look. CLI11's
// own message is two lines and says "a subcommand is required" for a misspelt one.
std::string command_line_error(const CLI::App& app, int argc, char** argv,
                               const CLI::ParseError& error) {
  const std::vector<const CLI::App*> commands = app.get_subcommands({});
  const auto named = std::find_if(commands.begin(), commands.end(),
                                  [](const CLI::App* command) { return command->parsed(); });
  // The command is the first word after the options of ridgeline itself (--error-format FORMAT).
  int word = 1;
  while (word < argc && std::string_view(argv[word]).rfind("--error-format", 0) == 0)
    word += std::string_view(argv[word]) == "--error-format" ? 2 : 1;
  if (named == commands.end() && word < argc && argv[word][0] != '-') {
    const std::string_view typed = argv[word];
    std::vector<std::string> names;
    for (const CLI::App* command : commands) names.push_back(command->get_name());
    std::string fix = fmt::format("commands: {}", fmt::join(names, ", "));
    if (auto suggestion = did_you_mean(typed, names))
      fix = "did you mean '" + *suggestion + "'? " + fix;
    return printable(fmt::format("unknown command '{}' ({})", typed, fix), 4096);
  }
  const std::string help = named == commands.end()
                               ? "ridgeline --help"
                               : "ridgeline " + (*named)->get_name() + " --help";
  return printable(fmt::format("{} (see '{}')", error.what(), help), 4096);
}

// How errors reach stderr: one line of text for people, or with --error-format json one JSON
// object (sim/util/error_json.hpp) for programs that run ridgeline, such as the Python module.
class ErrorPrinter {
 public:
  void use_json(bool json) { json_ = json; }

  int bad_input(const ConfigError& error) const {
    print(error_json(error), "error");
    return kExitBadInput;
  }
  int bad_command_line(const std::string& message) const {
    print(error_json("bad_input", message), "error");
    return kExitBadInput;
  }
  int internal(const std::string& message) const {
    print(error_json("internal", message), "internal error");
    return 1;
  }

 private:
  void print(const Json& error, std::string_view label) const {
    if (json_) {
      std::cerr << error_line(error) << '\n';
    } else {
      std::cerr << "ridgeline: " << label << ": " << error["message"].get<std::string>() << '\n';
    }
  }

  bool json_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  // SystemC prints a banner when its kernel starts unless told not to.
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);

  CLI::App app{
      "Ridgeline: a cycle-approximate accelerator simulator. It computes the roofline model of a "
      "workload on a machine (F, Q, I, ridge point, T_compute, T_memory, T_ideal, on-chip "
      "footprint) and simulates the workload's traffic through SystemC models of HBM, SRAM, "
      "register files and compute units, reporting both side by side."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ridgeline ") + ridgeline_version(),
                       "print the version and exit");
  app.set_help_all_flag("--help-all", "show the help of every subcommand");
  CLI::Option* error_format =
      app.add_option("--error-format",
                     "how errors are printed on stderr: text (one line) or json (one object: "
                     "message, file, line, column, key, value, rule, fix) (default: text)")
          ->check(CLI::IsMember({"text", "json"}));
  ErrorPrinter errors;

  RunOptions options;
  CLI::App* analyze = app.add_subcommand(
      "analyze", "the analytical model only: F, Q at HBM, I, roofline, bound, times, footprint");
  add_config_arguments(*analyze, options, false);
  analyze->add_flag("--quiet", options.quiet, "print nothing on stdout");

  CLI::App* run = app.add_subcommand(
      "run", "simulate the workload on the hardware and report it beside the analytical model");
  add_config_arguments(*run, options, true);
  run->add_flag("--quiet", options.quiet, "print nothing on stdout");
  WaveformOptionsText trace_text;
  add_trace_arguments(*run, options.traces, trace_text);
  run->add_option("--l2-resident", options.l2_resident,
                  "start with these input tensors of the workload in the L2, as a kernel before "
                  "it left them, e.g. --l2-resident A or x,weight; a graph decides this itself "
                  "(default: none)")
      ->delimiter(',');
  run->add_option("--l2-written", options.l2_written,
                  "the same for input tensors a kernel before wrote and none has read since: in "
                  "the L2 at home only, without the copies reads leave in the other partitions "
                  "(default: none)")
      ->delimiter(',');
  run->add_option("--busy-profile", options.busy_profile_path,
                  "write the units' busy time over the run as JSON to this file: per time bucket "
                  "(up to 240), the fraction of it the cores had loads in flight, computed and "
                  "had stores in flight, the L2's port and the HBM's channels were busy");

  // -j's default, in the help of run, study and sweep.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::string jobs_help =
      fmt::format("simulations run at once (default: the machine's cores, {})", cores);
  options.jobs = cores;
  run->add_option("-j,--jobs", options.jobs,
                  fmt::format("a graph workload's kernels simulated at once (default: the "
                              "machine's cores, {})",
                              cores))
      ->check(kJobs);

  StudyOptions study;
  study.jobs = cores;
  CLI::App* study_command = app.add_subcommand(
      "study", "several workloads on one machine: the seed note's table, then the simulated one");
  study_command->add_option("HARDWARE", study.hardware_path, "hardware file")
      ->required()
      ->check(CLI::ExistingFile);
  study_command->add_option("WORKLOADS", study.workload_paths, "workload files, one row each")
      ->required()
      ->check(CLI::ExistingFile);
  study_command->add_option("--set", study.overrides,
                            "override one value in every run; repeatable");
  study_command->add_flag("--analytical", study.analytical_only, "skip the simulations");
  study_command->add_option("-j,--jobs", study.jobs, jobs_help)->check(kJobs);
  study_command->add_option("--json", study.json_path, "write every run's report as a JSON array");
  study_command->add_option("--csv", study.csv_path,
                            "write every run's report as CSV: one header, then a row per run");
  study_command->add_option("--roofline", study.roofline_path,
                            "draw every workload on one roofline, as SVG to this file");
  study_command->add_option("--report", study.html_path,
                            "write the study's tables and its roofline as one self-contained "
                            "HTML page to this file");

  SweepOptions sweep;
  sweep.jobs = cores;
  std::string shard;
  CLI::App* sweep_command = app.add_subcommand(
      "sweep",
      "run a design-space sweep (configs/sweeps/*.yaml): every point of its axes, results as "
      "CSV and JSON lines, resumable, in shards for many machines");
  sweep_command->add_option("SWEEP", sweep.sweep_path, "sweep file (YAML, top key 'sweep:')")
      ->required()
      ->check(CLI::ExistingFile);
  sweep_command
      ->add_option("--out", sweep.out_directory,
                   "results directory; run again with the same one to resume")
      ->required();
  sweep_command->add_option("-j,--jobs", sweep.jobs, jobs_help)->check(kJobs);
  sweep_command->add_option("--shard", shard,
                            "run only the I-th of N slices (points p with p mod N = I - 1), "
                            "e.g. --shard 2/4; join them with sweep-merge (default: every "
                            "point)");
  sweep_command->add_flag("--analytical", sweep.analytical,
                          "the analytical model only, in this process (no simulation)");
  sweep_command
      ->add_option("--point-timeout", sweep.point_timeout_s,
                   "seconds a simulated point may run before it is killed and recorded failed "
                   "(default: no limit)")
      ->check(kPointTimeout);

  sweep_command->add_option(
      "--report", sweep.report.html_path,
      "at the end, write the sweep's report (summary, heat map, Pareto front, time and FLOP/s "
      "by axis, roofline, failed and skipped points) as one self-contained HTML file");
  add_sweep_report_arguments(*sweep_command, sweep.report);

  MergeOptions merge;
  CLI::App* merge_command =
      app.add_subcommand("sweep-merge", "join the results of a sweep's shards into one directory");
  merge_command->add_option("DIRS", merge.directories, "the shards' results directories")
      ->required()
      ->check(CLI::ExistingDirectory);
  merge_command->add_option("--out", merge.out_directory, "directory for the joined results")
      ->required();

  std::string report_directory;
  SweepReportOptions report;
  CLI::App* report_command = app.add_subcommand(
      "sweep-report",
      "draw a sweep's results (a finished, resumed or merged --out directory) as an HTML report: "
      "summary, heat map, Pareto front, time and FLOP/s by axis, roofline, failed and skipped "
      "points");
  report_command->add_option("DIR", report_directory, "the sweep's results directory")
      ->required()
      ->check(CLI::ExistingDirectory);
  report_command->add_option("--out", report.html_path, "the report, one self-contained HTML file")
      ->required();
  add_sweep_report_arguments(*report_command, report);

  ValidateOptions validate;
  validate.jobs = cores;
  CLI::App* validate_command = app.add_subcommand(
      "validate",
      "simulate measured cases of real machines (configs/validation/*.yaml) and compare: a table "
      "of measured against simulated, the mean and worst error, the correlation");
  validate_command
      ->add_option("FILES", validate.files, "validation files (YAML, top key 'validation:')")
      ->required()
      ->check(CLI::ExistingFile);
  validate_command->add_option("-j,--jobs", validate.jobs, jobs_help)->check(kJobs);
  validate_command->add_option("--json", validate.json_path,
                               "write the cases (measured, simulated, error, source) and the "
                               "statistics as JSON to this file");
  validate_command->add_option("--svg", validate.svg_path,
                               "draw simulated against measured (log-log, y = x and a 10 % "
                               "band, coloured by machine) as SVG to this file");
  validate_command->add_option("--report", validate.html_path,
                               "write the table, the statistics and the picture as one "
                               "self-contained HTML page to this file");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    // The format as far as it was read (it comes before the command), a bad value of it aside.
    const std::vector<std::string>& format = error_format->results();
    errors.use_json(!format.empty() && format.back() == "json");
    return errors.bad_command_line(command_line_error(app, argc, argv, error));
  }
  errors.use_json(error_format->count() > 0 && error_format->as<std::string>() == "json");

  try {
    if (analyze->parsed()) return analyze_command(options);
    if (run->parsed()) {
      read_trace_text(trace_text, options.traces);
      return run_command(options, argv);
    }
    if (sweep_command->parsed()) {
      if (!shard.empty()) sweep.shard = parse_shard(shard);
      return run_sweep(sweep);
    }
    if (merge_command->parsed()) return run_sweep_merge(merge);
    if (validate_command->parsed()) return run_validate(validate);
    if (report_command->parsed()) {
      write_sweep_report(report_directory, report);
      return 0;
    }
    return run_study(study);
  } catch (const ConfigError& error) {
    return errors.bad_input(error);
  } catch (const std::exception& error) {
    return errors.internal(printable(error.what(), 4096));
  } catch (...) {
    return errors.internal("an exception of unknown type");
  }
}
