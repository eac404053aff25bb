#include "sim/config/hardware_guards.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "sim/config/quantity.hpp"
#include "sim/util/text_format.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

// The figures each stated figure is checked against, as key paths below `hardware`.
std::vector<std::string> peak_inputs(const std::string& root, DataType type) {
  return {root + ".cores.count", root + ".cores.compute.throughput." + std::string(name_of(type))};
}
std::vector<std::string> interface_inputs(const std::string& root) {
  return {root + ".hbm.bandwidth", root + ".hbm.channels", root + ".hbm.pseudo_channels"};
}
std::vector<std::string> sets_inputs(const std::string& root) {
  return {root + ".l2.capacity", root + ".l2.line_size", root + ".l2.associativity"};
}

// Whether the stated figure at `stated` is checked: every figure it is checked against comes
// from the file, or from where the stated figure came from.
bool checked(const ConfigNode& hardware, const std::string& stated,
             const std::vector<std::string>& inputs) {
  const std::string own = hardware.source_of(stated);
  for (const std::string& path : inputs) {
    const std::string source = hardware.source_of(path);
    if (source != hardware.document_path() && source != own) return false;
  }
  return true;
}

double gap(double simulated, double stated) { return std::fabs(simulated - stated) / stated; }

// "0.08 % below", "1.06 % above".
std::string gap_text(double simulated, double stated) {
  return fmt::format("{:.2f} % {}", 100 * gap(simulated, stated),
                     simulated < stated ? "below" : "above");
}

std::string tolerance_text() {
  return fmt::format("they may differ by at most {:g} % (a datasheet's rounding)",
                     100 * kStatedTolerance);
}

struct StatedPeak {
  std::uint64_t flop_per_s = 0;
  std::uint64_t clock_hz = 0;
};

// "989.4TFLOP/s @ 1.83GHz": a datasheet's peak and the clock it is given at.
StatedPeak parse_stated_peak(const ConfigNode& node) {
  const std::string text = node.text();
  const std::string fix =
      "write the datasheet's peak and the clock it is given at, e.g. 989.4TFLOP/s @ 1.83GHz";
  const auto at = text.find('@');
  if (at == std::string::npos)
    node.fail("a stated peak names the clock it is stated at: PEAK @ CLOCK", fix);
  StatedPeak peak;
  try {
    peak.flop_per_s = parse_quantity(text.substr(0, at), Dimension::flop_rate);
  } catch (const QuantityError& error) {
    node.fail(fmt::format("the peak, before '@': {}", error.what()), error.fix());
  }
  try {
    peak.clock_hz = parse_quantity(text.substr(at + 1), Dimension::frequency);
  } catch (const QuantityError& error) {
    node.fail(fmt::format("the clock, after '@': {}", error.what()), error.fix());
  }
  if (peak.flop_per_s == 0 || peak.clock_hz == 0)
    node.fail("the peak and its clock must be greater than zero", fix);
  return peak;
}

void check_peaks(const ConfigNode& hardware, const ConfigNode& peaks,
                 const HardwareParams& params) {
  std::vector<std::pair<DataType, ConfigNode>> entries;
  for (DataType type : kAllDataTypes) {
    if (auto entry = peaks.optional(name_of(type))) entries.emplace_back(type, *entry);
  }
  peaks.reject_unknown_keys();
  for (const auto& [type, entry] : entries) {
    const StatedPeak stated = parse_stated_peak(entry);
    if (!checked(hardware, entry.key_path(), peak_inputs(hardware.key_path(), type))) continue;
    const std::string name(name_of(type));
    const std::uint64_t per_cycle = params.core.compute.flops_per_cycle[index_of(type)];
    if (per_cycle == 0) {
      entry.fail(fmt::format("the machine lists no cores.compute.throughput.{} for a stated peak "
                             "to be checked against",
                             name),
                 "add the throughput, or remove the stated peak");
    }
    const double simulated = static_cast<double>(params.cores) * static_cast<double>(per_cycle) *
                             static_cast<double>(stated.clock_hz);
    const auto peak = static_cast<double>(stated.flop_per_s);
    if (gap(simulated, peak) <= kStatedTolerance) continue;
    entry.fail(
        fmt::format("cores.count x throughput.{} x the stated clock = {} x {} FLOP/cycle x {} = "
                    "{}, {} the stated {}; {}",
                    name, params.cores, per_cycle,
                    engineering(static_cast<double>(stated.clock_hz), "Hz"),
                    engineering(simulated, "FLOP/s"), gap_text(simulated, peak),
                    engineering(peak, "FLOP/s"), tolerance_text()),
        fmt::format("correct cores.count or cores.compute.throughput.{}, or the stated peak and "
                    "its clock",
                    name));
  }
}

void check_interface(const ConfigNode& hardware, const ConfigNode& interface,
                     const HbmParams& hbm) {
  const ConfigNode pins_node = interface.required("data_pins");
  const std::uint64_t pins = pins_node.positive_count_at_most(std::uint64_t{1} << 20);
  const std::uint64_t rate = interface.required("pin_rate").positive_quantity(Dimension::bit_rate);
  interface.reject_unknown_keys();
  if (!checked(hardware, interface.key_path(), interface_inputs(hardware.key_path()))) return;
  const std::uint64_t parts = hbm.units();
  if (pins % parts != 0) {
    pins_node.fail(
        fmt::format("{} data pins do not split evenly over channels x pseudo_channels = {} x {} "
                    "= {} parts ({:g} pins each), which share hbm.bandwidth equally",
                    pins, hbm.channels, hbm.pseudo_channels, parts,
                    static_cast<double>(pins) / static_cast<double>(parts)),
        "correct data_pins, or hbm.channels and pseudo_channels");
  }
  const double stated = static_cast<double>(pins) * static_cast<double>(rate) / 8;
  const auto simulated = static_cast<double>(hbm.peak_bandwidth.bytes_per_second);
  if (gap(simulated, stated) <= kStatedTolerance) return;
  interface.fail(
      fmt::format("hbm.bandwidth = {} is {} data_pins x pin_rate / 8 = {} x {} / 8 = {}; {}",
                  engineering(simulated, "B/s"), gap_text(simulated, stated), pins,
                  engineering(static_cast<double>(rate), "b/s"), engineering(stated, "B/s"),
                  tolerance_text()),
      "correct hbm.bandwidth, or the stated pins and pin rate");
}

void check_sets(const ConfigNode& hardware, const ConfigNode& node, const L2CacheParams& l2) {
  const std::uint64_t stated = node.positive_count_at_most(std::uint64_t{1} << 32);
  if (!checked(hardware, node.key_path(), sets_inputs(hardware.key_path()))) return;
  if (l2.sets() == stated) return;
  node.fail(
      fmt::format("capacity / (line_size x associativity) = {} / ({} x {}) = {} sets, not the {} "
                  "stated (a count of sets is exact: no rounding is allowed)",
                  format_bytes(l2.capacity_bytes), format_bytes(l2.line_bytes), l2.associativity,
                  l2.sets(), stated),
      fmt::format("{} sets of {} x {} ways hold {}: correct capacity, line_size or associativity, "
                  "or the stated sets",
                  stated, format_bytes(l2.line_bytes), l2.associativity,
                  format_bytes(stated * l2.line_bytes * l2.associativity)));
}

// Removes `key` from the map at `map_path` when that map is there.
void remove_key(const ConfigNode& hardware, const std::string& map_path, const std::string& key) {
  const ConfigNode map = hardware.find(map_path);
  if (map.key_path() != map_path || !map.yaml().IsMap()) return;
  YAML::Node handle = map.yaml();  // a handle on the same tree, not a copy of it
  handle.remove(key);
}

}  // namespace

void check_stated_figures(const ConfigNode& hardware, const StatedFigures& stated,
                          const HardwareParams& params) {
  if (stated.peak) check_peaks(hardware, *stated.peak, params);
  if (stated.interface) check_interface(hardware, *stated.interface, params.hbm);
  if (stated.sets && params.l2) check_sets(hardware, *stated.sets, *params.l2);
}

void warn_dram_below_bandwidth(const ConfigNode& hbm, const HbmParams& params) {
  if (params.mode != HbmMode::detailed || !params.dram) return;
  const DramParams& dram = *params.dram;
  const std::uint64_t tccd_ps = dram.timing.tCCD_S.ps();
  if (tccd_ps == 0) return;
  const auto parts = static_cast<double>(params.units());
  const auto burst = static_cast<double>(dram.burst_bytes);
  const auto bandwidth = static_cast<double>(params.peak_bandwidth.bytes_per_second);
  const double ceiling = parts * burst * 1e12 / static_cast<double>(tccd_ps);
  if (ceiling >= bandwidth * (1 - kStatedTolerance)) return;
  hbm.find(hbm.key_path() + ".dram.timing.tCCD_S")
      .warn(fmt::format("caps the DRAM at {}, {} hbm.bandwidth = {}: each of the {} "
                        "pseudo-channels (channels x pseudo_channels) moves one {}-byte burst per "
                        "tCCD_S = {}, where hbm.bandwidth needs one every {}",
                        engineering(ceiling, "B/s"), gap_text(ceiling, bandwidth),
                        engineering(bandwidth, "B/s"), params.units(), dram.burst_bytes,
                        duration(static_cast<double>(tccd_ps) / 1e12),
                        duration(burst * parts / bandwidth)),
            "simulated runs fall short of the roofline's BW, which is hbm.bandwidth: make tCCD_S "
            "at most the burst time, or lower hbm.bandwidth");
}

void remove_unchecked_stated_figures(const ConfigNode& hardware) {
  const std::string root = hardware.key_path();
  const std::string peaks_path = root + ".cores.compute.stated_peak";
  const ConfigNode peaks = hardware.find(peaks_path);
  if (peaks.key_path() == peaks_path && peaks.yaml().IsMap()) {
    for (DataType type : kAllDataTypes) {
      const std::string path = peaks_path + "." + std::string(name_of(type));
      if (!checked(hardware, path, peak_inputs(root, type)))
        remove_key(hardware, peaks_path, std::string(name_of(type)));
    }
    if (peaks.yaml().size() == 0) remove_key(hardware, root + ".cores.compute", "stated_peak");
  }
  if (!checked(hardware, root + ".hbm.stated_interface", interface_inputs(root)))
    remove_key(hardware, root + ".hbm", "stated_interface");
  if (!checked(hardware, root + ".l2.stated_sets", sets_inputs(root)))
    remove_key(hardware, root + ".l2", "stated_sets");
}

}  // namespace ridgeline
