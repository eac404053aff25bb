#include "sim/charts/busy_chart.hpp"

#include <fmt/format.h>

#include <vector>

#include "sim/charts/svg.hpp"

namespace ridgeline {

namespace {

constexpr double kWidth = 900;
constexpr double kLabelWidth = 170;
constexpr double kRowHeight = 16;
constexpr double kRowGap = 4;
constexpr double kAxisHeight = 28;
constexpr std::uint32_t kEachCoreUpTo = 8;  // more cores: their average, and core 0
constexpr int kTicks = 5;

struct Strip {
  std::string label;
  const char* colour;
  std::vector<double> busy_ps;  // per bucket
  double units;                 // busy_ps / (units x width) is the shade
};

// Per BusyTimeline::Row: its name and colour.
struct RowStyle {
  const char* name;
  const char* colour;
};
constexpr RowStyle kRowStyles[BusyTimeline::kRows] = {
    {"loads", "#1f77b4"}, {"compute", "#2ca02c"}, {"stores", "#ff7f0e"}};

// Requesters `first` to `last` (inclusive) summed, one strip per row.
void add_requesters(std::vector<Strip>& strips, const BusyTimeline& busy, std::size_t buckets,
                    std::uint32_t first, std::uint32_t last, const std::string& label) {
  for (const auto row : {BusyTimeline::loads, BusyTimeline::compute, BusyTimeline::stores}) {
    const RowStyle& style = kRowStyles[row];
    Strip strip{label + " " + style.name, style.colour, std::vector<double>(buckets, 0),
                static_cast<double>(last - first + 1)};
    for (std::uint32_t r = first; r <= last; ++r) {
      for (std::size_t b = 0; b < buckets; ++b) {
        strip.busy_ps[b] += static_cast<double>(busy.busy(r, row, b).ps());
      }
    }
    strips.push_back(std::move(strip));
  }
}

std::string time_label(double ps) {
  if (ps >= 1e9) return fmt::format("{:.3g} ms", ps / 1e9);
  if (ps >= 1e6) return fmt::format("{:.3g} us", ps / 1e6);
  return fmt::format("{:.3g} ns", ps / 1e3);
}

}  // namespace

std::string render_busy_chart(const BusyTimeline& busy, Time run_time,
                              const std::string& requester) {
  const std::size_t buckets = std::max<std::size_t>(1, busy.buckets_until(run_time));
  const auto width_ps = static_cast<double>(busy.bucket_width().ps());
  std::vector<Strip> strips;
  const std::uint32_t n = busy.requesters();
  if (n > kEachCoreUpTo) {
    add_requesters(strips, busy, buckets, 0, n - 1, fmt::format("all {} {}s", n, requester));
  }
  for (std::uint32_t r = 0; r < std::min(n, kEachCoreUpTo); ++r) {
    if (n > kEachCoreUpTo && r > 0) break;
    add_requesters(strips, busy, buckets, r, r, requester + std::to_string(r));
  }
  Strip hbm{fmt::format("HBM ({} channels)", busy.hbm_units()), "#d62728",
            std::vector<double>(buckets, 0), static_cast<double>(busy.hbm_units())};
  for (std::size_t b = 0; b < buckets; ++b)
    hbm.busy_ps[b] = static_cast<double>(busy.hbm_busy(b).ps());
  strips.push_back(std::move(hbm));
  // A unit that never did a kind of work (a trace player's compute) gets no strip.
  std::vector<Strip> shown;
  for (Strip& s : strips) {
    double total = 0;
    for (const double v : s.busy_ps) total += v;
    if (total > 0) shown.push_back(std::move(s));
  }

  const double plot = kWidth - kLabelWidth;
  const double cell = plot / static_cast<double>(buckets);
  const double height = static_cast<double>(shown.size()) * (kRowHeight + kRowGap) + kAxisHeight;
  Svg svg(kWidth, height);
  double y = 0;
  for (const Strip& s : shown) {
    double total_ps = 0;
    for (const double v : s.busy_ps) total_ps += v;
    svg.open("g", {{"class", "strip"},
                   {"data-label", s.label},
                   {"data-busy-s", fmt::format("{:.12g}", total_ps / s.units / 1e12)}});
    svg.element("text", {{"x", "0"}, {"y", svg_number(y + kRowHeight - 4)}, {"font-size", "12"}},
                s.label);
    svg.element("rect", {{"x", svg_number(kLabelWidth)},
                         {"y", svg_number(y)},
                         {"width", svg_number(plot)},
                         {"height", svg_number(kRowHeight)},
                         {"fill", "#f4f4f4"}});
    for (std::size_t b = 0; b < buckets; ++b) {
      const double fraction = std::min(1.0, s.busy_ps[b] / (s.units * width_ps));
      if (fraction <= 0) continue;
      svg.element("rect", {{"x", svg_number(kLabelWidth + cell * static_cast<double>(b))},
                           {"y", svg_number(y)},
                           {"width", svg_number(cell)},
                           {"height", svg_number(kRowHeight)},
                           {"fill", s.colour},
                           {"fill-opacity", svg_number(fraction)},
                           {"shape-rendering", "crispEdges"}});
    }
    svg.close("g");
    y += kRowHeight + kRowGap;
  }
  const double span_ps = width_ps * static_cast<double>(buckets);
  for (int tick = 0; tick <= kTicks; ++tick) {
    const double x = kLabelWidth + plot * tick / kTicks;
    svg.element("line", {{"x1", svg_number(x)},
                         {"y1", svg_number(y)},
                         {"x2", svg_number(x)},
                         {"y2", svg_number(y + 5)},
                         {"stroke", "#555"}});
    svg.element("text",
                {{"x", svg_number(x)},
                 {"y", svg_number(y + 18)},
                 {"font-size", "11"},
                 {"text-anchor", tick == 0        ? "start"
                                 : tick == kTicks ? "end"
                                                  : "middle"}},
                time_label(span_ps * tick / kTicks));
  }
  return svg.str();
}

}  // namespace ridgeline
