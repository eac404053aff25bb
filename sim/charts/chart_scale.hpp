// What the charts share: an axis that maps values to pixels (linear, logarithmic or ordered
// categories) with its ticks, the series palette and a sequential colour ramp, and numbers with
// SI prefixes for labels. sim/charts/roofline_chart and the sweep's charts draw with them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ridgeline {

/// 2e13 -> "20 T", 1.5e9 -> "1.5 G", 2.5e-6 -> "2.5 u": SI prefixes for chart labels.
std::string si(double value, int significant = 3);

/// A value with its unit for a label: si(value) followed by the unit ("2.22 ms", "61.8 TFLOP/s").
std::string si_unit(double value, const std::string& unit, int significant = 3);

struct Tick {
  double value = 0;  ///< on a categorical scale: the category's index
  std::string label;
};

class Scale {
 public:
  enum class Kind { linear, log, categorical };

  /// [low, high] rounded out to "nice" steps (1, 2 or 5 times a power of ten).
  static Scale linear(double low, double high, double from_px, double to_px);
  /// [low, high] (both > 0) rounded out to whole decades.
  static Scale log(double low, double high, double from_px, double to_px);
  /// Exactly [low, high] with a twentieth of it to spare at each end (in logarithm when `log`):
  /// for swept values, which need not fall on round numbers.
  static Scale padded(double low, double high, bool log, double from_px, double to_px);
  /// `count` categories, each in the middle of its own slot.
  static Scale categorical(std::size_t count, double from_px, double to_px);

  Kind kind() const { return kind_; }
  double low() const { return low_; }
  double high() const { return high_; }
  double from_px() const { return from_px_; }
  double to_px() const { return to_px_; }
  /// The pixel of `value` (a category's index on a categorical scale).
  double at(double value) const;
  /// The width of one category's slot (categorical scales).
  double slot_px() const;
  /// Ticks labelled with si(value) + unit: each decade (log; with 2 and 5 when it spans fewer
  /// than three), each step (linear); nothing for categories, whose labels are the caller's.
  std::vector<Tick> ticks(const std::string& unit = "") const;

 private:
  Kind kind_ = Kind::linear;
  double low_ = 0, high_ = 1;
  double step_ = 0;  // linear: the tick step
  std::size_t count_ = 0;
  double from_px_ = 0, to_px_ = 1;
};

/// Categorical colours for series, in order (cycling after ten).
const char* series_colour(std::size_t index);

/// A sequential colour from dark (0) to light (1) (viridis-like, perceptually even), as #rrggbb.
std::string ramp_colour(double fraction);

/// Whether values spread like a log axis fits them: all positive and a geometric progression
/// (a constant ratio of at least 1.5; what `factor` and `scale: log` ranges give), or, when they
/// are no arithmetic progression, spanning a decade or more (two values: a decade or more).
/// `values` need not be sorted.
bool fits_log(std::vector<double> values);

}  // namespace ridgeline
