#include "sim/report/memory_report.hpp"

#include <fmt/format.h>

#include "sim/config/quantity.hpp"

namespace ridgeline {

namespace {

double ns(Time t) { return static_cast<double>(t.ps()) / 1e3; }

double fraction(double part, double whole) { return whole > 0 ? part / whole : 0; }

struct Latency {
  Time mean, min, p50, p90, p99, max;
};

Latency latency_of(const LatencyHistogram& h) {
  return Latency{h.mean(),           h.min(), h.percentile(0.50), h.percentile(0.90),
                 h.percentile(0.99), h.max()};
}

}  // namespace

Json memory_trace_json(const RunConfig& config, const SimulationResult& r) {
  const TracePlayerStats& t = *r.trace;
  const std::uint64_t bytes = t.read_bytes + t.write_bytes;
  const double seconds = r.time.seconds();
  const double achieved = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  const Latency l = latency_of(t.latency);
  return Json{{"accesses", t.reads + t.writes},
              {"loads", t.reads},
              {"stores", t.writes},
              {"bytes", bytes},
              {"achieved_bytes_per_s", achieved},
              {"fraction_of_peak_bandwidth", fraction(achieved, config.hardware.hbm_bytes_per_s())},
              {"latency_s",
               {{"mean", l.mean.seconds()},
                {"min", l.min.seconds()},
                {"p50", l.p50.seconds()},
                {"p90", l.p90.seconds()},
                {"p99", l.p99.seconds()},
                {"max", l.max.seconds()}}},
              {"in_flight_limit_s", t.in_flight_limit.seconds()},
              {"players", config.hardware.cores}};
}

std::string memory_trace_text(const RunConfig& config, const SimulationResult& r) {
  const TracePlayerStats& t = *r.trace;
  const std::uint64_t bytes = t.read_bytes + t.write_bytes;
  const double seconds = r.time.seconds();
  const double achieved = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  const double peak = config.hardware.hbm_bytes_per_s();
  const Latency l = latency_of(t.latency);
  std::string out;
  out += fmt::format("  memory trace: {} accesses ({} loads, {} stores), {} bytes, in {}\n",
                     with_commas(t.reads + t.writes), with_commas(t.reads), with_commas(t.writes),
                     with_commas(bytes), duration(seconds));
  out += fmt::format("    achieved {} = {:.1f} % of the peak {}\n", engineering(achieved, "B/s"),
                     100 * fraction(achieved, peak), engineering(peak, "B/s"));
  out += fmt::format(
      "    latency, issue to last byte (ns): mean {:.3f}  min {:.3f}  p50 {:.3f}  p90 {:.3f}  "
      "p99 {:.3f}  max {:.3f}\n",
      ns(l.mean), ns(l.min), ns(l.p50), ns(l.p90), ns(l.p99), ns(l.max));
  out += fmt::format(
      "    {} players; the next access waited for the in-flight limit {:.1f} % of player-time\n",
      config.hardware.cores,
      100 * fraction(t.in_flight_limit.seconds(), seconds * config.hardware.cores));
  return out;
}

namespace {

// The figures of one pseudo-channel, or of all of them summed, derived from the counters.
struct DramFigures {
  double accesses, hit_rate, read_queue_mean, write_queue_mean, batch_length;
  Latency queueing, service;
};

DramFigures dram_figures(const DramStats& d) {
  DramFigures f;
  f.accesses = static_cast<double>(d.row_hits + d.row_misses + d.row_conflicts);
  f.hit_rate = fraction(static_cast<double>(d.row_hits), f.accesses);
  const auto samples = static_cast<double>(d.queue_samples);
  f.read_queue_mean = fraction(static_cast<double>(d.read_queue_sum), samples);
  f.write_queue_mean = fraction(static_cast<double>(d.write_queue_sum), samples);
  f.batch_length =
      fraction(static_cast<double>(d.batched_writes), static_cast<double>(d.write_batches));
  // The stack's percentiles (a pseudo-channel's stats carry no histograms); the means from the
  // sums every pseudo-channel keeps, rounded as a histogram's.
  f.queueing = latency_of(d.read_queueing_latency);
  f.service = latency_of(d.read_service_latency);
  f.queueing.mean = LatencyHistogram::mean_of(d.read_queueing.ps(), d.served_reads);
  f.service.mean = LatencyHistogram::mean_of(d.read_service.ps(), d.served_reads);
  return f;
}

Json latency_json(const Latency& l) {
  return Json{{"mean", l.mean.seconds()}, {"p50", l.p50.seconds()}, {"p90", l.p90.seconds()},
              {"p99", l.p99.seconds()},   {"max", l.max.seconds()}};
}

Json dram_stats_json(const DramStats& d, double unit_time_s) {
  Json json = Json::object();
  d.visit([&](std::string_view name, double value, std::string_view, std::string_view) {
    json[std::string(name)] = value;
  });
  const DramFigures f = dram_figures(d);
  json["row_hit_rate"] = f.hit_rate;
  json["refresh_busy_fraction"] = fraction(d.refresh_busy.seconds(), unit_time_s);
  json["read_queue_mean"] = f.read_queue_mean;
  json["write_queue_mean"] = f.write_queue_mean;
  json["write_batch_mean"] = f.batch_length;
  json["read_latency_s"] = {{"queueing", latency_json(f.queueing)},
                            {"service", latency_json(f.service)}};
  return json;
}

// One pseudo-channel's line of the per-channel table: the figures that tell channels apart.
Json dram_unit_json(const DramStats& d, double time_s) {
  const DramFigures f = dram_figures(d);
  return Json{{"row_hits", d.row_hits},
              {"row_misses", d.row_misses},
              {"row_conflicts", d.row_conflicts},
              {"read_queue_mean", f.read_queue_mean},
              {"read_queue_max", d.read_queue_max},
              {"write_queue_mean", f.write_queue_mean},
              {"write_queue_max", d.write_queue_max},
              {"in_order", d.in_order},
              {"ready_first", d.ready_first},
              {"row_hit_first", d.row_hit_first},
              {"forwarded", d.forwarded},
              {"write_batches", d.write_batches},
              {"write_batch_mean", f.batch_length},
              {"turnarounds", d.turnarounds},
              {"refresh_busy_fraction", fraction(d.refresh_busy.seconds(), time_s)},
              {"bus_busy_fraction", fraction(d.bus_busy.seconds(), time_s)},
              {"read_queueing_mean_s", f.queueing.mean.seconds()},
              {"read_service_mean_s", f.service.mean.seconds()}};
}

}  // namespace

Json dram_json(const SimulationResult& r) {
  Json json = dram_stats_json(*r.dram, r.time.seconds() * r.hbm_units);
  Json units = Json::array();
  for (const DramStats& unit : r.dram_units) units.push_back(dram_unit_json(unit, r.time.seconds()));
  json["pseudo_channels"] = std::move(units);
  return json;
}

std::string dram_text(const SimulationResult& r) {
  const DramStats& d = *r.dram;
  const std::uint64_t accesses = d.row_hits + d.row_misses + d.row_conflicts;
  const auto share = [&](std::uint64_t n) {
    return 100 * fraction(static_cast<double>(n), static_cast<double>(accesses));
  };
  const DramFigures f = dram_figures(d);
  std::string out;
  out += fmt::format(
      "  HBM (detailed): {} row accesses: {:.1f} % hits, {:.1f} % misses, {:.1f} % conflicts; "
      "{} activations\n",
      with_commas(accesses), share(d.row_hits), share(d.row_misses), share(d.row_conflicts),
      with_commas(d.activations));
  out += fmt::format(
      "    refreshes {} ({:.1f} % of pseudo-channel time), read/write turnarounds {}, data bus "
      "busy {:.1f} %\n",
      with_commas(d.refreshes),
      100 * fraction(d.refresh_busy.seconds(), r.time.seconds() * r.hbm_units),
      with_commas(d.turnarounds),
      100 * fraction(d.bus_busy.seconds(), r.time.seconds() * r.hbm_units));
  out += fmt::format(
      "    scheduler: {} in order, {} ready first, {} row hit first, {} reads from the write "
      "queue, {} writes merged; {} write batches of {:.1f} on average (longest {})\n",
      with_commas(d.in_order), with_commas(d.ready_first), with_commas(d.row_hit_first),
      with_commas(d.forwarded), with_commas(d.writes_merged), with_commas(d.write_batches),
      f.batch_length, with_commas(d.longest_batch));
  out += fmt::format(
      "    queues a pseudo-channel: read {:.1f} mean, {} max; write {:.1f} mean, {} max; {} "
      "accesses waited for a full one\n",
      f.read_queue_mean, d.read_queue_max, f.write_queue_mean, d.write_queue_max,
      with_commas(d.queue_full_waits));
  out += fmt::format(
      "    read latency (ns): queueing mean {:.1f} p50 {:.1f} p99 {:.1f}; service mean {:.1f} "
      "p50 {:.1f} p99 {:.1f}\n",
      ns(f.queueing.mean), ns(f.queueing.p50), ns(f.queueing.p99), ns(f.service.mean),
      ns(f.service.p50), ns(f.service.p99));
  if (r.dram_units.size() > 1 && r.dram_units.size() <= 64) {
    out += "    pseudo-channel  hits %  confl %  rq mean/max  wq mean/max  batches  turnarounds"
           "  refresh %  read q/s ns\n";
    for (std::size_t u = 0; u < r.dram_units.size(); ++u) {
      const DramStats& s = r.dram_units[u];
      const DramFigures g = dram_figures(s);
      out += fmt::format(
          "    {:>14}  {:>6.1f}  {:>7.1f}  {:>5.1f}/{:<5} {:>5.1f}/{:<5} {:>7}  {:>11}  {:>9.1f}"
          "  {:.1f}/{:.1f}\n",
          u, 100 * g.hit_rate,
          100 * fraction(static_cast<double>(s.row_conflicts), g.accesses), g.read_queue_mean,
          s.read_queue_max, g.write_queue_mean, s.write_queue_max, s.write_batches,
          s.turnarounds, 100 * fraction(s.refresh_busy.seconds(), r.time.seconds()),
          ns(g.queueing.mean), ns(g.service.mean));
    }
  }
  return out;
}

}  // namespace ridgeline
