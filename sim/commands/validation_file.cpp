#include "sim/commands/validation_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "sim/config/config_node.hpp"
#include "sim/config/quantity.hpp"

namespace ridgeline {

namespace {

// Each figure's name in the file, the dimension its `measured` is read in, and its unit: in the
// order of ValidationFigure.
struct FigureKind {
  std::string_view name;
  Dimension dimension;
  std::string_view unit;
};
constexpr FigureKind kFigures[] = {{"bandwidth", Dimension::bandwidth, "B/s"},
                                   {"flop_rate", Dimension::flop_rate, "FLOP/s"},
                                   {"time", Dimension::time, "s"},
                                   {"latency", Dimension::time, "s"},
                                   {"power", Dimension::power, "W"}};

const FigureKind& kind_of(ValidationFigure figure) {
  return kFigures[static_cast<std::size_t>(figure)];
}

// A file the case names, against the validation file's folder; it must exist.
std::string case_file(const ConfigNode& node, const std::string& validation_path) {
  const std::string text = node.text();
  std::filesystem::path path(text);
  if (path.is_relative()) path = std::filesystem::path(validation_path).parent_path() / path;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    node.fail(fmt::format("no such file: {}", path.string()),
              "give a path relative to the validation file's folder, e.g. "
              "'../hardware/a100-sxm4-80gb.yaml'");
  }
  return path.lexically_normal().string();
}

std::string nonempty_text(const ConfigNode& node) {
  std::string text = node.text();
  if (text.find_first_not_of(" \t") == std::string::npos) node.fail("expected some text");
  return text;
}

ValidationCase read_case(const ConfigNode& entry, const std::string& path) {
  ValidationCase c;
  c.key_path = entry.key_path();
  c.where = entry.location();
  c.name_where = entry.required("name").location();
  c.name = nonempty_text(entry.required("name"));
  c.gpu = nonempty_text(entry.required("gpu"));
  c.hardware_path = case_file(entry.required("hardware"), path);
  c.workload_path = case_file(entry.required("workload"), path);
  if (auto set = entry.optional("set")) {
    if (!set->yaml().IsMap()) {
      set->fail("expected a map of key paths to values",
                "e.g. 'set: {workload.length: 268435456}'");
    }
    for (const std::string& key : set->keys()) {
      const ConfigNode value = set->required(key);
      const bool rooted = key.rfind("hardware.", 0) == 0 || key.rfind("workload.", 0) == 0;
      if (!rooted) {
        value.fail(fmt::format("'{}' is not a key path of the hardware or the workload", key),
                   "start it with 'hardware.' or 'workload.', e.g. 'workload.length'");
      }
      if (!value.yaml().IsScalar()) value.fail("expected one value (a number or a word)");
      c.overrides.push_back(key + "=" + value.text());
      c.override_locations.push_back(value.location());
    }
  }
  if (auto resident = entry.optional("l2_resident")) {
    c.l2_resident_where = resident->location();
    if (!resident->yaml().IsSequence() || resident->yaml().size() == 0) {
      resident->fail("expected a list of one or more of the workload's input tensors",
                     "e.g. 'l2_resident: [data]' for a memory trace");
    }
    for (const ConfigNode& tensor : resident->items("tensors")) {
      c.l2_resident.push_back(nonempty_text(tensor));
    }
  }
  const ConfigNode figure = entry.required("figure");
  c.figure_where = figure.location();
  std::vector<std::string_view> names;
  for (const FigureKind& kind : kFigures) names.push_back(kind.name);
  const std::string figure_name = figure.choice(names);
  for (std::size_t i = 0; i < std::size(kFigures); ++i) {
    if (figure_name == kFigures[i].name) c.figure = static_cast<ValidationFigure>(i);
  }
  const Dimension dimension = kind_of(c.figure).dimension;
  const std::uint64_t measured = entry.required("measured").positive_quantity(dimension);
  // Quantities of time are read in picoseconds, powers in microwatts; the others in their unit.
  c.measured = dimension == Dimension::time    ? static_cast<double>(measured) / 1e12
               : dimension == Dimension::power ? static_cast<double>(measured) / 1e6
                                               : static_cast<double>(measured);
  c.source = nonempty_text(entry.required("source"));
  entry.reject_unknown_keys();
  return c;
}

}  // namespace

std::string_view name_of(ValidationFigure figure) { return kind_of(figure).name; }

std::string_view unit_of(ValidationFigure figure) { return kind_of(figure).unit; }

std::vector<ValidationCase> load_validation_file(const std::string& path) {
  const ConfigNode validation = load_document(path, "validation", {});
  const ConfigNode cases = validation.required("cases");
  if (!cases.yaml().IsSequence() || cases.yaml().size() == 0) {
    cases.fail("expected a list of one or more cases",
               "e.g. '- {name: ..., gpu: ..., hardware: ..., workload: ..., figure: bandwidth, "
               "measured: 1759GB/s, source: ...}'");
  }
  validation.reject_unknown_keys();
  const auto document = std::make_shared<ConfigDocument>(ConfigDocument{path, {}, {}, {}, {}});
  std::vector<ValidationCase> read;
  for (std::size_t i = 0; i < cases.yaml().size(); ++i) {
    const ConfigNode entry(cases.yaml()[i], fmt::format("validation.cases[{}]", i), document);
    if (!entry.yaml().IsMap()) entry.fail("expected a case: a map of name, gpu, hardware, ...");
    read.push_back(read_case(entry, path));
  }
  return read;
}

}  // namespace ridgeline
