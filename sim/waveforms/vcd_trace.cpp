#include "sim/waveforms/vcd_trace.hpp"

#include <fmt/format.h>
#include <sysc/tracing/sc_tracing_ids.h>

#include <cstdio>
#include <set>

#include "sim/util/config_error.hpp"
#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

constexpr std::string_view kExtension = ".vcd";
// Upper bounds of what SystemC writes, in bytes: the fixed part of the header (date, version,
// time scale, the comment before the initial values), a scope's $scope and $upscope lines past
// its name, a variable's $var line past its name, a VCD identifier (5 letters up to 26^5
// variables), the comment written when the file is closed early.
constexpr std::uint64_t kHeaderBytes = 512;
constexpr std::uint64_t kScopeBytes = 40;
constexpr std::uint64_t kDeclarationBytes = 48;
constexpr std::uint64_t kIdentifierBytes = 6;
constexpr std::uint64_t kClosingBytes = 512;

// The declarations and the initial values of `signals`: SystemC opens a scope per dotted level.
std::uint64_t header_bytes(const std::vector<Signal>& signals) {
  std::uint64_t bytes = kHeaderBytes + kScopeBytes + 7;  // and the "SystemC" scope
  std::set<std::string> scopes;
  for (const Signal& s : signals) {
    const std::size_t leaf = s.name.rfind('.');
    bytes += kDeclarationBytes + (s.name.size() - leaf);
    // The initial value: "b<bits> <id>" or "<bit><id>".
    bytes += s.kind == SignalKind::busy
                 ? 2 + kIdentifierBytes
                 : 3 + static_cast<std::uint64_t>(vcd_width(s.kind)) + kIdentifierBytes;
    for (std::size_t dot = s.name.find('.'); dot != std::string::npos && dot <= leaf;
         dot = s.name.find('.', dot + 1)) {
      if (scopes.insert(s.name.substr(0, dot)).second) bytes += kScopeBytes + dot;
    }
  }
  return bytes;
}

std::uint64_t digits(std::uint64_t value) {
  std::uint64_t n = 1;
  while (value >= 10) {
    value /= 10;
    ++n;
  }
  return n;
}

std::uint64_t bit_length(std::uint64_t value) {
  std::uint64_t n = 1;
  while (value > 1) {
    value >>= 1;
    ++n;
  }
  return n;
}

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int vcd_width(SignalKind kind) {
  switch (kind) {
    case SignalKind::busy:
      return 1;
    case SignalKind::count:
      return 32;
    case SignalKind::rate:
      return 64;  // 20 TFLOP/s needs 45 bits
  }
  return 64;
}

VcdTrace::VcdTrace(const std::string& path, const std::vector<Signal>& signals,
                   std::uint64_t limit_bytes)
    : path_(path),
      systemc_base_(ends_with(path, kExtension) ? path.substr(0, path.size() - kExtension.size())
                                                : path),
      signals_(signals),
      limit_bytes_(limit_bytes) {
  counted_bytes_ = header_bytes(signals) + kClosingBytes;
  if (counted_bytes_ > limit_bytes) {
    throw ConfigError(SourceLocation{"--trace-limit"}, "", std::to_string(limit_bytes),
                      fmt::format("the VCD's declarations of {} signals alone take up to {} bytes",
                                  signals.size(), counted_bytes_),
                      "raise the limit, or trace fewer signals (--trace, --trace-level)");
  }
  create_output_file(path);  // a path that cannot be written is the user's to fix, now
  // SystemC announces the time unit it traces in on stdout; the report owns stdout.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_,
                                          sc_core::SC_DO_NOTHING);
  file_ = sc_core::sc_create_vcd_trace_file(systemc_base_.c_str());
  file_->set_time_unit(1, sc_core::SC_PS);  // the models' integer time, exactly

  std::uint32_t busy = 0;
  for (const Signal& s : signals) busy += s.kind == SignalKind::busy ? 1 : 0;
  flags_ = std::make_unique<bool[]>(busy);
  values_.assign(signals.size() - busy, 0);
  slot_.reserve(signals.size());
  std::uint32_t next_flag = 0;
  std::uint32_t next_value = 0;
  for (const Signal& s : signals) {
    if (s.kind == SignalKind::busy) {
      slot_.push_back(next_flag);
      flags_[next_flag] = false;
      sc_core::sc_trace(file_, flags_[next_flag++], s.name);
    } else {
      slot_.push_back(next_value);
      sc_core::sc_trace(file_, values_[next_value++], s.name, vcd_width(s.kind));
    }
  }
}

VcdTrace::~VcdTrace() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

void VcdTrace::change(std::uint32_t signal, Time at, std::uint64_t value) {
  if (!file_) return;
  // What SystemC writes for it: the time stamp line and a blank line once per time step, then
  // "<bit> <id>" or "b<bits> <id>" (no leading zeros).
  std::uint64_t bytes = 0;
  if (at.ps() != last_time_ps_) bytes += 3 + digits(at.ps());
  const Signal& s = signals_[signal];
  bytes +=
      s.kind == SignalKind::busy ? 2 + kIdentifierBytes : 3 + bit_length(value) + kIdentifierBytes;
  if (counted_bytes_ + bytes > limit_bytes_) {
    close("trace stopped: the next change would take the file past its size limit of " +
          std::to_string(limit_bytes_) + " bytes (--trace-limit)");
    return;
  }
  counted_bytes_ += bytes;
  last_time_ps_ = at.ps();
  if (s.kind == SignalKind::busy) {
    flags_[slot_[signal]] = value != 0;
  } else {
    values_[slot_[signal]] = value;
  }
}

void VcdTrace::close(const std::string& why) {
  if (!file_) return;
  if (!why.empty()) file_->write_comment(why);
  sc_core::sc_close_vcd_trace_file(file_);
  file_ = nullptr;
  if (systemc_base_ == path_) std::rename((path_ + std::string(kExtension)).c_str(), path_.c_str());
}

}  // namespace ridgeline
