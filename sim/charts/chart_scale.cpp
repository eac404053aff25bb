#include "sim/charts/chart_scale.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace ridgeline {

std::string si(double value, int significant) {
  constexpr std::pair<double, const char*> kPrefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},
      {1, ""},     {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
  for (const auto& [scale, prefix] : kPrefixes) {
    if (std::fabs(value) >= scale * 0.9995) {
      std::string text = fmt::format("{:.{}g}", value / scale, significant);
      return prefix[0] ? text + " " + prefix : text;
    }
  }
  return fmt::format("{:.{}g}", value, significant);
}

std::string si_unit(double value, const std::string& unit, int significant) {
  std::string text = si(value, significant);
  if (unit.empty()) return text;
  // "2.22 m" + "s" -> "2.22 ms"; "3" + "s" -> "3 s".
  const bool prefixed = !text.empty() && std::isalpha(static_cast<unsigned char>(text.back()));
  return prefixed ? text + unit : text + " " + unit;
}

namespace {

// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * decade >= raw * 0.9999) return m * decade;
  }
  return 10 * decade;
}

}  // namespace

Scale Scale::linear(double low, double high, double from_px, double to_px) {
  Scale s;
  s.kind_ = Kind::linear;
  if (!(high > low)) {  // one value (or none): a range around it
    const double pad = low == 0 ? 1 : std::fabs(low) * 0.1;
    low -= pad;
    high += pad;
  }
  s.step_ = nice_step((high - low) / 5);
  s.low_ = std::floor(low / s.step_ + 1e-9) * s.step_;
  s.high_ = std::ceil(high / s.step_ - 1e-9) * s.step_;
  s.from_px_ = from_px;
  s.to_px_ = to_px;
  return s;
}

Scale Scale::log(double low, double high, double from_px, double to_px) {
  Scale s;
  s.kind_ = Kind::log;
  s.low_ = std::pow(10.0, std::floor(std::log10(low) + 1e-9));
  s.high_ = std::pow(10.0, std::ceil(std::log10(high) - 1e-9));
  if (s.high_ <= s.low_) s.high_ = s.low_ * 10;
  s.from_px_ = from_px;
  s.to_px_ = to_px;
  return s;
}

Scale Scale::padded(double low, double high, bool log, double from_px, double to_px) {
  Scale s;
  s.kind_ = log ? Kind::log : Kind::linear;
  if (log) {
    const double spare = high > low ? std::pow(high / low, 0.05) : 2;
    s.low_ = low / spare;
    s.high_ = high * spare;
  } else {
    const double spare = high > low ? (high - low) * 0.05 : (low == 0 ? 1 : std::fabs(low) * 0.1);
    s.low_ = low - spare;
    s.high_ = high + spare;
  }
  s.step_ = nice_step((s.high_ - s.low_) / 5);
  s.from_px_ = from_px;
  s.to_px_ = to_px;
  return s;
}

Scale Scale::categorical(std::size_t count, double from_px, double to_px) {
  Scale s;
  s.kind_ = Kind::categorical;
  s.count_ = std::max<std::size_t>(count, 1);
  s.low_ = 0;
  s.high_ = static_cast<double>(s.count_ - 1);
  s.from_px_ = from_px;
  s.to_px_ = to_px;
  return s;
}

double Scale::at(double value) const {
  double t = 0;
  switch (kind_) {
    case Kind::linear:
      t = (value - low_) / (high_ - low_);
      break;
    case Kind::log:
      t = (std::log10(value) - std::log10(low_)) / (std::log10(high_) - std::log10(low_));
      break;
    case Kind::categorical:
      t = (value + 0.5) / static_cast<double>(count_);
      break;
  }
  return from_px_ + t * (to_px_ - from_px_);
}

double Scale::slot_px() const {
  return kind_ == Kind::categorical ? std::fabs(to_px_ - from_px_) / static_cast<double>(count_)
                                    : 0;
}

std::vector<Tick> Scale::ticks(const std::string& unit) const {
  std::vector<Tick> ticks;
  if (kind_ == Kind::linear) {
    for (double v = std::ceil(low_ / step_ - 1e-9) * step_; v <= high_ + step_ * 1e-6; v += step_) {
      const double value = std::fabs(v) < step_ * 1e-9 ? 0 : v;
      ticks.push_back({value, si_unit(value, unit)});
    }
  } else if (kind_ == Kind::log) {
    const bool few_decades = high_ / low_ < 999;
    for (double decade = std::pow(10.0, std::floor(std::log10(low_) + 1e-9));
         decade <= high_ * 1.0001; decade *= 10) {
      for (double m : {1.0, 2.0, 5.0}) {
        if (m != 1 && !few_decades) continue;
        const double value = decade * m;
        if (value > high_ * 1.0001) break;
        if (value >= low_ * 0.9999) ticks.push_back({value, si_unit(value, unit)});
      }
    }
  }
  return ticks;
}

const char* series_colour(std::size_t index) {
  constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                      "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};
  return kPalette[index % std::size(kPalette)];
}

std::string ramp_colour(double fraction) {
  // Viridis at five stops, interpolated in RGB.
  constexpr int kStops[][3] = {{0x44, 0x01, 0x54},
                               {0x3b, 0x52, 0x8b},
                               {0x21, 0x91, 0x8c},
                               {0x5e, 0xc9, 0x62},
                               {0xfd, 0xe7, 0x25}};
  const double t = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0) * 4;
  const int i = std::min(3, static_cast<int>(std::floor(t)));
  const double f = t - i;
  int rgb[3];
  for (int c = 0; c < 3; ++c) {
    rgb[c] = static_cast<int>(std::lround(kStops[i][c] + f * (kStops[i + 1][c] - kStops[i][c])));
  }
  return fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
}

bool fits_log(std::vector<double> values) {
  if (values.empty()) return false;
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) return false;
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() < 2) return false;
  const double span = values.back() / values.front();
  if (values.size() == 2) return span >= 10;
  // Range values are rounded to whole base units: a progression is allowed a little.
  const auto constant = [&](auto step) {
    const double first = step(values[0], values[1]);
    for (std::size_t i = 2; i < values.size(); ++i) {
      if (std::fabs(step(values[i - 1], values[i]) / first - 1) > 0.01) return false;
    }
    return true;
  };
  if (constant([](double a, double b) { return b / a; })) return values[1] / values[0] >= 1.5;
  if (constant([](double a, double b) { return b - a; })) return false;
  return span >= 10;
}

}  // namespace ridgeline
