// The tracer: the activity observer of a run that asks for a VCD or a timeline.
//
// It turns the models' reports into signals (ActivitySignals) and applies their changes at their
// exact times from its own SC_METHOD, woken at the earliest pending change. Its events cannot
// change a simulated figure: the cores run from the WakeupQueue in (time, core index) order
// whatever other processes exist, and nothing in the models reads the tracer. Between
// --trace-start and --trace-end the changes go to the files; before, the tracer only keeps the
// values, so the files start from the state at --trace-start; at the end (or when a file reaches
// its size limit) it closes the file and says so on stderr.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/activity.hpp"
#include "sim/waveforms/activity_signals.hpp"
#include "sim/waveforms/timeline_writer.hpp"
#include "sim/waveforms/waveform_layout.hpp"
#include "sim/waveforms/waveform_options.hpp"
#include "sim/waveforms/vcd_trace.hpp"

namespace ridgeline {

class Tracer : public sc_core::sc_module, public ActivityObserver {
 public:
  /// Opens the files `options` asks for (ConfigError when one cannot be written) and declares the
  /// VCD's signals: construct before sc_start.
  Tracer(sc_core::sc_module_name name, WaveformLayout layout, const WaveformOptions& options,
         Time rate_window);
  ~Tracer() override;

  void activity(const Activity& a) override;
  void level(std::uint32_t core, LevelKind kind, Time at, std::uint64_t value) override;
  void block(std::uint32_t core, std::uint32_t slot, BlockCoord coord, Time admitted,
             Time retired) override;

  /// After sc_start returns: closes the files and writes the GTKWave save file beside the VCD.
  /// Reports that come later are ignored.
  void finish();

  const std::vector<Signal>& signals() const { return signals_.signals(); }

 private:
  // Between the signals and the files: keeps every value, passes changes on inside the window.
  class Gate : public SignalSink {
   public:
    explicit Gate(Tracer& tracer) : tracer_(tracer) {}
    void change(std::uint32_t signal, Time at, std::uint64_t value) override;
    /// Writes the values held at `at` (the window opens).
    void open(Time at);

   private:
    Tracer& tracer_;
    std::vector<std::uint64_t> values_;
    bool open_ = false;
  };

  void start_of_simulation() override;
  void run();
  void wake_at(Time t);
  void end_window(Time at);
  void check_limits(Time at);
  bool recording() const;

  WaveformLayout layout_;
  WaveformOptions options_;
  ActivitySignals signals_;
  Gate gate_;
  std::unique_ptr<VcdTrace> vcd_;
  std::unique_ptr<TimelineWriter> timeline_;
  sc_core::sc_event wake_;
  std::uint64_t due_ps_ = ~0ull;  // when the process is next due; ~0: not scheduled
  std::uint64_t last_change_ps_ = ~0ull;
  bool begun_ = false;
  bool ended_ = false;
  bool finished_ = false;
  Time vcd_closed_at_;
  bool vcd_stopped_ = false;
  bool timeline_stopped_ = false;
};

}  // namespace ridgeline
