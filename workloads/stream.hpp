// The streaming kernels GPU memory benchmarks run (STREAM's copy, scale, add and triad, and the
// read-only and write-only kernels of gpu-benches' gpu-stream): one thread per
// `elements_per_thread` consecutive elements, `threads` threads a block, each block
// handling threads x elements_per_thread consecutive elements of every array and exiting
// when they are done. A GPU runs such a kernel as many short blocks, so what it reaches depends
// on how many bytes its resident blocks have in flight and on how fast the cores replace a
// finished block (cores.block_launch_latency), not only on the memory's bandwidth.
//
//   kernel  arrays read  arrays written  FLOP an element
//   read    1            0               0  (each thread waits for its element: a compare)
//   write   0            1               0  (gpu-stream's init: a constant stored)
//   copy    1            1               0
//   scale   1            1               1  (a = s b)
//   add     2            1               1  (a = b + c)
//   triad   2            1               2  (a = b + s c: a multiply and an add)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

enum class StreamKernel : std::uint8_t { read, write, copy, scale, add, triad };

/// "read", "write", ...: the names workload files use.
std::string_view name_of(StreamKernel kernel);
std::optional<StreamKernel> stream_kernel_named(std::string_view name);

/// What one element of a kernel reads, writes and computes.
struct StreamTraffic {
  std::uint32_t arrays_read = 0;
  std::uint32_t arrays_written = 0;
  std::uint32_t flops_per_element = 0;
};
StreamTraffic traffic_of(StreamKernel kernel);

struct StreamSpec {
  StreamKernel kernel = StreamKernel::read;
  std::uint64_t length = 0;         ///< elements of each array
  DataType dtype = DataType::fp32;  ///< every array's
  std::uint64_t threads = 0;        ///< per block
  std::uint64_t elements_per_thread = 1;

  std::uint64_t block_elements() const { return threads * elements_per_thread; }
};

std::string describe(const StreamSpec& spec);
/// F = FLOP an element x length; Q = (arrays read + written) x length x element bytes.
Analysis analyze(const StreamSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const StreamSpec& spec, const KernelTarget& target = {});
/// ceil(length / block elements) blocks; the last one takes what is left.
Kernel build_kernel(const StreamSpec& spec, const KernelTarget& target = {});

template <>
struct WorkloadKind<StreamSpec> : RunsOnCores<StreamSpec> {
  static constexpr std::string_view name = "stream";
  static constexpr LimitKeys limit_keys{"workload.elements_per_thread", "workload.threads", ""};

  /// "stream triad".
  static std::string short_label(const StreamSpec& spec) {
    return "stream " + std::string(name_of(spec.kernel));
  }
  /// None beyond what reading the spec checks.
  static std::optional<Violation> check_rules(const StreamSpec&) { return std::nullopt; }
  static std::optional<Violation> check_threads(const StreamSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const StreamSpec&) {
    return ThreadRegistersNote{"", "workload.elements_per_thread", "use fewer elements a thread",
                               false};
  }

  template <class Visitor>
  static void visit_fields(const StreamSpec& s, Visitor& visitor) {
    visitor.text("kernel", name_of(s.kernel));
    visitor.integer("length", s.length);
    visitor.text("dtype", ridgeline::name_of(s.dtype));
    visitor.integer("threads", s.threads);
    visitor.integer("elements_per_thread", s.elements_per_thread);
  }
  /// None: a point reads its spec again, so that the parser's limits hold for every value.
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
