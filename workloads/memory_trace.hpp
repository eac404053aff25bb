// A memory-access trace replayed through the memory hierarchy: one access a line,
// `LD 0x<address>` or `ST 0x<address>` (the load/store trace format DRAM simulators such as
// Ramulator read). Blank lines and lines starting with '#' are skipped.
//
// The trace is read twice, both times streaming: once when the configuration is read (to check
// every line and count loads and stores, which the analytical model needs) and once during the
// simulation, lazily, as the players ask for accesses. Neither pass holds more than one line.
#pragma once

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

#include "models/access_source.hpp"
#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"

namespace ridgeline {

struct MemoryTraceSpec {
  std::string path;                   ///< the trace file, as opened
  std::uint64_t access_bytes = 64;    ///< bytes each access moves
  std::uint64_t loads = 0;            ///< LD lines (counted when the configuration is read)
  std::uint64_t stores = 0;           ///< ST lines
  std::uint64_t highest_address = 0;  ///< the largest address in the trace
  /// A trace has no FLOPs; reports show the machine's peak for this type beside it.
  DataType dtype = DataType::fp32;

  std::uint64_t accesses() const { return loads + stores; }
};

std::string describe(const MemoryTraceSpec& spec);
/// F = 0, Q = (loads + stores) x access_bytes: a trace is memory-bound by definition. The cores
/// run no blocks: the target does not matter.
Analysis analyze(const MemoryTraceSpec& spec, const Roof& roof, const KernelTarget& target = {});
/// A trace runs on trace players, not as thread blocks: there is no kernel. Never called (the
/// simulation elaborates players for a trace); throws std::logic_error.
Kernel build_kernel(const MemoryTraceSpec& spec, const KernelTarget& target = {});

/// A line the trace format does not allow: where (1-based line and column) and why.
class TraceFormatError : public std::runtime_error {
 public:
  TraceFormatError(std::uint64_t line, std::uint64_t column, std::string text, std::string rule);
  std::uint64_t line() const { return line_; }
  std::uint64_t column() const { return column_; }
  const std::string& text() const { return text_; }  ///< the line as written
  const std::string& rule() const { return rule_; }

 private:
  std::uint64_t line_;
  std::uint64_t column_;
  std::string text_;
  std::string rule_;
};

/// Reads a trace file one line at a time.
class TraceReader : public AccessSource {
 public:
  /// Throws std::runtime_error when the file cannot be opened.
  explicit TraceReader(const std::string& path);

  /// The next access; false at the end of the file. Throws TraceFormatError on a bad line.
  bool next(MemoryAccess& access) override;
  std::uint64_t line() const { return line_; }
  /// The line the last access was read from, as written.
  const std::string& text() const { return text_; }

 private:
  std::ifstream file_;
  std::string text_;
  std::uint64_t line_ = 0;
};

/// Parses one line: true and `access` set for an access, false for a blank or comment line.
/// Throws TraceFormatError (with line number `line`) for anything else.
bool parse_trace_line(const std::string& text, std::uint64_t line, MemoryAccess& access);

}  // namespace ridgeline
