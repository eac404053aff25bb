// What a run traces: which files, which signals (hierarchy globs and a level of detail), which
// span of simulated time, how large a file may grow, and the window of the rate signals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/units.hpp"

namespace ridgeline {

/// Levels of detail, each including the ones before it.
enum class WaveformLevel : std::uint8_t {
  busy = 1,      ///< one busy signal per unit (timeline: one slice per operation)
  counters = 2,  ///< + queue depths, requests and bytes in flight, resident blocks, stages full
  rates = 3,     ///< + bandwidth and FLOP rate over the rate window
};

std::string_view name_of(WaveformLevel level);

struct WaveformOptions {
  std::string vcd_path;       ///< empty: no VCD
  std::string timeline_path;  ///< empty: no timeline
  /// Hierarchy globs (`*` any characters, `?` one); a signal is selected when one matches its
  /// name or one of its scopes. Empty: every signal.
  std::vector<std::string> patterns;
  WaveformLevel level = WaveformLevel::rates;
  Time start;               ///< changes before this are not written
  std::optional<Time> end;  ///< nor changes from this on; none: the end of the run
  std::uint64_t limit_bytes = std::uint64_t{256} << 20;  ///< per file
  std::optional<Time> rate_window;                       ///< none: rate_window_for(T_ideal)

  bool any() const { return !vcd_path.empty() || !timeline_path.empty(); }
  /// Whether the signal `name` of level `level` is traced.
  bool selects(std::string_view name, WaveformLevel level) const;
};

/// Whether `text` matches `pattern`: `*` stands for any characters (dots included), `?` for one.
bool glob_match(std::string_view pattern, std::string_view text);

/// The default rate window: about a thousandth of `t_ideal`, rounded down to 1, 2 or 5 times a
/// power of ten, at least 1 ns.
Time rate_window_for(Time t_ideal);

/// Reads the command line's values; ConfigError naming the option for a bad one.
WaveformLevel parse_trace_level(const std::string& option, const std::string& text);
Time parse_trace_time(const std::string& option, const std::string& text);
std::uint64_t parse_trace_size(const std::string& option, const std::string& text);
/// Checks the options together (the window not empty, a rate window above zero).
void check_trace_options(const WaveformOptions& options);

}  // namespace ridgeline
