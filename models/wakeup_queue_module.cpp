#include "models/wakeup_queue_module.hpp"

#include <cassert>
#include <stdexcept>

#include "models/sc_time.hpp"

namespace ridgeline {

WakeupQueue::WakeupQueue(sc_core::sc_module_name name) : sc_module(name) {
  SC_HAS_PROCESS(WakeupQueue);
  SC_METHOD(run);
  sensitive << event_;
  dont_initialize();
}

std::uint32_t WakeupQueue::add(Wakeable& client) {
  clients_.push_back(&client);
  return static_cast<std::uint32_t>(clients_.size() - 1);
}

void WakeupQueue::wake_at(std::uint32_t index, Time when) { due_.push(Entry{when.ps(), index}); }

void WakeupQueue::start_of_simulation() {
  if (!systemc_resolution_is_ps()) {
    throw std::logic_error("SystemC's time resolution must be 1 ps for the models' integer time");
  }
  for (std::uint32_t i = 0; i < clients_.size(); ++i) due_.push(Entry{0, i});
  if (!clients_.empty()) event_.notify(sc_core::SC_ZERO_TIME);
}

void WakeupQueue::run() {
  const Time t = now();
  while (!due_.empty() && due_.top().time_ps == t.ps()) {
    const std::uint32_t index = due_.top().index;
    due_.pop();
    clients_[index]->wake(t);
  }
  assert(due_.empty() || due_.top().time_ps > t.ps());
  if (!due_.empty()) event_.notify(to_sc_time(Time::from_ps(due_.top().time_ps) - t));
}

}  // namespace ridgeline
