#include "sim/sweep/sweep_fields.hpp"

#include <array>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace ridgeline {

namespace {

// One line a key: the path and the member it fills (the parser in hardware_config.cpp decides
// the value; this only copies it). The workload's keys are each kind's visit_sweepable_fields.
#define RIDGELINE_HARDWARE_FIELD(path, member)                                                     \
  FieldSetter {                                                                                    \
    path, [](HardwareParams& to, const HardwareParams& from) { to.member = from.member; }, nullptr \
  }
const std::array kHardwareSetters = {
    RIDGELINE_HARDWARE_FIELD("hardware.clock", core_clock),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.count", cores),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.max_resident_blocks", core.max_resident_blocks),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram", core.sram),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram.capacity", core.sram.capacity_bytes),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram.read_bandwidth", core.sram.read_bytes_per_cycle),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.sram.write_bandwidth",
                             core.sram.write_bytes_per_cycle),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.registers.capacity", core.registers.capacity_bytes),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput", core.compute.flops_per_cycle),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp32",
                             core.compute.flops_per_cycle[index_of(DataType::fp32)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.tf32",
                             core.compute.flops_per_cycle[index_of(DataType::tf32)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.bf16",
                             core.compute.flops_per_cycle[index_of(DataType::bf16)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp16",
                             core.compute.flops_per_cycle[index_of(DataType::fp16)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp8",
                             core.compute.flops_per_cycle[index_of(DataType::fp8)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.int8",
                             core.compute.flops_per_cycle[index_of(DataType::int8)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.int32",
                             core.compute.flops_per_cycle[index_of(DataType::int32)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.throughput.fp64",
                             core.compute.flops_per_cycle[index_of(DataType::fp64)]),
    RIDGELINE_HARDWARE_FIELD("hardware.cores.compute.pipeline_latency",
                             core.compute.pipeline_latency),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.bandwidth", hbm.peak_bandwidth),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.latency", hbm.access_latency),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.max_bytes_in_flight_per_core", core.max_bytes_in_flight),
    RIDGELINE_HARDWARE_FIELD("hardware.hbm.max_requests_in_flight_per_core",
                             core.max_requests_in_flight),
};

#undef RIDGELINE_HARDWARE_FIELD

// The member a chain of member pointers reaches: member_at(spec, &GemmSpec::tile, &TileShape::m).
template <class Object, class Member, class Class, class... Rest>
auto& member_at(Object& object, Member Class::*first, Rest... rest) {
  if constexpr (sizeof...(Rest) == 0) {
    return object.*first;
  } else {
    return member_at(object.*first, rest...);
  }
}

// Per key path, the copy of each kind that lists it, at the kind's index in WorkloadSpec.
using WorkloadCopies = std::map<std::string, std::vector<FieldSetter::WorkloadCopy>>;

// Collects one kind's visit_sweepable_fields under "workload.<name>": kinds may list the same
// key, each for a field of its own.
template <class Spec>
class SweepableFields {
 public:
  explicit SweepableFields(WorkloadCopies& copies) : copies_(copies) {}

  template <class... Members>
  void operator()(const char* name, Members... members) {
    std::vector<FieldSetter::WorkloadCopy>& by_kind = copies_["workload." + std::string(name)];
    by_kind.resize(std::variant_size_v<WorkloadSpec>);
    by_kind[WorkloadSpec(std::in_place_type<Spec>).index()] =
        [members...](WorkloadSpec& to, const WorkloadSpec& from) {
          member_at(std::get<Spec>(to), members...) = member_at(std::get<Spec>(from), members...);
        };
  }

 private:
  WorkloadCopies& copies_;
};

std::vector<FieldSetter> all_setters() {
  std::vector<FieldSetter> setters(kHardwareSetters.begin(), kHardwareSetters.end());
  WorkloadCopies copies;
  for_each_workload_kind([&](auto kind) {
    using Spec = typename decltype(kind)::type;
    SweepableFields<Spec> fields(copies);
    KindOf<Spec>::visit_sweepable_fields(fields);
  });
  for (auto& [key_path, by_kind] : copies) {
    FieldSetter setter;
    setter.key_path = key_path;
    setter.workload = [by_kind = std::move(by_kind)](WorkloadSpec& to, const WorkloadSpec& from) {
      const FieldSetter::WorkloadCopy& copy = by_kind[to.index()];
      if (!copy) return false;  // not a key of this kind
      copy(to, from);
      return true;
    };
    setters.push_back(std::move(setter));
  }
  return setters;
}

const std::vector<FieldSetter>& setters() {
  static const std::vector<FieldSetter> table = all_setters();
  return table;
}

}  // namespace

const FieldSetter* find_field_setter(std::string_view key_path) {
  for (const FieldSetter& setter : setters())
    if (setter.key_path == key_path) return &setter;
  return nullptr;
}

std::vector<std::string_view> field_setter_keys() {
  std::vector<std::string_view> keys;
  for (const FieldSetter& setter : setters()) keys.push_back(setter.key_path);
  return keys;
}

bool at_or_below(std::string_view path, std::string_view key) {
  return path == key || (path.size() > key.size() && path.compare(0, key.size(), key) == 0 &&
                         path[key.size()] == '.');
}

}  // namespace ridgeline
