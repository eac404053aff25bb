#include "sim/sweep/report_cells.hpp"

#include <cstring>
#include <type_traits>
#include <variant>

#include "sim/report/energy_fields.hpp"
#include "sim/report/levels.hpp"

namespace ridgeline {

namespace {

// Names cells by position in a sequence that is mostly the same from one point to the next; a
// name is looked up only where it differs from last time's (literal names compare by address).
class Cells {
 public:
  Cells(ColumnTable& columns, std::vector<ShapeCache::Named>& ids, Row& row)
      : columns_(columns), ids_(ids), row_(row) {}

  Cell& operator()(const char* name) { return named("", name); }
  /// The cell `prefix` + `name`, both literals: composed only where they differ from last time's.
  Cell& named(const char* prefix, const char* name) {
    if (position_ == ids_.size()) ids_.push_back({nullptr, nullptr, 0});
    ShapeCache::Named& named = ids_[position_++];
    if (named.prefix != prefix || named.name != name)
      named = {prefix, name, columns_.intern(std::string(prefix) + name)};
    return row_.add(named.id);
  }
  void integer(const char* name, std::uint64_t value) { (*this)(name).set_integer(value); }
  void real(const char* name, double value) { (*this)(name).set_real(value); }
  void text(const char* name, std::string_view value) { (*this)(name).set_text(value); }

 private:
  ColumnTable& columns_;
  std::vector<ShapeCache::Named>& ids_;
  Row& row_;
  std::size_t position_ = 0;
};

// Fields visited by dotted literal names (a kind's visit_fields, the energy's lists), as the
// cells <prefix><name>: `prefix` a literal too ("workload.", "analytical.energy.").
class PrefixedCells {
 public:
  PrefixedCells(Cells& cells, const char* prefix) : cells_(cells), prefix_(prefix) {}
  void integer(const char* name, std::uint64_t value) {
    cells_.named(prefix_, name).set_integer(value);
  }
  void real(const char* name, double value) { cells_.named(prefix_, name).set_real(value); }
  void text(const char* name, std::string_view value) {
    cells_.named(prefix_, name).set_text(value);
  }

 private:
  Cells& cells_;
  const char* prefix_;
};

// The names of a level's leaves (analytical.levels.<name>.<key>), as literals.
struct LevelNames {
  const char* level;
  const char* bytes;
  const char* intensity;
  const char* bandwidth;
  const char* roof;
  const char* time;
};
constexpr LevelNames kLevelNames[] = {
    {"hbm", "analytical.levels.hbm.bytes", "analytical.levels.hbm.intensity_flop_per_byte",
     "analytical.levels.hbm.bandwidth_bytes_per_s", "analytical.levels.hbm.roof_flop_per_s",
     "analytical.levels.hbm.time_s"},
    {"l2", "analytical.levels.l2.bytes", "analytical.levels.l2.intensity_flop_per_byte",
     "analytical.levels.l2.bandwidth_bytes_per_s", "analytical.levels.l2.roof_flop_per_s",
     "analytical.levels.l2.time_s"},
    {"sram", "analytical.levels.sram.bytes", "analytical.levels.sram.intensity_flop_per_byte",
     "analytical.levels.sram.bandwidth_bytes_per_s", "analytical.levels.sram.roof_flop_per_s",
     "analytical.levels.sram.time_s"},
};

}  // namespace

void ShapeCache::refresh(const WorkloadSpec& spec) {
  // Equal bytes are equal values, so the text is never stale (a difference in padding only
  // composes it again). Only for kinds held in plain bytes: a trace's path is a string.
  const bool same = described_ && described_->index() == spec.index() &&
                    std::visit(
                        [&](const auto& s) {
                          using Spec = std::decay_t<decltype(s)>;
                          if constexpr (std::is_trivially_copyable_v<Spec>) {
                            return std::memcmp(&std::get<Spec>(*described_), &s, sizeof(Spec)) == 0;
                          } else {
                            return false;
                          }
                        },
                        spec);
  if (!same) {
    described_ = spec;
    description_ = describe(spec);
    label_ = short_label(spec);
  }
}

// The same leaves, names and order as report_json before a simulation: hardware_json and
// workload_json (report.cpp; the kind's fields through the same visit_fields), analytical_json,
// then what add_hardware_compute and add_analytical_compute (compute_report.cpp) append.
void add_analytical_cells(const RunConfig& config, ColumnTable& columns, ShapeCache& cache,
                          Row& row) {
  Cells c(columns, cache.ids(), row);
  const HardwareParams& hw = config.hardware;
  const Analysis& a = config.analysis;
  const Roofline& r = a.roofline;
  const Footprint& f = a.footprint;
  const Occupancy& o = config.occupancy;
  const KernelTarget& limits = hw.threads;

  c.text("hardware.name", hw.name);
  c.integer("hardware.cores", hw.cores);
  c.integer("hardware.clock_hz", hw.core_clock.frequency_hz);
  c.real("hardware.peak_flop_per_s", a.roof.peak_flop_per_s);
  c.real("hardware.hbm_bytes_per_s", a.roof.hbm_bytes_per_s);
  c.real("hardware.hbm_latency_s", hw.hbm.access_latency.seconds());
  c.integer("hardware.hbm_channels", hw.hbm.channels);
  c.integer("hardware.hbm_pseudo_channels", hw.hbm.pseudo_channels);
  c.text("hardware.hbm_mode", hw.hbm.mode == HbmMode::detailed ? "detailed" : "simple");
  c.integer("hardware.sram_bytes_per_core", hw.core.sram.capacity_bytes);
  c.integer("hardware.register_bytes_per_core", hw.core.registers.capacity_bytes);
  c.integer("hardware.max_resident_blocks", hw.core.max_resident_blocks);
  c.integer("hardware.max_bytes_in_flight_per_core", hw.core.max_bytes_in_flight);
  c.integer("hardware.warp_size", limits.warp_size);
  c.integer("hardware.max_warps", hw.core.max_warps);
  c.integer("hardware.max_threads_per_block", limits.max_threads_per_block);
  c.integer("hardware.max_registers_per_thread", limits.max_registers_per_thread);
  c.integer("hardware.barrier_latency_cycles", limits.barrier.count);
  c.integer("hardware.block_launch_latency_cycles", hw.core.block_launch.count);
  c.integer("hardware.warp_launch_latency_cycles", hw.core.warp_launch.count);
  if (const auto& l2 = hw.l2) {
    c.integer("hardware.l2.capacity_bytes", l2->capacity_bytes);
    c.integer("hardware.l2.line_bytes", l2->line_bytes);
    c.integer("hardware.l2.sector_bytes", l2->sector_bytes);
    c.integer("hardware.l2.associativity", l2->associativity);
    c.integer("hardware.l2.bandwidth_bytes_per_s", l2->bandwidth.bytes_per_second);
    c.real("hardware.l2.hit_latency_s", l2->hit_latency.seconds());
    c.integer("hardware.l2.partitions", l2->partitions);
    c.real("hardware.l2.far_hit_latency_s", l2->far_hit_latency.seconds());
    c.text("hardware.l2.write_policy", name_of(l2->write_policy));
    c.text("hardware.l2.set_index", name_of(l2->set_index));
  }
  PrefixedCells hardware_energy(c, "hardware.");
  visit_hardware_energy(hw, hardware_energy);

  c.text("workload.description", cache.description(config.workload));
  c.text("workload.label", cache.label(config.workload));
  PrefixedCells fields(c, "workload.");
  visit_fields(config.workload, fields);

  c.integer("analytical.flops", a.flops);
  c.integer("analytical.issued_flops", a.issued_flops);
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
  c.integer("analytical.footprint.threads_per_block", f.threads);
  c.integer("analytical.footprint.warps_per_block", f.warps);
  c.integer("analytical.footprint.registers_per_thread", f.registers_per_thread);
  c.integer("analytical.footprint.allocated_registers_per_thread",
            f.allocated_registers_per_thread);
  c.integer("analytical.footprint.spilled_registers_per_thread", f.spilled_registers_per_thread);
  c.integer("analytical.occupancy.blocks_per_core", o.blocks_per_core);
  c.text("analytical.occupancy.limited_by", o.limited_by);
  c.integer("analytical.occupancy.warps_per_block", f.warps);
  c.integer("analytical.occupancy.active_warps", o.active_warps);
  c.integer("analytical.occupancy.max_warps", o.max_warps);
  Cell& fraction = c("analytical.occupancy.fraction");  // none without a warp limit
  if (o.max_warps) fraction.set_real(o.fraction());
  c.integer("analytical.sram.read_bytes", a.sram_read_bytes);
  c.integer("analytical.sram.write_bytes", a.sram_write_bytes);
  c.integer("analytical.sram.bytes", a.sram_traffic_bytes());
  Cell& sram_intensity = c("analytical.sram.intensity_flop_per_byte");  // none without traffic
  if (a.sram_traffic_bytes()) {
    sram_intensity.set_real(static_cast<double>(a.flops) /
                            static_cast<double>(a.sram_traffic_bytes()));
  }
  c.integer("analytical.issue.warp_instructions", a.warp_instructions);
  Cell& issue = c("analytical.issue.time_s");  // none where issue is not modelled
  if (const double issue_s = issue_time_s(a.warp_instructions, a.roof); issue_s > 0)
    issue.set_real(issue_s);
  c.integer("analytical.local_memory.read_bytes", a.local_read_bytes);
  c.integer("analytical.local_memory.write_bytes", a.local_write_bytes);
  c.integer("analytical.local_memory.bytes", a.local_traffic_bytes());
  const Levels levels = analytical_levels(config);
  for (const LevelFigures& level : levels.levels) {
    const LevelNames* names = nullptr;
    for (const LevelNames& known : kLevelNames)
      if (level.name == known.level) names = &known;
    if (names == nullptr) {
      // A level this list does not know: named at run time (slower, as correct).
      const std::string prefix = "analytical.levels." + level.name + ".";
      row.add(columns.intern(prefix + "bytes")).set_integer(level.bytes);
      row.add(columns.intern(prefix + "intensity_flop_per_byte"))
          .set_real(level.intensity_flop_per_byte);
      row.add(columns.intern(prefix + "bandwidth_bytes_per_s"))
          .set_real(level.bandwidth_bytes_per_s);
      row.add(columns.intern(prefix + "roof_flop_per_s")).set_real(level.roof_flop_per_s);
      row.add(columns.intern(prefix + "time_s")).set_real(level.time_s);
      continue;
    }
    c.integer(names->bytes, level.bytes);
    c.real(names->intensity, level.intensity_flop_per_byte);
    c.real(names->bandwidth, level.bandwidth_bytes_per_s);
    c.real(names->roof, level.roof_flop_per_s);
    c.real(names->time, level.time_s);
  }
  c.real("analytical.compute_roof_flop_per_s", levels.compute_roof_flop_per_s);
  c.text("analytical.binding_level", levels.binding);
  if (const std::optional<KernelEnergy> energy = analytical_energy(config)) {
    PrefixedCells energy_cells(c, "analytical.energy.");
    visit_kernel_energy(*energy, a.flops, energy_cells);
    visit_energy_roofline(hw, *energy_in_effect(config), compute_type(config.workload),
                          energy_cells);
  }
  if (config.power_limit) {
    PrefixedCells limit_cells(c, "analytical.power_limit.");
    visit_power_limit(*config.power_limit, limit_cells);
  }
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
