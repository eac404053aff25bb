#include "sim/waveforms/activity_signals.hpp"

#include <cassert>

namespace ridgeline {

namespace {

WaveformLevel level_of(SignalKind kind) {
  switch (kind) {
    case SignalKind::busy:
      return WaveformLevel::busy;
    case SignalKind::count:
      return WaveformLevel::counters;
    case SignalKind::rate:
      return WaveformLevel::rates;
  }
  return WaveformLevel::rates;
}

bool same_block(BlockCoord a, BlockCoord b) { return a.row == b.row && a.col == b.col; }

}  // namespace

ActivitySignals::ActivitySignals(const WaveformLayout& layout, const WaveformOptions& options,
                                 Time rate_window)
    : options_(options), rate_window_(rate_window) {
  assert(rate_window.ps() > 0);
  const std::string& top = layout.top;
  flop_rate_ = add_rate(top, "flop_per_s", 0, "FLOP/s");
  cores_.resize(layout.cores.size());
  stages_.resize(layout.cores.size());
  for (std::uint32_t i = 0; i < layout.cores.size(); ++i) {
    const std::string& scope = layout.cores[i];
    const std::uint32_t g = layout.core_group(i);
    CoreIds& ids = cores_[i];
    ids.compute = add_accumulator(scope, "compute", g, "busy", nullptr, "");
    ids.flop_rate = add_rate(scope, "compute.flop_per_s", g, "FLOP/s");
    ids.dma = add_accumulator(scope, "dma", g, "busy", "in_flight_requests", "requests");
    ids.dma_bytes = add_accumulator(scope, "dma", g, nullptr, "in_flight_bytes", "bytes");
    ids.queued = add_accumulator(scope, "dma", g, nullptr, "queued_requests", "requests");
    ids.dma_rate = add_rate(scope, "dma.bytes_per_s", g, "bytes/s");
    ids.barrier = add_accumulator(scope, "barrier", g, "busy", nullptr, "");
    ids.resident = add_accumulator(scope, "blocks", g, nullptr, "resident", "blocks");
    ids.sram_read = add_accumulator(scope, "sram.read", g, "busy", nullptr, "");
    ids.sram_write = add_accumulator(scope, "sram.write", g, "busy", nullptr, "");
    ids.stages = add_accumulator(scope, "sram", g, nullptr, "stages_full", "stages");
  }
  players_.resize(layout.players.size());
  for (std::uint32_t i = 0; i < layout.players.size(); ++i) {
    const std::string& scope = layout.players[i];
    const std::uint32_t g = layout.player_group(i);
    CoreIds& ids = players_[i];
    ids.dma = add_accumulator(scope, "dma", g, "busy", "in_flight_requests", "requests");
    ids.dma_bytes = add_accumulator(scope, "dma", g, nullptr, "in_flight_bytes", "bytes");
    ids.dma_rate = add_rate(scope, "dma.bytes_per_s", g, "bytes/s");
  }
  const std::uint32_t units = layout.channels * layout.pseudo_channels;
  hbm_rate_ = add_rate(layout.hbm, "bytes_per_s", layout.hbm_group(), "bytes/s");
  for (std::uint32_t u = 0; u < units; ++u) {
    channels_.push_back(add_transfer_unit(layout.hbm, layout.channel_name(u), layout.hbm_group()));
  }
  for (std::uint32_t i = 0; i < layout.levels.size(); ++i) {
    level_ports_.push_back(add_transfer_unit(layout.levels[i], "port", layout.level_group(i)));
  }
  last_released_.assign(signals_.size(), 0);
}

ActivitySignals::ChannelIds ActivitySignals::add_transfer_unit(const std::string& scope,
                                                               const std::string& leaf,
                                                               std::uint32_t group) {
  ChannelIds ids;
  ids.busy = add_accumulator(scope, leaf, group, "busy", nullptr, "");
  ids.queued = add_accumulator(scope, leaf, group, nullptr, "queued_requests", "requests");
  ids.rate = add_rate(scope, leaf + ".bytes_per_s", group, "bytes/s");
  return ids;
}

std::uint32_t ActivitySignals::add_signal(const std::string& scope, const std::string& leaf,
                                          std::uint32_t group, SignalKind kind, const char* unit) {
  const std::string name = scope + "." + leaf;
  const WaveformLevel level = level_of(kind);
  if (!options_.selects(name, level)) return kNone;
  signals_.push_back(Signal{name, kind, level, unit, group, leaf});
  return static_cast<std::uint32_t>(signals_.size() - 1);
}

std::uint32_t ActivitySignals::add_accumulator(const std::string& scope, const std::string& leaf,
                                               std::uint32_t group, const char* busy_leaf,
                                               const char* count_leaf, const char* unit) {
  Accumulator acc;
  if (busy_leaf) {
    acc.signals[0] = add_signal(scope, leaf + "." + busy_leaf, group, SignalKind::busy, "");
  }
  if (count_leaf) {
    acc.signals[1] = add_signal(scope, leaf + "." + count_leaf, group, SignalKind::count, unit);
  }
  if (acc.signals[0] == kNone && acc.signals[1] == kNone) return kNone;
  accumulators_.push_back(acc);
  return static_cast<std::uint32_t>(accumulators_.size() - 1);
}

std::uint32_t ActivitySignals::add_rate(const std::string& scope, const std::string& leaf,
                                        std::uint32_t group, const char* unit) {
  const std::uint32_t signal = add_signal(scope, leaf, group, SignalKind::rate, unit);
  if (signal == kNone) return kNone;
  rates_.push_back(Rate{signal, {}, 0, false});
  return static_cast<std::uint32_t>(rates_.size() - 1);
}

void ActivitySignals::step(std::uint32_t accumulator, Time at, std::int64_t delta, bool set) {
  steps_.push(Step{at.ps(), next_sequence_++, accumulator, delta, set});
}

void ActivitySignals::interval(std::uint32_t accumulator, Time from, Time to, std::int64_t amount) {
  if (accumulator == kNone || to <= from) return;  // an empty interval shows nothing
  step(accumulator, from, amount);
  step(accumulator, to, -amount);
}

void ActivitySignals::spread(std::uint32_t rate, Time from, Time to, std::uint64_t amount,
                             Time now) {
  if (rate == kNone || amount == 0) return;
  Rate& r = rates_[rate];
  const std::uint64_t w = rate_window_.ps();
  // Nothing pending anywhere: the windows between the last one released and now were empty.
  if (live_rates_ == 0) window_ = std::max(window_, now.ps() / w);
  if (!r.live) {
    r.live = true;
    ++live_rates_;
  }
  const std::uint64_t first = from.ps() / w;
  assert(first >= window_ && "reports never start before the present");
  const auto add = [&](std::uint64_t window, std::uint64_t part) {
    const std::uint64_t at = window - window_;
    if (r.windows.size() <= at) r.windows.resize(at + 1, 0);
    r.windows[at] += part;
  };
  if (to <= from) {
    add(first, amount);
    return;
  }
  // The amount moved by time t is floor(amount x (t - from) / (to - from)): exact integers whose
  // differences over the windows add up to `amount`.
  const std::uint64_t span = (to - from).ps();
  const auto moved = [&](std::uint64_t t) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(amount) * (t - from.ps()) /
                                      span);
  };
  const std::uint64_t last = (to.ps() - 1) / w;
  for (std::uint64_t window = first; window <= last; ++window) {
    const std::uint64_t lo = std::max(from.ps(), window * w);
    const std::uint64_t hi = std::min(to.ps(), (window + 1) * w);
    add(window, moved(hi) - moved(lo));
  }
}

const ActivitySignals::Feeds& ActivitySignals::feeds_of(const Program& program) {
  for (const Feeds& f : feeds_) {
    if (f.program == &program) return f;
  }
  Feeds f;
  f.program = &program;
  const auto& ops = program.ops();
  f.computes_of_load.resize(ops.size());
  f.loads_of_compute.assign(ops.size(), 0);
  for (std::uint32_t op = 0; op < ops.size(); ++op) {
    const Op& o = ops[op];
    if (o.kind != OpKind::load || o.sram_write_bytes == 0 || o.local) continue;
    // Follow data edges through barriers (an arrival barrier sits between loads and compute).
    std::vector<std::uint32_t> frontier{op};
    while (!frontier.empty()) {
      const std::uint32_t from = frontier.back();
      frontier.pop_back();
      for (const Successor* s = program.successors_begin(from); s != program.successors_end(from);
           ++s) {
        if (s->kind != EdgeKind::data) continue;
        if (ops[s->op].kind == OpKind::compute) {
          f.computes_of_load[op].push_back(s->op);
          ++f.loads_of_compute[s->op];
        } else if (ops[s->op].kind == OpKind::barrier) {
          frontier.push_back(s->op);
        }
      }
    }
  }
  feeds_.push_back(std::move(f));
  return feeds_.back();
}

void ActivitySignals::track_stages(const Activity& a) {
  const std::uint32_t acc = cores_[a.index].stages;
  if (acc == kNone || a.program == nullptr) return;
  const Feeds& feeds = feeds_of(*a.program);
  std::vector<SlotStages>& slots = stages_[a.index];
  if (slots.size() <= a.slot) slots.resize(a.slot + 1);
  SlotStages& slot = slots[a.slot];
  if (slot.program != a.program || !same_block(slot.block, a.block)) {
    slot.program = a.program;
    slot.block = a.block;
    slot.loads_left = feeds.loads_of_compute;
    slot.landed_ps.assign(feeds.loads_of_compute.size(), 0);
  }
  const Op& op = a.program->ops()[a.op];
  if (op.kind == OpKind::load) {
    // A stage is full once the last of its tiles has landed: known when that load issues.
    for (const std::uint32_t compute : feeds.computes_of_load[a.op]) {
      slot.landed_ps[compute] = std::max(slot.landed_ps[compute], a.end.ps());
      if (--slot.loads_left[compute] == 0) step(acc, Time::from_ps(slot.landed_ps[compute]), 1);
    }
  } else if (op.kind == OpKind::compute && feeds.loads_of_compute[a.op] > 0) {
    step(acc, a.ready, -1);  // read: the buffer is free for the next loads
  }
}

void ActivitySignals::activity(const Activity& a, Time now) {
  const Time issue = max(a.issue, now);
  const Time start = max(a.start, now);
  const Time end = max(a.end, now);
  switch (a.unit) {
    case UnitKind::compute: {
      const CoreIds& ids = cores_[a.index];
      interval(ids.compute, start, end);
      spread(ids.flop_rate, start, end, a.flops, now);
      spread(flop_rate_, start, end, a.flops, now);
      track_stages(a);
      break;
    }
    case UnitKind::dma:
    case UnitKind::player: {  // a player stands in for a core's requests
      const CoreIds& ids = a.unit == UnitKind::dma ? cores_[a.index] : players_[a.index];
      interval(ids.dma, issue, end);
      interval(ids.dma_bytes, issue, end, static_cast<std::int64_t>(a.bytes));
      spread(ids.dma_rate, issue, end, a.bytes, now);
      if (a.unit == UnitKind::dma && !a.write) track_stages(a);
      break;
    }
    case UnitKind::barrier:
      interval(cores_[a.index].barrier, start, end);
      break;
    case UnitKind::sram_read:
      interval(cores_[a.index].sram_read, start, end);
      break;
    case UnitKind::sram_write:
      interval(cores_[a.index].sram_write, start, end);
      break;
    case UnitKind::hbm:
    case UnitKind::level_port: {
      const ChannelIds& ids = a.unit == UnitKind::hbm ? channels_[a.index] : level_ports_[a.index];
      interval(ids.busy, start, end);
      interval(ids.queued, issue, start);
      spread(ids.rate, start, end, a.bytes, now);
      if (a.unit == UnitKind::hbm) spread(hbm_rate_, start, end, a.bytes, now);
      break;
    }
  }
}

void ActivitySignals::level(std::uint32_t core, LevelKind kind, Time at, std::uint64_t value) {
  const CoreIds& ids = cores_[core];
  const std::uint32_t acc = kind == LevelKind::queued_requests ? ids.queued : ids.resident;
  if (acc != kNone) step(acc, at, static_cast<std::int64_t>(value), true);
}

std::optional<Time> ActivitySignals::next_change() const {
  std::optional<Time> next;
  if (!steps_.empty()) next = Time::from_ps(steps_.top().time_ps);
  if (live_rates_ > 0) {
    const Time boundary = Time::from_ps((window_ + 1) * rate_window_.ps());
    if (!next || boundary < *next) next = boundary;
  }
  return next;
}

void ActivitySignals::release_windows(SignalSink& sink) {
  const Time at = Time::from_ps((window_ + 1) * rate_window_.ps());
  const std::uint64_t w = rate_window_.ps();
  for (Rate& r : rates_) {
    if (!r.live) continue;
    std::uint64_t amount = 0;
    if (!r.windows.empty()) {
      amount = r.windows.front();
      r.windows.pop_front();
    }
    const auto value = static_cast<std::uint64_t>(static_cast<unsigned __int128>(amount) *
                                                  kPicosecondsPerSecond / w);
    if (value != r.shown) {
      r.shown = value;
      sink.change(r.signal, at, value);
    }
    if (r.windows.empty() && r.shown == 0) {
      r.live = false;
      --live_rates_;
    }
  }
  ++window_;
}

void ActivitySignals::advance(Time until, SignalSink& sink) {
  for (;;) {
    const std::optional<Time> next = next_change();
    if (!next || *next > until) return;
    const Time t = *next;
    while (!steps_.empty() && steps_.top().time_ps == t.ps()) {
      const Step s = steps_.top();
      steps_.pop();
      Accumulator& acc = accumulators_[s.accumulator];
      acc.value = s.set ? s.delta : acc.value + s.delta;
      if (!acc.touched) {
        acc.touched = true;
        touched_.push_back(s.accumulator);
      }
    }
    for (const std::uint32_t index : touched_) {
      Accumulator& acc = accumulators_[index];
      acc.touched = false;
      assert(acc.value >= 0);
      for (int k = 0; k < 2; ++k) {
        const std::uint32_t signal = acc.signals[k];
        if (signal == kNone) continue;
        const std::uint64_t value =
            k == 0 ? (acc.value > 0 ? 1 : 0) : static_cast<std::uint64_t>(acc.value);
        if (value == last_released_[signal]) continue;
        last_released_[signal] = value;
        sink.change(signal, t, value);
      }
    }
    touched_.clear();
    if (live_rates_ > 0 && t.ps() == (window_ + 1) * rate_window_.ps()) release_windows(sink);
  }
}

}  // namespace ridgeline
