// Flags in global memory that blocks of one kernel signal and wait on: the semaphores with which
// split-K and stream-K GEMMs hand partial sums from the blocks that compute them to the block
// that reduces them. Plain C++: the board counts signals and tells each waiter, through an
// interface, when the count it waits for is reached; the cores that run the blocks schedule what
// follows.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/units.hpp"

namespace ridgeline {

/// What a flag tells when the count a wait needs has been reached.
class FlagWaiter {
 public:
  virtual ~FlagWaiter() = default;
  /// The wait `token` (given with it) may go on at `at`.
  virtual void flag_reached(std::uint64_t token, Time at) = 0;
};

class FlagBoard {
 public:
  explicit FlagBoard(std::uint64_t flags) : counts_(flags, 0) {}

  /// Adds one to `flag` at `at` (now), waking every waiter whose count it completes, in the
  /// order they began to wait.
  void signal(std::uint64_t flag, Time at) {
    const std::uint32_t count = ++counts_.at(flag);
    const auto waiting = waiters_.find(flag);
    if (waiting == waiters_.end()) return;
    std::vector<Waiter> still;
    std::vector<Waiter> reached;
    for (const Waiter& w : waiting->second) (w.count <= count ? reached : still).push_back(w);
    if (still.empty()) {
      waiters_.erase(waiting);
    } else {
      waiting->second = std::move(still);
    }
    for (const Waiter& w : reached) w.waiter->flag_reached(w.token, at);
  }

  /// True when `flag` already has `count` signals; else `waiter` is told, with `token`, once it
  /// has.
  bool wait(std::uint64_t flag, std::uint32_t count, FlagWaiter& waiter, std::uint64_t token) {
    if (counts_.at(flag) >= count) return true;
    waiters_[flag].push_back(Waiter{&waiter, token, count});
    return false;
  }

  /// Waits not yet ended: after a run, a program whose waits could not all be met.
  std::uint64_t waiting() const {
    std::uint64_t n = 0;
    for (const auto& entry : waiters_) n += entry.second.size();
    return n;
  }

 private:
  struct Waiter {
    FlagWaiter* waiter;
    std::uint64_t token;
    std::uint32_t count;
  };
  std::vector<std::uint32_t> counts_;
  std::map<std::uint64_t, std::vector<Waiter>> waiters_;  // ordered: runs are repeatable
};

}  // namespace ridgeline
