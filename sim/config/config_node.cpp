#include "sim/config/config_node.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>

#include "sim/config/yaml_comments.hpp"

namespace ridgeline {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string join(const std::vector<std::string_view>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : ", ") + std::string(word);
  return text;
}

}  // namespace

std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

ConfigNode::ConfigNode(YAML::Node node, std::string key_path,
                       std::shared_ptr<const ConfigDocument> document)
    : node_(std::move(node)),
      key_path_(std::move(key_path)),
      document_(std::move(document)),
      map_(node_.IsDefined() && node_.IsMap() ? std::make_shared<MapState>() : nullptr) {}

const std::vector<std::pair<YAML::Node, YAML::Node>>& ConfigNode::entries() const {
  if (!map_->listed) {
    for (const auto& entry : node_) map_->entries.emplace_back(entry.first, entry.second);
    map_->listed = true;
  }
  return map_->entries;
}

SourceLocation ConfigNode::location() const {
  // A value set (or under a key set) on the command line points at that argument; one placed
  // from another file, at its own line there.
  for (std::string path = key_path_; !path.empty();) {
    if (auto it = document_->placed.find(path); it != document_->placed.end()) {
      const YAML::Mark mark = node_.Mark();
      if (mark.is_null()) return it->second;
      return SourceLocation{it->second.source, mark.line + 1, mark.column + 1};
    }
    if (auto it = document_->overridden.find(path); it != document_->overridden.end()) {
      return SourceLocation{"--set " + it->second, 0, 0};
    }
    // Up one level: from a list's item ("workload.inputs[0]") to the list, else to the map.
    const auto up = path.back() == ']' ? path.rfind('[') : path.rfind('.');
    path = up == std::string::npos ? std::string() : path.substr(0, up);
  }
  // A key that only an override created (--set workload.tiles.m=3 makes 'workload.tiles').
  const auto below = document_->overridden.lower_bound(key_path_ + ".");
  if (below != document_->overridden.end() && below->first.rfind(key_path_ + ".", 0) == 0) {
    return SourceLocation{"--set " + below->second, 0, 0};
  }
  const auto placed_below = document_->placed.lower_bound(key_path_ + ".");
  if (placed_below != document_->placed.end() &&
      placed_below->first.rfind(key_path_ + ".", 0) == 0) {
    return SourceLocation{placed_below->second.source, 0, 0};
  }
  const YAML::Mark mark = node_.Mark();
  if (mark.is_null()) return SourceLocation{document_->path, 0, 0};
  return SourceLocation{document_->path, mark.line + 1, mark.column + 1};
}

std::string ConfigNode::source_of(std::string_view key_path) const {
  for (std::string path(key_path); !path.empty();) {
    if (auto it = document_->placed.find(path); it != document_->placed.end())
      return it->second.source;
    if (auto it = document_->overridden.find(path); it != document_->overridden.end())
      return "--set " + it->second;
    if (auto it = document_->removed.find(path); it != document_->removed.end())
      return "--set " + it->second;
    const auto dot = path.rfind('.');
    path = dot == std::string::npos ? std::string() : path.substr(0, dot);
  }
  return document_->path;
}

ConfigNode ConfigNode::find(std::string_view key_path) const {
  // Recursion, not assignment: assigning a yaml-cpp handle would write into the tree.
  if (key_path.size() <= key_path_.size() || !node_.IsMap()) return *this;
  const std::string_view rest = key_path.substr(key_path_.empty() ? 0 : key_path_.size() + 1);
  const auto next = optional(rest.substr(0, rest.find('.')));
  return next ? next->find(key_path) : *this;
}

std::string ConfigNode::scalar_text_or_empty() const {
  return node_.IsScalar() ? node_.Scalar() : std::string();
}

ConfigError ConfigNode::error(const std::string& rule, const std::string& fix) const {
  return ConfigError(location(), key_path_, scalar_text_or_empty(), rule, fix);
}

void ConfigNode::fail(const std::string& rule, const std::string& fix) const {
  throw error(rule, fix);
}

void ConfigNode::warn(const std::string& message, const std::string& fix) const {
  ConfigWarning warning{location(), key_path_, message, fix};
  for (const ConfigWarning& known : document_->warnings) {
    if (known.text() == warning.text()) return;
  }
  document_->warnings.push_back(std::move(warning));
}

void ConfigNode::ignored(const std::string& reason, const std::string& fix) const {
  warn("is ignored: " + reason, fix);
}

void ConfigNode::expect_map() const {
  if (!node_.IsMap()) {
    fail(node_.IsNull() ? "expected a map of keys, found nothing" : "expected a map of keys",
         "indent the keys below it, e.g. 'hbm:' then '  bandwidth: 1TB/s'");
  }
}

ConfigNode ConfigNode::child(const YAML::Node& node, std::string_view key) const {
  return ConfigNode(node, key_path_.empty() ? std::string(key) : key_path_ + "." + std::string(key),
                    document_);
}

std::vector<ConfigNode> ConfigNode::items(std::string_view what) const {
  if (!node_.IsSequence()) fail(fmt::format("expected a list of {}", what), "e.g. [4096, 1024]");
  std::vector<ConfigNode> out;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    out.emplace_back(node_[i], fmt::format("{}[{}]", key_path_, i), document_);
  }
  return out;
}

std::optional<ConfigNode> ConfigNode::optional(std::string_view key) const {
  expect_map();
  map_->asked.emplace(key);
  for (const auto& entry : entries()) {
    // A list or map used as a key ('? [a, b]') would otherwise read as a missing key.
    if (!entry.first.IsScalar())
      ConfigNode(entry.first, key_path_, document_).fail("a key must be a plain name");
    if (entry.first.Scalar() == key) return child(entry.second, key);
  }
  return std::nullopt;
}

ConfigNode ConfigNode::required(std::string_view key) const {
  if (auto node = optional(key)) {
    if (node->yaml().IsNull()) node->fail(fmt::format("'{}' has no value", key), "give it one");
    return *node;
  }
  const std::string where = key_path_.empty() ? "the file" : "'" + key_path_ + "'";
  const std::string missing_path =
      key_path_.empty() ? std::string(key) : key_path_ + "." + std::string(key);
  if (auto removed = document_->removed.find(missing_path); removed != document_->removed.end()) {
    const auto equals = removed->second.find('=');
    throw ConfigError(
        SourceLocation{"--set " + removed->second, 0, 0}, missing_path,
        removed->second.substr(equals + 1),
        fmt::format("'{}' is required in {}; null removes only optional keys", key, where),
        "give it a value instead");
  }
  // A near-miss spelling is the likely cause: point at it.
  for (const auto& entry : entries()) {
    if (!entry.first.IsScalar() || map_->asked.count(entry.first.Scalar()) != 0) continue;
    if (did_you_mean(entry.first.Scalar(), {std::string(key)})) {
      // Located as the misspelt key itself, which a --set may have created.
      const ConfigNode typo = child(entry.first, entry.first.Scalar());
      throw ConfigError(typo.location(), missing_path, "",
                        fmt::format("missing required key '{}' in {}; found unknown key '{}'", key,
                                    where, entry.first.Scalar()),
                        fmt::format("did you mean '{}'?", key));
    }
  }
  throw ConfigError(location(), missing_path, "",
                    fmt::format("missing required key '{}' in {}", key, where),
                    "add it; no value is assumed");
}

std::vector<std::string> ConfigNode::keys() const {
  expect_map();
  std::vector<std::string> keys;
  for (const auto& entry : node_) keys.push_back(entry.first.as<std::string>(""));
  return keys;
}

void ConfigNode::reject_unknown_keys() const {
  expect_map();
  // What to suggest for an unknown key: the likely spelling, or the keys this map's reader knows.
  const auto fix_for = [this](const std::string& key) {
    const std::vector<std::string> known(map_->asked.begin(), map_->asked.end());
    if (auto suggestion = did_you_mean(key, known)) return "did you mean '" + *suggestion + "'?";
    return "known keys here: " + join({known.begin(), known.end()});
  };
  // Every map of every file is checked, most of them a few keys: the keys seen so far are
  // compared one by one, and a key's own node (for its location) is made only to report it.
  std::vector<std::string_view> seen;
  for (const auto& entry : entries()) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
    const auto key_node = [&] {
      return ConfigNode(entry.first, key_path_.empty() ? key : key_path_ + "." + key, document_);
    };
    if (!entry.first.IsScalar()) key_node().fail("a key must be a plain name");
    if (std::find(seen.begin(), seen.end(), entry.first.Scalar()) != seen.end())
      key_node().fail(fmt::format("key '{}' is given twice", key), "keep one");
    seen.push_back(entry.first.Scalar());
    if (map_->asked.count(key) != 0) continue;
    const ConfigNode unknown = key_node();
    throw ConfigError(unknown.location(), unknown.key_path(), "",
                      fmt::format("unknown key '{}'", key), fix_for(key));
  }
  // A key removed by --set key=null is no longer in the map, so the loop above cannot see it:
  // one this map's reader never asks for is a typo, not an optional key turned off.
  const std::string prefix = key_path_.empty() ? std::string() : key_path_ + ".";
  for (const auto& [path, assignment] : document_->removed) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string key = path.substr(prefix.size());
    if (key.find('.') != std::string::npos || map_->asked.count(key) != 0) continue;
    throw ConfigError(SourceLocation{"--set " + assignment, 0, 0}, path,
                      assignment.substr(assignment.find('=') + 1),
                      fmt::format("unknown key '{}'", key), fix_for(key));
  }
}

std::string ConfigNode::text() const {
  if (!node_.IsScalar()) {
    fail(node_.IsNull() ? "expected a value, found nothing"
                        : "expected a single value, not a list or map");
  }
  return node_.Scalar();
}

std::uint64_t ConfigNode::count() const {
  try {
    return parse_count(text());
  } catch (const QuantityError& error) {
    fail(error.what(), error.fix());
  }
}

std::uint64_t ConfigNode::positive_count() const {
  const std::uint64_t value = count();
  if (value == 0) fail("must be at least 1");
  return value;
}

std::uint64_t ConfigNode::positive_count_at_most(std::uint64_t limit, std::string_view why) const {
  const std::uint64_t value = positive_count();
  if (value > limit) fail(fmt::format("must be at most {}", limit), std::string(why));
  return value;
}

std::uint64_t ConfigNode::quantity(Dimension dimension) const {
  try {
    return parse_quantity(text(), dimension);
  } catch (const QuantityError& error) {
    fail(error.what(), error.fix());
  }
}

std::uint64_t ConfigNode::positive_quantity(Dimension dimension) const {
  const std::uint64_t value = quantity(dimension);
  if (value == 0)
    fail(fmt::format("{} must be greater than zero", describe(dimension)),
         fmt::format("e.g. {}", example(dimension)));
  return value;
}

std::string ConfigNode::choice(const std::vector<std::string_view>& choices) const {
  const std::string value = text();
  if (std::find(choices.begin(), choices.end(), value) != choices.end()) return value;
  std::vector<std::string> candidates(choices.begin(), choices.end());
  std::string fix = "choose one of: " + join(choices);
  if (auto suggestion = did_you_mean(value, candidates))
    fix = "did you mean '" + *suggestion + "'? " + fix;
  fail("not an accepted value", fix);
}

namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

// The map that holds the last key of root.parts[1].parts[2]...: with `make`, made on the way
// (to set a value there); without, none when a map on the way is absent (nothing to remove).
// `where` and `value_text` name the override in errors.
std::optional<YAML::Node> map_holding(YAML::Node& root, const std::vector<std::string>& parts,
                                      bool make, const SourceLocation& where,
                                      const std::string& value_text) {
  // Walk with fresh handles (assigning to a yaml-cpp handle would rebind it, not the tree).
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
    YAML::Node next = chain.back()[parts[i]];
    if (next.IsDefined() && !next.IsNull() && !next.IsMap()) {
      throw ConfigError(
          where, fmt::format("{}", fmt::join(parts, ".")), value_text,
          fmt::format("'{}' holds a single value, not keys",
                      fmt::join(parts.begin(), parts.begin() + static_cast<long>(i) + 1, ".")));
    }
    if (!make && !next.IsMap()) return std::nullopt;
    chain.push_back(next);
  }
  return chain.back();
}

// Puts `value` at root.parts[1].parts[2]..., making the maps on the way.
void set_at_path(YAML::Node& root, const std::vector<std::string>& parts, const YAML::Node& value,
                 const SourceLocation& where, const std::string& value_text) {
  (*map_holding(root, parts, true, where, value_text))[parts.back()] = value;
}

// Applies "a.b.c=value" under the document's root; the value is read as YAML.
void apply_override(YAML::Node& root, std::string_view root_key, const std::string& assignment,
                    ConfigDocument& document) {
  const SourceLocation where{"--set " + assignment, 0, 0};
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw ConfigError(where, "", "", "expected key.path=value",
                      "e.g. --set hardware.hbm.bandwidth=2TB/s");
  }
  const std::string path = assignment.substr(0, equals);
  const std::string value = assignment.substr(equals + 1);
  const std::vector<std::string> parts = split_path(path);
  if (parts.front() != root_key) return;  // belongs to the other document
  if (parts.size() < 2 ||
      std::any_of(parts.begin(), parts.end(), [](const auto& p) { return p.empty(); })) {
    throw ConfigError(where, path, "", "expected a key path below '" + std::string(root_key) + "'",
                      "e.g. " + std::string(root_key) + ".name=value");
  }
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& error) {
    throw ConfigError(where, path, value, "the value is not valid YAML: " + error.msg);
  }
  // key=null removes the key, which is how an optional key (hardware.l2) is turned off; YAML
  // reads an empty value as null too. A key that is not there is already removed.
  if (parsed.IsNull()) {
    if (auto map = map_holding(root, parts, false, where, value)) map->remove(parts.back());
    document.removed[path] = assignment;
    return;
  }
  set_at_path(root, parts, parsed, where, value);
  document.overridden[path] = assignment;
}

}  // namespace

std::string resolve_path(const ConfigNode& node) {
  const std::string path = node.text();
  if (path.empty() || path.front() == '/') return path;
  const std::string source = node.location().source;
  if (source.rfind("--set ", 0) == 0) return path;  // given on the command line: the working dir
  const auto slash = source.rfind('/');
  return slash == std::string::npos ? path : source.substr(0, slash + 1) + path;
}

std::string read_config_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw ConfigError(SourceLocation{path, 0, 0}, "", "", "cannot open the file",
                      "check the path and that it is readable");
  }
  // A configuration is a few KB; reading stops past 16 MiB, so that /dev/zero or a wrong file of
  // gigabytes is refused instead of exhausting memory.
  constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;
  std::string contents;
  char chunk[1 << 16];
  while (contents.size() <= kMaxFileBytes && file.read(chunk, sizeof(chunk)).gcount() > 0)
    contents.append(chunk, static_cast<std::size_t>(file.gcount()));
  if (contents.size() > kMaxFileBytes) {
    throw ConfigError(SourceLocation{path, 0, 0}, "", "",
                      "the file is larger than 16 MiB, which no configuration is",
                      "check the path names a configuration file");
  }
  return contents;
}

ConfigNode load_document(const std::string& path, std::string_view root,
                         const std::vector<std::string>& overrides) {
  return load_document_text(path, read_config_file(path), root, overrides);
}

ConfigNode load_document_text(const std::string& path, const std::string& text,
                              std::string_view root, const std::vector<std::string>& overrides,
                              const std::vector<PlacedValue>& placed) {
  YAML::Node top;
  try {
    const std::optional<std::string> uncommented = without_comments(text);
    top = YAML::Load(uncommented ? *uncommented : text);
  } catch (const YAML::Exception& error) {
    const int line = error.mark.is_null() ? 0 : error.mark.line + 1;
    const int column = error.mark.is_null() ? 0 : error.mark.column + 1;
    throw ConfigError(SourceLocation{path, line, column}, "", "", "malformed YAML: " + error.msg,
                      "fix the syntax at that position");
  }
  return load_document_tree(path, top, root, overrides, placed);
}

ConfigNode load_document_tree(const std::string& path, YAML::Node top, std::string_view root,
                              const std::vector<std::string>& overrides,
                              const std::vector<PlacedValue>& placed) {
  auto document = std::make_shared<ConfigDocument>();
  document->path = path;
  const std::string fix = fmt::format("the file must start with '{}:' and its keys below it", root);
  if (!top.IsMap()) {
    throw ConfigError(SourceLocation{path, 1, 1}, "", "",
                      top.IsNull() ? "the file is empty" : "expected a map at the top level", fix);
  }
  YAML::Node body = top[std::string(root)];
  if (!body.IsDefined() || body.IsNull()) {
    throw ConfigError(SourceLocation{path, 1, 1}, std::string(root), "",
                      fmt::format("missing top-level key '{}'", root), fix);
  }
  // Overrides go below the root: a root holding a single value ('hardware: fast') is the file's
  // fault, and is named as such before any --set is applied to it.
  if (!body.IsMap())
    ConfigNode(body, std::string(root), document).fail("expected a map of keys", fix);
  for (const auto& assignment : overrides) apply_override(body, root, assignment, *document);
  for (const PlacedValue& value : placed) {
    const std::vector<std::string> parts = split_path(value.key_path);
    if (parts.size() < 2 || parts.front() != root) continue;  // belongs to the other document
    const YAML::Mark mark = value.value.Mark();
    const SourceLocation where =
        mark.is_null() ? value.where
                       : SourceLocation{value.where.source, mark.line + 1, mark.column + 1};
    set_at_path(body, parts, value.value, where,
                value.value.IsScalar() ? value.value.Scalar() : std::string());
    document->placed[value.key_path] = value.where;
  }
  ConfigNode top_node(top, "", document);
  top_node.required(root);
  top_node.reject_unknown_keys();
  return ConfigNode(body, std::string(root), document);
}

std::string emit_document(const ConfigNode& document) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << document.key_path() << YAML::Value << document.yaml()
      << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace ridgeline
