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

Json dram_json(const SimulationResult& r) {
  Json json = Json::object();
  r.dram->visit([&](std::string_view name, double value, std::string_view, std::string_view) {
    json[std::string(name)] = value;
  });
  const DramStats& d = *r.dram;
  const double accesses = static_cast<double>(d.row_hits + d.row_misses + d.row_conflicts);
  json["row_hit_rate"] = fraction(static_cast<double>(d.row_hits), accesses);
  json["refresh_busy_fraction"] =
      fraction(d.refresh_busy.seconds(), r.time.seconds() * r.hbm_units);
  return json;
}

std::string dram_text(const SimulationResult& r) {
  const DramStats& d = *r.dram;
  const std::uint64_t accesses = d.row_hits + d.row_misses + d.row_conflicts;
  const auto share = [&](std::uint64_t n) {
    return 100 * fraction(static_cast<double>(n), static_cast<double>(accesses));
  };
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
  return out;
}

}  // namespace ridgeline
