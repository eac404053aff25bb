#include "models/trace_player_module.hpp"

#include <algorithm>
#include <cassert>

#include "models/sc_time.hpp"

namespace ridgeline {

TracePlayer::TracePlayer(sc_core::sc_module_name name, std::uint32_t index,
                         const TracePlayerParams& params, AccessSource& source,
                         WakeupQueue& wakeups)
    : sc_module(name),
      memory("memory"),
      index_(index),
      params_(params),
      source_(source),
      wakeups_(wakeups),
      wakeup_index_(wakeups.add(*this)) {
  assert(params.access_bytes > 0 && params.group_accesses > 0);
  // A group must fit the limits whole, or its room would never come back (the configuration
  // checks it: workload.issue_group).
  assert(params.group_accesses * params.access_bytes <=
         std::max(params.max_bytes_in_flight, params.access_bytes));
  assert(params.max_requests_in_flight == 0 ||
         params.group_accesses <= params.max_requests_in_flight);
  payload_.set_extension(&request_);
  payload_.set_streaming_width(0);
  payload_.set_byte_enable_ptr(nullptr);
  request_.initiator = index_;
}

TracePlayer::~TracePlayer() { payload_.clear_extension(&request_); }

bool TracePlayer::room() const {
  const bool bytes_fit = bytes_in_flight_ == 0 ||
                         bytes_in_flight_ + params_.access_bytes <= params_.max_bytes_in_flight;
  const bool requests_fit = params_.max_requests_in_flight == 0 ||
                            completions_ps_.size() + group_issued_ < params_.max_requests_in_flight;
  return bytes_fit && requests_fit;
}

void TracePlayer::issue(Time t) {
  const bool is_write = next_.is_write;
  const std::uint64_t bytes = params_.access_bytes;
  request_.region = Region{next_.address, 1, bytes, bytes, 1};
  payload_.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_address(next_.address);
  payload_.set_data_length(static_cast<unsigned int>(bytes));
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  request_.accepted = Time{};
  memory->b_transport(payload_, delay);
  assert(payload_.is_response_ok());
  const Time done = t + to_time(delay);
  if (request_.accepted > held_until_) {
    stats_.queue_full += request_.accepted - max(held_until_, t);
    held_until_ = request_.accepted;
  }
  stats_.latency.add(done - t);
  stats_.finish = max(stats_.finish, done);
  bytes_in_flight_ += bytes;
  group_done_ = max(group_done_, done);
  if (++group_issued_ == params_.group_accesses) {
    for (; group_issued_ > 0; --group_issued_) completions_ps_.push(group_done_.ps());
    group_done_ = Time{};
  }
  if (observing(observer_)) {
    Activity a(UnitKind::player, index_, t, t, done);
    a.bytes = bytes;
    a.write = is_write;
    observer_->activity(a);
  }
  if (is_write) {
    ++stats_.writes;
    stats_.write_bytes += bytes;
  } else {
    ++stats_.reads;
    stats_.read_bytes += bytes;
  }
}

void TracePlayer::wake(Time t) {
  ++stats_.wakeups;
  while (!completions_ps_.empty() && completions_ps_.top() <= t.ps()) {
    completions_ps_.pop();
    bytes_in_flight_ -= params_.access_bytes;
  }
  // Take the next access only with room to issue it: the stream goes, in its order, to whichever
  // player has room first, and no player holds an access back while another could issue it.
  while (!ended_ && room() && held_until_ <= t && next_issue_ <= t) {
    if (!source_.next(next_)) {
      ended_ = true;
      break;
    }
    if (blocked_) {
      stats_.in_flight_limit += t - blocked_since_;
      blocked_ = false;
    }
    issue(t);
    next_issue_ = t + params_.issue_interval;
  }
  if (ended_) return;  // the statistics already hold every completion time
  // In order: the next access waits until the memory took the last one, and for its issue time.
  const Time paced = max(held_until_, next_issue_);
  if (held_until_ > t || (paced > t && room())) {
    wakeups_.wake_at(wakeup_index_, paced);
    return;
  }
  if (!blocked_) {
    blocked_ = true;
    blocked_since_ = t;
  }
  // Without room, something closed is in flight: an open group alone always fits the limits.
  assert(!completions_ps_.empty());
  wakeups_.wake_at(wakeup_index_, Time::from_ps(completions_ps_.top()));
}

}  // namespace ridgeline
