#include "workloads/vector_add.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"
#include "workloads/staged_loop.hpp"

namespace ridgeline {

std::string describe(const VectorAddSpec& s) {
  return fmt::format("vector_add {} {}", s.length, name_of(s.dtype));
}

Footprint footprint(const VectorAddSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  Footprint f;
  f.stages = s.stages;
  f.input_bytes_per_stage = 2 * s.chunk_elements * e;  // A and B chunks
  f.input_bytes = f.input_bytes_per_stage * s.stages;
  f.accumulator_bytes = s.chunk_elements * e;  // the C chunk before it is stored
  // Operands land in registers, shared evenly by the block's threads.
  const std::uint64_t data_bytes = f.input_bytes + f.accumulator_bytes;
  assign_registers(f, s.threads, ceil_div(data_bytes, s.threads * kRegisterBytes), target);
  return f;
}

Analysis analyze(const VectorAddSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  return streamed_analysis(s.length, 2 * s.length * e, s.length * e, roof, footprint(s, target));
}

namespace {

// The program of one block of `elements` elements, chunk by chunk.
Program block_program(const VectorAddSpec& s, std::uint64_t elements) {
  const std::uint64_t e = element_bytes(s.dtype);
  const MatrixLayout layout = vector_layout(s.length, e);
  ProgramBuilder builder({"A", "B", "C"});
  StagedLoop loop(builder, s.stages);
  const std::uint64_t chunks = (elements + s.chunk_elements - 1) / s.chunk_elements;
  for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
    const std::uint64_t first = chunk * s.chunk_elements;
    const std::uint64_t count = std::min(s.chunk_elements, elements - first);
    auto part = [&](std::uint64_t tensor_base) {
      AddressPattern p;
      p.region_of_block0 = Region{tensor_base + first * e, 1, count * e, count * e, 1};
      p.block_row_bytes = s.block_elements * e;
      return p;
    };
    const auto step = static_cast<std::uint32_t>(chunk);
    // Operands land in registers (no SRAM bytes); each chunk's sum is stored as soon as it is made.
    const std::uint32_t c =
        loop.add_step({Op::load(0, step, part(layout.a), 0), Op::load(1, step, part(layout.b), 0)},
                      Op::compute(step, count, 0));
    builder.depend(c, builder.add(Op::store(2, step, part(layout.c))), EdgeKind::data);
  }
  return builder.compile();
}

}  // namespace

Kernel build_kernel(const VectorAddSpec& s, const KernelTarget& target) {
  return element_grid_kernel(describe(s), s.dtype, s.length, s.block_elements,
                             footprint(s, target),
                             [&](std::uint64_t elements) { return block_program(s, elements); });
}

}  // namespace ridgeline
