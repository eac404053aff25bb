#include "workloads/row_reduction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"
#include "workloads/staged_loop.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

struct Entry {
  RowReduction reduction;
  std::string_view name;
  RowReductionCost cost;
};

constexpr std::array<Entry, 3> kReductions{{
    {RowReduction::softmax, "softmax", {5, 0, 1, 3, 2, 3, 0}},
    {RowReduction::layer_norm, "layer_norm", {6, 2, 4, 3, 2, 3, 2}},
    {RowReduction::rms_norm, "rms_norm", {3, 1, 3, 2, 2, 2, 1}},
}};

// x, then the affine parameters, then y, each aligned.
struct RowLayout {
  std::uint64_t x = 0;
  std::uint64_t weight = 0;
  std::uint64_t bias = 0;
  std::uint64_t y = 0;
};
RowLayout layout_of(const RowReductionSpec& s) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t tensor = s.shape.elements() * e, vector = s.columns() * e;
  // The parameters it has; a bias only with a weight.
  const std::vector<std::uint64_t> at = one_after_another(
      {tensor, s.parameters() > 0 ? vector : 0, s.parameters() > 1 ? vector : 0, tensor});
  return RowLayout{at[0], at[1], at[2], at[3]};
}

}  // namespace

std::string_view name_of(RowReduction reduction) {
  return kReductions[static_cast<std::size_t>(reduction)].name;
}

std::optional<RowReduction> row_reduction_named(std::string_view name) {
  for (const Entry& e : kReductions) {
    if (e.name == name) return e.reduction;
  }
  return std::nullopt;
}

RowReductionCost cost_of(RowReduction reduction) {
  return kReductions[static_cast<std::size_t>(reduction)].cost;
}

std::uint64_t RowReductionSpec::chunk() const {
  return passes == 1 || chunk_columns == 0 ? columns() : std::min(chunk_columns, columns());
}

std::uint32_t RowReductionSpec::parameters() const {
  return affine ? cost_of(operation).parameters : 0;
}

std::string describe(const RowReductionSpec& s) {
  return fmt::format("row_reduction {} {} {}, {}, {} a block", name_of(s.operation),
                     name_of(s.dtype), s.shape.text(),
                     s.passes == 1
                         ? std::string("rows kept on chip")
                         : fmt::format("{} pass{} over HBM", s.passes, s.passes == 1 ? "" : "es"),
                     counted(s.rows_per_block, "row"));
}

std::string WorkloadKind<RowReductionSpec>::short_label(const RowReductionSpec& s) {
  return fmt::format("{}, {} pass{}", name_of(s.operation), s.passes, s.passes == 1 ? "" : "es");
}

std::optional<Violation> check_rules(const RowReductionSpec& s) {
  const RowReductionCost c = cost_of(s.operation);
  if (s.passes != 1 && (s.passes < c.min_passes || s.passes > c.max_passes)) {
    return Violation{
        "workload.passes",
        fmt::format(
            "{} reads a row 1 time (kept on chip) or {} times over HBM", name_of(s.operation),
            c.max_passes > c.min_passes ? fmt::format("{} to {}", c.min_passes, c.max_passes)
                                        : fmt::format("{}", c.min_passes)),
        fmt::format("use 1{}", c.max_passes > c.min_passes
                                   ? fmt::format(", {} or {}", c.min_passes, c.max_passes)
                                   : fmt::format(" or {}", c.min_passes))};
  }
  if (s.shape.elements() > (std::uint64_t{1} << 40)) {
    return Violation{"workload.shape",
                     fmt::format("{} has more than 2^40 elements", s.shape.text()),
                     "use a smaller shape"};
  }
  if (s.rows_per_block > s.rows()) {
    return Violation{"workload.rows_per_block",
                     fmt::format("a block takes more rows than the tensor's {}", s.rows()),
                     fmt::format("use at most {}", s.rows())};
  }
  const std::uint64_t steps = s.passes * ceil_div(s.columns(), s.chunk());
  if (steps > kMaxStepsPerBlock) {
    return Violation{"workload.chunk_columns",
                     fmt::format("a block would load {} chunks; at most {} fit a block's program",
                                 steps, kMaxStepsPerBlock),
                     "use a larger chunk_columns"};
  }
  return std::nullopt;
}

Footprint footprint(const RowReductionSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  Footprint f;
  if (s.passes == 1) {
    // The block's rows in SRAM, whole.
    f.stages = 1;
    f.input_bytes_per_stage = s.rows_per_block * s.columns() * e;
    f.input_bytes = f.input_bytes_per_stage;
    f.sram_bytes = f.input_bytes;
  } else {
    // Two chunks of the rows in flight through registers.
    f.stages = 2;
    f.input_bytes_per_stage = s.rows_per_block * s.chunk() * e;
    f.input_bytes = 2 * f.input_bytes_per_stage;
  }
  f.accumulator_bytes = s.rows_per_block * 2 * 4;  // FP32 statistics a row
  // A thread's share of the data in registers (streaming) or of a row's sweep, and its
  // statistics (two FP32 values).
  const std::uint64_t in_registers = s.passes == 1 ? 0 : f.input_bytes;
  const std::uint64_t registers = ceil_div(in_registers, s.threads * kRegisterBytes) + 2;
  assign_registers(f, s.threads, registers, target);
  return f;
}

Analysis analyze(const RowReductionSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const RowReductionCost c = cost_of(s.operation);
  const std::uint64_t rows = s.rows(), columns = s.columns();
  const std::uint64_t blocks = ceil_div(rows, s.rows_per_block);
  const std::uint64_t per_element =
      c.flops_per_element + (s.parameters() > 0 ? c.affine_flops_per_element : 0);
  const std::uint64_t flops = rows * (per_element * columns + c.flops_per_row);
  const std::uint64_t parameter_bytes = blocks * s.parameters() * columns * e;
  const std::uint64_t read = s.passes * rows * columns * e + parameter_bytes;
  Analysis a = streamed_analysis(flops, read, rows * columns * e, roof, footprint(s, target));
  if (s.passes == 1) {
    // Rows land in SRAM once and are read once a sweep; the parameters go to registers.
    a.sram_write_bytes = rows * columns * e;
    a.sram_read_bytes = c.sweeps * rows * columns * e;
    a.hbm_register_read_bytes = parameter_bytes;
  }
  return a;
}

namespace {

// The program of a block of `rows` rows.
Program block_program(const RowReductionSpec& s, std::uint64_t rows) {
  const std::uint64_t e = element_bytes(s.dtype);
  const RowReductionCost c = cost_of(s.operation);
  const std::uint64_t columns = s.columns(), chunk = s.chunk();
  const RowLayout l = layout_of(s);
  const std::uint64_t per_element =
      c.flops_per_element + (s.parameters() > 0 ? c.affine_flops_per_element : 0);
  const std::uint64_t flops = rows * (per_element * columns + c.flops_per_row);
  ProgramBuilder builder({"x", "weight", "bias", "y"});
  constexpr std::uint8_t kX = 0, kWeight = 1, kBias = 2, kY = 3;
  // The block's rows, columns [first, first + count).
  auto rows_of = [&](std::uint64_t base, std::uint64_t first, std::uint64_t count) {
    AddressPattern p;
    p.region_of_block0 = Region{base + first * e, rows, count * e, columns * e, 1};
    p.block_row_bytes = s.rows_per_block * columns * e;
    return p;
  };
  auto vector = [&](std::uint64_t base) {
    AddressPattern p;
    p.region_of_block0 = Region::contiguous(base, columns * e);
    return p;
  };
  // The affine parameters first: into registers, read by the last sweep.
  std::vector<std::uint32_t> parameters;
  for (std::uint32_t i = 0; i < s.parameters(); ++i) {
    parameters.push_back(
        builder.add(Op::load(i == 0 ? kWeight : kBias, 0, vector(i == 0 ? l.weight : l.bias), 0)));
    if (i > 0) builder.depend(parameters[0], parameters[1], EdgeKind::issue_order);
  }
  if (s.passes == 1) {
    // The rows land in SRAM once; every sweep reads them there.
    const std::uint64_t bytes = rows * columns * e;
    const std::uint32_t load = builder.add(Op::load(kX, 0, rows_of(l.x, 0, columns), bytes));
    if (!parameters.empty()) builder.depend(parameters.back(), load, EdgeKind::issue_order);
    const std::uint32_t compute = builder.add(Op::compute(0, flops, c.sweeps * bytes));
    builder.depend(load, compute, EdgeKind::data);
    for (std::uint32_t p : parameters) builder.depend(p, compute, EdgeKind::data);
    const std::uint32_t store = builder.add(Op::store(kY, 0, rows_of(l.y, 0, columns)));
    builder.depend(compute, store, EdgeKind::data);
    return builder.compile();
  }
  // Streaming: each pass walks the row chunk by chunk, two chunks in flight; the FLOPs are
  // spread evenly over the steps (the last takes the remainder and the per-row ones).
  StagedLoop loop(builder, 2);
  const std::uint64_t chunks = ceil_div(columns, chunk);
  const std::uint64_t steps = s.passes * chunks;
  for (std::uint64_t step = 0; step < steps; ++step) {
    const std::uint64_t first = (step % chunks) * chunk;
    const std::uint64_t count = std::min(chunk, columns - first);
    const std::uint64_t step_flops =
        step + 1 < steps ? flops / steps : flops - (steps - 1) * (flops / steps);
    const auto label = static_cast<std::uint32_t>(step);
    const std::uint32_t compute = loop.add_step(
        {Op::load(kX, label, rows_of(l.x, first, count), 0)}, Op::compute(label, step_flops, 0));
    if (step == (s.passes - 1) * chunks) {
      for (std::uint32_t p : parameters) builder.depend(p, compute, EdgeKind::data);
    }
    if (step >= (s.passes - 1) * chunks) {
      // The last pass writes each chunk as soon as it is normalised.
      const std::uint32_t store = builder.add(Op::store(kY, label, rows_of(l.y, first, count)));
      builder.depend(compute, store, EdgeKind::data);
    }
  }
  return builder.compile();
}

}  // namespace

Kernel build_kernel(const RowReductionSpec& s, const KernelTarget& target) {
  return element_grid_kernel(describe(s), DataType::fp32, s.rows(), s.rows_per_block,
                             footprint(s, target),
                             [&](std::uint64_t rows) { return block_program(s, rows); });
}

std::vector<TensorRef> tensors(const RowReductionSpec& s) {
  const RowLayout l = layout_of(s);
  std::vector<TensorRef> out{TensorRef{"x", TensorRole::input, s.shape, s.dtype, l.x}};
  const TensorShape vector{{s.columns()}};
  if (s.parameters() > 0)
    out.push_back(TensorRef{"weight", TensorRole::input, vector, s.dtype, l.weight});
  if (s.parameters() > 1)
    out.push_back(TensorRef{"bias", TensorRole::input, vector, s.dtype, l.bias});
  out.push_back(TensorRef{"y", TensorRole::output, s.shape, s.dtype, l.y});
  return out;
}

}  // namespace ridgeline
