// libFuzzer target for the memory-trace loader: a trace file, read as a memory_trace workload on
// one HBM3 stack in detailed mode (configs/hardware/hbm3-stack.yaml, so addresses are checked
// against a capacity), with --set arguments.
//
// Input: the trace's bytes, then optionally a line "%%" and one --set argument per line (e.g.
// workload.access_bytes=4KiB, hardware.hbm.mode=bandwidth). Loading must succeed or throw a
// one-line ConfigError positioned in the trace, the workload file, the hardware file or a --set
// argument (fuzz/harness.hpp). A trace that loads must give its reports, and read again the way
// the simulation reads it, the same loads, stores and highest address the loader counted.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/harness.hpp"
#include "models/sc_main_stub.hpp"
#include "workloads/memory_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ridgeline;
  const std::vector<std::string_view> sections =
      fuzz::sections_of(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string trace = fuzz::scratch_path("input.trace");
  const std::string workload = fuzz::scratch_path("trace-workload.yaml");
  fuzz::write_file(trace, sections[0]);
  fuzz::write_file(workload,
                   "workload:\n  kind: memory_trace\n  path: input.trace\n"
                   "  access_bytes: 64B\n");
  std::vector<std::string> overrides;
  for (std::size_t s = 1; s < sections.size(); ++s) {
    for (std::string& line : fuzz::lines_of(sections[s])) overrides.push_back(std::move(line));
  }
  try {
    const RunConfig config = load_config(RIDGELINE_FUZZ_TRACE_HARDWARE, workload, overrides);
    fuzz::check_loaded(config);
    const auto* spec = std::get_if<MemoryTraceSpec>(&config.workload);
    if (spec == nullptr) return 0;  // a --set made it another kind: the config target's ground
    TraceReader reader(spec->path);
    MemoryTraceSpec replayed;
    MemoryAccess access;
    while (reader.next(access)) {
      ++(access.is_write ? replayed.stores : replayed.loads);
      replayed.highest_address = std::max(replayed.highest_address, access.address);
    }
    if (replayed.loads != spec->loads || replayed.stores != spec->stores ||
        replayed.highest_address != spec->highest_address) {
      fuzz::fail("the simulation's reader sees another trace than the loader counted",
                 describe(*spec));
    }
  } catch (const ConfigError& error) {
    fuzz::check_error(error, {trace, workload, RIDGELINE_FUZZ_TRACE_HARDWARE});
  }
  return 0;
}
