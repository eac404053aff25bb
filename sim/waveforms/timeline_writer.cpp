#include "sim/waveforms/timeline_writer.hpp"

#include <fmt/format.h>

#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

// Track ids within a core's process; lanes of a unit follow its first id.
constexpr std::uint32_t kComputeTid = 1;
constexpr std::uint32_t kBarrierTid = 2;
constexpr std::uint32_t kSramReadTid = 3;
constexpr std::uint32_t kSramWriteTid = 4;
constexpr std::uint32_t kBlockTid = 100;
constexpr std::uint32_t kDmaTid = 1000;
// The pseudo-channels share a process: each one's lanes (reservations decided out of time order,
// FR-FCFS's ready-first) follow its first id, this far apart, so no two units share a track id.
constexpr std::uint32_t kHbmLaneStride = 1024;
constexpr std::size_t kFlushBytes = 1 << 20;
constexpr std::uint64_t kClosingBytes = 1024;  // kept for the closing event and the trailer

// The kinds of a core's units, in core_tracks_ order.
constexpr UnitKind kCoreUnits[] = {UnitKind::compute, UnitKind::dma, UnitKind::barrier,
                                   UnitKind::sram_read, UnitKind::sram_write};

// Picoseconds as microseconds, exactly, at the end of `out`: "12.345678".
void append_micros(std::string& out, Time t) {
  fmt::format_to(std::back_inserter(out), "{}.{:06}", t.ps() / 1'000'000, t.ps() % 1'000'000);
}

std::string micros(Time t) {
  return fmt::format("{}.{:06}", t.ps() / 1'000'000, t.ps() % 1'000'000);
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::uint32_t pid_of(std::uint32_t group) { return group + 1; }

std::uint32_t core_tid(UnitKind kind) {
  switch (kind) {
    case UnitKind::compute:
      return kComputeTid;
    case UnitKind::barrier:
      return kBarrierTid;
    case UnitKind::sram_read:
      return kSramReadTid;
    case UnitKind::sram_write:
      return kSramWriteTid;
    default:
      return kDmaTid;
  }
}

}  // namespace

TimelineWriter::TimelineWriter(const std::string& path, const WaveformLayout& layout,
                               const std::vector<Signal>& signals, const WaveformOptions& options,
                               Time rate_window)
    : path_(path),
      layout_(layout),
      signals_(signals),
      options_(options),
      rate_window_(rate_window) {
  create_output_file(path);
  file_.open(path, std::ios::binary | std::ios::trunc);
  write_raw("{\"traceEvents\":[\n");
  for (std::uint32_t g = 0; g < layout.groups(); ++g) {
    emit(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":{}}}}})",
                     pid_of(g), quoted(layout.group_name(g))));
    emit(fmt::format(
        R"({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})",
        pid_of(g), g));
  }
  core_tracks_.resize(layout.cores.size());
  block_tracks_.resize(layout.cores.size());
  for (std::uint32_t i = 0; i < layout.cores.size(); ++i) {
    for (const UnitKind kind : kCoreUnits)
      core_tracks_[i].push_back(make_track(kind, i, core_tid(kind)));
    Track& blocks = block_tracks_[i];
    blocks.pid = pid_of(layout.core_group(i));
    blocks.first_tid = kBlockTid;
    blocks.name = "block slot";
    blocks.selected = options.selects(layout.cores[i] + ".blocks.busy", WaveformLevel::busy);
  }
  const std::uint32_t units = layout.channels * layout.pseudo_channels;
  for (std::uint32_t u = 0; u < units; ++u)
    channel_tracks_.push_back(make_track(UnitKind::hbm, u, 1 + u * kHbmLaneStride));
  for (std::uint32_t i = 0; i < layout.levels.size(); ++i)
    level_tracks_.push_back(make_track(UnitKind::level_port, i, 1));
  for (std::uint32_t i = 0; i < layout.players.size(); ++i) {
    player_tracks_.push_back(make_track(UnitKind::player, i, kDmaTid));
  }
}

TimelineWriter::~TimelineWriter() { close(latest_, ""); }

TimelineWriter::Track TimelineWriter::make_track(UnitKind kind, std::uint32_t index,
                                                 std::uint32_t first_tid) {
  Track track;
  track.selected = options_.selects(layout_.unit_path(kind, index) + ".busy", WaveformLevel::busy);
  track.pid = pid_of(layout_.group_of(kind, index));
  track.first_tid = first_tid;
  track.name = layout_.unit_leaf(kind, index);
  track.category = quoted(track.name);
  return track;
}

TimelineWriter::Track& TimelineWriter::track_of(const Activity& a) {
  switch (a.unit) {
    case UnitKind::hbm:
      return channel_tracks_[a.index];
    case UnitKind::level_port:
      return level_tracks_[a.index];
    case UnitKind::player:
      return player_tracks_[a.index];
    default:
      break;
  }
  std::vector<Track>& tracks = core_tracks_[a.index];
  for (std::size_t k = 0; k < tracks.size(); ++k) {
    if (kCoreUnits[k] == a.unit) return tracks[k];
  }
  return tracks.front();
}

std::uint32_t TimelineWriter::lane(Track& track, Time start, Time end) {
  std::size_t lane = 0;
  while (lane < track.lane_end_ps.size() && track.lane_end_ps[lane] > start.ps()) ++lane;
  const auto tid = static_cast<std::uint32_t>(track.first_tid + lane);
  if (lane == track.lane_end_ps.size()) {
    track.lane_end_ps.push_back(0);
    const std::string name = lane == 0 ? track.name : fmt::format("{} {}", track.name, lane);
    emit(fmt::format(R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":{}}}}})",
                     track.pid, tid, quoted(name)));
    emit(fmt::format(
        R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
        track.pid, tid, tid));
  }
  track.lane_end_ps[lane] = end.ps();
  return tid;
}

const std::string& TimelineWriter::label(const Program& program, std::uint32_t op) {
  for (auto& [p, names] : labels_) {
    if (p == &program) return names[op];
  }
  std::vector<std::string> names;
  names.reserve(program.size());
  for (std::uint32_t i = 0; i < program.size(); ++i) names.push_back(quoted(program.label(i)));
  labels_.emplace_back(&program, std::move(names));
  return labels_.back().second[op];
}

bool TimelineWriter::in_window(Time t) const {
  return t >= options_.start && (!options_.end || t < *options_.end);
}

void TimelineWriter::slice(const Activity& a) {
  if (!open_) return;
  Track& track = track_of(a);
  if (!track.selected || !in_window(a.start)) return;
  const std::uint32_t tid = lane(track, a.start, a.end);
  if (!open_) return;
  latest_ = max(latest_, a.start);
  // Built in place: a timeline holds millions of these.
  std::string& e = event_;
  e = R"({"name":)";
  if (a.program) {
    e += label(*a.program, a.op);
  } else {
    e += a.unit == UnitKind::player ? (a.write ? R"("store")" : R"("load")")
                                    : (a.write ? R"("write")" : R"("read")");
  }
  e += R"(,"cat":)";
  e += track.category;
  e += R"(,"ph":"X","ts":)";
  append_micros(e, a.start);
  e += R"(,"dur":)";
  append_micros(e, a.end - a.start);
  fmt::format_to(std::back_inserter(e), R"(,"pid":{},"tid":{},"args":{{)", track.pid, tid);
  const std::size_t args = e.size();
  const auto next = [&] { return e.size() > args ? "," : ""; };
  if (a.program)
    fmt::format_to(std::back_inserter(e), R"("block":[{},{}])", a.block.row, a.block.col);
  if (a.bytes > 0) fmt::format_to(std::back_inserter(e), R"({}"bytes":{})", next(), a.bytes);
  if (a.flops > 0) fmt::format_to(std::back_inserter(e), R"({}"flops":{})", next(), a.flops);
  if (a.start > a.issue) {
    e += next();
    e += R"("queued_us":)";
    append_micros(e, a.start - a.issue);
  }
  if (a.ready > a.end) {
    e += next();
    e += R"("ready_us":)";
    append_micros(e, a.ready);
  }
  if (a.detail) {
    e += next();
    e += R"("detail":)";
    e += quoted(a.detail);
  }
  e += "}}";
  emit(e);
}

void TimelineWriter::block(std::uint32_t core, std::uint32_t slot, BlockCoord coord, Time admitted,
                           Time retired) {
  Track& track = block_tracks_[core];
  if (!open_ || !track.selected || !in_window(admitted)) return;
  const auto tid = track.first_tid + slot;
  while (track.lane_end_ps.size() <= slot) {
    const auto lane = static_cast<std::uint32_t>(track.lane_end_ps.size());
    track.lane_end_ps.push_back(0);
    emit(fmt::format(
        R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"{} {}"}}}})",
        track.pid, track.first_tid + lane, track.name, lane));
    emit(fmt::format(
        R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
        track.pid, track.first_tid + lane, track.first_tid + lane));
  }
  if (!open_) return;
  latest_ = max(latest_, admitted);
  emit(fmt::format(
      R"json({{"name":"block ({}, {})","cat":"block","ph":"X","ts":{},"dur":{},"pid":{},"tid":{},"args":{{"block":[{},{}]}}}})json",
      coord.row, coord.col, micros(admitted), micros(retired - admitted), track.pid, tid, coord.row,
      coord.col));
}

void TimelineWriter::change(std::uint32_t signal, Time at, std::uint64_t value) {
  const Signal& s = signals_[signal];
  if (!open_ || s.kind == SignalKind::busy) return;
  // A rate is the average over the window that ends at `at`: it holds from the window's start
  // (or the trace's, if later).
  const Time ts = s.kind == SignalKind::rate ? max(at - rate_window_, options_.start) : at;
  latest_ = max(latest_, at);
  if (counter_heads_.empty()) {
    for (const Signal& c : signals_) {
      counter_heads_.push_back(fmt::format(R"({{"name":{},"ph":"C","pid":{},"args":{{{}:)",
                                           quoted(c.leaf), pid_of(c.group), quoted(c.unit)));
    }
  }
  std::string& e = event_;
  e = counter_heads_[signal];
  fmt::format_to(std::back_inserter(e), R"({}}},"ts":)", value);
  append_micros(e, ts);
  e += '}';
  emit(e);
}

void TimelineWriter::emit(const std::string& event) {
  if (!open_) return;
  const std::uint64_t bytes = event.size() + 2;  // ",\n"
  if (written_ + bytes + kClosingBytes > options_.limit_bytes) {
    close(latest_, fmt::format("trace stopped: the next event would take the file past its size "
                               "limit of {} bytes (--trace-limit)",
                               options_.limit_bytes));
    return;
  }
  if (!first_event_) write_raw(",\n");
  first_event_ = false;
  write_raw(event);
}

void TimelineWriter::write_raw(const std::string& text) {
  buffer_ += text;
  written_ += text.size();
  if (buffer_.size() >= kFlushBytes) {
    file_ << buffer_;
    buffer_.clear();
  }
}

void TimelineWriter::close(Time at, const std::string& why) {
  if (!open_) return;
  open_ = false;
  if (!why.empty()) {
    if (!first_event_) write_raw(",\n");
    write_raw(fmt::format(R"({{"name":{},"ph":"i","s":"g","ts":{},"pid":1,"tid":0}})", quoted(why),
                          micros(at)));
  }
  write_raw(fmt::format(
      "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{{\"generator\":\"ridgeline\","
      "\"rate_window_us\":{},\"level\":\"{}\",\"stopped\":{}}}}}\n",
      micros(rate_window_), name_of(options_.level), why.empty() ? "null" : quoted(why)));
  file_ << buffer_;
  buffer_.clear();
  file_.close();
}

}  // namespace ridgeline
