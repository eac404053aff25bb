// Row gather: y[i, :] = table[index[i], :] for `indices` rows, as a model's embedding lookup (the
// token ids pick rows of the embedding table) and the selection of each sequence's last position
// before a language model's head run it. A block gathers one row: its threads load the row's
// index (int32), then the row it names, and store it; no arithmetic.
//
// Which rows: the indices are data, unknown to the model, so they are taken evenly spaced over
// the table, each at the end of its share: with R table rows and n indices, row i is
// i x s + s - 1 with s = max(1, floor(R / n)), wrapping past R (n > R). This is each sequence's
// last position when the table is a batch of sequences and n the batch, and otherwise n distinct
// rows (min(n, R)) spread over the table, as random token ids would be, without repeats.
//
// F = 0; Q = n x 4 (the indices) + n x C x e (the rows) read, n x C x e written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/data_type.hpp"
#include "models/kernel.hpp"
#include "models/kernel_target.hpp"
#include "workloads/analysis.hpp"
#include "workloads/tensor.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload_kind.hpp"

namespace ridgeline {

struct GatherSpec {
  std::uint64_t table_rows = 0;     ///< R: rows to pick from
  std::uint64_t columns = 0;        ///< C: elements a row
  std::uint64_t indices = 0;        ///< n: rows gathered
  DataType dtype = DataType::fp32;  ///< the table's and the output's; the indices are int32
  std::uint64_t threads = 256;      ///< per block (a block gathers one row)

  /// s: table rows between two gathered ones.
  std::uint64_t row_stride() const;
  /// The table row that output row i reads.
  std::uint64_t row_of(std::uint64_t i) const;
};

std::string describe(const GatherSpec& spec);
std::optional<Violation> check_rules(const GatherSpec& spec);
/// F = 0; Q = n x (4 + C x e) read + n x C x e written.
Analysis analyze(const GatherSpec& spec, const Roof& roof, const KernelTarget& target = {});
Footprint footprint(const GatherSpec& spec, const KernelTarget& target = {});
Kernel build_kernel(const GatherSpec& spec, const KernelTarget& target = {});
/// "table" [R, C], "indices" [n] (int32) and "y" [n, C].
std::vector<TensorRef> tensors(const GatherSpec& spec);

template <>
struct WorkloadKind<GatherSpec> : RunsOnCores<GatherSpec> {
  static constexpr std::string_view name = "gather";
  static constexpr LimitKeys limit_keys{"workload.table", "workload.threads", "workload"};

  /// "gather 1 of 2048 rows".
  static std::string short_label(const GatherSpec& spec);
  static std::optional<Violation> check_rules(const GatherSpec& spec) {
    return ridgeline::check_rules(spec);
  }
  static std::optional<Violation> check_threads(const GatherSpec&, const KernelTarget&) {
    return std::nullopt;
  }
  static ThreadRegistersNote thread_registers_note(const GatherSpec&) {
    return ThreadRegistersNote{"", "workload.threads", "use more threads a block", false};
  }
  /// No math: the roof's P is the vector units'.
  static DataType compute_type(const GatherSpec&) { return DataType::fp32; }
  static std::vector<TensorRef> tensors(const GatherSpec& spec) { return ridgeline::tensors(spec); }

  template <class Visitor>
  static void visit_fields(const GatherSpec& s, Visitor& visitor) {
    visitor.text("table", TensorShape{{s.table_rows, s.columns}}.text());
    visitor.integer("indices", s.indices);
    visitor.text("dtype", ridgeline::name_of(s.dtype));
    visitor.integer("threads", s.threads);
  }
  template <class Visitor>
  static void visit_sweepable_fields(Visitor&) {}
};

}  // namespace ridgeline
