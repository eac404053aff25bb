// The signals of a trace, derived from the models' activity reports and released in time order.
//
// The models report an interval when they decide it, which is at or before its start: a core
// issuing a load knows when its data arrives. Each report becomes changes at their own times (a
// load adds its bytes in flight at issue and removes them when its data arrives), kept in a
// time-ordered queue; advance(t) releases everything up to t, one value per signal and time. What
// the signals show:
//
// - busy (a unit holds at least one interval): compute units, a core's DMA (requests in flight),
//   barriers, SRAM ports, HBM channels (pseudo-channels), the shared levels' ports (the L2's),
//   trace players;
// - counts: requests queued in a core's in-order queue, requests and bytes in flight, resident
//   blocks, buffer stages full (K-steps whose SRAM tiles have all landed and whose compute has not
//   finished), requests waiting for an HBM channel or a shared level's port;
// - rates over a window: FLOP/s and bytes/s, each interval's amount spread evenly over its span
//   (a transfer's bytes over the transfer, a request's over issue to data), in exact integers, so
//   the windows of a signal add up to the total. A window's value is released at its end.
//
// Plain C++, no SystemC: the tracer drives it from its process, tests drive it directly.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "sim/waveforms/waveform_layout.hpp"
#include "sim/waveforms/waveform_options.hpp"

namespace ridgeline {

enum class SignalKind : std::uint8_t {
  busy,   ///< 0 or 1
  count,  ///< a whole number of `unit`
  rate,   ///< `unit` per second, averaged over the rate window ending at the change
};

struct Signal {
  std::string name;     ///< "top.core0.dma.in_flight_bytes"
  SignalKind kind;      ///< how to show it
  WaveformLevel level;  ///< the level of detail that includes it
  const char* unit;     ///< "" for busy, "requests", "bytes", "blocks", "stages", "bytes/s", ...
  std::uint32_t group;  ///< the group of units it belongs to (WaveformLayout)
  std::string leaf;     ///< its name within the group: "dma.in_flight_bytes"
};

/// Receives the values the signals take, in time order.
class SignalSink {
 public:
  virtual ~SignalSink() = default;
  /// Signal `signal` holds `value` from `at` on (a rate: over the window that ends at `at`).
  virtual void change(std::uint32_t signal, Time at, std::uint64_t value) = 0;
};

class ActivitySignals {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  /// The signals `options` selects on the machine `layout`, rates over `rate_window`.
  ActivitySignals(const WaveformLayout& layout, const WaveformOptions& options, Time rate_window);

  /// The selected signals; a signal's id is its index here.
  const std::vector<Signal>& signals() const { return signals_; }
  Time rate_window() const { return rate_window_; }

  /// A model's report at `now`; times before `now` are taken as `now`.
  void activity(const Activity& a, Time now);
  void level(std::uint32_t core, LevelKind kind, Time at, std::uint64_t value);

  /// The earliest time advance() has something to release at; none when nothing is pending.
  std::optional<Time> next_change() const;
  /// Releases, in time order, every change due up to and including `until`.
  void advance(Time until, SignalSink& sink);

 private:
  // A value that changes by steps: busy and count signals show it (busy: above zero).
  struct Accumulator {
    std::int64_t value = 0;
    bool touched = false;
    std::uint32_t signals[2] = {kNone, kNone};  // the signals that show it
  };
  struct Step {
    std::uint64_t time_ps;
    std::uint64_t sequence;  // ties in report order, so that +1 and -1 at one time net out
    std::uint32_t accumulator;
    std::int64_t delta;
    bool set;  // replace the value by `delta` instead of adding it
    bool operator>(const Step& other) const {
      return time_ps != other.time_ps ? time_ps > other.time_ps : sequence > other.sequence;
    }
  };
  struct Rate {
    std::uint32_t signal;
    std::deque<std::uint64_t> windows;  // amounts from window `window_` on
    std::uint64_t shown = 0;            // the value last released
    bool live = false;                  // windows pending or a nonzero value shown
  };
  struct CoreIds {
    std::uint32_t compute = kNone, dma = kNone, dma_bytes = kNone, queued = kNone, resident = kNone,
                  stages = kNone, barrier = kNone, sram_read = kNone,
                  sram_write = kNone;                   // accumulators
    std::uint32_t flop_rate = kNone, dma_rate = kNone;  // rates
  };
  struct ChannelIds {
    std::uint32_t busy = kNone, queued = kNone, rate = kNone;
  };
  // Which compute ops each SRAM load of a program feeds (through barriers), and how many SRAM
  // loads feed each compute op.
  struct Feeds {
    const Program* program = nullptr;
    std::vector<std::vector<std::uint32_t>> computes_of_load;
    std::vector<std::uint16_t> loads_of_compute;
  };
  // Buffer stages of one block slot: per compute op, its SRAM loads not yet reported and when
  // the last of them lands.
  struct SlotStages {
    const Program* program = nullptr;
    BlockCoord block;
    std::vector<std::uint16_t> loads_left;
    std::vector<std::uint64_t> landed_ps;
  };

  std::uint32_t add_accumulator(const std::string& scope, const std::string& leaf,
                                std::uint32_t group, const char* busy_leaf, const char* count_leaf,
                                const char* unit);
  /// A unit that transfers requests in turn (an HBM channel, a shared level's port): its busy,
  /// the requests queued for it and its bandwidth.
  ChannelIds add_transfer_unit(const std::string& scope, const std::string& leaf,
                               std::uint32_t group);
  std::uint32_t add_signal(const std::string& scope, const std::string& leaf, std::uint32_t group,
                           SignalKind kind, const char* unit);
  std::uint32_t add_rate(const std::string& scope, const std::string& leaf, std::uint32_t group,
                         const char* unit);
  void step(std::uint32_t accumulator, Time at, std::int64_t delta, bool set = false);
  void interval(std::uint32_t accumulator, Time from, Time to, std::int64_t amount = 1);
  void spread(std::uint32_t rate, Time from, Time to, std::uint64_t amount, Time now);
  void track_stages(const Activity& a);
  const Feeds& feeds_of(const Program& program);
  void release_windows(SignalSink& sink);
  std::uint64_t shown(const Accumulator& acc, std::uint32_t signal) const;

  const WaveformOptions& options_;
  Time rate_window_;
  std::vector<Signal> signals_;
  std::vector<std::uint64_t> last_released_;  // per signal
  std::vector<Accumulator> accumulators_;
  std::vector<std::uint32_t> touched_;
  std::priority_queue<Step, std::vector<Step>, std::greater<>> steps_;
  std::uint64_t next_sequence_ = 0;
  std::vector<Rate> rates_;
  std::uint64_t window_ = 0;      // the first window not yet released
  std::uint32_t live_rates_ = 0;  // rates with windows pending or a nonzero value shown

  std::vector<CoreIds> cores_;
  std::vector<std::vector<SlotStages>> stages_;  // per core, per slot
  std::vector<Feeds> feeds_;                     // one per program seen (a kernel has one or two)
  std::vector<ChannelIds> channels_;
  std::uint32_t hbm_rate_ = kNone;
  std::uint32_t flop_rate_ = kNone;      // all cores
  std::vector<ChannelIds> level_ports_;  // per shared level, from the cores outwards
  std::vector<CoreIds> players_;         // dma, dma_bytes, dma_rate used
};

}  // namespace ridgeline
