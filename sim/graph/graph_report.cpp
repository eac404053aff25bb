#include "sim/graph/graph_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/report/report.hpp"
#include "sim/report/report_table.hpp"
#include "sim/util/internal_error.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

double ratio(double x, double y) { return y > 0 ? x / y : 0; }

// The graph's figures summed over its kernels, each in run order.
struct Totals {
  std::uint64_t flops = 0;
  std::uint64_t hbm_bytes = 0;
  double t_ideal_s = 0;       ///< one kernel after another
  double memory_bound_s = 0;  ///< of t_ideal_s, in memory-bound kernels
  std::uint64_t l2_resident_bytes = 0;
  std::uint64_t fusion_saved_bytes = 0;
  CriticalPath critical;  ///< by T_ideal
  std::size_t streams = 1;
  double streams_time_s = 0;  ///< T_ideal with the streams at once (streams_schedule)
  // Simulated
  double time_s = 0;
  std::uint64_t sim_flops = 0;
  std::uint64_t hbm_read_bytes = 0;
  std::uint64_t hbm_write_bytes = 0;
  std::uint64_t deferred_write_back_bytes = 0;
  double sim_memory_bound_s = 0;
  CriticalPath sim_critical;
  double sim_streams_time_s = 0;
  std::uint64_t reused = 0;  ///< kernels whose figures are an earlier identical kernel's
  /// Simulated time by what bound each kernel ("hbm", "l2", "compute", ...), in order first met.
  std::vector<std::pair<std::string, double>> time_by_limit;

  std::uint64_t sim_hbm_bytes() const {
    return hbm_read_bytes + hbm_write_bytes + deferred_write_back_bytes;
  }
};

Totals totals_of(const GraphConfig& config, const std::vector<KernelSimulation>* simulated) {
  Totals t;
  std::vector<double> ideal(config.kernels.size(), 0);
  std::vector<double> times(config.kernels.size(), 0);
  std::vector<bool> seen(config.runs.size(), false);
  for (std::size_t k : config.order) {
    const Analysis& a = config.kernel_config(k).analysis;
    t.flops += a.flops;
    t.hbm_bytes += a.hbm_bytes();
    ideal[k] = a.roofline.t_ideal_s;
    t.t_ideal_s += ideal[k];
    if (a.roofline.bound == Bound::memory) t.memory_bound_s += ideal[k];
    t.l2_resident_bytes += config.l2_resident_bytes[k];
    t.fusion_saved_bytes += config.fusion_saved_bytes[k];
    if (!simulated) continue;
    const std::size_t run = config.run_of[k];
    const KernelSimulation& s = (*simulated)[run];
    if (seen[run]) ++t.reused;
    seen[run] = true;
    times[k] = s.time_s;
    t.time_s += s.time_s;
    t.sim_flops += s.flops;
    t.hbm_read_bytes += s.hbm_read_bytes;
    t.hbm_write_bytes += s.hbm_write_bytes;
    t.deferred_write_back_bytes += s.l2_dirty_at_end_bytes;
    if (s.bound == "memory") t.sim_memory_bound_s += s.time_s;
    auto limit = std::find_if(t.time_by_limit.begin(), t.time_by_limit.end(),
                              [&](const auto& entry) { return entry.first == s.limit; });
    if (limit == t.time_by_limit.end()) {
      t.time_by_limit.emplace_back(s.limit, s.time_s);
    } else {
      limit->second += s.time_s;
    }
  }
  t.critical = critical_path(config.dependencies, config.order, ideal);
  if (simulated) t.sim_critical = critical_path(config.dependencies, config.order, times);

  t.streams = streams_of(config).size();
  t.streams_time_s = streams_schedule(config, nullptr).time_s;
  if (simulated) t.sim_streams_time_s = streams_schedule(config, simulated).time_s;
  return t;
}

// A figure no machine could produce is a bug: the graph's HBM bytes over its time stay within
// the HBM's peak (each kernel's run checked its own; the deferred write-backs are the graph's).
void check_totals(const GraphConfig& config, const Totals& t) {
  // Streams at once take at least the critical path and at most one kernel after another.
  const double slack = 1e-9 * t.time_s;
  if (t.sim_streams_time_s < t.sim_critical.time_s - slack ||
      t.sim_streams_time_s > t.time_s + slack) {
    throw InternalError(fmt::format(
        "the graph of {} on {} takes {} s with its streams at once, outside [{} s, {} s] (its "
        "critical path, one kernel after another)",
        config.workload_path, config.hardware.name, t.sim_streams_time_s, t.sim_critical.time_s,
        t.time_s));
  }
  const double peak = config.hardware.hbm_bytes_per_s();
  const double achieved = ratio(static_cast<double>(t.sim_hbm_bytes()), t.time_s);
  if (achieved > peak * (1 + 1e-9)) {
    throw InternalError(fmt::format(
        "the graph of {} on {} moves {} bytes of HBM in {} s, {} B/s, above the HBM's peak {} B/s",
        config.workload_path, config.hardware.name, t.sim_hbm_bytes(), t.time_s, achieved, peak));
  }
}

Json names_of(const GraphConfig& config, const CriticalPath& path) {
  Json names = Json::array();
  for (std::size_t k : path.kernels) names.push_back(config.kernels[k].name);
  return names;
}

// `description`: the kernel's workload described (the same for every kernel of its run).
Json analytical_kernel(const GraphConfig& config, std::size_t k, const std::string& description) {
  const Analysis& a = config.kernel_config(k).analysis;
  return json_object({{"name", config.kernels[k].name},
                      {"kind", kind_name(config.kernels[k].workload)},
                      {"description", description},
                      {"flops", a.flops},
                      {"hbm_bytes", a.hbm_bytes()},
                      {"intensity_flop_per_byte", a.roofline.intensity_flop_per_byte},
                      {"bound", name_of(a.roofline.bound)},
                      {"time_s", a.roofline.t_ideal_s},
                      {"l2_resident_bytes", config.l2_resident_bytes[k]},
                      {"fusion_saved_bytes", config.fusion_saved_bytes[k]}});
}

Json simulated_kernel(const GraphConfig& config, std::size_t k, const KernelSimulation& s,
                      bool reused) {
  return json_object(
      {{"name", config.kernels[k].name},
       {"kind", kind_name(config.kernels[k].workload)},
       {"flops", s.flops},
       {"hbm_bytes", s.hbm_bytes()},
       {"time_s", s.time_s},
       {"bound", s.bound},
       {"limit", s.limit},
       {"achieved_flop_per_s", ratio(static_cast<double>(s.flops), s.time_s)},
       {"achieved_hbm_bytes_per_s", ratio(static_cast<double>(s.hbm_bytes()), s.time_s)},
       {"percent_of_roof", s.percent_of_roof},
       {"limiter", s.limiter},
       {"l2_hit_rate", s.l2_hit_rate},
       {"l2_dirty_at_end_bytes", s.l2_dirty_at_end_bytes},
       {"reused", reused}});
}

// "bound at hbm 12.0 %, l2 80.0 %, compute 8.0 %": the time by what bound each kernel.
std::string by_limit_text(const Totals& t) {
  std::vector<std::string> parts;
  for (const auto& [limit, time] : t.time_by_limit) {
    parts.push_back(fmt::format("{} {}", limit, percent(ratio(time, t.time_s))));
  }
  return fmt::format("bound at {}", fmt::join(parts, ", "));
}

}  // namespace

std::vector<std::string> streams_of(const GraphConfig& config) {
  std::vector<std::string> streams;
  for (std::size_t k : config.order) {
    const std::string& stream = config.kernels[k].stream;
    if (std::find(streams.begin(), streams.end(), stream) == streams.end()) {
      streams.push_back(stream);
    }
  }
  return streams;
}

SharedSchedule streams_schedule(const GraphConfig& config,
                                const std::vector<KernelSimulation>* simulated) {
  const std::size_t n = config.kernels.size();
  std::vector<std::string> stream(n);
  std::vector<double> time(n, 0);
  std::vector<KernelDemand> demand(n);
  for (std::size_t k = 0; k < n; ++k) {
    stream[k] = config.kernels[k].stream;
    time[k] = run_time_s(config, simulated, config.run_of[k]);
    if (simulated) {
      demand[k] = (*simulated)[config.run_of[k]].demand;
    } else {
      // A kernel at T_ideal keeps its compute units busy T_compute / T_ideal of the time and
      // its HBM T_memory / T_ideal; the note's model has no block slots.
      const Roofline& r = config.kernel_config(k).analysis.roofline;
      demand[k].compute = ratio(r.t_compute_s, r.t_ideal_s);
      demand[k].memory = ratio(r.t_memory_s, r.t_ideal_s);
    }
  }
  return shared_machine_schedule(with_stream_order(config.dependencies, config.order, stream),
                                 config.order, time, demand);
}

// "layers.*.q_proj" for kernels named alike but for their numbers; "layers.*.q_proj +
// layers.*.k_proj" for the same workload under several names.
std::string group_name(const GraphConfig& config, const std::vector<std::size_t>& kernels) {
  if (kernels.size() == 1) return config.kernels[kernels.front()].name;
  // The name with each run of digits one '*'.
  const auto pattern_of = [](const std::string& name) {
    std::string pattern;
    for (std::size_t i = 0; i < name.size(); ++i) {
      const bool digit = name[i] >= '0' && name[i] <= '9';
      if (!digit) {
        pattern += name[i];
      } else if (i == 0 || name[i - 1] < '0' || name[i - 1] > '9') {
        pattern += '*';
      }
    }
    return pattern;
  };
  std::vector<std::string> patterns;
  for (std::size_t k : kernels) {
    std::string pattern = pattern_of(config.kernels[k].name);
    if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end())
      patterns.push_back(std::move(pattern));
  }
  return fmt::format("{}", fmt::join(patterns, " + "));
}

double run_time_s(const GraphConfig& config, const std::vector<KernelSimulation>* simulated,
                  std::size_t run) {
  return simulated ? (*simulated)[run].time_s : config.runs[run].config.analysis.roofline.t_ideal_s;
}

double group_time_s(const GraphConfig& config, const std::vector<KernelSimulation>* simulated,
                    std::size_t run) {
  return run_time_s(config, simulated, run) * static_cast<double>(config.runs[run].kernels.size());
}

Json graph_report_json(const GraphConfig& config, const std::vector<KernelSimulation>* simulated) {
  const Totals t = totals_of(config, simulated);
  Json report;
  report["config"] = report_config_json(config.hardware_path, config.workload_path,
                                        config.overrides, config.warnings);
  report["hardware"] = report_hardware_json(config.kernel_config(config.order.front()));
  Json workload{{"description", config.description},
                {"kind", config.kind},
                {"kernels", config.kernels.size()},
                {"distinct_kernels", config.runs.size()},
                {"streams", t.streams}};
  for (const auto& [key, value] : config.fields) workload[key] = value;
  if (config.kind == "onnx") workload["skipped"] = config.skipped;
  workload["memory"] = Json{{"input_bytes", config.memory.input_bytes},
                            {"peak_bytes", config.memory.peak_bytes},
                            {"peak_kernel", config.kernels[config.memory.peak_kernel].name}};
  report["workload"] = workload;

  const double peak_bw = config.hardware.hbm_bytes_per_s();
  Json analytical{{"flops", t.flops},
                  {"hbm_bytes", t.hbm_bytes},
                  {"intensity_flop_per_byte",
                   ratio(static_cast<double>(t.flops), static_cast<double>(t.hbm_bytes))},
                  {"t_ideal_s", t.t_ideal_s},
                  {"bound", t.memory_bound_s * 2 > t.t_ideal_s ? "memory" : "compute"},
                  {"memory_bound_time_share", ratio(t.memory_bound_s, t.t_ideal_s)},
                  {"critical_path_s", t.critical.time_s},
                  {"critical_path", names_of(config, t.critical)},
                  {"streams_time_s", t.streams_time_s},
                  {"l2_resident_bytes", t.l2_resident_bytes},
                  {"fusion_saved_bytes", t.fusion_saved_bytes},
                  {"kernels", Json::array()}};
  std::vector<std::string> descriptions(config.runs.size());  // a run's, once
  for (std::size_t k : config.order) {
    std::string& description = descriptions[config.run_of[k]];
    if (description.empty()) description = describe(config.kernels[k].workload);
    analytical["kernels"].push_back(analytical_kernel(config, k, description));
  }
  report["analytical"] = analytical;
  if (!simulated) return report;

  check_totals(config, t);
  Json sim{{"time_s", t.time_s},
           {"flops", t.sim_flops},
           {"hbm_bytes", t.sim_hbm_bytes()},
           {"hbm_read_bytes", t.hbm_read_bytes},
           {"hbm_write_bytes", t.hbm_write_bytes + t.deferred_write_back_bytes},
           {"deferred_write_back_bytes", t.deferred_write_back_bytes},
           {"achieved_flop_per_s", ratio(static_cast<double>(t.sim_flops), t.time_s)},
           {"achieved_hbm_bytes_per_s", ratio(static_cast<double>(t.sim_hbm_bytes()), t.time_s)},
           {"hbm_percent_of_peak",
            100 * ratio(ratio(static_cast<double>(t.sim_hbm_bytes()), t.time_s), peak_bw)},
           {"bound", t.sim_memory_bound_s * 2 > t.time_s ? "memory" : "compute"},
           {"memory_bound_time_share", ratio(t.sim_memory_bound_s, t.time_s)},
           {"time_share_by_limit", Json::object()},
           {"critical_path_s", t.sim_critical.time_s},
           {"critical_path", names_of(config, t.sim_critical)},
           {"streams_time_s", t.sim_streams_time_s},
           {"simulations", config.runs.size()},
           {"reused_kernels", t.reused},
           {"kernels", Json::array()}};
  for (const auto& [limit, time] : t.time_by_limit) {
    sim["time_share_by_limit"][limit] = ratio(time, t.time_s);
  }
  std::vector<bool> seen(config.runs.size(), false);
  for (std::size_t k : config.order) {
    const std::size_t run = config.run_of[k];
    sim["kernels"].push_back(simulated_kernel(config, k, (*simulated)[run], seen[run]));
    seen[run] = true;
  }
  report["simulated"] = sim;
  return report;
}

Json without_kernel_lists(Json report) {
  for (const char* part : {"analytical", "simulated"}) {
    if (report.contains(part)) report[part].erase("kernels");
  }
  return report;
}

ReportTable graph_kernel_table(const GraphConfig& config,
                               const std::vector<KernelSimulation>* simulated) {
  const Totals t = totals_of(config, simulated);
  // A row per distinct run: its kernels' figures summed.
  ReportTable table;
  table.id = "kernels";
  table.title = "Kernels by share of the time";
  table.header = {"kernel", "kind", "count", "F", "Q (HBM)", "I FLOP/B", "bound", "T_ideal"};
  table.widths = {28, 14, 6, 14, 14, 10, 8, 14};
  if (simulated) {
    for (const char* h : {"simulated", "share", "% roof", "bound at", "limiter"})
      table.header.push_back(h);
    for (std::size_t w : {14, 8, 8, 9, 16}) table.widths.push_back(w);
  } else {
    table.header.push_back("share");
    table.widths.push_back(8);
  }
  std::vector<std::size_t> rows(config.runs.size());
  std::iota(rows.begin(), rows.end(), 0);
  auto run_time = [&](std::size_t r) { return group_time_s(config, simulated, r); };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](std::size_t x, std::size_t y) { return run_time(x) > run_time(y); });
  const double total = simulated ? t.time_s : t.t_ideal_s;
  for (std::size_t r : rows) {
    table.widths[0] = std::max(table.widths[0], group_name(config, config.runs[r].kernels).size());
  }
  for (std::size_t r : rows) {
    const GraphRun& run = config.runs[r];
    const Analysis& a = run.config.analysis;
    const auto count = static_cast<double>(run.kernels.size());
    std::vector<std::string> cells{
        group_name(config, run.kernels),
        std::string(kind_name(run.config.workload)),
        std::to_string(run.kernels.size()),
        engineering(static_cast<double>(a.flops) * count, "FLOP"),
        engineering(static_cast<double>(a.hbm_bytes()) * count, "B"),
        a.hbm_bytes() ? fmt::format("{:.1f}", a.roofline.intensity_flop_per_byte) : "-",
        std::string(name_of(a.roofline.bound)),
        duration(a.roofline.t_ideal_s * count)};
    if (simulated) {
      const KernelSimulation& s = (*simulated)[r];
      cells.push_back(duration(s.time_s * count));
      cells.push_back(percent(ratio(run_time(r), total)));
      cells.push_back(fmt::format("{:.1f}", s.percent_of_roof));
      cells.push_back(s.limit);
      cells.push_back(s.limiter.empty() ? "-" : s.limiter);
    } else {
      cells.push_back(percent(ratio(run_time(r), total)));
    }
    table.add(std::move(cells));
  }
  return table;
}

std::vector<std::string> graph_totals_lines(const GraphConfig& config,
                                            const std::vector<KernelSimulation>* simulated) {
  const Totals t = totals_of(config, simulated);
  std::vector<std::string> lines;
  for (const std::string& skipped : config.skipped) {
    lines.push_back(fmt::format("skipped (--skip-unsupported): {}", skipped));
  }
  lines.push_back(fmt::format(
      "analytical: F = {}, Q = {} at HBM, I = {:.1f} FLOP/B; T_ideal {} one kernel after "
      "another, {} on the critical path; memory-bound kernels {} of it",
      engineering(static_cast<double>(t.flops), "FLOP"),
      engineering(static_cast<double>(t.hbm_bytes), "B"),
      ratio(static_cast<double>(t.flops), static_cast<double>(t.hbm_bytes)), duration(t.t_ideal_s),
      duration(t.critical.time_s), percent(ratio(t.memory_bound_s, t.t_ideal_s))));
  if (simulated) {
    lines.push_back(
        fmt::format("simulated:  {} one kernel after another ({} on the critical path), {}, HBM {} "
                    "({} of peak); memory-bound kernels {} of the time ({})",
                    duration(t.time_s), duration(t.sim_critical.time_s),
                    engineering(ratio(static_cast<double>(t.sim_flops), t.time_s), "FLOP/s"),
                    engineering(ratio(static_cast<double>(t.sim_hbm_bytes()), t.time_s), "B/s"),
                    percent(ratio(ratio(static_cast<double>(t.sim_hbm_bytes()), t.time_s),
                                  config.hardware.hbm_bytes_per_s())),
                    percent(ratio(t.sim_memory_bound_s, t.time_s)), by_limit_text(t)));
  }
  if (t.streams > 1) {
    lines.push_back(fmt::format(
        "streams: {}, run at once: {} analytical{} (kernels of different streams share the "
        "machine: together they progress at what the sum of their uses of the block slots, "
        "compute units and HBM allows)",
        t.streams, duration(t.streams_time_s),
        simulated ? fmt::format(", {} simulated", duration(t.sim_streams_time_s)) : ""));
  }
  lines.push_back(fmt::format(
      "memory: {} at its peak, during '{}' ({} of inputs such as weights and caches, held "
      "throughout; each tensor a kernel writes until its last reader){}",
      engineering(static_cast<double>(config.memory.peak_bytes), "B"),
      config.kernels[config.memory.peak_kernel].name,
      engineering(static_cast<double>(config.memory.input_bytes), "B"),
      config.hardware.hbm.dram
          ? fmt::format(
                ", of the HBM's {}",
                engineering(static_cast<double>(config.hardware.hbm.geometry().capacity_bytes()),
                            "B"))
          : std::string()));
  if (t.fusion_saved_bytes > 0) {
    lines.push_back(
        fmt::format("fusion: {} of HBM traffic saved by the fused groups (their "
                    "intermediates kept on chip)",
                    engineering(static_cast<double>(t.fusion_saved_bytes), "B")));
  }
  if (config.hardware.l2) {
    std::string line = fmt::format(
        "L2 between kernels: {} of inputs found in the L2 at their kernel's start (a tensor "
        "touched since fewer bytes than the L2 holds)",
        engineering(static_cast<double>(t.l2_resident_bytes), "B"));
    if (simulated) {
      line += fmt::format("; {} written back after their kernel (dirty in the L2 at its end)",
                          engineering(static_cast<double>(t.deferred_write_back_bytes), "B"));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string graph_report_text(const GraphConfig& config,
                              const std::vector<KernelSimulation>* simulated) {
  const Totals t = totals_of(config, simulated);
  std::string out =
      fmt::format("Ridgeline: {}\n  on {}\n", config.description, config.hardware.name);
  out += fmt::format("  {} kernels, {} distinct{}\n\n", config.kernels.size(), config.runs.size(),
                     simulated ? fmt::format(": {} simulated, {} reuse an identical kernel's run",
                                             config.runs.size(), t.reused)
                               : "");
  out += table_text(graph_kernel_table(config, simulated)) + "\n";
  for (const std::string& line : graph_totals_lines(config, simulated)) out += "  " + line + "\n";
  return out;
}

std::string graph_report_csv(const GraphConfig& config,
                             const std::vector<KernelSimulation>* simulated) {
  std::string out =
      "kernel,kind,run,flops,hbm_bytes,intensity_flop_per_byte,bound,t_ideal_s,"
      "l2_resident_bytes";
  if (simulated)
    out +=
        ",simulated_time_s,simulated_hbm_bytes,simulated_bound,limit,"
        "percent_of_roof,limiter,reused";
  out += "\n";
  std::vector<bool> seen(config.runs.size(), false);
  for (std::size_t k : config.order) {
    const Analysis& a = config.kernel_config(k).analysis;
    const std::size_t run = config.run_of[k];
    out += fmt::format("{},{},{},{},{},{},{},{},{}", config.kernels[k].name,
                       kind_name(config.kernels[k].workload), run, a.flops, a.hbm_bytes(),
                       a.roofline.intensity_flop_per_byte, name_of(a.roofline.bound),
                       a.roofline.t_ideal_s, config.l2_resident_bytes[k]);
    if (simulated) {
      const KernelSimulation& s = (*simulated)[run];
      out += fmt::format(",{},{},{},{},{},{},{}", s.time_s, s.hbm_bytes(), s.bound, s.limit,
                         s.percent_of_roof, s.limiter, seen[run] ? "true" : "false");
      seen[run] = true;
    }
    out += "\n";
  }
  return out;
}

}  // namespace ridgeline
