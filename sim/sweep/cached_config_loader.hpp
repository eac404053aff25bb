// load_config for a caller that loads the same documents again and again with other --set
// overrides (a Python loop calling ridgeline.analyze): the same RunConfig, without reading YAML
// again for every call.
//
// It takes the sweep's fast path (sweep_evaluator.hpp) for one point at a time: each document is
// read once (and again when its file changes), each override once over its document, and a call
// copies the typed fields its overrides fill (sweep_fields) onto the document's typed parameters
// and applies the rules between values to the result. Whatever the fast path cannot vouch for
// goes to load_config itself, so the result, and any error, are load_config's exactly:
// - an override of a key sweep_fields does not list, two overrides of one key or of keys inside
//   one another (their order matters), an override of the workload's kind;
// - a document that does not read alone, or an override whose document does not read;
// - an override whose document reads with other warnings than the document alone (a warning may
//   depend on a value), beside another override of that document (it may depend on both);
// - a rule broken by the combined values (load_config names the key and its position).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/config/run_config.hpp"

namespace ridgeline {

class CachedConfigLoader {
 public:
  CachedConfigLoader();
  ~CachedConfigLoader();
  CachedConfigLoader(const CachedConfigLoader&) = delete;
  CachedConfigLoader& operator=(const CachedConfigLoader&) = delete;

  /// What load_config(hardware, workload, overrides) returns or throws.
  RunConfig load(const ConfigInput& hardware, const ConfigInput& workload,
                 const std::vector<std::string>& overrides);

  /// Calls that went to load_config so far (for tests and the benchmark).
  std::uint64_t slow_loads() const { return slow_loads_; }

 private:
  template <class Params>
  struct Document;
  using HardwareDocument = Document<HardwareParams>;
  using WorkloadDocument = Document<WorkloadSpec>;

  template <class Params>
  Document<Params>& document(
      std::unordered_map<std::string, std::unique_ptr<Document<Params>>>& cache,
      const ConfigInput& input, const char* root);
  bool load_fast(HardwareDocument& hardware, WorkloadDocument& workload,
                 const std::vector<std::string>& overrides, RunConfig& config);

  std::unordered_map<std::string, std::unique_ptr<HardwareDocument>> hardware_;
  std::unordered_map<std::string, std::unique_ptr<WorkloadDocument>> workload_;
  std::uint64_t slow_loads_ = 0;
};

}  // namespace ridgeline
