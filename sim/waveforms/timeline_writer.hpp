// A timeline in the Chrome / Perfetto trace event format (JSON): one process per unit group (the
// top, each core, each trace player, the HBM, each shared level), one track per unit, one slice per
// operation
// ("load A_3", "compute 3", "store C_0", a channel's "read", a block's residency) with its block
// coordinates, bytes and FLOPs as arguments, and counter tracks for the selected counts and rates
// (requests and bytes in flight, queue depths, stages full, bandwidth, FLOP rate). Opens in
// ui.perfetto.dev and chrome://tracing. Times are microseconds with picosecond decimals.
//
// Operations that overlap on one unit (a core's requests in flight) go to lanes, tracks named
// "dma", "dma 1", ...: each lane holds slices that do not overlap, in time order, as the format's
// complete events must.
//
// Bounded: the bytes written are counted exactly; an event that would take the file past the limit
// closes it instead, with a final instant event saying why, and the run goes on.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "sim/waveforms/activity_signals.hpp"
#include "sim/waveforms/waveform_layout.hpp"
#include "sim/waveforms/waveform_options.hpp"

namespace ridgeline {

class TimelineWriter : public SignalSink {
 public:
  /// Opens `path` (ConfigError when it cannot be written) for the units `options` selects and the
  /// counters among `signals`.
  TimelineWriter(const std::string& path, const WaveformLayout& layout,
                 const std::vector<Signal>& signals, const WaveformOptions& options,
                 Time rate_window);
  ~TimelineWriter() override;
  TimelineWriter(const TimelineWriter&) = delete;
  TimelineWriter& operator=(const TimelineWriter&) = delete;

  /// A unit's interval: a slice on its track, when the track is selected.
  void slice(const Activity& a);
  /// A block's residency in a slot of a core.
  void block(std::uint32_t core, std::uint32_t slot, BlockCoord coord, Time admitted, Time retired);
  /// A counter's value (busy signals are the slices' business and are skipped).
  void change(std::uint32_t signal, Time at, std::uint64_t value) override;

  /// Ends the file at `at`; `why` (may be empty) becomes a final instant event.
  void close(Time at, const std::string& why);
  bool is_open() const { return open_; }
  const std::string& path() const { return path_; }
  std::uint64_t written_bytes() const { return written_; }

 private:
  struct Track {
    bool selected = false;
    std::uint32_t pid = 0;
    std::uint32_t first_tid = 0;
    std::string name;                        // the lane 0 thread's name: "compute", "dma", "ch3"
    std::string category;                    // its name quoted: the slices' "cat"
    std::vector<std::uint64_t> lane_end_ps;  // per lane: where its last slice ends
  };

  Track make_track(UnitKind kind, std::uint32_t index, std::uint32_t first_tid);
  Track& track_of(const Activity& a);
  /// The tid of the first lane of `track` free at `start`, naming a new lane when it opens one.
  std::uint32_t lane(Track& track, Time start, Time end);
  /// The op's label, quoted: "\"load A_3\"".
  const std::string& label(const Program& program, std::uint32_t op);
  bool in_window(Time t) const;
  void emit(const std::string& event);  // one event, counted against the limit
  void write_raw(const std::string& text);

  std::string path_;
  const WaveformLayout& layout_;
  const std::vector<Signal>& signals_;
  const WaveformOptions& options_;
  Time rate_window_;
  std::ofstream file_;
  std::string buffer_;
  bool open_ = true;
  bool first_event_ = true;
  std::uint64_t written_ = 0;
  Time latest_;  // the latest time written: where a trace stopped by its limit ends

  std::vector<std::vector<Track>> core_tracks_;  // per core: compute, dma, barrier, sram r/w
  std::vector<Track> block_tracks_;              // per core: its block slots (a lane each)
  std::vector<Track> channel_tracks_;
  std::vector<Track> level_tracks_;  // per shared level: its port
  std::vector<Track> player_tracks_;
  std::vector<std::pair<const Program*, std::vector<std::string>>> labels_;  // quoted
  std::vector<std::string> counter_heads_;  // per signal: a counter event up to its value
  std::string event_;                       // the event being built
};

}  // namespace ridgeline
