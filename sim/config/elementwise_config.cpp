#include "sim/config/elementwise_config.hpp"

namespace ridgeline {

ElementwiseSpec WorkloadParser<ElementwiseSpec>::parse(const ConfigNode& w) {
  ElementwiseSpec spec;
  spec.operation = *elementwise_op_named(w.required("operation").choice(elementwise_op_names()));
  for (const ConfigNode& input : w.required("inputs").items("input shapes")) {
    spec.inputs.push_back(parse_shape(input));
  }
  spec.dtype = parse_data_type(w.required("dtype"));
  if (auto threads = w.optional("threads"))
    spec.threads = threads->positive_count_at_most(1u << 16);
  if (auto per_thread = w.optional("elements_per_thread")) {
    spec.elements_per_thread = per_thread->positive_count_at_most(1u << 16);
  }
  // The number of inputs and their broadcast are check_rules(ElementwiseSpec).
  return spec;
}

}  // namespace ridgeline
