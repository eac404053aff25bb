// A strict reader over a YAML document: every value is read through a ConfigNode, which knows its
// key path and its position in the file (or the --set argument it came from), so any rule it
// breaks becomes a ConfigError that names file:line:column, key, value and rule. Maps reject keys
// nobody asked for, suggesting the nearest known one.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/quantity.hpp"
#include "sim/util/config_error.hpp"

namespace ridgeline {

/// The document a node belongs to: its file and the keys overridden from the command line.
struct ConfigDocument {
  std::string path;                               ///< the file, as the user named it
  std::map<std::string, std::string> overridden;  ///< key path -> the --set argument
  /// key path -> where a value placed there was written (a sweep file); positions at and below
  /// it are that file's, the value's own line where it has one.
  std::map<std::string, SourceLocation> placed;
  /// key path -> the --set argument that removed it (key=null), for a required key's error.
  std::map<std::string, std::string> removed;
  /// What the reader found to warn about (ConfigNode::warn), in the order found, each once.
  mutable std::vector<ConfigWarning> warnings;
};

class ConfigNode {
 public:
  ConfigNode(YAML::Node node, std::string key_path, std::shared_ptr<const ConfigDocument> document);

  const std::string& key_path() const { return key_path_; }
  const YAML::Node& yaml() const { return node_; }
  SourceLocation location() const;
  /// The file of this node's document, as the user named it.
  const std::string& document_path() const { return document_->path; }
  /// Where the value at `key_path` (a full key path) came from: the --set argument that set or
  /// removed it or a map above it, or the file a value placed there was written in (a sweep);
  /// otherwise the document's own file, also for a key absent there (its default is the file's).
  std::string source_of(std::string_view key_path) const;

  /// Throws a ConfigError for this node: its location, key path and (if a scalar) value.
  [[noreturn]] void fail(const std::string& rule, const std::string& fix = {}) const;
  /// The error fail() throws, for a caller that records it instead.
  ConfigError error(const std::string& rule, const std::string& fix = {}) const;

  /// Records a warning about this key in its document: "key 'K' MESSAGE (FIX)" at its location.
  /// A warning already recorded there is not recorded twice.
  void warn(const std::string& message, const std::string& fix = {}) const;
  /// warn() for a key the model reads but ignores here: "key 'K' is ignored: REASON (FIX)".
  void ignored(const std::string& reason, const std::string& fix) const;
  /// The warnings recorded in this node's document so far.
  const std::vector<ConfigWarning>& warnings() const { return document_->warnings; }

  /// The node at `key_path` (a full key path at or below this node's), or the deepest of its
  /// ancestors present: where a rule found on typed values is reported.
  ConfigNode find(std::string_view key_path) const;

  // --- maps ---
  /// The value under `key`; a missing key is an error.
  ConfigNode required(std::string_view key) const;
  std::optional<ConfigNode> optional(std::string_view key) const;
  /// Fails on the first key of this map that no required()/optional() call asked for.
  void reject_unknown_keys() const;
  /// Keys in file order (for maps whose keys are data, such as data types).
  std::vector<std::string> keys() const;

  // --- lists ---
  /// The items of a list, each at its key path with "[i]" after it; anything else is an error
  /// that names `what` the list holds.
  std::vector<ConfigNode> items(std::string_view what) const;

  // --- scalars ---
  std::string text() const;
  std::uint64_t count() const;           ///< a whole number >= 0
  std::uint64_t positive_count() const;  ///< a whole number >= 1
  /// A whole number from 1 to `limit`; `why` (may be empty) says what a larger value would break.
  std::uint64_t positive_count_at_most(std::uint64_t limit, std::string_view why = {}) const;
  std::uint64_t quantity(Dimension dimension) const;           ///< >= 0
  std::uint64_t positive_quantity(Dimension dimension) const;  ///< > 0
  /// One of `choices`, exactly.
  std::string choice(const std::vector<std::string_view>& choices) const;

 private:
  ConfigNode child(const YAML::Node& node, std::string_view key) const;
  void expect_map() const;
  std::string scalar_text_or_empty() const;

  // What the readers of a map share (copies of its ConfigNode alike): the keys asked of it, and
  // its entries in file order, listed on the first lookup. yaml-cpp makes a pair of nodes for
  // each entry it iterates over, which every lookup would otherwise pay again.
  struct MapState {
    std::set<std::string, std::less<>> asked;
    std::vector<std::pair<YAML::Node, YAML::Node>> entries;
    bool listed = false;
  };
  /// The map's entries (expect_map() first).
  const std::vector<std::pair<YAML::Node, YAML::Node>>& entries() const;

  YAML::Node node_;
  std::string key_path_;
  std::shared_ptr<const ConfigDocument> document_;
  std::shared_ptr<MapState> map_;  // a map's; null for a scalar or a list
};

/// The closest of `candidates` to `word` when it is close enough to be a likely typo.
std::optional<std::string> did_you_mean(std::string_view word,
                                        const std::vector<std::string>& candidates);

/// A configuration file's contents. Throws ConfigError when it cannot be read.
std::string read_config_file(const std::string& path);

/// The file a path value names (a trace's or a model's `path`): a relative path starts at the
/// folder of the file that holds the value, or at the working directory when it was given with
/// --set, so that a workload file and what it reads can move together.
std::string resolve_path(const ConfigNode& path);

/// Loads a YAML file whose top level is the single key `root` (hardware:, workload:); applies
/// `--set` overrides first. Malformed YAML, unreadable files and a wrong top level are errors.
ConfigNode load_document(const std::string& path, std::string_view root,
                         const std::vector<std::string>& overrides);

/// A value written in another file than the document's own (a sweep file's axis or `set:`). It
/// replaces the value at `key_path`; errors at or below it name that file and the value's line.
struct PlacedValue {
  std::string key_path;  ///< e.g. "workload.tile", below the document's root
  YAML::Node value;      ///< as read from the file, positions included; never modified
  SourceLocation where;  ///< the file, and the position for a value made without one (a range's)
};

/// load_document for a file already read: `text` is its contents, `path` names it in messages.
/// The `placed` values go over the document after the overrides, in order; they must not lie
/// below one another (the tree shares their nodes).
ConfigNode load_document_text(const std::string& path, const std::string& text,
                              std::string_view root, const std::vector<std::string>& overrides,
                              const std::vector<PlacedValue>& placed = {});

/// load_document_text for a file already parsed (`top`, its whole YAML, which this changes:
/// give it a copy, YAML::Clone, to keep one). Cheaper when one file is read for many points.
ConfigNode load_document_tree(const std::string& path, YAML::Node top, std::string_view root,
                              const std::vector<std::string>& overrides,
                              const std::vector<PlacedValue>& placed = {});

/// A loaded document (what load_document returned) as YAML text under its root key: the
/// configuration after overrides, which reads back to the same values.
std::string emit_document(const ConfigNode& document);

}  // namespace ridgeline
