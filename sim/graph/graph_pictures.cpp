#include "sim/graph/graph_pictures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "sim/charts/svg.hpp"
#include "sim/graph/graph_report.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/report_table.hpp"
#include "sim/util/json.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

double ratio(double x, double y) { return y > 0 ? x / y : 0; }

// A lane's label within its margin: the start of a long name, and "..." (its tooltip has all).
std::string short_label(const std::string& name) {
  constexpr std::size_t kMost = 42;
  return name.size() <= kMost ? name : name.substr(0, kMost - 3) + "...";
}

// Each kernel's start and time as the graph runs them, one after another in run order.
struct Slice {
  std::size_t kernel;
  double start_s;
  double time_s;
};
std::vector<Slice> schedule(const GraphConfig& config,
                            const std::vector<KernelSimulation>* simulated) {
  std::vector<Slice> slices;
  double now = 0;
  for (std::size_t k : config.order) {
    const double time = run_time_s(config, simulated, config.run_of[k]);
    slices.push_back(Slice{k, now, time});
    now += time;
  }
  return slices;
}

}  // namespace

RooflineChart graph_roofline(const GraphConfig& config,
                             const std::vector<KernelSimulation>* simulated) {
  // The roof of the type that does the most FLOPs.
  std::map<DataType, std::uint64_t> flops_by_type;
  for (std::size_t k = 0; k < config.kernels.size(); ++k) {
    flops_by_type[compute_type(config.kernels[k].workload)] +=
        config.kernel_config(k).analysis.flops;
  }
  DataType type = DataType::fp32;
  std::uint64_t most = 0;
  for (const auto& [t, flops] : flops_by_type) {
    if (flops > most) std::tie(type, most) = std::pair{t, flops};
  }
  RooflineChart chart;
  RooflineChart::Roof roof;
  roof.name = config.hardware.name;
  roof.peak_flop_per_s = config.hardware.peak_flop_per_s(type);
  roof.peak_label =
      fmt::format("P = {} ({})", engineering(roof.peak_flop_per_s, "FLOP/s"), name_of(type));
  roof.levels.push_back({"hbm", config.hardware.hbm_bytes_per_s()});
  if (config.hardware.l2) {
    roof.levels.push_back(
        {"l2", static_cast<double>(config.hardware.l2->bandwidth.bytes_per_second)});
  }
  chart.roofs.push_back(roof);
  chart.title = fmt::format(
      "Roofline of {} on {} ({}), a point per distinct kernel, its area its "
      "share of the time",
      config.description, roof.name, name_of(type));
  chart.legend_title = "kernel";
  double total = 0;
  for (std::size_t r = 0; r < config.runs.size(); ++r) total += group_time_s(config, simulated, r);
  for (std::size_t r = 0; r < config.runs.size(); ++r) {
    const GraphRun& run = config.runs[r];
    const Analysis& a = run.config.analysis;
    if (a.flops == 0) continue;  // no point on a log axis of FLOP/s
    const std::string series = group_name(config, run.kernels);
    const double share = ratio(group_time_s(config, simulated, r), total);
    const std::string note =
        fmt::format("{} x {}", run.kernels.size(), describe(run.config.workload));
    if (a.hbm_bytes() > 0) {
      RooflineChart::Point p;
      p.series = series;
      p.intensity_flop_per_byte = a.roofline.intensity_flop_per_byte;
      p.flop_per_s = a.roofline.roof_flop_per_s;
      p.note = note;
      p.time_share = simulated ? 0 : share;
      chart.points.push_back(p);
    }
    if (simulated && (*simulated)[r].hbm_bytes() > 0 && (*simulated)[r].time_s > 0) {
      const KernelSimulation& s = (*simulated)[r];
      RooflineChart::Point p;
      p.series = series;
      p.simulated = true;
      p.intensity_flop_per_byte =
          ratio(static_cast<double>(s.flops), static_cast<double>(s.hbm_bytes()));
      p.flop_per_s = ratio(static_cast<double>(s.flops), s.time_s);
      p.note = note;
      p.time_share = share;
      chart.points.push_back(p);
    }
  }
  return chart;
}

namespace {

// A bar of a Gantt chart: a kernel on a lane from its start for its time.
struct Bar {
  std::size_t kernel;
  std::size_t lane;
  double start_s;
  double time_s;
};

std::string gantt_svg(const GraphConfig& config, const std::string& title,
                      const std::vector<std::string>& lanes, const std::vector<Bar>& bars,
                      const std::vector<std::size_t>& colour_of) {
  double total = 0;
  for (const Bar& bar : bars) total = std::max(total, bar.start_s + bar.time_s);
  constexpr double kLabel = 260, kPlot = 720, kLane = 18, kTop = 28, kBottom = 30;
  const double height = kTop + kLane * static_cast<double>(lanes.size()) + kBottom;
  Svg svg(kLabel + kPlot + 20, height);
  svg.element("text", {{"x", "4"}, {"y", "16"}, {"font-size", "13"}}, title);
  const char* palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    const double y = kTop + kLane * static_cast<double>(lane);
    svg.element("text",
                {{"x", svg_number(kLabel - 6)},
                 {"y", svg_number(y + kLane - 5)},
                 {"font-size", "11"},
                 {"text-anchor", "end"}},
                short_label(lanes[lane]));
  }
  svg.open("g", {{"class", "kernels"}});
  for (const Bar& bar : bars) {
    const double y = kTop + kLane * static_cast<double>(bar.lane);
    const double x = kLabel + kPlot * ratio(bar.start_s, total);
    const double width = std::max(0.5, kPlot * ratio(bar.time_s, total));
    svg.open("rect", {{"x", svg_number(x)},
                      {"y", svg_number(y + 2)},
                      {"width", svg_number(width)},
                      {"height", svg_number(kLane - 4)},
                      {"fill", palette[colour_of[bar.kernel] % std::size(palette)]},
                      {"data-kernel", config.kernels[bar.kernel].name},
                      {"data-start-s", fmt::format("{}", bar.start_s)},
                      {"data-time-s", fmt::format("{}", bar.time_s)}});
    svg.element("title", {},
                fmt::format("{}: {} from {}", config.kernels[bar.kernel].name, duration(bar.time_s),
                            duration(bar.start_s)));
    svg.close("rect");
  }
  svg.close("g");
  const double axis_y = kTop + kLane * static_cast<double>(lanes.size()) + 14;
  svg.element("text", {{"x", svg_number(kLabel)}, {"y", svg_number(axis_y)}, {"font-size", "11"}},
              "0");
  svg.element("text",
              {{"x", svg_number(kLabel + kPlot)},
               {"y", svg_number(axis_y)},
               {"font-size", "11"},
               {"text-anchor", "end"}},
              duration(total));
  return svg.str();
}

// The distinct kernels in the order each first runs, and each kernel's place among them (its
// colour in both charts).
std::vector<std::size_t> distinct_lane_of_kernel(const GraphConfig& config,
                                                 std::vector<std::size_t>& lanes) {
  std::vector<std::size_t> lane_of(config.runs.size(), config.runs.size());
  for (std::size_t k : config.order) {
    const std::size_t run = config.run_of[k];
    if (lane_of[run] == config.runs.size()) {
      lane_of[run] = lanes.size();
      lanes.push_back(run);
    }
  }
  std::vector<std::size_t> of_kernel(config.kernels.size());
  for (std::size_t k = 0; k < config.kernels.size(); ++k) of_kernel[k] = lane_of[config.run_of[k]];
  return of_kernel;
}

// Kernel k's stream's place among `streams` (streams_of's).
std::size_t stream_lane(const GraphConfig& config, const std::vector<std::string>& streams,
                        std::size_t k) {
  return static_cast<std::size_t>(
      std::find(streams.begin(), streams.end(), config.kernels[k].stream) - streams.begin());
}

// A counter event ("C") at `start_s`: what a kernel kept busy of the HBM, the compute units and
// the block slots (nothing: all zero).
Json busy_counter(double start_s, const KernelDemand& demand) {
  return Json{
      {"name", "busy (fraction of the machine)"},
      {"ph", "C"},
      {"pid", 1},
      {"ts", start_s * 1e6},
      {"args",
       Json{{"hbm", demand.memory}, {"compute", demand.compute}, {"block slots", demand.cores}}}};
}

// The graph timeline's per-unit track: a counter per part of the machine, a value per bucket of
// each kernel's busy profile, coarsened so that a graph of hundreds of kernels stays a few
// megabytes.
constexpr const char* kUnitsTrack = "units busy (fraction of their time)";
constexpr std::size_t kProfileBucketsPerSlice = 48;

Json units_counter(double at_s, double loads, double compute, double stores,
                   std::optional<double> l2_port, double hbm) {
  Json args{{"cores: loads in flight", loads},
            {"cores: computing", compute},
            {"cores: stores in flight", stores}};
  if (l2_port) args["l2 port"] = *l2_port;
  args["hbm"] = hbm;
  return Json{{"name", kUnitsTrack}, {"ph", "C"}, {"pid", 1}, {"ts", at_s * 1e6}, {"args", args}};
}

// A kernel's profile from `start_s`, one counter event a bucket.
void add_units_counters(Json& events, double start_s, const BusyProfile& full) {
  const BusyProfile p = coarsened(full, kProfileBucketsPerSlice);
  for (std::size_t b = 0; b < p.hbm.size(); ++b) {
    events.push_back(units_counter(
        start_s + static_cast<double>(b) * p.bucket_s, p.loads[b], p.compute[b], p.stores[b],
        p.l2_port.empty() ? std::nullopt : std::optional<double>(p.l2_port[b]), p.hbm[b]));
  }
}

std::string stream_label(const std::string& stream) {
  return stream.empty() ? "stream (default)" : "stream " + stream;
}

}  // namespace

std::string graph_gantt_svg(const GraphConfig& config,
                            const std::vector<KernelSimulation>* simulated) {
  // A lane per distinct kernel, in the order each first runs.
  std::vector<std::size_t> runs;
  const std::vector<std::size_t> lane_of = distinct_lane_of_kernel(config, runs);
  std::vector<std::string> lanes;
  for (std::size_t run : runs) lanes.push_back(group_name(config, config.runs[run].kernels));
  std::vector<Bar> bars;
  for (const Slice& slice : schedule(config, simulated)) {
    bars.push_back(Bar{slice.kernel, lane_of[slice.kernel], slice.start_s, slice.time_s});
  }
  return gantt_svg(config,
                   fmt::format("The kernels over time ({}, one after another)",
                               simulated ? "simulated" : "T_ideal"),
                   lanes, bars, lane_of);
}

std::string graph_streams_gantt_svg(const GraphConfig& config,
                                    const std::vector<KernelSimulation>* simulated) {
  const std::vector<std::string> streams = streams_of(config);
  std::vector<std::string> lanes;
  for (const std::string& stream : streams) lanes.push_back(stream_label(stream));
  std::vector<std::size_t> runs;
  const std::vector<std::size_t> colour_of = distinct_lane_of_kernel(config, runs);
  const SharedSchedule at_once = streams_schedule(config, simulated);
  std::vector<Bar> bars;
  for (std::size_t k : config.order) {
    bars.push_back(Bar{k, stream_lane(config, streams, k), at_once.start_s[k],
                       at_once.finish_s[k] - at_once.start_s[k]});
  }
  return gantt_svg(config,
                   fmt::format("The streams at once ({}, sharing the machine)",
                               simulated ? "simulated" : "T_ideal"),
                   lanes, bars, colour_of);
}

std::string graph_timeline_json(const GraphConfig& config,
                                const std::vector<KernelSimulation>& simulated) {
  Json events = Json::array();
  events.push_back(Json{{"name", "process_name"},
                        {"ph", "M"},
                        {"pid", 1},
                        {"args", Json{{"name", config.description}}}});
  events.push_back(Json{{"name", "thread_name"},
                        {"ph", "M"},
                        {"pid", 1},
                        {"tid", 1},
                        {"args", Json{{"name", "kernels"}}}});
  const std::vector<Slice> slices = schedule(config, &simulated);
  for (const Slice& slice : slices) {
    const std::size_t run = config.run_of[slice.kernel];
    const KernelSimulation& s = simulated[run];
    events.push_back(Json{{"name", config.kernels[slice.kernel].name},
                          {"cat", kind_name(config.kernels[slice.kernel].workload)},
                          {"ph", "X"},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", slice.start_s * 1e6},
                          {"dur", slice.time_s * 1e6},
                          {"args", Json{{"flops", s.flops},
                                        {"hbm_bytes", s.hbm_bytes()},
                                        {"bound_at", s.limit},
                                        {"limiter", s.limiter}}}});
    // Beneath the slice, a counter track per part of the machine: what the kernel kept busy of
    // it, on average over its run (its own timeline has the per-unit detail; a graph's would be
    // every kernel's many times over).
    events.push_back(busy_counter(slice.start_s, s.demand));
    // And its units over its run, where its run reported them (run --timeline asks them).
    if (s.busy) add_units_counters(events, slice.start_s, *s.busy);
  }
  if (!slices.empty()) {  // the counters fall to zero when the last kernel ends
    const double end_s = slices.back().start_s + slices.back().time_s;
    events.push_back(busy_counter(end_s, KernelDemand{}));
    if (simulated[config.run_of[slices.back().kernel]].busy) {
      events.push_back(units_counter(
          end_s, 0, 0, 0, config.hardware.l2 ? std::optional<double>(0) : std::nullopt, 0));
    }
  }
  // With several streams, a second process: a track per stream, the kernels at once.
  const std::vector<std::string> streams = streams_of(config);
  if (streams.size() > 1) {
    events.push_back(Json{{"name", "process_name"},
                          {"ph", "M"},
                          {"pid", 2},
                          {"args", Json{{"name", "streams at once (sharing the machine)"}}}});
    for (std::size_t i = 0; i < streams.size(); ++i) {
      events.push_back(Json{{"name", "thread_name"},
                            {"ph", "M"},
                            {"pid", 2},
                            {"tid", i + 1},
                            {"args", Json{{"name", stream_label(streams[i])}}}});
    }
    const SharedSchedule at_once = streams_schedule(config, &simulated);
    for (std::size_t k : config.order) {
      const std::size_t tid = stream_lane(config, streams, k) + 1;
      events.push_back(Json{{"name", config.kernels[k].name},
                            {"cat", kind_name(config.kernels[k].workload)},
                            {"ph", "X"},
                            {"pid", 2},
                            {"tid", tid},
                            {"ts", at_once.start_s[k] * 1e6},
                            {"dur", (at_once.finish_s[k] - at_once.start_s[k]) * 1e6}});
    }
  }
  return Json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

std::string render_graph_html(const GraphConfig& config,
                              const std::vector<KernelSimulation>* simulated) {
  std::string html = html_page_start(config.description);
  html += fmt::format("<h1>{}</h1>\n<p>on {}: {} kernels, {} distinct</p>\n",
                      xml_escape(config.description), xml_escape(config.hardware.name),
                      config.kernels.size(), config.runs.size());
  html += "<ul>\n";
  for (const std::string& line : graph_totals_lines(config, simulated)) {
    html += "<li>" + xml_escape(line) + "</li>\n";
  }
  html += "</ul>\n";
  html += table_html(graph_kernel_table(config, simulated));
  html += "<h2>Roofline</h2>\n<div class=\"chart\" id=\"roofline\">\n" +
          render_roofline_svg(graph_roofline(config, simulated)) + "</div>\n";
  html += "<h2>The kernels over time</h2>\n<div class=\"chart\" id=\"gantt\">\n" +
          graph_gantt_svg(config, simulated) + "</div>\n";
  if (streams_of(config).size() > 1) {
    html += "<h2>The streams at once</h2>\n<div class=\"chart\" id=\"streams\">\n" +
            graph_streams_gantt_svg(config, simulated) + "</div>\n";
  }
  return html + html_page_end();
}

}  // namespace ridgeline
