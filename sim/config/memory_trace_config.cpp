#include "sim/config/memory_trace_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "sim/config/quantity.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMaxAccessBytes = std::uint64_t{1} << 30;  // one TLM payload's length

constexpr const char* kLineFormat =
    "each line is 'LD 0x<hex address>' or 'ST 0x<hex address>'; blank lines and lines starting "
    "with '#' are skipped";

int as_position(std::uint64_t value) {
  return static_cast<int>(std::min<std::uint64_t>(value, std::numeric_limits<int>::max()));
}

// A size that must be a whole number of accesses (a span, a group).
std::uint64_t whole_accesses(const ConfigNode& node, std::uint64_t access_bytes) {
  const std::uint64_t bytes = node.positive_quantity(Dimension::bytes);
  if (bytes % access_bytes != 0) {
    node.fail(fmt::format("must be a whole number of accesses of {}", format_bytes(access_bytes)),
              "round it to a multiple of workload.access_bytes");
  }
  return bytes;
}

// The stream `pattern:` describes (docs/CONFIG.md, "memory_trace").
AccessPattern read_pattern(const ConfigNode& node, std::uint64_t access_bytes) {
  AccessPattern p;
  p.order = node.required("order").choice({"sequential", "random"}) == "random"
                ? AccessPattern::Order::random
                : AccessPattern::Order::sequential;
  p.accesses = node.required("accesses").positive_count();
  p.stores = node.required("operation").choice({"load", "store"}) == "store";
  const auto span = node.optional("span");
  if (p.order == AccessPattern::Order::random && !span) {
    node.required("span");  // a random stream needs the range it draws from
  }
  if (span) {
    p.span_bytes = whole_accesses(*span, access_bytes);
  } else {  // sequential without a span: the stream's own length, never wrapping
    if (p.accesses > std::numeric_limits<std::uint64_t>::max() / access_bytes) {
      node.required("accesses").fail("the stream's bytes do not fit in 64 bits");
    }
    p.span_bytes = p.accesses * access_bytes;
  }
  if (auto seed = node.optional("seed")) p.seed = seed->count();
  node.reject_unknown_keys();
  return p;
}

}  // namespace

MemoryTraceSpec WorkloadParser<MemoryTraceSpec>::parse(const ConfigNode& w) {
  MemoryTraceSpec spec;
  const auto path = w.optional("path");
  const auto pattern = w.optional("pattern");
  if (path && pattern) {
    pattern->fail("a trace is either a file ('path') or a generated stream ('pattern'), not both",
                  "remove one of them");
  }
  if (!path && !pattern) {
    w.fail("a memory trace needs 'path' (a trace file) or 'pattern' (a generated stream)",
           "add one, e.g. 'pattern: {order: sequential, accesses: 1048576, operation: load}'");
  }
  if (path) spec.path = resolve_path(*path);
  spec.access_bytes = 64;  // documented default: a cache line, as other DRAM simulators use
  if (auto bytes = w.optional("access_bytes")) {
    spec.access_bytes = bytes->positive_quantity(Dimension::bytes);
    if (spec.access_bytes > kMaxAccessBytes) bytes->fail("must be at most 1GiB");
  }
  if (auto interval = w.optional("issue_interval")) {
    spec.issue_interval = Time::from_ps(interval->quantity(Dimension::time));
  }
  if (auto group = w.optional("issue_group")) {
    spec.group_accesses = whole_accesses(*group, spec.access_bytes) / spec.access_bytes;
  }
  if (pattern) spec.pattern = read_pattern(*pattern, spec.access_bytes);
  return spec;
}

void WorkloadParser<MemoryTraceSpec>::check_inputs(const std::function<ConfigNode()>& document,
                                                   MemoryTraceSpec& spec,
                                                   const HardwareParams& hw) {
  // A group's room comes back only when all of it has completed: the whole group must fit the
  // in-flight limits, or the player would wait for it forever.
  if (spec.group_accesses > 1) {
    const std::uint64_t group_bytes = spec.group_accesses * spec.access_bytes;
    if (group_bytes > hw.core.max_bytes_in_flight) {
      document()
          .required("issue_group")
          .fail(fmt::format("a group of {} is more than a core may have in flight ({}, "
                            "hardware.hbm.max_bytes_in_flight_per_core)",
                            format_bytes(group_bytes), format_bytes(hw.core.max_bytes_in_flight)),
                "make the group smaller, or the in-flight limit larger");
    }
    if (hw.core.max_requests_in_flight != 0 &&
        spec.group_accesses > hw.core.max_requests_in_flight) {
      document()
          .required("issue_group")
          .fail(fmt::format("a group of {} accesses is more than a core may have in flight ({} "
                            "requests, hardware.hbm.max_requests_in_flight_per_core)",
                            spec.group_accesses, hw.core.max_requests_in_flight),
                "make the group smaller, or the in-flight limit larger");
    }
  }
  // With the DRAM described, the memory has a capacity: every access must lie within it.
  const bool bounded = hw.hbm.dram.has_value();
  const std::uint64_t capacity = bounded ? hw.hbm.geometry().capacity_bytes() : 0;
  if (spec.pattern) {
    const AccessPattern& p = *spec.pattern;
    (p.stores ? spec.stores : spec.loads) = p.accesses;
    (p.stores ? spec.loads : spec.stores) = 0;
    const std::uint64_t reached = std::min(p.accesses, p.span_bytes / spec.access_bytes);
    spec.highest_address = p.order == AccessPattern::Order::random
                               ? p.span_bytes - spec.access_bytes
                               : (reached - 1) * spec.access_bytes;
    if (bounded && spec.highest_address + spec.access_bytes > capacity) {
      const ConfigNode pattern = document().required("pattern");
      const std::optional<ConfigNode> span = pattern.optional("span");
      (span ? *span : pattern.required("accesses"))
          .fail(fmt::format("the stream reaches {} but the memory's capacity is {} "
                            "(hardware.hbm.dram)",
                            format_bytes(spec.highest_address + spec.access_bytes),
                            format_bytes(capacity)),
                "keep the stream within the capacity, or describe a larger memory");
    }
    return;
  }
  const ConfigNode path = document().required("path");
  std::optional<TraceReader> reader;
  try {
    reader.emplace(spec.path);
  } catch (const std::runtime_error&) {
    path.fail(fmt::format("cannot open the trace file '{}'", spec.path),
              "check the path (relative paths start at the workload file's folder)");
  }
  spec.loads = 0;
  spec.stores = 0;
  spec.highest_address = 0;
  MemoryAccess access;
  try {
    while (reader->next(access)) {
      if (access.is_write) {
        ++spec.stores;
      } else {
        ++spec.loads;
      }
      spec.highest_address = std::max(spec.highest_address, access.address);
      if (bounded &&
          (access.address >= capacity || capacity - access.address < spec.access_bytes)) {
        const std::string text = fmt::format("0x{:x}", access.address);
        // The address is the line's first '0' (only spaces and LD or ST come before it).
        const std::size_t column = reader->text().find('0') + 1;
        throw ConfigError(
            SourceLocation{spec.path, as_position(reader->line()), as_position(column)},
            path.key_path(), text,
            fmt::format("the access ({} B at {}) lies beyond the memory's capacity "
                        "of {} (hardware.hbm.dram)",
                        spec.access_bytes, text, format_bytes(capacity)),
            "keep every address below the capacity, or describe a larger memory");
      }
    }
  } catch (const TraceFormatError& error) {
    throw ConfigError(
        SourceLocation{spec.path, as_position(error.line()), as_position(error.column())},
        path.key_path(), error.text(), error.rule(), kLineFormat);
  }
  if (spec.accesses() == 0) {
    path.fail(fmt::format("the trace '{}' holds no accesses", spec.path), kLineFormat);
  }
}

std::vector<WorkloadInputFile> WorkloadParser<MemoryTraceSpec>::input_files(
    const MemoryTraceSpec& spec) {
  // From wherever a child run starts, the trace as this process found it (a pattern has none).
  if (spec.pattern) return {};
  return {{"workload.path", std::filesystem::absolute(spec.path).lexically_normal().string()}};
}

}  // namespace ridgeline
