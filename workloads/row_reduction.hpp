// Row reductions: softmax, LayerNorm and RMSNorm over the last dimension of a tensor, each row
// reduced to statistics that then rescale it, as fused GPU kernels run them. A block takes
// `rows_per_block` rows; the math runs on the vector units in FP32.
//
// The strategy is how many times a row is read from HBM (`passes`):
//   1     the block's rows are loaded once into SRAM and every sweep over them (softmax: max,
//         sum of exponentials, normalise; LayerNorm: mean, variance, normalise; RMSNorm: mean
//         square, normalise) reads SRAM: the rows must fit on chip (S = rows_per_block x C x e)
//   2, 3  the rows stream through registers in chunks of `chunk_columns`, once a pass: softmax
//         2 (the online max and sum in one pass, then normalise) or 3 (max, sum, normalise);
//         LayerNorm 2 (mean and variance in one pass, Welford's, then normalise) or 3; RMSNorm 2.
//         The last pass writes the output chunk by chunk.
//
// FLOPs (each arithmetic operation and exp or rsqrt counts one), C the reduced dimension:
//   softmax     5 an element (max, subtract it, exp, add to the sum, multiply by 1/sum)
//               + 1 a row (the reciprocal)
//   layer_norm  6 an element (add to the mean; subtract it, square, add to the variance;
//               subtract the mean, multiply by the reciprocal deviation) + 2 with the affine
//               weight and bias (multiply, add); + 4 a row (divide the two sums by C, add
//               epsilon, rsqrt)
//   rms_norm    3 an element (square, add to the sum, multiply by the reciprocal root mean
//               square) + 1 with the weight; + 3 a row (divide by C, add epsilon, rsqrt)
// Q = passes x rows x C x e (reads) + rows x C x e (writes) + each block's read of the affine
// parameters (weight, and LayerNorm's bias: C x e each), counted per block as the model counts
// every block's reads (an L2 serves most of them in a run).
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

enum class RowReduction : std::uint8_t { softmax, layer_norm, rms_norm };
std::string_view name_of(RowReduction reduction);
std::optional<RowReduction> row_reduction_named(std::string_view name);

/// What one reduction does: its FLOPs and the sweeps it makes over a row.
struct RowReductionCost {
  std::uint32_t flops_per_element = 0;  ///< without the affine parameters
  std::uint32_t affine_flops_per_element = 0;
  std::uint32_t flops_per_row = 0;
  std::uint32_t sweeps = 0;      ///< reads of a row kept on chip (passes: 1)
  std::uint32_t min_passes = 0;  ///< the fewest passes over HBM that stream (more than 1)
  std::uint32_t max_passes = 0;
  std::uint32_t parameters = 0;  ///< affine vectors of C elements: weight (and bias)
};
RowReductionCost cost_of(RowReduction reduction);

struct RowReductionSpec {
  RowReduction operation = RowReduction::softmax;
  TensorShape shape;                ///< the input's (and output's); the last dimension is reduced
  DataType dtype = DataType::fp32;  ///< the tensors'; the math is FP32
  std::uint32_t passes = 1;         ///< reads of a row from HBM
  std::uint64_t rows_per_block = 1;
  std::uint64_t threads = 256;
  std::uint64_t chunk_columns = 0;  ///< passes > 1: columns a load brings in; 0: the whole row
  bool affine = true;               ///< layer_norm, rms_norm: a weight (and bias) to apply

  std::uint64_t columns() const { return shape.dims.back(); }
  std::uint64_t rows() const { return shape.elements() / columns(); }
  /// The columns of one load: the row when kept on chip or when chunk_columns is 0.
  std::uint64_t chunk() const;
  std::uint32_t parameters() const;  ///< affine vectors read
};

std::string describe(const RowReductionSpec& spec);
std::optional<Violation> check_rules(const RowReductionSpec& spec);
Analysis analyze(const RowReductionSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const RowReductionSpec& spec, const KernelTarget& target = {});
Kernel build_kernel(const RowReductionSpec& spec, const KernelTarget& target = {});
/// "x", the parameters ("weight", "bias") and "y".
std::vector<TensorRef> tensors(const RowReductionSpec& spec);

template <>
struct WorkloadKind<RowReductionSpec> : RunsOnCores<RowReductionSpec> {
  static constexpr std::string_view name = "row_reduction";
  static constexpr LimitKeys limit_keys{"workload.rows_per_block", "workload.threads", "workload"};

  /// "softmax, 1 pass".
  static std::string short_label(const RowReductionSpec& spec);
  static std::optional<Violation> check_rules(const RowReductionSpec& spec) {
    return ridgeline::check_rules(spec);
  }
  static std::optional<Violation> check_threads(const RowReductionSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const RowReductionSpec&) {
    return ThreadRegistersNote{"", "workload.chunk_columns",
                               "use a smaller chunk_columns or more threads", false};
  }
  static DataType compute_type(const RowReductionSpec&) { return DataType::fp32; }
  static std::vector<TensorRef> tensors(const RowReductionSpec& spec) {
    return ridgeline::tensors(spec);
  }

  template <class Visitor>
  static void visit_fields(const RowReductionSpec& s, Visitor& visitor) {
    visitor.text("operation", name_of(s.operation));
    visitor.text("shape", s.shape.text());
    visitor.text("dtype", ridgeline::name_of(s.dtype));
    visitor.integer("passes", s.passes);
    visitor.integer("rows_per_block", s.rows_per_block);
    visitor.integer("threads", s.threads);
    visitor.integer("chunk_columns", s.chunk());
    visitor.text("affine", s.parameters() > 0 ? "true" : "false");
  }
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
