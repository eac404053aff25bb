#include "sim/sweep/cached_config_loader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <type_traits>

#include "sim/config/config_node.hpp"
#include "sim/config/hardware_config.hpp"
#include "sim/config/workload_config.hpp"
#include "sim/sweep/sweep_fields.hpp"

namespace ridgeline {

namespace {

// Bounds on what is remembered: a caller that never repeats a document or an override would
// otherwise grow the caches without end. Past a bound the cache starts again (cheap to refill).
constexpr std::size_t kMaxDocuments = 64;
constexpr std::size_t kMaxOverridesPerDocument = 4096;

// What says a file changed since it was read: a notebook edits a configuration between calls.
struct FileStamp {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  off_t size_bytes = 0;
  std::int64_t modified_ns = 0;

  bool operator==(const FileStamp& other) const {
    return exists == other.exists && device == other.device && inode == other.inode &&
           size_bytes == other.size_bytes && modified_ns == other.modified_ns;
  }
};

FileStamp stamp_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return {};
  return FileStamp{true, info.st_dev, info.st_ino, info.st_size,
                   std::int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec};
}

std::vector<std::string> texts_of(const std::vector<ConfigWarning>& warnings) {
  std::vector<std::string> texts;
  for (const ConfigWarning& warning : warnings) texts.push_back(warning.text());
  return texts;
}

template <class Params>
Params parse_root(const ConfigNode& document) {
  if constexpr (std::is_same_v<Params, HardwareParams>) {
    return parse_hardware(document);
  } else {
    return parse_workload_fields(document);  // check_rules runs on the combined values
  }
}

}  // namespace

// One document, read once: its typed parameters alone and with each override seen so far.
template <class Params>
struct CachedConfigLoader::Document {
  struct Override {
    const FieldSetter* setter = nullptr;
    std::optional<Params> params;  ///< the document read with this override; none: slow path
    /// Its warnings, where they differ from the document's alone (a warning that depends on the
    /// value: HBM bandwidth past what the DRAM's timings carry); none where they do not.
    std::optional<std::vector<ConfigWarning>> own_warnings;
  };

  ConfigInput input;             ///< the text is the file's as read, when it was read
  FileStamp stamp;               ///< of the file when read (a text given has none)
  std::optional<Params> params;  ///< read alone; none when it does not read alone
  std::vector<ConfigWarning> warnings;
  std::vector<std::string> warning_texts;
  SourceLocation root_location;  ///< where the root's map starts (RunConfig::workload_location)
  std::unordered_map<std::string, Override> overrides;  ///< by "key.path=value"

  void read(const char* root) {
    try {
      if (!input.text) input.text = read_config_file(input.path);
      // From the text each time: a copy of a parsed tree (YAML::Clone) loses the positions that
      // warnings and errors name.
      const ConfigNode document = load_document_text(input.path, *input.text, root, {});
      params = parse_root<Params>(document);
      warnings = document.warnings();
      warning_texts = texts_of(warnings);
      const YAML::Mark mark = document.yaml().Mark();
      root_location = SourceLocation{input.path, mark.is_null() ? 0 : mark.line + 1,
                                     mark.is_null() ? 0 : mark.column + 1};
    } catch (const ConfigError&) {
      params.reset();  // load_config says where
    }
  }

  const Override& with(const std::string& assignment, const char* root) {
    if (auto found = overrides.find(assignment); found != overrides.end()) return found->second;
    if (overrides.size() >= kMaxOverridesPerDocument) overrides.clear();
    Override& entry = overrides[assignment];
    entry.setter = find_field_setter(assignment.substr(0, assignment.find('=')));
    if (entry.setter == nullptr || !params) return entry;
    try {
      const ConfigNode document = load_document_text(input.path, *input.text, root, {assignment});
      entry.params = parse_root<Params>(document);
      if (texts_of(document.warnings()) != warning_texts) entry.own_warnings = document.warnings();
    } catch (const ConfigError&) {
      // The value's own fault, or one only the whole configuration can tell: load_config says.
    }
    return entry;
  }
};

CachedConfigLoader::CachedConfigLoader() = default;
CachedConfigLoader::~CachedConfigLoader() = default;

template <class Params>
CachedConfigLoader::Document<Params>& CachedConfigLoader::document(
    std::unordered_map<std::string, std::unique_ptr<Document<Params>>>& cache,
    const ConfigInput& input, const char* root) {
  // A text given is its own identity; a file is its path, read again when its stamp changes.
  const std::string key =
      input.text ? "text " + input.path + '\n' + *input.text : "file " + input.path;
  const FileStamp stamp = input.text ? FileStamp{} : stamp_of(input.path);
  if (auto found = cache.find(key); found != cache.end() && found->second->stamp == stamp)
    return *found->second;
  if (cache.size() >= kMaxDocuments) cache.clear();
  auto fresh = std::make_unique<Document<Params>>();
  fresh->input = input;
  fresh->stamp = stamp;
  fresh->read(root);
  std::unique_ptr<Document<Params>>& slot = cache[key];
  slot = std::move(fresh);
  return *slot;
}

bool CachedConfigLoader::load_fast(HardwareDocument& hardware, WorkloadDocument& workload,
                                   const std::vector<std::string>& overrides, RunConfig& config) {
  if (!hardware.params || !workload.params) return false;
  config.hardware = *hardware.params;
  config.workload = *workload.params;
  // A document's warnings are its own, or those of its one override whose value warns: with more
  // overrides of that document, a warning may depend on them together, so load_config says.
  const auto overrides_of = [&](const char* root) {
    return std::count_if(overrides.begin(), overrides.end(),
                         [&](const std::string& o) { return o.rfind(root, 0) == 0; });
  };
  const std::vector<ConfigWarning>* hardware_warnings = &hardware.warnings;
  const std::vector<ConfigWarning>* workload_warnings = &workload.warnings;
  const auto take_warnings = [&](const auto& entry, const char* root,
                                 const std::vector<ConfigWarning>*& warnings) {
    if (!entry.own_warnings) return true;
    if (overrides_of(root) > 1) return false;
    warnings = &*entry.own_warnings;
    return true;
  };
  std::vector<std::string> keys;
  for (const std::string& assignment : overrides) {
    const std::string key = assignment.substr(0, assignment.find('='));
    for (const std::string& earlier : keys) {
      if (at_or_below(key, earlier) || at_or_below(earlier, key)) return false;  // order matters
    }
    keys.push_back(key);
    if (key.rfind("hardware.", 0) == 0) {
      const auto& entry = hardware.with(assignment, "hardware");
      if (!entry.params || entry.setter->hardware == nullptr ||
          !take_warnings(entry, "hardware.", hardware_warnings)) {
        return false;
      }
      entry.setter->hardware(config.hardware, *entry.params);
    } else if (key.rfind("workload.", 0) == 0) {
      const auto& entry = workload.with(assignment, "workload");
      if (!entry.params || !entry.setter->workload ||
          entry.params->index() != config.workload.index() ||
          !take_warnings(entry, "workload.", workload_warnings) ||
          !entry.setter->workload(config.workload, *entry.params)) {
        return false;
      }
    } else {
      return false;  // load_config names the override
    }
  }
  config.hardware_path = hardware.input.path;
  config.workload_path = workload.input.path;
  config.overrides = overrides;
  config.workload_location = workload.root_location;
  if (check_rules(config.workload)) return false;
  try {
    // The whole document, only for a workload that reads files (a trace) and asks for it.
    const auto workload_document = [&] {
      return load_document_text(workload.input.path, *workload.input.text, "workload", overrides);
    };
    if (check_and_analyze(config, workload_document)) return false;
  } catch (const ConfigError&) {
    return false;  // load_config gives it, after whatever it finds first
  }
  config.warnings = *hardware_warnings;
  config.warnings.insert(config.warnings.end(), workload_warnings->begin(),
                         workload_warnings->end());
  return true;
}

RunConfig CachedConfigLoader::load(const ConfigInput& hardware_input,
                                   const ConfigInput& workload_input,
                                   const std::vector<std::string>& overrides) {
  HardwareDocument& hardware = document(hardware_, hardware_input, "hardware");
  WorkloadDocument& workload = document(workload_, workload_input, "workload");
  RunConfig config;
  if (load_fast(hardware, workload, overrides, config)) return config;
  ++slow_loads_;
  // The texts as read, so that a file that changed since is not read at another state.
  return load_config(hardware.input, workload.input, overrides);
}

}  // namespace ridgeline
