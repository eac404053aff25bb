#include "sim/waveforms/gtkw_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "sim/waveforms/vcd_trace.hpp"

namespace ridgeline {

namespace {

// GTKWave's trace flags (its TraceEntFlagBits), as the save file writes them, in hex.
constexpr unsigned kDecimal = 0x4;
constexpr unsigned kBinary = 0x8;
constexpr unsigned kRightJustify = 0x20;
constexpr unsigned kBlank = 0x200;
constexpr unsigned kAnalogStep = 0x8000;
constexpr unsigned kAnalogBlankStretch = 0x20000;
constexpr unsigned kGroupBegin = 0x800000;
constexpr unsigned kGroupEnd = 0x1000000;

constexpr std::size_t kShownCores = 4;  // cores (or players) laid out; the rest are in the tree
constexpr int kAnalogRows = 4;          // an analog signal's height, in rows
constexpr int kWavePixels = 750;        // about the wave pane's width at the saved window size
constexpr int kFramePixels = 200;       // GTKWave's zoom z shows 2^-z time units per 200 pixels

// The order signals of a unit group are laid out in; unlisted leaves (a channel's busy) keep
// their order after these.
constexpr const char* kOrder[] = {
    "flop_per_s",          "bytes_per_s",     "compute.busy",        "compute.flop_per_s",
    "sram.stages_full",    "dma.busy",        "dma.queued_requests", "dma.in_flight_requests",
    "dma.in_flight_bytes", "dma.bytes_per_s", "barrier.busy",        "blocks.resident",
    "sram.read.busy",      "sram.write.busy", "port.busy",           "port.queued_requests",
    "port.bytes_per_s",
};

int rank_of(const std::string& leaf) {
  const auto* found = std::find(std::begin(kOrder), std::end(kOrder), leaf);
  return static_cast<int>(found - std::begin(kOrder));
}

// GTKWave shows a name's last level only: the alias keeps the unit, "dma in_flight_bytes".
std::string alias_of(const Signal& s) {
  std::string alias = s.leaf;
  std::replace(alias.begin(), alias.end(), '.', ' ');
  return alias;
}

bool analog(const Signal& s) {
  return s.kind == SignalKind::rate || s.leaf.find("in_flight_bytes") != std::string::npos;
}

// Whether the layout shows `s`: every signal of the top and the shared levels, of the first cores
// and players; of the HBM its bandwidth and each channel's busy.
bool shown(const Signal& s, const WaveformLayout& layout) {
  const std::uint32_t g = s.group;
  if (g == 0) return true;
  if (g < layout.player_group(0)) return g - layout.core_group(0) < kShownCores;
  if (g < layout.hbm_group()) return g - layout.player_group(0) < kShownCores;
  if (g == layout.hbm_group()) return s.kind == SignalKind::busy || s.leaf == "bytes_per_s";
  return true;
}

}  // namespace

std::string gtkwave_name(const Signal& signal) {
  const int width = vcd_width(signal.kind);
  std::string name = "SystemC." + signal.name;
  if (width > 1) name += fmt::format("[{}:0]", width - 1);
  return name;
}

std::string gtkw_path_for(const std::string& vcd_path) {
  std::filesystem::path path(vcd_path);
  if (path.extension() == ".vcd") return path.replace_extension(".gtkw").string();
  return vcd_path + ".gtkw";
}

std::string gtkw_save_file(const std::string& vcd_path, const std::vector<Signal>& signals,
                           const WaveformLayout& layout, Time start, Time end) {
  const std::string dumpfile = std::filesystem::absolute(vcd_path).string();
  std::string out;
  out += "[*] Ridgeline: the run's units over time; every signal is in the hierarchy on the left\n";
  out += fmt::format("[dumpfile] \"{}\"\n", dumpfile);
  // GTKWave ignores a start from which its page would run past the dump's end: begin a little
  // before the window, so that the page (a little wider than the window) ends inside it.
  const std::uint64_t lead_ps = (end - start).ps() / 16;
  out += fmt::format("[timestart] {}\n", (start - Time::from_ps(lead_ps)).ps());
  out += "[size] 1400 900\n[pos] -1 -1\n";
  // Zoom: the traced span across the wave pane.
  const double span_ps = static_cast<double>(std::max<std::uint64_t>((end - start).ps(), 1));
  out += fmt::format("*{:.6f} -1", -std::log2(span_ps * kFramePixels / kWavePixels));
  for (int marker = 0; marker < 26; ++marker) out += " -1";
  out += "\n[treeopen] SystemC.\n";
  out += fmt::format("[treeopen] SystemC.{}.\n", layout.top);
  out += "[sst_width] 250\n[signals_width] 330\n[sst_expanded] 1\n[sst_vpaned_height] 250\n";

  for (std::uint32_t g = 0; g < layout.groups(); ++g) {
    std::vector<const Signal*> group;
    for (const Signal& s : signals) {
      if (s.group == g && shown(s, layout)) group.push_back(&s);
    }
    if (group.empty()) continue;
    std::stable_sort(group.begin(), group.end(), [](const Signal* a, const Signal* b) {
      return rank_of(a->leaf) < rank_of(b->leaf);
    });
    const std::string title = layout.group_name(g);
    out += fmt::format("@{:x}\n-{}\n", kGroupBegin | kBlank, title);
    for (const Signal* s : group) {
      if (analog(*s)) {
        out += fmt::format("@{:x}\n+{{{}}} {}\n", kAnalogStep | kRightJustify | kDecimal,
                           alias_of(*s), gtkwave_name(*s));
        out += fmt::format("@{:x}\n", kAnalogBlankStretch);
        for (int row = 1; row < kAnalogRows; ++row) out += "-\n";
      } else {
        const unsigned format = kRightJustify | (s->kind == SignalKind::busy ? kBinary : kDecimal);
        out += fmt::format("@{:x}\n+{{{}}} {}\n", format, alias_of(*s), gtkwave_name(*s));
      }
    }
    out += fmt::format("@{:x}\n-{}\n", kGroupEnd | kBlank, title);
  }
  out += "[pattern_trace] 1\n[pattern_trace] 0\n";
  return out;
}

}  // namespace ridgeline
