// A VCD file for GTKWave, written by SystemC's own tracing (sc_trace): one variable per selected
// signal, named by its place in the hierarchy (top.core0.compute.busy), which SystemC turns into
// nested scopes. The tracer sets the variables at their exact times; SystemC writes the changes at
// the end of each time step.
//
// Bounded: the file's size is counted (upper bound) as values change; a change that would take
// it past the limit closes the file at that time with a comment saying why, and the run goes on.
// Closing also takes the file off SystemC's per-time-step scan, so a stopped trace costs nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "sim/waveforms/activity_signals.hpp"

namespace ridgeline {

/// The width a signal's variable is declared with: 1 for busy, 32 for counts, 64 for rates.
int vcd_width(SignalKind kind);

class VcdTrace : public SignalSink {
 public:
  /// Opens `path` (ConfigError when it cannot be written) and declares `signals`. Call before
  /// sc_start.
  VcdTrace(const std::string& path, const std::vector<Signal>& signals, std::uint64_t limit_bytes);
  ~VcdTrace() override;
  VcdTrace(const VcdTrace&) = delete;
  VcdTrace& operator=(const VcdTrace&) = delete;

  /// Sets `signal` to `value`; `at` must be the present (SystemC writes it at the step's end).
  void change(std::uint32_t signal, Time at, std::uint64_t value) override;

  /// Closes the file at the present; `why` (may be empty) is written as a comment.
  void close(const std::string& why);
  bool is_open() const { return file_ != nullptr; }
  const std::string& path() const { return path_; }
  /// The size counted so far: an upper bound of the file's size, bytes.
  std::uint64_t counted_bytes() const { return counted_bytes_; }

 private:
  std::string path_;
  std::string systemc_base_;  // the name SystemC writes, "<base>.vcd"
  const std::vector<Signal>& signals_;
  std::uint64_t limit_bytes_;
  sc_core::sc_trace_file* file_ = nullptr;
  std::vector<std::uint32_t> slot_;      // per signal: index into flags_ or values_
  std::unique_ptr<bool[]> flags_;        // busy signals
  std::vector<sc_dt::uint64> values_;    // the others (never resized once traced)
  std::vector<std::uint32_t> id_bytes_;  // per signal: the VCD identifier's length + 2
  std::uint64_t counted_bytes_ = 0;
  std::uint64_t last_time_ps_ = ~0ull;  // the time of the last change counted
};

}  // namespace ridgeline
