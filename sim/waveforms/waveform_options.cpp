#include "sim/waveforms/waveform_options.hpp"

#include "sim/util/config_error.hpp"
#include "sim/config/quantity.hpp"

namespace ridgeline {

std::string_view name_of(WaveformLevel level) {
  switch (level) {
    case WaveformLevel::busy:
      return "busy";
    case WaveformLevel::counters:
      return "counters";
    case WaveformLevel::rates:
      return "rates";
  }
  return "?";
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Greedy with one backtrack point: the last `*` seen absorbs one more character on a mismatch.
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;
  std::size_t star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool WaveformOptions::selects(std::string_view name, WaveformLevel signal_level) const {
  if (signal_level > level) return false;
  if (patterns.empty()) return true;
  for (const std::string& pattern : patterns) {
    // The name itself, then each enclosing scope: `top.core0` selects all of core 0.
    std::string_view scope = name;
    for (;;) {
      if (glob_match(pattern, scope)) return true;
      const std::size_t dot = scope.rfind('.');
      if (dot == std::string_view::npos) break;
      scope = scope.substr(0, dot);
    }
  }
  return false;
}

Time rate_window_for(Time t_ideal) {
  const std::uint64_t target = t_ideal.ps() / 1000;
  std::uint64_t window = 1000;  // 1 ns
  for (std::uint64_t decade = 1000; decade <= target; decade *= 10) {
    for (const std::uint64_t step : {1, 2, 5}) {
      if (decade * step <= target) window = decade * step;
    }
    if (decade > target / 10) break;
  }
  return Time::from_ps(window);
}

WaveformLevel parse_trace_level(const std::string& option, const std::string& text) {
  for (const WaveformLevel level : {WaveformLevel::busy, WaveformLevel::counters, WaveformLevel::rates}) {
    if (text == name_of(level) || text == std::to_string(static_cast<int>(level))) return level;
  }
  throw ConfigError(SourceLocation{option}, "", text, "not a level of detail",
                    "use busy (1), counters (2) or rates (3)");
}

Time parse_trace_time(const std::string& option, const std::string& text) {
  try {
    return Time::from_ps(parse_quantity(text, Dimension::time));
  } catch (const QuantityError& error) {
    throw ConfigError(SourceLocation{option}, "", text, error.what(), error.fix());
  }
}

std::uint64_t parse_trace_size(const std::string& option, const std::string& text) {
  try {
    return parse_quantity(text, Dimension::bytes);
  } catch (const QuantityError& error) {
    throw ConfigError(SourceLocation{option}, "", text, error.what(), error.fix());
  }
}

void check_trace_options(const WaveformOptions& options) {
  if (options.end && *options.end <= options.start) {
    throw ConfigError(SourceLocation{"--trace-end"}, "", std::to_string(options.end->ps()) + " ps",
                      "the trace must end after it starts (--trace-start is " +
                          std::to_string(options.start.ps()) + " ps)",
                      "give a later --trace-end or an earlier --trace-start");
  }
  if (options.rate_window && options.rate_window->ps() == 0) {
    throw ConfigError(SourceLocation{"--trace-rate-window"}, "", "0", "must be above zero",
                      "give a time such as 1us");
  }
  if (options.limit_bytes < 4096) {
    throw ConfigError(SourceLocation{"--trace-limit"}, "", std::to_string(options.limit_bytes),
                      "must be at least 4KiB (a trace file's header alone takes some)",
                      "give a size such as 64MiB");
  }
  for (const std::string& pattern : options.patterns) {
    if (pattern.empty()) {
      throw ConfigError(SourceLocation{"--trace"}, "", "", "an empty pattern selects nothing",
                        "give a hierarchy glob such as 'top.core0.*'");
    }
  }
}

}  // namespace ridgeline
