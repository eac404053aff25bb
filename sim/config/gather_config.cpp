#include "sim/config/gather_config.hpp"

#include <fmt/format.h>

namespace ridgeline {

GatherSpec WorkloadParser<GatherSpec>::parse(const ConfigNode& w) {
  GatherSpec spec;
  const ConfigNode table = w.required("table");
  const TensorShape shape = parse_shape(table);
  if (shape.dims.size() != 2) {
    table.fail(fmt::format("is {}: a table is [rows, columns]", shape.text()),
               "give two dimensions, e.g. [32000, 4096]");
  }
  spec.table_rows = shape.dims[0];
  spec.columns = shape.dims[1];
  spec.indices = w.required("indices").positive_count_at_most(std::uint64_t{1} << 32);
  spec.dtype = parse_data_type(w.required("dtype"));
  if (auto threads = w.optional("threads"))
    spec.threads = threads->positive_count_at_most(1u << 16);
  return spec;
}

}  // namespace ridgeline
