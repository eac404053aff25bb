#include "workloads/stream.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"

namespace ridgeline {

namespace {

struct KernelEntry {
  StreamKernel kernel;
  std::string_view name;
  StreamTraffic traffic;
};

constexpr std::array<KernelEntry, 6> kKernels{{
    {StreamKernel::read, "read", {1, 0, 0}},
    {StreamKernel::write, "write", {0, 1, 0}},
    {StreamKernel::copy, "copy", {1, 1, 0}},
    {StreamKernel::scale, "scale", {1, 1, 1}},
    {StreamKernel::add, "add", {2, 1, 1}},
    {StreamKernel::triad, "triad", {2, 1, 2}},
}};

const KernelEntry& entry_of(StreamKernel kernel) {
  return kKernels[static_cast<std::size_t>(kernel)];
}

}  // namespace

std::string_view name_of(StreamKernel kernel) { return entry_of(kernel).name; }

std::optional<StreamKernel> stream_kernel_named(std::string_view name) {
  for (const KernelEntry& e : kKernels) {
    if (e.name == name) return e.kernel;
  }
  return std::nullopt;
}

StreamTraffic traffic_of(StreamKernel kernel) { return entry_of(kernel).traffic; }

std::string describe(const StreamSpec& s) {
  return fmt::format("stream {} {} {}, {} threads a block", name_of(s.kernel), s.length,
                     ridgeline::name_of(s.dtype), s.threads);
}

Footprint footprint(const StreamSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const StreamTraffic t = traffic_of(s.kernel);
  Footprint f;
  f.stages = 1;
  f.input_bytes_per_stage = t.arrays_read * s.block_elements() * e;
  f.input_bytes = f.input_bytes_per_stage;
  f.accumulator_bytes = t.arrays_written * s.block_elements() * e;
  // Each thread holds its elements of every array it touches in registers.
  const std::uint64_t element_registers =
      ceil_div((t.arrays_read + t.arrays_written) * s.elements_per_thread * e, kRegisterBytes);
  assign_registers(f, s.threads, std::max<std::uint64_t>(1, element_registers), target);
  return f;
}

Analysis analyze(const StreamSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const StreamTraffic t = traffic_of(s.kernel);
  return streamed_analysis(t.flops_per_element * s.length, t.arrays_read * s.length * e,
                           t.arrays_written * s.length * e, roof, footprint(s, target));
}

namespace {

// The program of a block of `elements` elements: its loads (one request an array read: a
// block's warps load consecutive elements, which coalesce), the compute that waits for them
// (if the kernel computes), and the store of what it wrote.
Program block_program(const StreamSpec& s, std::uint64_t elements) {
  const std::uint64_t e = element_bytes(s.dtype);
  const StreamTraffic t = traffic_of(s.kernel);
  const std::uint64_t array_bytes = align_up(s.length * e, kTensorAlignmentBytes);
  // Arrays one after the other: the written one (a) first, then the ones read (b, c).
  std::vector<std::string> names;
  if (t.arrays_written > 0) names.emplace_back("a");
  for (std::uint32_t i = 0; i < t.arrays_read; ++i) names.emplace_back(i == 0 ? "b" : "c");
  auto part = [&](std::uint8_t array) {
    TensorAccess access{array, {}};
    access.pattern.region_of_block0 = Region{array * array_bytes, 1, elements * e, elements * e, 1};
    access.pattern.block_row_bytes = s.block_elements() * e;
    return access;
  };
  const std::uint8_t first_read = t.arrays_written > 0 ? 1 : 0;
  std::vector<TensorAccess> loads;
  for (std::uint8_t i = 0; i < t.arrays_read; ++i) loads.push_back(part(first_read + i));
  std::optional<TensorAccess> store;
  if (t.arrays_written > 0) store = part(0);
  return load_compute_store(std::move(names), loads, t.flops_per_element * elements, store);
}

}  // namespace

Kernel build_kernel(const StreamSpec& s, const KernelTarget& target) {
  return element_grid_kernel(describe(s), s.dtype, s.length, s.block_elements(),
                             footprint(s, target),
                             [&](std::uint64_t elements) { return block_program(s, elements); });
}

}  // namespace ridgeline
