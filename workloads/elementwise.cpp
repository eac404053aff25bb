#include "workloads/elementwise.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "workloads/element_grid.hpp"
#include "workloads/layout.hpp"

namespace ridgeline {

namespace {

constexpr std::array<ElementwiseOpInfo, 15> kOps{{
    {ElementwiseOp::add, "add", 2, 1},
    {ElementwiseOp::sub, "sub", 2, 1},
    {ElementwiseOp::mul, "mul", 2, 1},
    {ElementwiseOp::div, "div", 2, 1},
    {ElementwiseOp::max, "max", 2, 1},
    {ElementwiseOp::min, "min", 2, 1},
    {ElementwiseOp::relu, "relu", 1, 1},
    {ElementwiseOp::sigmoid, "sigmoid", 1, 3},
    {ElementwiseOp::silu, "silu", 1, 4},
    {ElementwiseOp::silu_mul, "silu_mul", 2, 5},
    {ElementwiseOp::gelu, "gelu", 1, 9},
    {ElementwiseOp::gelu_erf, "gelu_erf", 1, 5},
    {ElementwiseOp::tanh, "tanh", 1, 1},
    {ElementwiseOp::exp, "exp", 1, 1},
    {ElementwiseOp::rope, "rope", 1, 3},
}};

// `shape` right-aligned to `rank` dimensions, the missing leading ones 1.
std::vector<std::uint64_t> aligned(const TensorShape& shape, std::size_t rank) {
  std::vector<std::uint64_t> dims(rank - shape.dims.size(), 1);
  dims.insert(dims.end(), shape.dims.begin(), shape.dims.end());
  return dims;
}

std::uint64_t product(const std::vector<std::uint64_t>& dims, std::size_t from) {
  std::uint64_t n = 1;
  for (std::size_t i = from; i < dims.size(); ++i) n *= dims[i];
  return n;
}

// The distinct elements of an input a block of `block` outputs reads.
std::uint64_t elements_read(const BroadcastPattern& p, std::uint64_t block) {
  switch (p.kind) {
    case BroadcastPattern::Kind::full:
      return block;
    case BroadcastPattern::Kind::repeats:
      return std::min(block, p.period);
    case BroadcastPattern::Kind::spreads:
      return ceil_div(block, p.period);
  }
  return block;
}

// Where tensor i lies: the inputs, then the output, each aligned.
std::vector<std::uint64_t> addresses(const ElementwiseSpec& s) {
  const std::uint64_t e = element_bytes(s.dtype);
  std::vector<std::uint64_t> bytes;
  for (const TensorShape& input : s.inputs) bytes.push_back(input.elements() * e);
  bytes.push_back(s.output().elements() * e);
  return one_after_another(bytes);
}

}  // namespace

const ElementwiseOpInfo& info_of(ElementwiseOp op) { return kOps[static_cast<std::size_t>(op)]; }

std::optional<ElementwiseOp> elementwise_op_named(std::string_view name) {
  for (const ElementwiseOpInfo& info : kOps) {
    if (info.name == name) return info.op;
  }
  return std::nullopt;
}

std::vector<std::string_view> elementwise_op_names() {
  std::vector<std::string_view> names;
  for (const ElementwiseOpInfo& info : kOps) names.push_back(info.name);
  return names;
}

std::optional<TensorShape> broadcast_shape(const TensorShape& a, const TensorShape& b) {
  const std::size_t rank = std::max(a.dims.size(), b.dims.size());
  const std::vector<std::uint64_t> x = aligned(a, rank), y = aligned(b, rank);
  TensorShape out;
  for (std::size_t i = 0; i < rank; ++i) {
    if (x[i] != y[i] && x[i] != 1 && y[i] != 1) return std::nullopt;
    out.dims.push_back(std::max(x[i], y[i]));
  }
  return out;
}

std::optional<BroadcastPattern> broadcast_pattern(const TensorShape& input,
                                                  const TensorShape& output) {
  const std::size_t rank = output.dims.size();
  const std::vector<std::uint64_t> in = aligned(input, rank);
  const std::vector<std::uint64_t>& out = output.dims;
  if (in == out) return BroadcastPattern{BroadcastPattern::Kind::full, output.elements()};
  // Repeats: equal from some dimension on, 1 before it.
  std::size_t from = rank;
  while (from > 0 && in[from - 1] == out[from - 1]) --from;
  if (std::all_of(in.begin(), in.begin() + static_cast<long>(from),
                  [](std::uint64_t d) { return d == 1; })) {
    return BroadcastPattern{BroadcastPattern::Kind::repeats, product(out, from)};
  }
  // Spreads: equal up to some dimension, 1 after it.
  std::size_t to = 0;
  while (to < rank && in[to] == out[to]) ++to;
  if (std::all_of(in.begin() + static_cast<long>(to), in.end(),
                  [](std::uint64_t d) { return d == 1; })) {
    return BroadcastPattern{BroadcastPattern::Kind::spreads, product(out, to)};
  }
  return std::nullopt;
}

TensorShape ElementwiseSpec::output() const {
  TensorShape out = inputs.front();
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    if (auto b = broadcast_shape(out, inputs[i])) out = *b;
  }
  return out;
}

std::uint64_t ElementwiseSpec::block_elements() const {
  return std::min(threads * elements_per_thread, output().elements());
}

std::string describe(const ElementwiseSpec& s) {
  std::string shapes;
  for (const TensorShape& input : s.inputs) shapes += (shapes.empty() ? "" : ", ") + input.text();
  return fmt::format("elementwise {} {} {} -> {}, {} threads a block", info_of(s.operation).name,
                     name_of(s.dtype), shapes, s.output().text(), s.threads);
}

std::optional<Violation> check_rules(const ElementwiseSpec& s) {
  const ElementwiseOpInfo& op = info_of(s.operation);
  if (s.inputs.size() != op.inputs) {
    return Violation{"workload.inputs",
                     fmt::format("{} takes {}, not {}", op.name,
                                 op.inputs == 1 ? "one input" : "two inputs", s.inputs.size()),
                     fmt::format("give {} shape{}", op.inputs, op.inputs == 1 ? "" : "s")};
  }
  if (s.inputs.size() == 2 && !broadcast_shape(s.inputs[0], s.inputs[1])) {
    return Violation{"workload.inputs",
                     fmt::format("shapes {} and {} do not broadcast: a dimension differs and "
                                 "neither is 1",
                                 s.inputs[0].text(), s.inputs[1].text()),
                     "give shapes whose dimensions agree or are 1, right-aligned"};
  }
  const TensorShape out = s.output();
  if (out.elements() > (std::uint64_t{1} << 40)) {
    return Violation{"workload.inputs",
                     fmt::format("the output {} has more than 2^40 elements", out.text()),
                     "use smaller shapes"};
  }
  const std::uint64_t block = s.block_elements();
  for (const TensorShape& input : s.inputs) {
    const std::optional<BroadcastPattern> p = broadcast_pattern(input, out);
    if (!p) {
      return Violation{
          "workload.inputs",
          fmt::format("{} is stretched against {} along leading and trailing dimensions both: a "
                      "block would read scattered runs of it, which is not modelled",
                      input.text(), out.text()),
          "give an input that repeats along the output (its last dimensions) or spreads over "
          "it (its first dimensions)"};
    }
    if (p->kind != BroadcastPattern::Kind::full && p->period % block != 0 &&
        block % p->period != 0) {
      return Violation{
          "workload.elements_per_thread",
          fmt::format("a block of {} x {} = {} outputs would cut the {} elements an input {} {} "
                      "into uneven runs",
                      s.threads, s.elements_per_thread, block, p->period, input.text(),
                      p->kind == BroadcastPattern::Kind::repeats ? "repeats over"
                                                                 : "spreads each of its elements "
                                                                   "over"),
          fmt::format("choose threads x elements_per_thread that divides {} or is a multiple of it",
                      p->period),
          "workload.threads"};
    }
  }
  return std::nullopt;
}

Footprint footprint(const ElementwiseSpec& s, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const std::uint64_t inputs = s.inputs.size();
  Footprint f;
  f.stages = 1;
  f.input_bytes_per_stage = inputs * s.block_elements() * e;
  f.input_bytes = f.input_bytes_per_stage;
  f.accumulator_bytes = s.block_elements() * e;
  // Each thread holds its elements of every input and of the output.
  const std::uint64_t registers =
      ceil_div((inputs + 1) * s.elements_per_thread * e, kRegisterBytes);
  assign_registers(f, s.threads, std::max<std::uint64_t>(1, registers), target);
  return f;
}

Analysis analyze(const ElementwiseSpec& s, const Roof& roof, const KernelTarget& target) {
  const std::uint64_t e = element_bytes(s.dtype);
  const TensorShape out = s.output();
  const std::uint64_t total = out.elements(), block = s.block_elements();
  const std::uint64_t blocks = ceil_div(total, block);
  const std::uint64_t last = total - (blocks - 1) * block;
  std::uint64_t read = 0;
  for (const TensorShape& input : s.inputs) {
    const BroadcastPattern p = *broadcast_pattern(input, out);
    read += ((blocks - 1) * elements_read(p, block) + elements_read(p, last)) * e;
  }
  return streamed_analysis(info_of(s.operation).flops_per_element * total, read, total * e, roof,
                           footprint(s, target));
}

namespace {

// A block of `elements` outputs (the last one may be short): each input's run, the math, the
// outputs.
Program block_program(const ElementwiseSpec& s, std::uint64_t elements) {
  const std::uint64_t e = element_bytes(s.dtype);
  const TensorShape out = s.output();
  const std::uint64_t block = s.block_elements();
  const std::vector<std::uint64_t> at = addresses(s);
  std::vector<std::string> names = s.inputs.size() == 1 ? std::vector<std::string>{"x", "y"}
                                                        : std::vector<std::string>{"a", "b", "y"};
  std::vector<TensorAccess> loads;
  for (std::size_t i = 0; i < s.inputs.size(); ++i) {
    const BroadcastPattern p = *broadcast_pattern(s.inputs[i], out);
    const std::uint64_t count = elements_read(p, elements);
    TensorAccess access{static_cast<std::uint8_t>(i), {}};
    AddressPattern& pattern = access.pattern;
    pattern.region_of_block0 = Region{at[i], 1, count * e, count * e, 1};
    if (p.kind == BroadcastPattern::Kind::full) {
      pattern.block_row_bytes = block * e;
    } else if (p.kind == BroadcastPattern::Kind::repeats && block < p.period) {
      // The runs of one repeat, block after block, then the next repeat from its start.
      pattern.block_row_bytes = block * e;
      pattern.outer = RowGroup{p.period / block, 0};
    } else if (p.kind == BroadcastPattern::Kind::spreads && block >= p.period) {
      pattern.block_row_bytes = (block / p.period) * e;
    } else if (p.kind == BroadcastPattern::Kind::spreads) {
      // One element serves period / block blocks.
      pattern.outer = RowGroup{p.period / block, e};
    }  // repeats with the block holding whole repeats: every block reads all of it
    loads.push_back(access);
  }
  TensorAccess store{static_cast<std::uint8_t>(s.inputs.size()), {}};
  store.pattern.region_of_block0 = Region{at.back(), 1, elements * e, elements * e, 1};
  store.pattern.block_row_bytes = block * e;
  return load_compute_store(std::move(names), loads,
                            info_of(s.operation).flops_per_element * elements, store);
}

}  // namespace

Kernel build_kernel(const ElementwiseSpec& s, const KernelTarget& target) {
  Kernel kernel = element_grid_kernel(
      describe(s), DataType::fp32, s.output().elements(), s.block_elements(), footprint(s, target),
      [&](std::uint64_t elements) { return block_program(s, elements); });
  return kernel;
}

std::vector<TensorRef> tensors(const ElementwiseSpec& s) {
  const std::vector<std::uint64_t> at = addresses(s);
  std::vector<TensorRef> out;
  const char* unary[] = {"x"};
  const char* binary[] = {"a", "b"};
  for (std::size_t i = 0; i < s.inputs.size(); ++i) {
    out.push_back(TensorRef{s.inputs.size() == 1 ? unary[0] : binary[i], TensorRole::input,
                            s.inputs[i], s.dtype, at[i]});
  }
  out.push_back(TensorRef{"y", TensorRole::output, s.output(), s.dtype, at.back()});
  return out;
}

}  // namespace ridgeline
