#include "tests/invariants/report_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string_view>

namespace ridgeline::test {

namespace {

using nlohmann::json;

// The leaf at a dotted path ("simulated.stalls.draining_s"), or null when a key on the way is
// missing.
const json* find(const json& root, std::string_view path) {
  const json* node = &root;
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    const std::string key(path.substr(0, dot));
    if (!node->is_object()) return nullptr;
    const auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  }
  return node;
}

std::string number_text(double value) { return fmt::format("{:.12g}", value); }

class Checks {
 public:
  explicit Checks(const json& report) : report_(report) {}

  /// The number at `path`; a missing or non-numeric one is a failure (and NaN, which no later
  /// comparison passes or fails on).
  double number(const std::string& path) {
    const json* leaf = find(report_, path);
    if (!leaf || !leaf->is_number()) {
      fail(fmt::format("the report has no number at {}", path));
      return std::nan("");
    }
    return leaf->get<double>();
  }
  /// The number at `path`, or `otherwise` when the report has none there.
  double number_or(const std::string& path, double otherwise) const {
    const json* leaf = find(report_, path);
    return leaf && leaf->is_number() ? leaf->get<double>() : otherwise;
  }
  bool has(const std::string& path) const { return find(report_, path) != nullptr; }

  void fail(std::string sentence) { failures_.push_back(std::move(sentence)); }

  /// Counts the report gives twice must agree to the unit.
  void equal(const std::string& what, double value, const std::string& what_expected,
             double expected) {
    if (std::isnan(value) || std::isnan(expected) || value == expected) return;
    fail(fmt::format("{} = {} but {} = {} (difference {})", what, number_text(value), what_expected,
                     number_text(expected), number_text(value - expected)));
  }

  /// `amount` at `rate` takes at least amount / rate: the run's time must be that long.
  void takes_at_least(const std::string& what, double amount, const std::string& rate_name,
                      double rate, double time_s) {
    if (std::isnan(amount) || std::isnan(rate) || std::isnan(time_s) || rate <= 0) return;
    const double needed = amount / rate;
    if (needed <= time_s * (1 + kRelativeTolerance) + kTimeToleranceS) return;
    fail(fmt::format(
        "{} = {} at {} = {}/s needs at least {} s but simulated.time_s = {} s: {} of the peak",
        what, number_text(amount), rate_name, number_text(rate), number_text(needed),
        number_text(time_s), percent(needed / time_s)));
  }

  /// A rate the report prints must not exceed the peak it is a rate of.
  void rate_at_most(const std::string& what, double rate, const std::string& peak_name, double peak,
                    double time_s) {
    if (std::isnan(rate) || std::isnan(peak) || std::isnan(time_s) || time_s <= 0) return;
    const double allowed = peak * (1 + kRelativeTolerance) * (time_s + kTimeToleranceS) / time_s;
    if (rate <= allowed) return;
    fail(fmt::format("{} = {} is above {} = {}: {} of it", what, number_text(rate), peak_name,
                     number_text(peak), percent(rate / peak)));
  }

  /// `time_s` must cover `part_s` (a time spent inside the run).
  void time_at_least(const std::string& what, double part_s, double time_s) {
    if (std::isnan(part_s) || std::isnan(time_s)) return;
    if (part_s <= time_s * (1 + kRelativeTolerance) + kTimeToleranceS) return;
    fail(fmt::format("{} = {} s is longer than the run, simulated.time_s = {} s", what,
                     number_text(part_s), number_text(time_s)));
  }

  void at_most(const std::string& what, double value, const std::string& bound_name, double bound) {
    if (std::isnan(value) || std::isnan(bound)) return;
    if (value <= bound + kRelativeTolerance * std::abs(bound)) return;
    fail(fmt::format("{} = {} is above {} = {}", what, number_text(value), bound_name,
                     number_text(bound)));
  }

  void fraction(const std::string& path, double value) {
    if (value >= -kRelativeTolerance && value <= 1 + kRelativeTolerance) return;
    fail(fmt::format("{} = {} is a fraction outside [0, 1] ({})", path, number_text(value),
                     percent(value)));
  }

  std::vector<std::string> take() { return std::move(failures_); }

  static std::string percent(double share) { return fmt::format("{:.4f} %", 100 * share); }

 private:
  const json& report_;
  std::vector<std::string> failures_;
};

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Every leaf the report names as a share: *_fraction, fraction, *hit_rate,
// fraction_of_peak_bandwidth. `skip` names a path that is not a share of anything here.
void check_fractions(Checks& checks, const json& node, const std::string& path,
                     const std::string& skip) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      check_fractions(checks, value, path.empty() ? key : path + "." + key, skip);
    }
    return;
  }
  if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      const json& entry = node[i];
      const std::string name =
          entry.is_object() && entry.contains("name") && entry["name"].is_string()
              ? entry["name"].get<std::string>()
              : std::to_string(i);
      check_fractions(checks, entry, path + "." + name, skip);
    }
    return;
  }
  if (!node.is_number() || path == skip) return;
  const std::string key = path.substr(path.rfind('.') + 1);
  if (ends_with(key, "_fraction") || key == "fraction" || ends_with(key, "hit_rate") ||
      key == "fraction_of_peak_bandwidth") {
    checks.fraction(path, node.get<double>());
  }
}

}  // namespace

std::vector<std::string> check_report(const json& report) {
  Checks c(report);
  if (!report.contains("simulated")) {
    c.fail("the report has no simulated section (was it written by `ridgeline run`?)");
    return c.take();
  }
  const bool trace = report.contains("workload") &&
                     report["workload"].value("kind", "") == std::string("memory_trace");
  const bool l2 = c.has("hardware.l2");

  // Time.
  const double time = c.number("simulated.time_s");
  if (!(time > 0)) c.fail(fmt::format("simulated.time_s = {} is not above 0", number_text(time)));

  // FLOPs: the work done is the work there is, at no more than P.
  const double flops = c.number("simulated.flops");
  const double peak = c.number("hardware.peak_flop_per_s");
  if (trace) {
    c.equal("simulated.flops", flops, "the memory trace's", 0);
  } else {
    c.equal("simulated.flops", flops, "analytical.flops", c.number("analytical.flops"));
  }
  c.takes_at_least("simulated.flops", flops, "hardware.peak_flop_per_s", peak, time);
  c.rate_at_most("simulated.achieved_flop_per_s", c.number("simulated.achieved_flop_per_s"),
                 "hardware.peak_flop_per_s", peak, time);

  // HBM: its bytes at no more than its peak.
  const double hbm = c.number("simulated.hbm_bytes");
  const double hbm_read = c.number("simulated.hbm_read_bytes");
  const double hbm_write = c.number("simulated.hbm_write_bytes");
  const double hbm_peak = c.number("hardware.hbm_bytes_per_s");
  c.equal("simulated.hbm_bytes", hbm, "hbm_read_bytes + hbm_write_bytes", hbm_read + hbm_write);
  c.takes_at_least("simulated.hbm_bytes", hbm, "hardware.hbm_bytes_per_s", hbm_peak, time);
  c.rate_at_most("simulated.achieved_hbm_bytes_per_s",
                 c.number("simulated.achieved_hbm_bytes_per_s"), "hardware.hbm_bytes_per_s",
                 hbm_peak, time);
  c.number("simulated.hbm_busy_fraction");  // shares: held to [0, 1] with all the others below
  c.number("simulated.compute_busy_fraction");

  // Every level of the hierarchical roofline: its bytes at no more than its bandwidth.
  const json* levels = find(report, "simulated.levels");
  if (!levels || !levels->is_array() || levels->empty()) {
    c.fail("the report has no simulated.levels");
  } else {
    for (const json& level : *levels) {
      const std::string name = level.value("name", std::string("?"));
      const std::string at = "simulated.levels." + name;
      const double bytes = level.value("bytes", std::nan(""));
      const double bandwidth = level.value("bandwidth_bytes_per_s", std::nan(""));
      c.takes_at_least(at + ".bytes", bytes, at + ".bandwidth_bytes_per_s", bandwidth, time);
      c.time_at_least(at + ".time_s", level.value("time_s", std::nan("")), time);
      if (!level.contains("busy_fraction")) c.fail(at + " has no busy_fraction");
      if (name == "hbm") c.equal(at + ".bytes", bytes, "simulated.hbm_bytes", hbm);
    }
  }

  // What reached HBM against what the work needs.
  const double local_read = trace ? 0 : c.number_or("analytical.local_memory.read_bytes", 0);
  const double local_write = trace ? 0 : c.number_or("analytical.local_memory.write_bytes", 0);
  const double q_read = c.number("analytical.hbm_read_bytes") + local_read;
  const double q_write = c.number("analytical.hbm_write_bytes") + local_write;
  const std::string q_name =
      trace ? std::string("analytical.hbm_bytes")
            : std::string("analytical.hbm_bytes + analytical.local_memory.bytes");
  c.equal("analytical.hbm_bytes", c.number("analytical.hbm_bytes"),
          "analytical.hbm_read_bytes + hbm_write_bytes",
          c.number("analytical.hbm_read_bytes") + c.number("analytical.hbm_write_bytes"));
  if (!l2) {
    // Without a cache every byte the cores move is an HBM byte: Q, plus spill traffic.
    c.equal("simulated.hbm_bytes (no L2)", hbm, q_name, q_read + q_write);
    c.equal("simulated.hbm_read_bytes (no L2)", hbm_read, "the analytical reads", q_read);
    c.equal("simulated.hbm_write_bytes (no L2)", hbm_write, "the analytical writes", q_write);
  } else {
    // HBM serves the L2 and nothing else: fills are its reads, write-backs and write-throughs
    // its writes. What the L2 still holds dirty at the kernel's end is not written.
    const double fills = c.number("components.l2.fill_bytes");
    const double writebacks = c.number("components.l2.writeback_bytes");
    const double write_through = c.number("components.l2.write_through_bytes");
    c.equal("simulated.hbm_read_bytes", hbm_read, "components.l2.fill_bytes", fills);
    c.equal("simulated.hbm_write_bytes", hbm_write,
            "components.l2 writeback_bytes + write_through_bytes", writebacks + write_through);
    c.equal("simulated.l2.hbm_bytes", c.number("simulated.l2.hbm_bytes"), "simulated.hbm_bytes",
            hbm);
    c.equal("simulated.l2.requested_bytes", c.number("simulated.l2.requested_bytes"), q_name,
            q_read + q_write);
  }

  if (trace) {
    const double bytes = c.number("simulated.trace.bytes");
    c.equal("simulated.trace.bytes", bytes, "analytical.hbm_bytes",
            c.number("analytical.hbm_bytes"));
    c.equal("simulated.trace.accesses", c.number("simulated.trace.accesses"), "loads + stores",
            c.number("simulated.trace.loads") + c.number("simulated.trace.stores"));
    const double achieved = c.number("simulated.trace.achieved_bytes_per_s");
    if (!l2) {
      c.rate_at_most("simulated.trace.achieved_bytes_per_s", achieved, "hardware.hbm_bytes_per_s",
                     hbm_peak, time);
    } else {
      c.rate_at_most("simulated.trace.achieved_bytes_per_s", achieved,
                     "hardware.l2.bandwidth_bytes_per_s",
                     c.number("hardware.l2.bandwidth_bytes_per_s"), time);
    }
    // Latencies: ordered, positive, within the run. The percentiles come from a histogram at
    // most 0.8 % above the exact value (docs/CONFIG.md), so the top one may pass the maximum
    // by that much.
    const std::string l = "simulated.trace.latency_s.";
    const double min = c.number(l + "min");
    const double p50 = c.number(l + "p50");
    const double p90 = c.number(l + "p90");
    const double p99 = c.number(l + "p99");
    const double max = c.number(l + "max");
    const double mean = c.number(l + "mean");
    if (!(min > 0)) c.fail(fmt::format("{}min = {} is not above 0", l, number_text(min)));
    c.at_most(l + "min", min, l + "mean", mean);
    c.at_most(l + "mean", mean, l + "max", max);
    c.at_most(l + "p50", p50, l + "p90", p90);
    c.at_most(l + "p90", p90, l + "p99", p99);
    c.at_most(l + "min", min, l + "p50 (+0.8 %)", p50 * 1.008);
    c.at_most(l + "p99", p99, l + "max (+0.8 %)", max * 1.008);
    c.time_at_least(l + "max", max, time);
  } else {
    c.time_at_least("simulated.block_critical_path_s", c.number("simulated.block_critical_path_s"),
                    time);
    // Spill traffic counted as simulated is what the analytical model says.
    c.equal("simulated.local_memory.bytes", c.number("simulated.local_memory.bytes"),
            "analytical.local_memory.bytes", local_read + local_write);
    // Core-seconds: no stall lasts longer than all cores for the whole run. loads_waiting_buffer_s
    // is summed over resident blocks (at most resident_blocks_per_core a core); hbm_queueing_s
    // over requests (many may queue at once), so it has no such bound.
    const double cores = c.number("hardware.cores");
    const double resident = c.number("simulated.resident_blocks_per_core");
    if (const json* stalls = find(report, "simulated.stalls"); stalls && stalls->is_object()) {
      for (const auto& [key, value] : stalls->items()) {
        if (key == "hbm_queueing_s" || !value.is_number()) continue;
        if (key == "loads_waiting_buffer_s") {
          c.time_at_least(
              "simulated.stalls." + key + " / (hardware.cores x resident_blocks_per_core)",
              value.get<double>() / (cores * resident), time);
          continue;
        }
        c.time_at_least("simulated.stalls." + key + " / hardware.cores",
                        value.get<double>() / cores, time);
      }
    } else {
      c.fail("the report has no simulated.stalls");
    }
    c.time_at_least("simulated.overlap_s / hardware.cores", c.number("simulated.overlap_s") / cores,
                    time);
    c.time_at_least("simulated.barriers.compute_idle_s / hardware.cores",
                    c.number_or("simulated.barriers.compute_idle_s", 0) / cores, time);
    // Occupancy: never more blocks resident than a core holds.
    const double slots = c.number("hardware.max_resident_blocks");
    c.at_most("simulated.resident_blocks_per_core", resident, "hardware.max_resident_blocks",
              slots);
    const double peak_resident = c.number("simulated.occupancy.resident_blocks_peak");
    c.at_most("simulated.occupancy.resident_blocks_peak", peak_resident,
              "hardware.max_resident_blocks", slots);
    c.at_most("simulated.occupancy.resident_blocks_mean",
              c.number("simulated.occupancy.resident_blocks_mean"),
              "simulated.occupancy.resident_blocks_peak", peak_resident);
    // The limiter's roof is the lowest of P and every level's bandwidth x its measured
    // intensity: a run reaches it at most. The headline percent_of_roof counts the note's Q,
    // which an L2 may beat (the text report says so), so it is bounded only without one.
    c.at_most("simulated.limiter.percent_of_roof", c.number("simulated.limiter.percent_of_roof"),
              "100 % (+1 ps)", 100 * (1 + kRelativeTolerance) * (time + kTimeToleranceS) / time);
    if (!l2) {
      c.at_most("simulated.percent_of_roof (no L2)", c.number("simulated.percent_of_roof"),
                "100 % (+1 ps)", 100 * (1 + kRelativeTolerance) * (time + kTimeToleranceS) / time);
    }
  }

  // Every share anywhere in the report. A trace's fraction_of_peak_bandwidth is its bytes over
  // HBM's peak; behind an L2 that serves hits it is no share of anything (bounded above by the
  // L2's port instead).
  check_fractions(c, report, "", l2 ? "simulated.trace.fraction_of_peak_bandwidth" : "");
  return c.take();
}

}  // namespace ridgeline::test
