#include "sim/config/memory_trace_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "sim/config/quantity.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMaxAccessBytes = std::uint64_t{1} << 30;  // one TLM payload's length

constexpr const char* kLineFormat =
    "each line is 'LD 0x<hex address>' or 'ST 0x<hex address>'; blank lines and lines starting "
    "with '#' are skipped";

int as_position(std::uint64_t value) {
  return static_cast<int>(std::min<std::uint64_t>(value, std::numeric_limits<int>::max()));
}

std::string resolve(const ConfigNode& node, const std::string& path) {
  if (path.empty() || path.front() == '/') return path;
  const std::string source = node.location().source;
  if (source.rfind("--set ", 0) == 0) return path;  // given on the command line: the working dir
  const auto slash = source.rfind('/');
  return slash == std::string::npos ? path : source.substr(0, slash + 1) + path;
}

}  // namespace

MemoryTraceSpec WorkloadParser<MemoryTraceSpec>::parse(const ConfigNode& w) {
  MemoryTraceSpec spec;
  const ConfigNode path = w.required("path");
  spec.path = resolve(path, path.text());
  spec.access_bytes = 64;  // documented default: a cache line, as other DRAM simulators use
  if (auto bytes = w.optional("access_bytes")) {
    spec.access_bytes = bytes->positive_quantity(Dimension::bytes);
    if (spec.access_bytes > kMaxAccessBytes) bytes->fail("must be at most 1GiB");
  }
  if (auto interval = w.optional("issue_interval")) {
    spec.issue_interval = Time::from_ps(interval->quantity(Dimension::time));
  }
  return spec;
}

void WorkloadParser<MemoryTraceSpec>::check_inputs(const std::function<ConfigNode()>& document,
                                                   MemoryTraceSpec& spec,
                                                   const HardwareParams& hw) {
  const ConfigNode path = document().required("path");
  std::optional<TraceReader> reader;
  try {
    reader.emplace(spec.path);
  } catch (const std::runtime_error&) {
    path.fail(fmt::format("cannot open the trace file '{}'", spec.path),
              "check the path (relative paths start at the workload file's folder)");
  }
  // With the DRAM described, the memory has a capacity: every access must lie within it.
  const bool bounded = hw.hbm.dram.has_value();
  const std::uint64_t capacity = bounded ? hw.hbm.geometry().capacity_bytes() : 0;
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
  // From wherever a child run starts, the trace as this process found it.
  return {{"workload.path", std::filesystem::absolute(spec.path).lexically_normal().string()}};
}

}  // namespace ridgeline
