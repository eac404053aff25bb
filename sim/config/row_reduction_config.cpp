#include "sim/config/row_reduction_config.hpp"

namespace ridgeline {

RowReductionSpec WorkloadParser<RowReductionSpec>::parse(const ConfigNode& w) {
  RowReductionSpec spec;
  spec.operation =
      *row_reduction_named(w.required("operation").choice({"softmax", "layer_norm", "rms_norm"}));
  spec.shape = parse_shape(w.required("shape"));
  spec.dtype = parse_data_type(w.required("dtype"));
  spec.passes = static_cast<std::uint32_t>(w.required("passes").positive_count_at_most(3));
  if (auto rows = w.optional("rows_per_block")) {
    spec.rows_per_block = rows->positive_count_at_most(1u << 16);
  }
  if (auto threads = w.optional("threads"))
    spec.threads = threads->positive_count_at_most(1u << 16);
  if (auto chunk = w.optional("chunk_columns")) {
    if (spec.passes == 1) {
      chunk->fail(
          "applies to rows streamed over HBM (passes 2 or 3); one pass keeps the row "
          "whole on chip",
          "remove it, or use more passes");
    }
    spec.chunk_columns = chunk->positive_count_at_most(std::uint64_t{1} << 32);
  }
  if (auto affine = w.optional("affine")) {
    if (spec.operation == RowReduction::softmax) {
      affine->fail("softmax has no weight or bias", "remove it");
    }
    spec.affine = affine->choice({"true", "false"}) == "true";
  }
  return spec;
}

}  // namespace ridgeline
