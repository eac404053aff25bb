// A memory-access trace replayed through the memory hierarchy: one access a line,
// `LD 0x<address>` or `ST 0x<address>` (the load/store trace format DRAM simulators such as
// Ramulator read). Blank lines and lines starting with '#' are skipped. Or, instead of a file, a
// generated stream (`pattern`, workloads/access_pattern.hpp).
//
// The trace is read twice, both times streaming: once when the configuration is read (to check
// every line and count loads and stores, which the analytical model needs) and once during the
// simulation, lazily, as the players ask for accesses. Neither pass holds more than one block of
// the file (TraceReader::kBlockBytes) and the line being read.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/access_source.hpp"
#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/access_pattern.hpp"
#include "workloads/analysis.hpp"
#include "workloads/tensor.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

struct MemoryTraceSpec {
  std::string path;                      ///< the trace file, as opened (empty with a pattern)
  std::optional<AccessPattern> pattern;  ///< a generated stream instead of a file
  std::uint64_t access_bytes = 64;       ///< bytes each access moves
  /// Open loop: each player issues at most one access per interval (zero: as fast as its
  /// in-flight limits allow).
  Time issue_interval;
  /// Accesses a player issues as one group and waits for together (workload.issue_group over
  /// access_bytes; 1: each access on its own). See TracePlayerParams::group_accesses.
  std::uint64_t group_accesses = 1;
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

/// A trace runs on trace players, not as thread blocks: it has no kernel, no threads and no FLOPs.
template <>
struct WorkloadKind<MemoryTraceSpec> : RunsOnTracePlayers<MemoryTraceSpec> {
  static constexpr std::string_view name = "memory_trace";
  // A trace has no blocks: nothing of it outgrows a core, so these name the workload as a whole.
  static constexpr LimitKeys limit_keys{"workload", "workload.threads", ""};

  /// "trace random-64B": the file's name without folder or extension; "stream random loads over
  /// 8 GiB" for a pattern.
  static std::string short_label(const MemoryTraceSpec& spec);
  static std::optional<Violation> check_rules(const MemoryTraceSpec&) { return std::nullopt; }
  static std::optional<Violation> check_threads(const MemoryTraceSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const MemoryTraceSpec&) { return {}; }
  /// One tensor, "data": every byte from address 0 to the end of the trace's highest access,
  /// so that `run --l2-resident data` starts it with what it touches in the L2 (a chase that
  /// measures hits, not first touches).
  static std::vector<TensorRef> tensors(const MemoryTraceSpec& spec);

  template <class Visitor>
  static void visit_fields(const MemoryTraceSpec& t, Visitor& visitor) {
    if (t.pattern) {
      visitor.text("pattern", ridgeline::describe(*t.pattern));
    } else {
      visitor.text("path", t.path);
    }
    visitor.integer("access_bytes", t.access_bytes);
    visitor.integer("loads", t.loads);
    visitor.integer("stores", t.stores);
    // A trace has no FLOPs; the report shows the machine's peak for this type beside it.
    visitor.text("dtype", name_of(t.dtype));
  }
  /// None: a point's trace is read again whole (its loads and stores are counted from the file).
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

/// The accesses of `spec`: its pattern's, or its file read lazily (std::runtime_error when the
/// file cannot be opened).
std::unique_ptr<AccessSource> open_accesses(const MemoryTraceSpec& spec);

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

/// Reads a trace file one line at a time, a block of the file at a time: lines are found in the
/// block by memchr and parsed where they lie (a replay spends most of its reading time copying
/// lines otherwise).
class TraceReader : public AccessSource {
 public:
  static constexpr std::size_t kBlockBytes = 1 << 20;

  /// Throws std::runtime_error when the file cannot be opened.
  explicit TraceReader(const std::string& path);

  /// The next access; false at the end of the file. Throws TraceFormatError on a bad line.
  bool next(MemoryAccess& access) override;
  std::uint64_t line() const { return line_; }
  /// The line the last access was read from, as written (valid until the next call to next).
  std::string_view text() const { return text_; }

 private:
  /// The next line of the file (without its '\n') in text_; false at the end of the file.
  bool next_line();

  std::ifstream file_;
  std::vector<char> block_;  ///< bytes read and not yet consumed: [begin_, end_)
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool file_ended_ = false;
  std::string_view text_;
  std::uint64_t line_ = 0;
};

/// Parses one line: true and `access` set for an access, false for a blank or comment line.
/// Throws TraceFormatError (with line number `line`) for anything else.
bool parse_trace_line(std::string_view text, std::uint64_t line, MemoryAccess& access);

}  // namespace ridgeline
