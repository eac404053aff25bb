#include "workloads/gather.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kIndexBytes = 4;  // int32 indices

// The table, the indices, then y, each aligned.
struct GatherLayout {
  std::uint64_t table = 0;
  std::uint64_t indices = 0;
  std::uint64_t y = 0;
};
GatherLayout layout_of(const GatherSpec& s) {
  const std::uint64_t row = s.columns * element_bytes(s.dtype);
  const std::vector<std::uint64_t> at =
      one_after_another({s.table_rows * row, s.indices * kIndexBytes, s.indices * row});
  return GatherLayout{at[0], at[1], at[2]};
}

}  // namespace

std::uint64_t GatherSpec::row_stride() const {
  return std::max<std::uint64_t>(1, table_rows / indices);
}

std::uint64_t GatherSpec::row_of(std::uint64_t i) const {
  const std::uint64_t s = row_stride();
  return (i % (table_rows / s)) * s + s - 1;
}

std::string describe(const GatherSpec& s) {
  return fmt::format("gather {} {} of a [{}, {}] table", name_of(s.dtype),
                     counted(s.indices, "row"), s.table_rows, s.columns);
}

std::string WorkloadKind<GatherSpec>::short_label(const GatherSpec& s) {
  return fmt::format("gather {} of {} rows", s.indices, s.table_rows);
}

std::optional<Violation> check_rules(const GatherSpec& s) {
  if (s.table_rows * s.columns > (std::uint64_t{1} << 40) ||
      s.indices * s.columns > (std::uint64_t{1} << 40)) {
    return Violation{"workload.columns", "the table or the output has more than 2^40 elements",
                     "use a smaller table or fewer indices"};
  }
  return std::nullopt;
}

Footprint footprint(const GatherSpec& s, const KernelTarget& target) {
  const std::uint64_t row = s.columns * element_bytes(s.dtype);
  Footprint f;
  f.stages = 1;
  f.input_bytes_per_stage = kIndexBytes + row;
  f.input_bytes = f.input_bytes_per_stage;
  // Each thread holds the index and its share of the row on the way through, 32 B at most at a
  // time (two 16-byte vector loads): a longer row loops, as a copy kernel does.
  constexpr std::uint64_t kBytesAThread = 32;
  const std::uint64_t threads = std::min(s.threads, std::max<std::uint64_t>(1, s.columns));
  const std::uint64_t share = std::min(ceil_div(row, threads), kBytesAThread);
  assign_registers(f, threads, ceil_div(share, kRegisterBytes) + 1, target);
  return f;
}

Analysis analyze(const GatherSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t row = s.columns * element_bytes(s.dtype);
  return streamed_analysis(0, s.indices * (kIndexBytes + row), s.indices * row, roof,
                           footprint(s, target));
}

Kernel build_kernel(const GatherSpec& s, const KernelTarget& target) {
  const GatherLayout l = layout_of(s);
  const std::uint64_t row = s.columns * element_bytes(s.dtype);
  const std::uint64_t stride = s.row_stride();
  ProgramBuilder builder({"table", "indices", "y"});
  AddressPattern index;
  index.region_of_block0 = Region::contiguous(l.indices, kIndexBytes);
  index.block_row_bytes = kIndexBytes;
  AddressPattern picked;  // block i's row: row_of(i), wrapping past the table
  picked.region_of_block0 = Region::contiguous(l.table + (stride - 1) * row, row);
  picked.block_row_bytes = stride * row;
  picked.outer = RowGroup{s.table_rows / stride, 0};
  AddressPattern out;
  out.region_of_block0 = Region::contiguous(l.y, row);
  out.block_row_bytes = row;
  // The row's address is the index's value: its load waits for the index to arrive.
  const std::uint32_t load_index = builder.add(Op::load(1, 0, index, 0));
  const std::uint32_t load_row = builder.add(Op::load(0, 0, picked, 0));
  builder.depend(load_index, load_row, EdgeKind::data);
  const std::uint32_t store = builder.add(Op::store(2, 0, out));
  builder.depend(load_row, store, EdgeKind::data);
  const Program program = builder.compile();
  return element_grid_kernel(describe(s), DataType::fp32, s.indices, 1, footprint(s, target),
                             [&](std::uint64_t) { return program; });
}

std::vector<TensorRef> tensors(const GatherSpec& s) {
  const GatherLayout l = layout_of(s);
  return {
      TensorRef{"table", TensorRole::input, TensorShape{{s.table_rows, s.columns}}, s.dtype,
                l.table},
      TensorRef{"indices", TensorRole::input, TensorShape{{s.indices}}, DataType::int32, l.indices},
      TensorRef{"y", TensorRole::output, TensorShape{{s.indices, s.columns}}, s.dtype, l.y}};
}

}  // namespace ridgeline
