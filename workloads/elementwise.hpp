// Element-wise operators over tensors: y = f(x) (activations) or y = f(a, b) (add, mul, ...),
// with NumPy broadcasting, as a deep-learning framework's element-wise kernels run them: each
// thread handles `elements_per_thread` consecutive outputs, a block `threads` threads; the math
// runs on the vector units in FP32 whatever the tensors' data type (they are converted on load
// and store), so the roof's P is the machine's FP32 peak.
//
// FLOPs an output element (each arithmetic operation and each transcendental counts one; the
// special-function units' lower rate for exp, tanh and erf is not modelled):
//   add, sub, mul, div, max, min   1
//   relu       max(x, 0)                                                      1
//   sigmoid    1 / (1 + exp(-x))                     exp, add, divide           3
//   silu       x sigmoid(x)                                                   4
//   silu_mul   silu(a) b (SwiGLU's gate)                                       5
//   gelu       0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))  (PyTorch's approximate='tanh')
//              x^3 (2), x 0.044715, + x, x sqrt(2/pi), tanh, + 1, x x, x 0.5  9
//   gelu_erf   0.5 x (1 + erf(x / sqrt(2)))          x 1/sqrt(2), erf, + 1, x x, x 0.5  5
//   tanh, exp                                                                 1
//   rope       rotary position embedding of a head's pairs (x1, x2) by the position's angle:
//              x1 cos - x2 sin, x2 cos + x1 sin: two multiplies and an add an output       3
//              (its x is [tokens, heads x head_dim]; the position's cos and sin, head_dim
//              values a token shared by its heads, are not counted: 1 / (2 heads) of the
//              kernel's bytes)
//
// Broadcasting: the output's shape is the inputs' broadcast (shapes right-aligned, a dimension
// of 1 stretched). Of the output's elements, in row-major order, an input either
//   - is the output's shape (full),
//   - repeats: its shape is the output's last dimensions (the leading ones 1 or absent), so its
//     L elements repeat along the output (a bias [N] against [M, N]),
//   - spreads: its shape is the output's first dimensions (the trailing ones 1), so each of its
//     elements serves T consecutive outputs (a scale [M, 1] against [M, N]),
// and a block of E outputs reads the distinct elements of each input it needs: E of a full one,
// min(E, L) of one that repeats, ceil(E / T) of one that spreads. E must divide the period (L or
// T) or be a multiple of it, so that every block reads one run of each input. Other broadcasts
// (an input stretched along both leading and trailing dimensions) are refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/tensor.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

enum class ElementwiseOp : std::uint8_t {
  add,
  sub,
  mul,
  div,
  max,
  min,
  relu,
  sigmoid,
  silu,
  silu_mul,
  gelu,
  gelu_erf,
  tanh,
  exp,
  rope
};

/// An operation's name in workload files, its inputs and its FLOPs an output element.
struct ElementwiseOpInfo {
  ElementwiseOp op;
  std::string_view name;
  std::uint32_t inputs;
  std::uint32_t flops_per_element;
};
const ElementwiseOpInfo& info_of(ElementwiseOp op);
std::optional<ElementwiseOp> elementwise_op_named(std::string_view name);
/// Every operation's name, in the table's order.
std::vector<std::string_view> elementwise_op_names();

/// How an input's elements map onto the output's (see the header comment).
struct BroadcastPattern {
  enum class Kind { full, repeats, spreads } kind = Kind::full;
  std::uint64_t period = 1;  ///< repeats: L, the input's elements; spreads: T, outputs an element
};

/// The broadcast of two shapes, or std::nullopt when a dimension differs and neither is 1.
std::optional<TensorShape> broadcast_shape(const TensorShape& a, const TensorShape& b);
/// How `input` maps onto `output` (its broadcast), or std::nullopt for a broadcast not modelled.
std::optional<BroadcastPattern> broadcast_pattern(const TensorShape& input,
                                                  const TensorShape& output);

struct ElementwiseSpec {
  ElementwiseOp operation = ElementwiseOp::add;
  std::vector<TensorShape> inputs;  ///< one or two, as the operation takes
  DataType dtype = DataType::fp32;  ///< every tensor's; the math is FP32
  std::uint64_t threads = 256;      ///< per block
  std::uint64_t elements_per_thread = 8;

  /// The inputs' broadcast (their shapes must broadcast: check_rules).
  TensorShape output() const;
  /// Outputs a block computes: threads x elements a thread, at most the whole output.
  std::uint64_t block_elements() const;
};

std::string describe(const ElementwiseSpec& spec);
/// Shapes that broadcast, in a pattern modelled, whose periods the block divides or holds whole.
std::optional<Violation> check_rules(const ElementwiseSpec& spec);
/// F = FLOPs an element x outputs; Q = each input's distinct elements a block x blocks + outputs.
Analysis analyze(const ElementwiseSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const ElementwiseSpec& spec, const KernelTarget& target = {});
Kernel build_kernel(const ElementwiseSpec& spec, const KernelTarget& target = {});
/// The inputs ("a", "b", or "x") and the output "y", one after the other, each aligned.
std::vector<TensorRef> tensors(const ElementwiseSpec& spec);

template <>
struct WorkloadKind<ElementwiseSpec> : RunsOnCores<ElementwiseSpec> {
  static constexpr std::string_view name = "elementwise";
  static constexpr LimitKeys limit_keys{"workload.elements_per_thread", "workload.threads",
                                        "workload"};

  /// "elementwise gelu".
  static std::string short_label(const ElementwiseSpec& spec) {
    return "elementwise " + std::string(info_of(spec.operation).name);
  }
  static std::optional<Violation> check_rules(const ElementwiseSpec& spec) {
    return ridgeline::check_rules(spec);
  }
  static std::optional<Violation> check_threads(const ElementwiseSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const ElementwiseSpec&) {
    return ThreadRegistersNote{"", "workload.elements_per_thread", "use fewer elements a thread",
                               false};
  }
  /// The math runs in FP32 on the vector units.
  static DataType compute_type(const ElementwiseSpec&) { return DataType::fp32; }
  static std::vector<TensorRef> tensors(const ElementwiseSpec& spec) {
    return ridgeline::tensors(spec);
  }

  template <class Visitor>
  static void visit_fields(const ElementwiseSpec& s, Visitor& visitor) {
    visitor.text("operation", info_of(s.operation).name);
    if (s.inputs.size() == 1) {
      visitor.text("inputs.x", s.inputs[0].text());
    } else {
      visitor.text("inputs.a", s.inputs[0].text());
      visitor.text("inputs.b", s.inputs[1].text());
    }
    visitor.text("output", s.output().text());
    visitor.text("dtype", ridgeline::name_of(s.dtype));
    visitor.integer("threads", s.threads);
    visitor.integer("elements_per_thread", s.elements_per_thread);
  }
  /// None: the shapes and the block are tied together by the rules.
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
