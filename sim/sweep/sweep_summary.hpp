// What a sweep found: how many points ran, failed and were skipped; the best point for each
// objective; the Pareto front of two objectives (the points no other point beats on both).
// Rows come in any order; ties go to the lower point, so the summary is the same at every -j
// and for any split into shards.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/report/report.hpp"
#include "sim/sweep/sweep_expression.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace ridgeline {

class SweepSummary {
 public:
  /// `pareto`: two objective names, or none. Throws ExpressionError when an objective's
  /// expression does not compile (the sweep checks them before it starts).
  SweepSummary(const std::vector<Objective>& objectives, const std::vector<std::string>& pareto,
               ColumnTable& columns);

  void add(const Row& row);

  std::uint64_t count(std::string_view status) const;
  std::string text() const;
  Json json() const;

 private:
  struct Best {
    bool found = false;
    std::uint64_t point = 0;
    double value = 0;
    std::string inputs;
  };
  struct FrontPoint {
    std::uint64_t point;
    double a;  // objective values, as they are
    double b;
    std::string inputs;
  };

  std::string inputs_of(const Row& row) const;
  bool better(std::size_t objective, double value, std::uint64_t point, const Best& best) const;

  ColumnTable& columns_;
  std::vector<Objective> objectives_;
  std::vector<Expression> expressions_;
  std::vector<Best> best_;
  int pareto_a_ = -1;  // objective indices
  int pareto_b_ = -1;
  std::vector<FrontPoint> front_;
  std::uint64_t ok_ = 0, failed_ = 0, skipped_ = 0;
};

}  // namespace ridgeline
