#include "sim/waveforms/tracer.hpp"

#include <fmt/format.h>

#include <iostream>

#include "models/sc_time.hpp"
#include "sim/util/config_error.hpp"
#include "sim/util/output_file.hpp"
#include "sim/util/text_format.hpp"
#include "sim/waveforms/gtkw_file.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kNever = ~0ull;

std::string at_text(Time t) { return duration(t.seconds()); }

}  // namespace

Tracer::Tracer(sc_core::sc_module_name name, WaveformLayout layout, const WaveformOptions& options,
               Time rate_window)
    : sc_module(name),
      layout_(std::move(layout)),
      options_(options),
      signals_(layout_, options_, rate_window),
      gate_(*this) {
  if (signals_.signals().empty()) {
    std::string patterns;
    for (const std::string& p : options_.patterns) patterns += (patterns.empty() ? "" : " ") + p;
    throw ConfigError(
        SourceLocation{"--trace"}, "", patterns,
        fmt::format("selects no signal of this machine at level {}", name_of(options_.level)),
        "signals are named like top.core0.compute.busy, top.core0.dma.in_flight_bytes "
        "or top.hbm.ch0.busy (README, Traces)");
  }
  if (!options_.vcd_path.empty()) {
    vcd_ = std::make_unique<VcdTrace>(options_.vcd_path, signals_.signals(), options_.limit_bytes);
  }
  if (!options_.timeline_path.empty()) {
    timeline_ = std::make_unique<TimelineWriter>(options_.timeline_path, layout_,
                                                 signals_.signals(), options_, rate_window);
  }
  SC_HAS_PROCESS(Tracer);
  SC_METHOD(run);
  sensitive << wake_;
  dont_initialize();
}

void Tracer::start_of_simulation() { wake_at(options_.start); }

Tracer::~Tracer() = default;

bool Tracer::recording() const {
  return !finished_ && !ended_ &&
         ((vcd_ && vcd_->is_open()) || (timeline_ && timeline_->is_open()));
}

void Tracer::wake_at(Time t) {
  if (t.ps() >= due_ps_) return;  // an earlier wake-up is due; it will see this change
  const Time now = to_time(sc_core::sc_time_stamp());
  due_ps_ = t.ps();
  wake_.notify(t <= now ? sc_core::SC_ZERO_TIME : to_sc_time(t - now));
}

void Tracer::activity(const Activity& a) {
  if (!recording()) return;
  const Time now = to_time(sc_core::sc_time_stamp());
  signals_.activity(a, now);
  if (timeline_) {
    timeline_->slice(a);
    check_limits(now);
  }
  if (const auto next = signals_.next_change()) wake_at(*next);
}

void Tracer::level(std::uint32_t core, LevelKind kind, Time at, std::uint64_t value) {
  if (!recording()) return;
  signals_.level(core, kind, at, value);
  wake_at(at);
}

void Tracer::block(std::uint32_t core, std::uint32_t slot, BlockCoord coord, Time admitted,
                   Time retired) {
  if (!recording() || !timeline_) return;
  timeline_->block(core, slot, coord, admitted, retired);
  check_limits(retired);
}

void Tracer::run() {
  const Time now = to_time(sc_core::sc_time_stamp());
  due_ps_ = kNever;
  if (!recording()) return;
  if (options_.end && now >= *options_.end) {
    end_window(now);  // the window is [start, end): what changes at its end is not written
    return;
  }
  signals_.advance(now, gate_);
  if (!begun_ && now >= options_.start) {
    begun_ = true;
    gate_.open(now);
  }
  check_limits(now);
  if (const auto next = signals_.next_change()) {
    wake_at(*next);
  } else if (last_change_ps_ == now.ps()) {
    // SystemC writes a time step's values when time moves on: make it move once more.
    wake_at(now + Time::from_ps(1));
  }
  if (!begun_) wake_at(options_.start);
  if (options_.end) wake_at(*options_.end);
}

void Tracer::Gate::change(std::uint32_t signal, Time at, std::uint64_t value) {
  if (values_.empty()) values_.assign(tracer_.signals_.signals().size(), 0);
  values_[signal] = value;
  if (!open_) return;
  tracer_.last_change_ps_ = at.ps();
  if (tracer_.vcd_) tracer_.vcd_->change(signal, at, value);
  if (tracer_.timeline_) tracer_.timeline_->change(signal, at, value);
}

void Tracer::Gate::open(Time at) {
  open_ = true;
  for (std::uint32_t signal = 0; signal < values_.size(); ++signal) {
    if (values_[signal] != 0) change(signal, at, values_[signal]);
  }
}

void Tracer::check_limits(Time at) {
  if (finished_ || ended_) return;
  const auto warn = [&](const char* what, const std::string& path) {
    std::cerr << fmt::format(
        "ridgeline: warning: the {} {} reached its size limit of {} bytes at {} and stops there "
        "(--trace-limit; --trace, --trace-level and --trace-start/--trace-end make it smaller); "
        "the run goes on\n",
        what, path, options_.limit_bytes, at_text(at));
  };
  if (vcd_ && !vcd_->is_open() && !vcd_stopped_) {
    vcd_stopped_ = true;
    vcd_closed_at_ = at;
    warn("VCD trace", vcd_->path());
  }
  if (timeline_ && !timeline_->is_open() && !timeline_stopped_) {
    timeline_stopped_ = true;
    warn("timeline", timeline_->path());
  }
}

void Tracer::end_window(Time at) {
  ended_ = true;
  if (vcd_ && vcd_->is_open()) {
    vcd_->close("");
    vcd_closed_at_ = at;
  }
  if (timeline_) timeline_->close(at, "");
}

void Tracer::finish() {
  if (finished_) return;
  const Time now = to_time(sc_core::sc_time_stamp());
  if (!ended_) end_window(now);
  finished_ = true;
  if (vcd_) {
    const Time end = max(vcd_closed_at_, options_.start);
    write_file_atomically(
        gtkw_path_for(options_.vcd_path),
        gtkw_save_file(options_.vcd_path, signals_.signals(), layout_, options_.start, end));
  }
}

}  // namespace ridgeline
