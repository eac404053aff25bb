// How a component's statistics describe themselves. A Stats struct keeps its counters as plain
// members (the hot path adds to them directly) and lists each one once in `fields()`: its output
// name (snake_case, unit-suffixed), the member, its unit, how it merges over cores or players (sum
// or max) and what it means. Visiting (reports, JSON) and merging (totals over cores) both walk
// that list, so a counter added to the list is reported and totalled, and one left out is neither.
//
//   struct SramStats : StatFields<SramStats> {
//     std::uint64_t read_bytes = 0;
//     static constexpr auto fields() {
//       return std::make_tuple(
//           counter("read_bytes", &SramStats::read_bytes, "bytes", Merge::sum, "bytes read"));
//     }
//   };
//
// A formula's function is a captureless lambda turned into a function pointer by a unary `+`
// (`+[](const L2CacheStats& s) { ... }`), so that the list stays a constexpr tuple.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string_view>
#include <tuple>

#include "models/units.hpp"

namespace ridgeline {

/// Receives one statistic: its name (snake_case, unit-suffixed), value, unit and description.
using StatVisitor = std::function<void(std::string_view name, double value, std::string_view unit,
                                       std::string_view description)>;

inline double as_stat(std::uint64_t count) { return static_cast<double>(count); }
inline double as_stat(std::uint32_t count) { return static_cast<double>(count); }
inline double as_stat(Time span) { return span.seconds(); }

/// How a counter of several units (cores, players, pseudo-channels) adds up to their total.
enum class Merge : std::uint8_t {
  sum,  ///< events, bytes, busy time: the total is the sum (time spans become summed unit-time)
  max,  ///< peaks and finishing times: the total is the largest
};

/// One counter: a member of `Stats`, reported and merged.
template <class Stats, class Value>
struct Counter {
  std::string_view name;
  Value Stats::*member;
  std::string_view unit;
  Merge merge;
  std::string_view description;
};

/// One figure computed from the counters (reported beside them, never merged: it is computed
/// again from the merged counters).
template <class Stats>
struct Formula {
  std::string_view name;
  double (*value)(const Stats&);
  std::string_view unit;
  std::string_view description;
};

template <class Stats, class Value>
constexpr Counter<Stats, Value> counter(std::string_view name, Value Stats::*member,
                                        std::string_view unit, Merge merge,
                                        std::string_view description) {
  return {name, member, unit, merge, description};
}

template <class Stats>
constexpr Formula<Stats> formula(std::string_view name, double (*value)(const Stats&),
                                 std::string_view unit, std::string_view description) {
  return {name, value, unit, description};
}

/// Base of a Stats struct with a `fields()` list: gives it `visit` and `add` from that list.
template <class Stats>
struct StatFields {
  /// Every field in list order, counters and formulas, with its value.
  void visit(const StatVisitor& v) const {
    std::apply([&](const auto&... field) { (visit_one(field, v), ...); }, Stats::fields());
  }
  /// Merges `other` in, each counter by its rule.
  void add(const Stats& other) {
    std::apply([&](const auto&... field) { (add_one(field, other), ...); }, Stats::fields());
  }

 private:
  const Stats& self() const { return static_cast<const Stats&>(*this); }
  Stats& self() { return static_cast<Stats&>(*this); }

  template <class Value>
  void visit_one(const Counter<Stats, Value>& c, const StatVisitor& v) const {
    v(c.name, as_stat(self().*c.member), c.unit, c.description);
  }
  void visit_one(const Formula<Stats>& f, const StatVisitor& v) const {
    v(f.name, f.value(self()), f.unit, f.description);
  }
  template <class Value>
  void add_one(const Counter<Stats, Value>& c, const Stats& other) {
    Value& total = self().*c.member;
    const Value& part = other.*c.member;
    if (c.merge == Merge::sum) {
      total += part;
    } else {
      using std::max;
      total = max(total, part);
    }
  }
  void add_one(const Formula<Stats>&, const Stats&) {}
};

}  // namespace ridgeline
