// Wakes the cores at the times they ask for, in (time, core index) order.
//
// Each core asks for its next wake-up at the end of every wake-up. Cores due at the same
// picosecond run in index order, one after another, from a single SC_METHOD: ties between cores
// (who reaches a shared HBM channel or the scheduler first) are part of the model, not an accident
// of the SystemC kernel's event order, so any other process (a tracer, say) can be added without
// changing a single simulated figure. It also costs one SystemC event per distinct time, however
// many cores wake then.
#pragma once

#include <cstdint>
#include <queue>
#include <systemc>
#include <vector>

#include "models/units.hpp"

namespace ridgeline {

/// Something woken at requested times: a core.
class Wakeable {
 public:
  virtual ~Wakeable() = default;
  virtual void wake(Time now) = 0;
};

class WakeupQueue : public sc_core::sc_module {
 public:
  explicit WakeupQueue(sc_core::sc_module_name name);

  /// Adds a client; clients are woken at time 0, in the order added, then when they ask.
  std::uint32_t add(Wakeable& client);
  /// Wakes client `index` at `when` (later than now).
  void wake_at(std::uint32_t index, Time when);

 private:
  struct Entry {
    std::uint64_t time_ps;
    std::uint32_t index;
    bool operator>(const Entry& other) const {
      return time_ps != other.time_ps ? time_ps > other.time_ps : index > other.index;
    }
  };

  void start_of_simulation() override;
  void run();

  std::vector<Wakeable*> clients_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> due_;
  sc_core::sc_event event_;
};

}  // namespace ridgeline
