// Keys a sweep can set on typed parameters directly, without reading YAML again for every point.
//
// Each entry copies the field(s) one key fills from a copy of the parameters read with that
// key's value (through the ordinary parser, which checked the value) into a point's parameters.
// A key is listed only when its field depends on nothing but its own value and no rule inside
// the parser ties it to another listed key: not `workload.dtype` (the default accumulator
// follows it), `workload.strategy` (a register tile is refused with no_reuse), vector_add's keys
// (they clip one another), `hbm.channels` and `hbm.interleave` (the DRAM's address map checks
// them together), nor whole maps holding such keys (`cores.registers`). A key missing here still
// sweeps correctly: the point's document is read whole, only slower.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

struct FieldSetter {
  /// Copies one kind's field(s); `to` and `from` hold that kind.
  using WorkloadCopy = std::function<void(WorkloadSpec& to, const WorkloadSpec& from)>;

  std::string key_path;
  /// Exactly one of the two is set, by the key's root.
  void (*hardware)(HardwareParams& to, const HardwareParams& from) = nullptr;
  /// False, changing nothing, when the key is not one of `to`'s kind (vector_add's stages are
  /// not gemm's). `from` holds the same kind as `to`.
  std::function<bool(WorkloadSpec& to, const WorkloadSpec& from)> workload;
};

/// The setter for `key_path`, or null when the key is not listed.
const FieldSetter* find_field_setter(std::string_view key_path);

/// Every listed key (for tests).
std::vector<std::string_view> field_setter_keys();

/// Whether the key path `path` is `key` or lies below it ("workload.tile.m" below
/// "workload.tile", not "workload.tiles").
bool at_or_below(std::string_view path, std::string_view key);

}  // namespace ridgeline
