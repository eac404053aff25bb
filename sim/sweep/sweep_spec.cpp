#include "sim/sweep/sweep_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "sim/config/quantity.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMaxValuesPerRange = 1'000'000;
constexpr std::uint64_t kMaxPoints = std::uint64_t{1} << 62;

std::string flow_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out.SetMapFormat(YAML::Flow);
  out.SetSeqFormat(YAML::Flow);
  out << node;
  return out.c_str();
}

SourceLocation location_of(const ConfigNode& node) { return node.location(); }

// What a key's result column holds for a value: whole numbers as numbers, the rest as written
// (with the number a quantity such as "2TB/s" stands for).
Cell cell_of(const YAML::Node& node, const std::string& text) {
  Cell cell;
  if (node.IsScalar() && !text.empty() && text.size() <= 19 &&
      std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c); })) {
    cell.set_integer(std::stoull(text));
  } else {
    cell.set_text(text);
  }
  return cell;
}

std::string resolve_file(const std::string& sweep_path, const std::string& written) {
  const std::filesystem::path path(written);
  if (path.is_absolute()) return path.lexically_normal().string();
  return (std::filesystem::path(sweep_path).parent_path() / path).lexically_normal().string();
}

void check_readable(const ConfigNode& node, const std::string& file) {
  if (!std::ifstream(file)) {
    node.fail(fmt::format("cannot open '{}'", file),
              "paths are relative to the sweep file's folder");
  }
}

// A key path below hardware: or workload: ("workload.tile.m"), or one of them alone for files.
void check_key_path(const ConfigNode& node, const std::string& path, bool files_allowed) {
  const bool file_root = path == "hardware" || path == "workload";
  if (file_root && files_allowed) return;
  const bool rooted = path.rfind("hardware.", 0) == 0 || path.rfind("workload.", 0) == 0;
  const bool well_formed = path.find("..") == std::string::npos && path.back() != '.';
  if (!rooted || !well_formed) {
    node.fail(fmt::format("'{}' is not a configuration key path", path),
              files_allowed ? "write e.g. workload.tile.m or hardware.hbm.bandwidth, or "
                              "hardware / workload for an axis of files"
                            : "write e.g. workload.tile.m or hardware.hbm.bandwidth");
  }
}

// ---------------------------------------------------------------- ranges

// "0.5TB/s" -> number "0.5", unit "TB/s".
std::pair<std::string, std::string> split_unit(const std::string& text) {
  std::size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) ||
                               text[end] == '.' || text[end] == '+' || text[end] == '-' ||
                               ((text[end] == 'e' || text[end] == 'E') && end + 1 < text.size() &&
                                (std::isdigit(static_cast<unsigned char>(text[end + 1])) ||
                                 text[end + 1] == '-' || text[end + 1] == '+')))) {
    ++end;
  }
  std::string unit = text.substr(end);
  unit.erase(0, unit.find_first_not_of(' '));
  return {text.substr(0, end), unit};
}

bool whole_number_text(const std::string& text) {
  return !text.empty() && text.size() <= 19 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c); });
}

// The exact decimal text of value / scale, where scale has no prime factors but 2 and 5 (every
// unit's size in its base unit), so the digits end.
std::string exact_decimal(std::uint64_t value, std::uint64_t scale) {
  std::string text = std::to_string(value / scale);
  unsigned __int128 rest = value % scale;
  if (rest == 0) return text;
  text += '.';
  for (int digits = 0; rest != 0 && digits < 40; ++digits) {
    rest *= 10;
    text += static_cast<char>('0' + static_cast<int>(rest / scale));
    rest %= scale;
  }
  return text;
}

// A range's endpoints in whole base units: a quantity ("0.5TB/s" -> 500e9 B/s in units of
// "TB/s") or a whole number ("32" in units of 1).
struct Scale {
  std::string unit;        // as written; empty for plain numbers
  Dimension dimension{};   // quantities only
  std::uint64_t size = 1;  // base units per unit
};

std::optional<Scale> scale_of(const std::string& unit) {
  if (unit.empty()) return Scale{};
  for (Dimension dimension : kAllDimensions) {
    try {
      return Scale{unit, dimension, parse_quantity("1" + unit, dimension)};
    } catch (const QuantityError&) {
    }
  }
  return std::nullopt;
}

std::uint64_t base_units(const ConfigNode& node, const Scale& scale) {
  if (scale.unit.empty()) return node.count();
  const auto [number, unit] = split_unit(node.text());
  if (unit != scale.unit) {
    node.fail(fmt::format("the range's values must share one unit ('{}')", scale.unit),
              fmt::format("write it in {}", scale.unit));
  }
  return node.quantity(scale.dimension);
}

double positive_number(const ConfigNode& node) {
  const std::string text = node.text();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0) {
    node.fail("expected a number greater than zero");
  }
  return value;
}

std::vector<AxisValue> range_values(const ConfigNode& range) {
  const ConfigNode from = range.required("from");
  const ConfigNode to = range.required("to");
  const auto step = range.optional("step");
  const auto count = range.optional("count");
  const auto factor = range.optional("factor");
  const auto scale_node = range.optional("scale");
  range.reject_unknown_keys();
  if (static_cast<int>(step.has_value()) + count.has_value() + factor.has_value() != 1) {
    range.fail("a range takes exactly one of step, count and factor",
               "e.g. {from: 32, to: 256, factor: 2} or {from: 1TB/s, to: 4TB/s, count: 4}");
  }
  bool logarithmic = false;
  if (scale_node) {
    logarithmic = scale_node->choice({"linear", "log"}) == "log";
    if (!count) scale_node->fail("'scale' goes with 'count'", "drop it, or give count");
  }

  // Whole base units when the endpoints are quantities or whole numbers; plain reals otherwise.
  const auto [from_number, from_unit] = split_unit(from.text());
  const auto [to_number, to_unit] = split_unit(to.text());
  if (from_unit != to_unit) from.fail("'from' and 'to' must share one unit");
  const std::optional<Scale> scale = scale_of(from_unit);
  if (!scale) from.fail(fmt::format("'{}' is not a known unit", from_unit));
  const bool whole =
      !scale->unit.empty() || (whole_number_text(from.text()) && whole_number_text(to.text()) &&
                               (!step || whole_number_text(step->text())));

  std::vector<double> raw;  // values in base units (whole) or as they are (reals)
  const double low = whole ? static_cast<double>(base_units(from, *scale)) : positive_number(from);
  const double high = whole ? static_cast<double>(base_units(to, *scale)) : positive_number(to);
  if (high < low) to.fail("'to' must not be below 'from'");
  auto check_size = [&](double n) {
    if (n > static_cast<double>(kMaxValuesPerRange)) {
      range.fail(fmt::format("the range gives more than {} values", kMaxValuesPerRange));
    }
  };
  if (step) {
    const double size =
        whole ? static_cast<double>(base_units(*step, *scale)) : positive_number(*step);
    if (size <= 0) step->fail("must be greater than zero");
    const double n = std::floor((high - low) / size * (1 + 1e-12)) + 1;
    check_size(n);
    for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(n); ++i)
      raw.push_back(low + static_cast<double>(i) * size);
  } else if (count) {
    const std::uint64_t n = count->positive_count();
    check_size(static_cast<double>(n));
    if (n == 1 && low != high) count->fail("one value cannot span from 'from' to 'to'");
    if (logarithmic && low <= 0) from.fail("a log range starts above zero");
    for (std::uint64_t i = 0; i < n; ++i) {
      const double t = n == 1 ? 0 : static_cast<double>(i) / static_cast<double>(n - 1);
      raw.push_back(logarithmic ? low * std::pow(high / low, t) : low + (high - low) * t);
    }
    if (n > 1) raw.back() = high;
  } else {
    const double ratio = positive_number(*factor);
    if (ratio <= 1) factor->fail("must be greater than 1");
    if (low <= 0) from.fail("a range by factor starts above zero");
    const double n = std::floor(std::log(high / low) / std::log(ratio) + 1e-9) + 1;
    check_size(n);
    for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(n); ++i)
      raw.push_back(low * std::pow(ratio, static_cast<double>(i)));
  }

  std::vector<AxisValue> values;
  std::string previous;  // the values rise, so a value given twice once rounded is the last one
  for (double value : raw) {
    std::string text;
    if (whole) {
      const auto units = static_cast<std::uint64_t>(std::llround(value));
      text = exact_decimal(units, scale->size) + scale->unit;
    } else {
      text = fmt::format("{:.12g}", value);
    }
    if (!values.empty() && text == previous) {
      range.fail(fmt::format("the range gives {} twice once values are rounded to {}", text,
                             !whole                ? "12 significant digits"
                             : scale->unit.empty() ? "whole numbers"
                                                   : "whole base units"),
                 "use fewer values or a wider range");
    }
    previous = text;
    AxisValue v;
    v.node = YAML::Node(text);
    v.text = text;
    v.where = location_of(range);
    v.cell = cell_of(v.node, text);
    values.push_back(std::move(v));
  }
  return values;
}

// ---------------------------------------------------------------- axes

SweptKey read_key(const ConfigNode& entry, const std::string& key, const SweepSpec& spec) {
  const ConfigNode values_node = entry.required(key);
  check_key_path(values_node, key, true);
  SweptKey swept;
  swept.key_path = key;
  if (values_node.yaml().IsSequence()) {
    const YAML::Node& list = values_node.yaml();
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node item = list[i];
      const ConfigNode item_node(
          item, values_node.key_path() + fmt::format("[{}]", i),
          std::make_shared<ConfigDocument>(ConfigDocument{spec.path, {}, {}, {}, {}}));
      AxisValue v;
      v.node = item;
      v.text = flow_text(item);
      v.where = item_node.location();
      v.cell = cell_of(item, v.text);
      if (swept.is_file()) {
        v.file = resolve_file(spec.path, item_node.text());
        check_readable(item_node, v.file);
      }
      swept.values.push_back(std::move(v));
    }
    if (swept.values.empty()) values_node.fail("an axis needs at least one value");
  } else if (values_node.yaml().IsMap()) {
    if (swept.is_file()) values_node.fail("an axis of files takes a list of files");
    swept.values = range_values(values_node);
  } else {
    values_node.fail("expected a list of values or a range",
                     "e.g. [32, 64, 128] or {from: 32, to: 128, factor: 2}");
  }
  return swept;
}

Axis read_axis(const ConfigNode& entry, const SweepSpec& spec) {
  if (!entry.yaml().IsMap() || entry.yaml().size() != 1) {
    entry.fail("an axis is one key with its values, or 'zip:' with several keys",
               "e.g. '- workload.stages: [1, 2]'");
  }
  const std::string key = entry.keys().front();
  Axis axis;
  if (key != "zip") {
    axis.keys.push_back(read_key(entry, key, spec));
    return axis;
  }
  const ConfigNode zip = entry.required("zip");
  if (!zip.yaml().IsMap() || zip.yaml().size() < 2) {
    zip.fail("'zip' takes two or more keys whose values vary together",
             "e.g. zip: {workload.tile.m: [32, 64], workload.tile.n: [64, 128]}");
  }
  for (const auto& zipped : zip.keys()) {
    axis.keys.push_back(read_key(zip, zipped, spec));
    if (axis.keys.back().values.size() != axis.keys.front().values.size()) {
      zip.required(zipped).fail(
          fmt::format("zipped keys need as many values each: '{}' has {}, '{}' has {}",
                      axis.keys.front().key_path, axis.keys.front().values.size(), zipped,
                      axis.keys.back().values.size()));
    }
  }
  return axis;
}

// Two keys of which one holds the other would share YAML nodes (and mean little). Reported at
// the later one's value.
void check_disjoint(const SweepSpec& spec) {
  std::vector<std::pair<std::string, SourceLocation>> keys;
  for (const auto& value : spec.fixed) keys.emplace_back(value.key_path, value.where);
  for (const SweptKey* key : spec.swept_keys())
    if (!key->is_file()) keys.emplace_back(key->key_path, key->values.front().where);
  for (std::size_t j = 0; j < keys.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const auto& [earlier, later] = std::tie(keys[i].first, keys[j].first);
      if (earlier != later && later.rfind(earlier + ".", 0) != 0 &&
          earlier.rfind(later + ".", 0) != 0) {
        continue;
      }
      throw ConfigError(
          keys[j].second, later, "",
          earlier == later
              ? fmt::format("'{}' is set twice", later)
              : fmt::format("'{}' and '{}' are both set: one holds the other", earlier, later),
          "set each key once, in 'set:' or on one axis");
    }
  }
}

}  // namespace

void SweepSpec::decode(std::uint64_t point, std::vector<std::uint32_t>& indices) const {
  indices.resize(axes.size());
  for (std::size_t a = axes.size(); a-- > 0;) {
    const std::uint64_t size = axes[a].size();
    indices[a] = static_cast<std::uint32_t>(point % size);
    point /= size;
  }
}

std::vector<const SweptKey*> SweepSpec::swept_keys() const {
  std::vector<const SweptKey*> keys;
  for (const Axis& axis : axes)
    for (const SweptKey& key : axis.keys) keys.push_back(&key);
  return keys;
}

SweepSpec load_sweep(const std::string& path) {
  SweepSpec spec;
  spec.path = path;
  spec.text = read_config_file(path);
  const ConfigNode sweep = load_document_text(path, spec.text, "sweep", {});

  for (const char* root : {"hardware", "workload"}) {
    if (auto base = sweep.optional(root)) {
      std::string& file = std::string(root) == "hardware" ? spec.hardware_file : spec.workload_file;
      file = resolve_file(path, base->text());
      check_readable(*base, file);
    }
  }
  if (auto set = sweep.optional("set")) {
    for (const auto& key : set->keys()) {
      const ConfigNode value = set->required(key);
      check_key_path(value, key, false);
      spec.fixed.push_back(PlacedValue{key, value.yaml(), value.location()});
    }
  }
  const ConfigNode axes = sweep.required("axes");
  if (!axes.yaml().IsSequence() || axes.yaml().size() == 0) {
    axes.fail("expected a list of one or more axes", "e.g. '- workload.stages: [1, 2]'");
  }
  for (std::size_t i = 0; i < axes.yaml().size(); ++i) {
    const ConfigNode entry(axes.yaml()[i], fmt::format("sweep.axes[{}]", i),
                           std::make_shared<ConfigDocument>(ConfigDocument{path, {}, {}, {}, {}}));
    spec.axes.push_back(read_axis(entry, spec));
    const Axis& axis = spec.axes.back();
    if (spec.points > kMaxPoints / axis.size()) entry.fail("the sweep has too many points (2^62)");
    spec.points *= axis.size();
  }
  for (const SweptKey* key : spec.swept_keys()) {
    if (!key->is_file()) continue;
    const std::string& base = key->key_path == "hardware" ? spec.hardware_file : spec.workload_file;
    if (!base.empty()) {
      sweep.required(key->key_path)
          .fail(fmt::format("'{}' is given here and swept on an axis", key->key_path),
                "keep one of the two");
    }
  }
  const std::vector<const SweptKey*> swept_keys = spec.swept_keys();
  for (const char* root : {"hardware", "workload"}) {
    const bool swept = std::any_of(swept_keys.begin(), swept_keys.end(),
                                   [&](const SweptKey* k) { return k->key_path == root; });
    const bool given =
        !(std::string(root) == "hardware" ? spec.hardware_file : spec.workload_file).empty();
    if (!swept && !given) {
      sweep.fail(fmt::format("no {} file: give '{}: FILE', or an axis of them", root, root),
                 fmt::format("e.g. '{}: ../{}/seed.yaml'", root,
                             std::string(root) == "hardware" ? "hardware" : "workloads"));
    }
  }
  check_disjoint(spec);

  if (auto constraints = sweep.optional("constraints")) {
    if (!constraints->yaml().IsSequence()) {
      constraints->fail("expected a list of conditions",
                        "e.g. '- analytical.footprint.sram_bytes_per_block <= 256KiB'");
    }
    for (std::size_t i = 0; i < constraints->yaml().size(); ++i) {
      const ConfigNode item(constraints->yaml()[i], fmt::format("sweep.constraints[{}]", i),
                            std::make_shared<ConfigDocument>(ConfigDocument{path, {}, {}, {}, {}}));
      spec.constraints.push_back(Constraint{item.text(), item});
    }
  }
  if (auto objectives = sweep.optional("objectives")) {
    for (const auto& name : objectives->keys()) {
      const ConfigNode objective = objectives->required(name);
      if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
          })) {
        objective.fail(fmt::format("'{}' is not a plain name", name), "use letters, digits and _");
      }
      const auto minimize = objective.optional("minimize");
      const auto maximize = objective.optional("maximize");
      objective.reject_unknown_keys();
      if (minimize.has_value() == maximize.has_value()) {
        objective.fail("an objective is one of minimize: or maximize: with an expression",
                       "e.g. time: {minimize: analytical.t_ideal_s}");
      }
      const ConfigNode& expression = minimize ? *minimize : *maximize;
      spec.objectives.push_back(
          Objective{name, maximize.has_value(), expression.text(), expression});
    }
  }
  if (auto pareto = sweep.optional("pareto")) {
    spec.pareto_node = *pareto;
    if (!pareto->yaml().IsSequence() ||
        (pareto->yaml().size() != 2 && pareto->yaml().size() != 0)) {
      pareto->fail("expected the names of two objectives, or [] for no front",
                   "e.g. [time_s, flop_per_s]");
    }
    for (const auto& item : pareto->yaml()) {
      spec.pareto.push_back(item.IsScalar() ? item.Scalar() : std::string());
    }
  }
  sweep.reject_unknown_keys();
  return spec;
}

std::vector<Objective> default_objectives(bool analytical) {
  const std::string flops =
      analytical ? "analytical.roof_flop_per_s" : "simulated.achieved_flop_per_s";
  // The first two are the default Pareto pair: time against FLOP/s, the trade a first look asks
  // about.
  return {Objective{"time_s", false, analytical ? "analytical.t_ideal_s" : "simulated.time_s", {}},
          Objective{"flop_per_s", true, flops, {}},
          Objective{"flop_per_s_per_sram_byte",
                    true,
                    flops + " / analytical.footprint.sram_bytes_per_block",
                    {}}};
}

std::string Shard::to_string() const { return fmt::format("{}/{}", index + 1, count); }

Shard parse_shard(const std::string& text) {
  const auto bad = [&]() {
    return ConfigError(SourceLocation{"--shard " + text, 0, 0}, "", text,
                       "expected I/N with 1 <= I <= N",
                       "e.g. --shard 1/4 for the first of four shards");
  };
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw bad();
  std::uint64_t index = 0, count = 0;
  try {
    index = parse_count(text.substr(0, slash));
    count = parse_count(text.substr(slash + 1));
  } catch (const QuantityError&) {
    throw bad();
  }
  if (count == 0 || index == 0 || index > count) throw bad();
  return Shard{index - 1, count};
}

}  // namespace ridgeline
