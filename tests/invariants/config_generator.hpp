// Random hardware and workload files drawn within the rules of docs/CONFIG.md, for the property
// test (property_test.cpp): each draw is a pair of YAML documents (and, for a memory trace, the
// trace), written out exactly as a user would save them, so a failing draw can be kept as a
// regression case as printed. The rules each range follows, and why, are in config_generator.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::test {

/// The fixed seed of the property test in CI: "RIDGELIN" in ASCII (0x52 0x49 0x44 0x47 ...).
constexpr std::uint64_t kPropertySeed = 0x524944'47454C494EULL;
/// Draws in CI: six tests of 50 (property_test.cpp), each a few seconds on one core.
constexpr std::size_t kPropertyDraws = 300;

/// The seed and the number of draws: kPropertySeed and kPropertyDraws unless the environment
/// says otherwise (RIDGELINE_PROPERTY_SEED, decimal or 0x-hex; RIDGELINE_PROPERTY_COUNT), for
/// longer runs outside CI.
struct PropertySettings {
  std::uint64_t seed = kPropertySeed;
  std::size_t count = kPropertyDraws;
};
PropertySettings property_settings();

/// One drawn configuration. Draw `index` of seed `seed` depends on those two numbers alone (its
/// own std::mt19937_64, seeded from both), so a shard of the draws, or a single one, can be
/// reproduced without drawing the ones before it.
struct GeneratedCase {
  std::uint64_t seed = 0;
  std::size_t index = 0;
  std::string label;          ///< "draw 17: gemm tiled fp16 12x8x16, 4 cores, detailed HBM, L2"
  std::string hardware_yaml;  ///< a whole hardware file, rooted at `hardware:`
  std::string workload_yaml;  ///< a whole workload file, rooted at `workload:`
  std::string trace_name;     ///< memory traces: the file `workload.path` names (relative), else ""
  std::string trace_text;     ///< ...and its lines
};

GeneratedCase generate_case(std::uint64_t seed, std::size_t index);

/// Block-style YAML, written key by key in the order given: what the generator writes its files
/// with. Values are written as given (the generator's are numbers, units and plain words, none of
/// which needs quoting).
class YamlWriter {
 public:
  void key(const std::string& name, const std::string& value);
  void key(const std::string& name, std::uint64_t value);
  /// A nested map: `begin("cores")` ... `end()`.
  void begin(const std::string& name);
  void end();
  /// A map on one line, `tile: {m: 32, n: 32, k: 16}`.
  void inline_map(const std::string& name,
                  const std::vector<std::pair<std::string, std::uint64_t>>& entries);
  const std::string& text() const { return text_; }

 private:
  std::string indent() const { return std::string(2 * depth_, ' '); }
  std::string text_;
  std::size_t depth_ = 0;
};

}  // namespace ridgeline::test
