// A sweep file (configs/sweeps/*.yaml): a base hardware and workload, values every point sets,
// and axes over any configuration key, whose cartesian product (first axis slowest) gives the
// points; constraints that skip points before they run; objectives for the summary. The format
// is in docs/CONFIG.md ("Sweeps").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/sweep/sweep_row.hpp"

namespace ridgeline {

/// One value of a swept key.
struct AxisValue {
  YAML::Node node;       ///< as written (or made by a range), placed into the point's document
  std::string text;      ///< as written; maps and lists in flow style
  SourceLocation where;  ///< its position in the sweep file (a range's, for made values)
  Cell cell;             ///< what the key's result column holds
  std::string file;      ///< file axes: the path, resolved against the sweep file's folder
};

/// One swept key and its values, in order.
struct SweptKey {
  std::string key_path;  ///< "workload.tile.m"; "hardware" or "workload" for an axis of files
  std::vector<AxisValue> values;
  bool is_file() const { return key_path == "hardware" || key_path == "workload"; }
  /// "hardware" or "workload".
  std::string root() const { return key_path.substr(0, key_path.find('.')); }
};

/// One dimension of the product: a key, or several zipped to vary together.
struct Axis {
  std::vector<SweptKey> keys;
  std::size_t size() const { return keys.front().values.size(); }
};

struct Objective {
  std::string name;
  bool maximize = false;
  std::string expression;
  std::optional<ConfigNode> node;  ///< where it was written; none for the defaults
};

struct Constraint {
  std::string expression;
  ConfigNode node;
};

struct SweepSpec {
  std::string path;  ///< the sweep file, as the user named it
  std::string text;  ///< its contents
  /// The base files, resolved against the sweep file's folder; empty where an axis sweeps them.
  std::string hardware_file;
  std::string workload_file;
  std::vector<PlacedValue> fixed;  ///< `set:`, applied to every point before the axes
  std::vector<Axis> axes;
  std::vector<Constraint> constraints;
  std::vector<Objective> objectives;      ///< as written; empty for the defaults
  std::vector<std::string> pareto;        ///< two objective names; empty for the default
  std::optional<ConfigNode> pareto_node;  ///< set when the file gives `pareto:` ([] for none)
  std::uint64_t points = 1;               ///< the product of the axes' sizes

  /// Each axis's value index for `point` (first axis slowest).
  void decode(std::uint64_t point, std::vector<std::uint32_t>& indices) const;
  /// Every swept key, in axis order.
  std::vector<const SweptKey*> swept_keys() const;
};

/// Reads and checks a sweep file. Throws ConfigError.
SweepSpec load_sweep(const std::string& path);

/// The objectives the summary ranks by when the file gives none: time, FLOP/s per SRAM byte a
/// block holds, FLOP/s (analytical or simulated figures).
std::vector<Objective> default_objectives(bool analytical);

/// `--shard I/N`: the points p with p mod N = I - 1.
struct Shard {
  std::uint64_t index = 0;  ///< 0-based
  std::uint64_t count = 1;
  bool contains(std::uint64_t point) const { return point % count == index; }
  std::string to_string() const;
};
/// Reads "I/N" (1 <= I <= N). Throws ConfigError.
Shard parse_shard(const std::string& text);

}  // namespace ridgeline
