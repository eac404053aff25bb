#include "sim/report_row.hpp"

#include <cstring>
#include <type_traits>
#include <variant>

namespace ridgeline {

namespace {

// Names cells by position in a fixed sequence; the name is looked up the first time only.
class Cells {
 public:
  Cells(ColumnTable& columns, std::vector<ColumnId>& ids, Row& row)
      : columns_(columns), ids_(ids), row_(row) {}

  Cell& operator()(const char* name) {
    if (position_ == ids_.size()) ids_.push_back(columns_.intern(name));
    return row_.add(ids_[position_++]);
  }
  void integer(const char* name, std::uint64_t value) { (*this)(name).set_integer(value); }
  void real(const char* name, double value) { (*this)(name).set_real(value); }
  void text(const char* name, std::string_view value) { (*this)(name).set_text(value); }

 private:
  ColumnTable& columns_;
  std::vector<ColumnId>& ids_;
  Row& row_;
  std::size_t position_ = 0;
};

}  // namespace

const std::string& ShapeCache::description(const WorkloadSpec& spec) {
  if constexpr (std::is_trivially_copyable_v<WorkloadSpec>) {
    if (described_ && std::memcmp(&*described_, &spec, sizeof(WorkloadSpec)) == 0) {
      return description_;
    }
    described_ = spec;
  }
  description_ = describe(spec);
  return description_;
}

// The same leaves, names and order as report.cpp's hardware_json, workload_json and
// analytical_json.
void add_analytical_cells(const RunConfig& config, ColumnTable& columns, ShapeCache& cache,
                          Row& row) {
  Cells c(columns, cache.ids(config.workload.index()), row);
  const HardwareParams& hw = config.hardware;
  const Analysis& a = config.analysis;
  const Roofline& r = a.roofline;
  const Footprint& f = a.footprint;

  c.text("hardware.name", hw.name);
  c.integer("hardware.cores", hw.cores);
  c.integer("hardware.clock_hz", hw.core_clock.frequency_hz);
  c.real("hardware.peak_flop_per_s", a.roof.peak_flop_per_s);
  c.real("hardware.hbm_bytes_per_s", a.roof.hbm_bytes_per_s);
  c.real("hardware.hbm_latency_s", hw.hbm.access_latency.seconds());
  c.integer("hardware.hbm_channels", hw.hbm.channels);
  c.integer("hardware.sram_bytes_per_core", hw.core.sram.capacity_bytes);
  c.integer("hardware.register_bytes_per_core", hw.core.registers.capacity_bytes);
  c.integer("hardware.max_resident_blocks", hw.core.max_resident_blocks);
  c.integer("hardware.max_bytes_in_flight_per_core", hw.core.max_bytes_in_flight);

  c.text("workload.description", cache.description(config.workload));
  if (const auto* g = std::get_if<GemmSpec>(&config.workload)) {
    c.text("workload.kind", "gemm");
    c.integer("workload.m", g->m);
    c.integer("workload.n", g->n);
    c.integer("workload.k", g->k);
    c.text("workload.dtype", name_of(g->dtype));
    c.text("workload.accumulator", name_of(g->accumulator));
    c.text("workload.strategy", name_of(g->strategy));
    c.integer("workload.tile.m", g->tile.m);
    c.integer("workload.tile.n", g->tile.n);
    c.integer("workload.tile.k", g->tile.k);
    c.integer("workload.stages", g->stages);
    c.integer("workload.register_tile.m", g->register_tile.m);
    c.integer("workload.register_tile.n", g->register_tile.n);
  } else {
    const auto& v = std::get<VectorAddSpec>(config.workload);
    c.text("workload.kind", "vector_add");
    c.integer("workload.length", v.length);
    c.text("workload.dtype", name_of(v.dtype));
    c.integer("workload.block_elements", v.block_elements);
    c.integer("workload.chunk_elements", v.chunk_elements);
    c.integer("workload.stages", v.stages);
  }

  c.integer("analytical.flops", a.flops);
  c.integer("analytical.hbm_bytes", a.hbm_bytes());
  c.integer("analytical.hbm_read_bytes", a.hbm_read_bytes);
  c.integer("analytical.hbm_write_bytes", a.hbm_write_bytes);
  c.real("analytical.intensity_flop_per_byte", r.intensity_flop_per_byte);
  c.real("analytical.peak_flop_per_s", a.roof.peak_flop_per_s);
  c.real("analytical.hbm_bytes_per_s", a.roof.hbm_bytes_per_s);
  c.real("analytical.ridge_flop_per_byte", r.ridge_flop_per_byte);
  c.real("analytical.roof_flop_per_s", r.roof_flop_per_s);
  c.text("analytical.bound", name_of(r.bound));
  c.real("analytical.t_compute_s", r.t_compute_s);
  c.real("analytical.t_memory_s", r.t_memory_s);
  c.real("analytical.t_ideal_s", r.t_ideal_s);
  c.integer("analytical.footprint.input_bytes_per_stage", f.input_bytes_per_stage);
  c.integer("analytical.footprint.stages", f.stages);
  c.integer("analytical.footprint.input_bytes", f.input_bytes);
  c.integer("analytical.footprint.accumulator_bytes", f.accumulator_bytes);
  c.integer("analytical.footprint.sram_bytes_per_block", f.sram_bytes);
  c.integer("analytical.footprint.register_bytes_per_block", f.register_bytes);
  c.integer("analytical.occupancy.blocks_per_core", config.occupancy.blocks_per_core);
  c.text("analytical.occupancy.limited_by", config.occupancy.limited_by);
}

void add_report_json_cells(const Json& report, ColumnTable& columns, Row& row) {
  for_each_leaf(report, [&](const std::string& path, const Json& leaf) {
    if (path.rfind("config.", 0) == 0) return;
    Cell& cell = row.add(columns.intern(path));
    if (leaf.is_number_unsigned()) {
      cell.set_integer(leaf.get<std::uint64_t>());
    } else if (leaf.is_number()) {
      cell.set_real(leaf.get<double>());
    } else if (!leaf.is_null()) {
      cell.set_text(leaf_text(leaf));
    }
  });
}

}  // namespace ridgeline
