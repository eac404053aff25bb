// Tells several observers what one run's units do: the tracer and the report's busy timeline.
#pragma once

#include <vector>

#include "models/activity.hpp"

namespace ridgeline {

class ActivityFanout : public ActivityObserver {
 public:
  explicit ActivityFanout(std::vector<ActivityObserver*> observers)
      : observers_(std::move(observers)) {}

  void activity(const Activity& a) override {
    for (ActivityObserver* o : observers_) o->activity(a);
  }
  void level(std::uint32_t core, LevelKind kind, Time at, std::uint64_t value) override {
    for (ActivityObserver* o : observers_) o->level(core, kind, at, value);
  }
  void block(std::uint32_t core, std::uint32_t slot, BlockCoord coord, Time admitted,
             Time retired) override {
    for (ActivityObserver* o : observers_) o->block(core, slot, coord, admitted, retired);
  }

 private:
  std::vector<ActivityObserver*> observers_;
};

}  // namespace ridgeline
