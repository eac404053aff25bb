#include "sim/report/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "sim/config/quantity.hpp"
#include "sim/report/compute_report.hpp"
#include "sim/report/energy_report.hpp"
#include "sim/report/json_fields.hpp"
#include "sim/report/levels.hpp"
#include "sim/report/memory_report.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/util/version.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

template <class Stats>
Json stats_json(const Stats& stats) {
  Json json = Json::object();
  stats.visit([&](std::string_view name, double value, std::string_view, std::string_view) {
    json[std::string(name)] = value;
  });
  return json;
}

// A shared level's counters, as its visit() named them during the run.
Json counters_json(const LevelResult& level) {
  Json json = Json::object();
  for (const auto& [name, value] : level.counters) json[name] = value;
  return json;
}

// "L2" for the level "l2": how the text report names a level in prose.
std::string upper_case(std::string name) {
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// levels: [{name: "hbm", ...}, {name: "l2", ...}, {name: "sram", ...}] from HBM inwards, and the
// level (or compute) that binds.
void add_levels(Json& json, const Levels& l) {
  Json levels = Json::array();
  for (const LevelFigures& level : l.levels) {
    Json figures{{"name", level.name},
                 {"bytes", level.bytes},
                 {"intensity_flop_per_byte", level.intensity_flop_per_byte},
                 {"bandwidth_bytes_per_s", level.bandwidth_bytes_per_s},
                 {"roof_flop_per_s", level.roof_flop_per_s},
                 {"time_s", level.time_s}};
    if (level.busy_fraction >= 0) figures["busy_fraction"] = level.busy_fraction;
    levels.push_back(std::move(figures));
  }
  json["levels"] = std::move(levels);
  json["compute_roof_flop_per_s"] = l.compute_roof_flop_per_s;
  json["binding_level"] = l.binding;
}

// The L2's parameters, when the hardware has one (its config section's figures).
void add_hardware_l2(Json& hardware, const RunConfig& config) {
  if (!config.hardware.l2) return;
  const L2CacheParams& l2 = *config.hardware.l2;
  hardware["l2"] = {{"capacity_bytes", l2.capacity_bytes},
                    {"line_bytes", l2.line_bytes},
                    {"sector_bytes", l2.sector_bytes},
                    {"associativity", l2.associativity},
                    {"bandwidth_bytes_per_s", l2.bandwidth.bytes_per_second},
                    {"hit_latency_s", l2.hit_latency.seconds()},
                    {"partitions", l2.partitions},
                    {"far_hit_latency_s", l2.far_hit_latency.seconds()},
                    {"write_policy", name_of(l2.write_policy)},
                    {"set_index", name_of(l2.set_index)}};
}

// What each cache level did, in short: lines served without a new fetch from below, bytes asked,
// bytes to the level below (HBM), under the level's name.
void add_simulated_caches(Json& simulated, const SimulationResult& r) {
  for (const LevelResult& level : r.levels) {
    if (!level.cache) continue;
    const L2CacheStats& cache = level.cache->stats;
    const std::uint64_t looked_up = cache.hit_lines + cache.pending_hit_lines + cache.miss_lines;
    simulated[level.name] = {
        {"hit_rate", looked_up ? static_cast<double>(cache.hit_lines + cache.pending_hit_lines) /
                                     static_cast<double>(looked_up)
                               : 0.0},
        {"requested_bytes", level.traffic.requested_bytes},
        {"hbm_bytes", level.traffic.below_bytes}};
  }
}

Json workload_json(const WorkloadSpec& spec) {
  Json w;
  w["description"] = describe(spec);
  w["label"] = short_label(spec);
  JsonFields fields(w);
  visit_fields(spec, fields);
  return w;
}

Json hardware_json(const RunConfig& config) {
  const HardwareParams& hw = config.hardware;
  const Roof& roof = config.analysis.roof;
  return Json{{"name", hw.name},
              {"cores", hw.cores},
              {"clock_hz", hw.core_clock.frequency_hz},
              {"peak_flop_per_s", roof.peak_flop_per_s},
              {"hbm_bytes_per_s", roof.hbm_bytes_per_s},
              {"hbm_latency_s", hw.hbm.access_latency.seconds()},
              {"hbm_channels", hw.hbm.channels},
              {"hbm_pseudo_channels", hw.hbm.pseudo_channels},
              {"hbm_mode", hw.hbm.mode == HbmMode::detailed ? "detailed" : "simple"},
              {"sram_bytes_per_core", hw.core.sram.capacity_bytes},
              {"register_bytes_per_core", hw.core.registers.capacity_bytes},
              {"max_resident_blocks", hw.core.max_resident_blocks},
              {"max_bytes_in_flight_per_core", hw.core.max_bytes_in_flight}};
}

Json analytical_json(const RunConfig& config) {
  const Analysis& a = config.analysis;
  const Roofline& r = a.roofline;
  const Footprint& f = a.footprint;
  return Json{{"flops", a.flops},
              {"issued_flops", a.issued_flops},
              {"hbm_bytes", a.hbm_bytes()},
              {"hbm_read_bytes", a.hbm_read_bytes},
              {"hbm_write_bytes", a.hbm_write_bytes},
              {"intensity_flop_per_byte", r.intensity_flop_per_byte},
              {"peak_flop_per_s", a.roof.peak_flop_per_s},
              {"hbm_bytes_per_s", a.roof.hbm_bytes_per_s},
              {"ridge_flop_per_byte", r.ridge_flop_per_byte},
              {"roof_flop_per_s", r.roof_flop_per_s},
              {"bound", name_of(r.bound)},
              {"t_compute_s", r.t_compute_s},
              {"t_memory_s", r.t_memory_s},
              {"t_ideal_s", r.t_ideal_s},
              {"footprint",
               {{"input_bytes_per_stage", f.input_bytes_per_stage},
                {"stages", f.stages},
                {"input_bytes", f.input_bytes},
                {"accumulator_bytes", f.accumulator_bytes},
                {"sram_bytes_per_block", f.sram_bytes},
                {"register_bytes_per_block", f.register_bytes}}},
              {"occupancy",
               {{"blocks_per_core", config.occupancy.blocks_per_core},
                {"limited_by", config.occupancy.limited_by}}}};
}

// Time requests spent waiting, summed over the requests (not core-time) and per request.
Json waits_json(const SimulationResult& r, const RunFigures& d) {
  const CoreStats& c = d.cores;
  const auto mean = [](Time total, std::uint64_t count) {
    return count ? total.seconds() / static_cast<double>(count) : 0.0;
  };
  Json waits{{"loads_waited_buffer", c.buffer_waits},
             {"buffer_wait_s", c.buffer_wait.seconds()},
             {"buffer_wait_mean_s", mean(c.buffer_wait, c.buffer_waits)},
             {"load_time_mean_s", mean(c.load_time, c.loads)}};
  for (const LevelResult& level : r.levels) {
    waits[level.name + "_port_queue_delay_s"] = level.traffic.port_queue_delay.seconds();
    waits[level.name + "_port_queue_delay_mean_s"] =
        mean(level.traffic.port_queue_delay, level.traffic.requests);
  }
  waits["hbm_queue_delay_s"] = r.hbm.queue_delay.seconds();
  waits["hbm_queue_delay_mean_s"] = mean(r.hbm.queue_delay, r.hbm.reads + r.hbm.writes);
  return waits;
}

Json verdict_json(const Verdict& v) {
  return Json{{"bound", v.bound},
              {"limit", v.limit},
              {"percent_of_roof", v.percent_of_roof},
              {"roof_s", v.roof_s},
              {"roof_flop_per_s", v.roof_flop_per_s}};
}

Json simulated_json(const SimulationResult& r, const RunFigures& d) {
  const CoreStats& c = d.cores;
  return Json{{"time_s", d.time_s},
              {"flops", d.flops},
              {"issued_flops", d.issued_flops},
              {"hbm_bytes", d.hbm_bytes},
              {"hbm_read_bytes", r.hbm.read_bytes},
              {"hbm_write_bytes", r.hbm.write_bytes},
              {"sram_read_bytes", d.sram.read_bytes},
              {"sram_write_bytes", d.sram.write_bytes},
              {"achieved_flop_per_s", d.flop_per_s},
              {"achieved_hbm_bytes_per_s", d.hbm_bytes_per_s},
              {"intensity_flop_per_byte", d.intensity_flop_per_byte},
              {"percent_of_roof", d.verdict.percent_of_roof},
              {"bound", d.verdict.bound},
              {"verdict", verdict_json(d.verdict)},
              {"percent_of_note_roof", d.percent_of_note_roof},
              {"hbm_busy_fraction", d.hbm_busy},
              {"compute_busy_fraction", d.compute_busy},
              {"operand_stall_fraction", d.operand_stall},
              {"issue_stall_fraction", d.issue_stall},
              {"overlap_fraction", d.overlap_fraction},
              {"overlap_s", c.overlap.seconds()},
              {"stalls",
               {{"compute_waiting_data_s", c.waiting_data.seconds()},
                {"in_flight_limit_s", c.in_flight_limit.seconds()},
                {"operand_bandwidth_s", d.compute.operand_limited.seconds()},
                {"instruction_issue_s", d.compute.issue_limited.seconds()},
                {"launching_s", c.launching.seconds()},
                {"waiting_blocks_s", c.waiting_blocks.seconds()},
                {"draining_s", c.draining.seconds()},
                {"no_work_s", c.no_work.seconds()}}},
              {"waits", waits_json(r, d)},
              {"blocks", c.blocks},
              {"ops", c.ops},
              {"resident_blocks_per_core", c.peak_resident_blocks},
              {"block_critical_path_s", r.block_critical_path.seconds()}};
}

}  // namespace

namespace {

// What a cache level did: its line look-ups, and what it sent to HBM against the note's Q.
void add_cache_text(std::string& out, const RunConfig& config, const LevelResult& level) {
  const L2CacheParams& params = level.cache->params;
  const L2CacheStats& cache = level.cache->stats;
  const std::uint64_t looked_up = cache.hit_lines + cache.pending_hit_lines + cache.miss_lines;
  const auto share = [&](std::uint64_t lines) {
    return percent(looked_up ? static_cast<double>(lines) / static_cast<double>(looked_up) : 0);
  };
  const bool sectored = params.sectors_per_line() > 1;
  const std::string sectors =
      sectored ? fmt::format(" of {}-byte sectors", params.sector_bytes) : "";
  const std::string sector_misses = sectored ? fmt::format(" ({} found the line, not the sectors)",
                                                           share(cache.sector_miss_lines))
                                             : "";
  out += fmt::format(
      "  {} ({} in {}-byte lines{}, {} ways, {}): {} line look-ups: {} hit, {} hit a fill in "
      "flight, {} missed{}\n",
      upper_case(level.name), format_bytes(params.capacity_bytes), params.line_bytes, sectors,
      params.associativity, name_of(params.write_policy), with_commas(looked_up),
      share(cache.hit_lines), share(cache.pending_hit_lines), share(cache.miss_lines),
      sector_misses);
  out += fmt::format(
      "    HBM bytes {} = fills {} + write-backs {} + write-through {}; {} of the note's Q; left "
      "dirty in the {} at the end, neither written nor counted: {}\n",
      with_commas(level.traffic.below_bytes), with_commas(cache.fill_bytes),
      with_commas(cache.writeback_bytes), with_commas(cache.write_through_bytes),
      percent(static_cast<double>(level.traffic.below_bytes) /
              static_cast<double>(config.analysis.hbm_bytes())),
      upper_case(level.name), with_commas(cache.dirty_at_end_bytes));
}

// Where requests waited: for a free buffer, for the in-flight limit, in each level's queue.
std::string queues_text(const SimulationResult& r, const RunFigures& d) {
  const CoreStats& c = d.cores;
  const Json waits = waits_json(r, d);
  const auto mean = [&](const std::string& key) {
    return engineering(waits[key].get<double>(), "s");
  };
  std::string out = fmt::format(
      "  also: {} of {} loads ({}) waited for a free buffer, {} each on average; the in-flight "
      "limit held the memory queue {} of core time\n",
      with_commas(c.buffer_waits), with_commas(c.loads),
      percent(c.loads ? static_cast<double>(c.buffer_waits) / static_cast<double>(c.loads) : 0),
      mean("buffer_wait_mean_s"), percent(c.in_flight_limit.seconds() / d.core_time_s));
  std::string queued;
  for (const LevelResult& level : r.levels) {
    queued += fmt::format("{} port {} per request, ", upper_case(level.name),
                          mean(level.name + "_port_queue_delay_mean_s"));
  }
  out += fmt::format("        queued on average: {}HBM {} per request; a load took {}\n", queued,
                     mean("hbm_queue_delay_mean_s"), mean("load_time_mean_s"));
  return out;
}

// The run's one verdict, and the note's model beside it (binding `note_limit`), labelled as such.
std::string verdict_text(const RunConfig& config, const std::string& note_limit,
                         const RunFigures& d) {
  const Verdict& v = d.verdict;
  const Roofline& note = config.analysis.roofline;
  std::string roof;
  if (v.roof_flop_per_s > 0) {
    roof = fmt::format("{} = {}; ", engineering(v.roof_flop_per_s, "FLOP/s"),
                       v.limit == "compute" ? compute_roof_text(config, d)
                                            : "its bandwidth x the I measured there");
  }
  std::string out = fmt::format(
      "  verdict: {}-bound{}: {:.2f} % of its roof, the lowest the run faces ({}at it the run "
      "would take {})\n",
      v.bound, v.limit == "compute" ? "" : " at " + upper_case(v.limit), v.percent_of_roof, roof,
      duration(v.roof_s));
  if (std::abs(d.percent_of_note_roof - v.percent_of_roof) >= 0.005 || note_limit != v.limit) {
    // With an L2 the note's roof (its Q assumes no reuse across output tiles) is not one the
    // run faces: say what it is rather than print a share of it as the run's.
    out += fmt::format(
        "  the seed note's model: {}-bound at {}, roof {} at its Q of {} bytes; the run reached "
        "{:.2f} % of that roof{}\n",
        name_of(note.bound), note_limit == "compute" ? "P" : upper_case(note_limit),
        engineering(
            note.roof_flop_per_s > 0 ? note.roof_flop_per_s : config.analysis.roof.hbm_bytes_per_s,
            note.roof_flop_per_s > 0 ? "FLOP/s" : "B/s"),
        with_commas(config.analysis.hbm_bytes()), d.percent_of_note_roof,
        d.hbm_bytes < config.analysis.hbm_bytes()
            ? fmt::format(" (HBM carried {} of that Q: the L2 served the rest, or holds it dirty "
                          "at the end)",
                          percent(static_cast<double>(d.hbm_bytes) /
                                  static_cast<double>(config.analysis.hbm_bytes())))
            : "");
  }
  return out;
}

// The hierarchical roofline, level by level, analytical and (after a run) simulated.
void add_levels_text(std::string& out, const RunConfig& config, const Levels& analytical,
                     const SimulationResult* r, const RunFigures* figures) {
  const Levels* simulated = figures ? &figures->levels : nullptr;
  auto roof = [](double flop_per_s) { return fmt::format("{:.3f}", flop_per_s / 1e12); };
  out +=
      "\n  memory levels (hierarchical roofline: I = F / Q at each level, roof = bandwidth x I)\n";
  const char* row = "    {:<8}{:>18}{:>13}{:>14}{:>16}";
  const char* sim_row = "  |{:>18}{:>13}{:>16}{:>8}";
  out += fmt::format(row, "level", "Q (bytes)", "I (FLOP/B)", "BW (TB/s)", "roof (TFLOP/s)");
  if (simulated)
    out += fmt::format(sim_row, "Q simulated", "I simulated", "roof simulated", "busy");
  out += '\n';
  for (const LevelFigures& a : analytical.levels) {
    out += fmt::format(
        row, a.name, with_commas(a.bytes), fmt::format("{:.6f}", a.intensity_flop_per_byte),
        fmt::format("{:.3f}", a.bandwidth_bytes_per_s / 1e12), roof(a.roof_flop_per_s));
    if (simulated) {
      for (const LevelFigures& s : simulated->levels) {
        if (s.name != a.name) continue;
        out += fmt::format(sim_row, with_commas(s.bytes),
                           fmt::format("{:.6f}", s.intensity_flop_per_byte),
                           roof(s.roof_flop_per_s), percent(s.busy_fraction));
      }
    }
    out += '\n';
  }
  const bool edges = analytical.compute_roof_flop_per_s != analytical.peak_flop_per_s;
  out += fmt::format(row, "compute", "", "", "",
                     roof(analytical.compute_roof_flop_per_s) + (edges ? " (*)" : " (P)"));
  if (simulated) {
    out += fmt::format(sim_row, "", "", "", percent(simulated->compute_busy_fraction));
  }
  out += '\n';
  out += fmt::format("    binds: {} (the lowest roof at the analytical Q){}\n", analytical.binding,
                     simulated ? fmt::format(";  in the run: {} (the lowest at the Q measured)",
                                             simulated->binding)
                               : "");
  if (edges) {
    const Analysis& a = config.analysis;
    const std::uint64_t vector = a.vector_flops;
    out += fmt::format(
        "    (*) F / T_compute: the compute units execute {} FLOPs for the {} useful{}{}{}\n",
        with_commas(a.issued_flops), with_commas(a.flops),
        // Lanes issued but not useful: outside the matrix (edge tiles) or the causal mask.
        a.issued_flops - vector > a.flops ? ", lanes outside the matrix or the mask predicated off"
                                          : "",
        vector > 0 ? fmt::format(", {} of them on the vector units (FP32) at their own peak",
                                 with_commas(vector))
                   : "",
        issue_binds(a.issued_flops, vector, a.roof, a.warp_instructions)
            ? fmt::format("; their {} warp instructions take longer to issue, {} a cycle "
                          "per core, than the FLOPs at P",
                          with_commas(a.warp_instructions),
                          config.hardware.core.compute.warp_instructions_per_cycle)
            : "");
  }
  for (const HardwareParams::SharedLevel& level : config.hardware.shared_levels()) {
    const std::string name = upper_case(level.name);
    out += fmt::format(
        "    analytical Q at HBM and {} is the note's: no reuse across output tiles; the {} "
        "reuses tiles in the run\n",
        name, name);
  }
  if (r) {
    for (const LevelResult& level : r->levels) {
      if (level.cache) add_cache_text(out, config, level);
    }
  }
}

}  // namespace

Json report_config_json(const std::string& hardware_path, const std::string& workload_path,
                        const std::vector<std::string>& overrides,
                        const std::vector<ConfigWarning>& warnings) {
  Json section{{"version", ridgeline_version()},
               {"hardware_path", hardware_path},
               {"workload_path", workload_path},
               {"overrides", overrides},
               {"warnings", Json::array()}};
  for (const ConfigWarning& warning : warnings) section["warnings"].push_back(warning.text());
  return section;
}

Json report_hardware_json(const RunConfig& config) {
  Json hardware = hardware_json(config);
  add_hardware_compute(hardware, config);
  add_hardware_l2(hardware, config);
  add_hardware_energy(hardware, config);
  return hardware;
}

Json report_json(const RunConfig& config, const SimulationResult* simulated) {
  // Room for every section at once: an object is a vector of (const key, value) pairs, which
  // copies (cannot move) each section it holds, subtrees and all, whenever it grows (5 % of the
  // instructions of an analytical report, which ridgeline.analyze builds on every call).
  Json report = Json::object();
  report.get_ref<Json::object_t&>().reserve(6);  // config ... simulated, components
  report["config"] = report_config_json(config.hardware_path, config.workload_path,
                                        config.overrides, config.warnings);
  report["hardware"] = report_hardware_json(config);
  report["workload"] = workload_json(config.workload);
  report["analytical"] = analytical_json(config);
  add_analytical_compute(report["analytical"], config);
  add_levels(report["analytical"], analytical_levels(config));
  add_analytical_energy(report["analytical"], config);
  if (simulated) {
    const RunFigures d = run_figures(config, *simulated);
    report["simulated"] = simulated_json(*simulated, d);
    if (simulated->trace) {  // trace players run no blocks: the trace's figures instead
      report["simulated"]["trace"] = memory_trace_json(config, *simulated);
    } else {
      add_simulated_compute(report["simulated"], config, *simulated, d);
    }
    add_simulated_caches(report["simulated"], *simulated);
    add_levels(report["simulated"], d.levels);
    add_simulated_energy(report["simulated"], config, d);
    report["components"] = {{"hbm", stats_json(simulated->hbm)},
                            {"scheduler", stats_json(simulated->scheduler)},
                            {"cores", stats_json(d.cores)},
                            {"compute_units", stats_json(d.compute)},
                            {"sram", stats_json(d.sram)}};
    for (const LevelResult& level : simulated->levels) {
      report["components"][level.name] = counters_json(level);
    }
    if (simulated->dram) report["components"]["dram"] = dram_json(*simulated);
    if (simulated->trace) report["components"]["trace_players"] = stats_json(*simulated->trace);
  }
  return report;
}

std::string report_text(const RunConfig& config, const SimulationResult* simulated) {
  const HardwareParams& hw = config.hardware;
  const Analysis& a = config.analysis;
  const Roofline& r = a.roofline;
  const DataType type = compute_type(config.workload);
  std::string out;
  auto line = [&](auto&&... args) {
    out += fmt::format(std::forward<decltype(args)>(args)...);
    out += '\n';
  };
  line("Ridgeline: {}", describe(config.workload));
  if (const std::string note = report_note(config.workload); !note.empty()) line("  {}", note);
  line("  on {}: {} cores at {}, P = {} ({}), BW = {}, ridge = {:.6f} FLOP/byte", hw.name, hw.cores,
       engineering(static_cast<double>(hw.core_clock.frequency_hz), "Hz"),
       engineering(a.roof.peak_flop_per_s, "FLOP/s"), name_of(type),
       engineering(a.roof.hbm_bytes_per_s, "B/s"), r.ridge_flop_per_byte);
  line("");

  std::optional<RunFigures> d;
  if (simulated) d = run_figures(config, *simulated);
  const char* row = "  {:<24}{:<26}{}";
  line(row, "", "analytical", d ? "simulated" : "");
  line(row, "time", duration(r.t_ideal_s) + " (T_ideal)",
       d ? fmt::format("{}   ({:.2f} % of its roof: {})", duration(d->time_s),
                       d->verdict.percent_of_roof, d->verdict.limit)
         : "");
  line(row, "FLOPs (F)", with_commas(a.flops), d ? with_commas(d->flops) : "");
  if (a.issued_flops != a.flops) {  // edge tiles' predicated-off lanes, vector-unit FLOPs
    line(row, "FLOPs issued", with_commas(a.issued_flops), d ? with_commas(d->issued_flops) : "");
  }
  line(row, "HBM bytes (Q)", with_commas(a.hbm_bytes()), d ? with_commas(d->hbm_bytes) : "");
  line(row, "intensity I (FLOP/B)", fmt::format("{:.6f}", r.intensity_flop_per_byte),
       d ? fmt::format("{:.6f}", d->intensity_flop_per_byte) : "");
  line(row, "FLOP/s", engineering(r.roof_flop_per_s, "FLOP/s") + " (roof)",
       d ? engineering(d->flop_per_s, "FLOP/s") : "");
  line(row, "HBM bytes/s", engineering(a.roof.hbm_bytes_per_s, "B/s") + " (peak)",
       d ? engineering(d->hbm_bytes_per_s, "B/s") : "");
  const Levels analytical = analytical_levels(config);  // the note's, for the text's every part
  line(row, "bound", bound_text(name_of(r.bound), analytical.binding),
       d ? bound_text(d->verdict.bound, d->verdict.limit) : "");
  if (d) out += verdict_text(config, analytical.binding, *d);
  line("");
  line("  T_compute = {}   T_memory = {}   T_ideal = {}", duration(r.t_compute_s),
       duration(r.t_memory_s), duration(r.t_ideal_s));
  if (runs_on(config.workload) == Runner::trace_players) {  // no blocks, no FLOPs
    if (simulated) {
      line("");
      out += memory_trace_text(config, *simulated);
      if (simulated->dram) out += dram_text(*simulated);
    }
    out += energy_text(config, d ? &*d : nullptr);
    return out;
  }
  const Footprint& f = a.footprint;
  const std::string inputs = fmt::format("{} inputs x {}", format_bytes(f.input_bytes_per_stage),
                                         counted(f.stages, "stage"));
  if (f.sram_bytes > 0) {
    line("  per block: SRAM {} ({}), registers {} ({} accumulators)", format_bytes(f.sram_bytes),
         inputs, format_bytes(f.register_bytes), format_bytes(f.accumulator_bytes));
  } else {
    // A vector add's chunks go from HBM straight into registers: its buffers are no SRAM.
    line(
        "  per block: no SRAM (inputs go straight to registers); registers {} ({} + {} of results)",
        format_bytes(f.register_bytes), inputs, format_bytes(f.accumulator_bytes));
  }
  line("  occupancy: {} per core (limited by {})",
       counted(config.occupancy.blocks_per_core, "block"), config.occupancy.limited_by);
  out += analytical_compute_text(config);

  add_levels_text(out, config, analytical, simulated, d ? &*d : nullptr);

  if (d) {
    const CoreStats& c = d->cores;
    auto share = [&](Time t) { return percent(t.seconds() / d->core_time_s); };
    line("");
    line("  where the cores' time went ({} cores x {}):", hw.cores, duration(d->time_s));
    line("    compute busy              {:>7}   (overlapped with memory: {})",
         share(c.compute_busy), share(c.overlap));
    line("      at the unit's rate      {:>7}", percent(d->compute_busy));
    line("      held by SRAM operands   {:>7}", percent(d->operand_stall));
    if (hw.core.compute.warp_instructions_per_cycle > 0 && d->compute.warp_instructions > 0)
      line("      held by issue           {:>7}", percent(d->issue_stall));
    if (c.barriers > 0) line("    in barriers               {:>7}", share(c.barrier_wait));
    if (c.local_loads > 0) line("    reloading spilled regs    {:>7}", share(c.spill_wait));
    line("    waiting for data          {:>7}", share(c.waiting_data));
    if (c.flag_waits > 0) line("    waiting for other blocks  {:>7}", share(c.waiting_blocks));
    if (c.launching > Time{}) line("    launching blocks          {:>7}", share(c.launching));
    line("    draining (stores, syncs)  {:>7}", share(c.draining));
    line("    no work (start, tail)     {:>7}", share(c.no_work));
    line(
        "  overlap: {:.1f} % of the shorter of memory activity and compute ran alongside the other",
        100 * d->overlap_fraction);
    out += queues_text(*simulated, *d);
    line("  blocks {}, ops {}, one block's critical path {}", with_commas(c.blocks),
         with_commas(c.ops), duration(simulated->block_critical_path.seconds()));
    out += simulated_compute_text(config, *simulated, *d);
  }
  if (d && simulated->dram) out += dram_text(*simulated);
  out += energy_text(config, d ? &*d : nullptr);
  return out;
}

std::string bound_text(std::string_view bound, std::string_view limit) {
  if (limit == "compute") return std::string(bound);
  return fmt::format("{} ({})", bound, limit);
}

std::string report_csv(const Json& report) {
  auto quote = [](const std::string& field) {
    if (field.find_first_of(",\"\n") == std::string::npos) return field;
    std::string quoted = "\"";
    for (char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  };
  std::string header, values;
  for (const auto& [name, value] : flatten(report)) {
    header += (header.empty() ? "" : ",") + quote(name);
    values += (values.empty() ? "" : ",") + quote(value);
  }
  return header + "\n" + values + "\n";
}

}  // namespace ridgeline
