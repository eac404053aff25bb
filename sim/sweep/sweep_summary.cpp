#include "sim/sweep/sweep_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ridgeline {

SweepSummary::SweepSummary(const std::vector<Objective>& objectives,
                           const std::vector<std::string>& pareto, ColumnTable& columns)
    : columns_(columns), objectives_(objectives), best_(objectives.size()) {
  for (const Objective& objective : objectives) {
    expressions_.emplace_back(objective.expression, columns);
  }
  if (pareto.size() == 2) {
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      if (objectives[i].name == pareto[0]) pareto_a_ = static_cast<int>(i);
      if (objectives[i].name == pareto[1]) pareto_b_ = static_cast<int>(i);
    }
    if (pareto_a_ < 0 || pareto_b_ < 0) pareto_a_ = pareto_b_ = -1;
  }
}

std::string SweepSummary::inputs_of(const Row& row) const {
  std::string inputs;
  for (std::size_t i = 0; i < row.size(); ++i) {
    const std::string& name = columns_.name(row.column(i));
    if (name.rfind("axis.", 0) != 0) continue;
    inputs +=
        fmt::format("{}{}={}", inputs.empty() ? "" : ", ", name.substr(5), cell_text(row.cell(i)));
  }
  return inputs;
}

bool SweepSummary::better(std::size_t objective, double value, std::uint64_t point,
                          const Best& best) const {
  if (!best.found) return true;
  if (value == best.value) return point < best.point;
  return objectives_[objective].maximize ? value > best.value : value < best.value;
}

void SweepSummary::add(const Row& row) {
  const Cell* status = row.find(*columns_.find("status"));
  const Cell* point_cell = row.find(*columns_.find("point"));
  if (status == nullptr || point_cell == nullptr) return;
  if (status->text == "failed") ++failed_;
  if (status->text == "skipped") ++skipped_;
  if (status->text != "ok") return;
  ++ok_;
  const std::uint64_t point = point_cell->integer;

  std::vector<std::optional<double>> values(expressions_.size());
  for (std::size_t i = 0; i < expressions_.size(); ++i) {
    const Expression::Result result = expressions_[i].evaluate(row);
    if (result.kind != Expression::Kind::number || !std::isfinite(result.number)) continue;
    values[i] = result.number;
    if (better(i, result.number, point, best_[i])) {
      best_[i] = Best{true, point, result.number, inputs_of(row)};
    }
  }
  if (pareto_a_ < 0 || !values[pareto_a_] || !values[pareto_b_]) return;
  // Both objectives as "smaller is better".
  const auto lower = [&](int objective, double value) {
    return objectives_[objective].maximize ? -value : value;
  };
  const double a = *values[pareto_a_], b = *values[pareto_b_];
  const double la = lower(pareto_a_, a), lb = lower(pareto_b_, b);
  const auto dominates = [&](double xa, double xb, double ya, double yb) {
    return xa <= ya && xb <= yb && (xa < ya || xb < yb);
  };
  for (const FrontPoint& member : front_) {
    if (dominates(lower(pareto_a_, member.a), lower(pareto_b_, member.b), la, lb)) return;
  }
  front_.erase(std::remove_if(front_.begin(), front_.end(),
                              [&](const FrontPoint& member) {
                                return dominates(la, lb, lower(pareto_a_, member.a),
                                                 lower(pareto_b_, member.b));
                              }),
               front_.end());
  front_.push_back(FrontPoint{point, a, b, inputs_of(row)});
}

std::uint64_t SweepSummary::count(std::string_view status) const {
  return status == "ok" ? ok_ : status == "failed" ? failed_ : skipped_;
}

namespace {

std::string goal(const Objective& objective) {
  return objective.maximize ? "maximize" : "minimize";
}

}  // namespace

std::string SweepSummary::text() const {
  std::string out = fmt::format("Summary: {} points: {} ok, {} failed, {} skipped\n",
                                ok_ + failed_ + skipped_, ok_, failed_, skipped_);
  if (!objectives_.empty()) out += "\nBest point per objective\n";
  for (std::size_t i = 0; i < objectives_.size(); ++i) {
    const Objective& o = objectives_[i];
    if (!best_[i].found) {
      out += fmt::format("  {} ({} {}): no point has a value\n", o.name, goal(o), o.expression);
      continue;
    }
    out += fmt::format("  {} ({} {}): {:.6g} at point {}\n      {}\n", o.name, goal(o),
                       o.expression, best_[i].value, best_[i].point, best_[i].inputs);
  }
  if (pareto_a_ >= 0) {
    const Objective& a = objectives_[pareto_a_];
    const Objective& b = objectives_[pareto_b_];
    std::vector<FrontPoint> front = front_;
    std::sort(front.begin(), front.end(), [&](const FrontPoint& x, const FrontPoint& y) {
      const double xa = a.maximize ? -x.a : x.a, ya = a.maximize ? -y.a : y.a;
      return xa != ya ? xa < ya : x.point < y.point;
    });
    out += fmt::format("\nPareto front of {} ({}) and {} ({}): {} point{}\n", a.name, goal(a),
                       b.name, goal(b), front.size(), front.size() == 1 ? "" : "s");
    constexpr std::size_t kShown = 20;  // summary.json has them all
    for (std::size_t i = 0; i < front.size() && i < kShown; ++i) {
      const FrontPoint& p = front[i];
      out += fmt::format("  point {}: {} = {:.6g}, {} = {:.6g}\n      {}\n", p.point, a.name, p.a,
                         b.name, p.b, p.inputs);
    }
    if (front.size() > kShown) {
      out += fmt::format("  ... and {} more (all in summary.json)\n", front.size() - kShown);
    }
  }
  return out;
}

Json SweepSummary::json() const {
  Json best = Json::array();
  for (std::size_t i = 0; i < objectives_.size(); ++i) {
    const Objective& o = objectives_[i];
    Json entry{{"objective", o.name}, {"goal", goal(o)}, {"expression", o.expression}};
    if (best_[i].found) {
      entry["point"] = best_[i].point;
      entry["value"] = best_[i].value;
      entry["inputs"] = best_[i].inputs;
    }
    best.push_back(entry);
  }
  Json summary{{"points", {{"ok", ok_}, {"failed", failed_}, {"skipped", skipped_}}},
               {"best", best}};
  if (pareto_a_ >= 0) {
    std::vector<FrontPoint> front = front_;
    std::sort(front.begin(), front.end(),
              [](const FrontPoint& x, const FrontPoint& y) { return x.point < y.point; });
    Json points = Json::array();
    for (const FrontPoint& p : front) {
      points.push_back({{"point", p.point},
                        {objectives_[pareto_a_].name, p.a},
                        {objectives_[pareto_b_].name, p.b},
                        {"inputs", p.inputs}});
    }
    summary["pareto"] = {{"objectives", {objectives_[pareto_a_].name, objectives_[pareto_b_].name}},
                         {"points", points}};
  }
  return summary;
}

}  // namespace ridgeline
