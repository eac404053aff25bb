// Hardware files with an energy section, for the energy tests: a bundled file's text with the
// section appended (the bundled files end in a map of the `hardware` root, two spaces in).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_support.hpp"

namespace ridgeline::test {

/// Every energy but the FLOPs' and static power zero, so that a test sees one cost at a time;
/// `hbm` is the `hbm` map's contents (activation, read, write, io, and row_bytes unless the file
/// has hbm.dram).
inline std::string energy_section(const std::string& static_power, const std::string& fp32,
                                  const std::string& hbm, const std::string& extra = "") {
  return "  energy:\n    static_power: " + static_power + "\n    flop: {fp32: " + fp32 +
         "}\n    registers: {read: 0pJ/B, write: 0pJ/B}\n    sram: {read: 0pJ/B, write: 0pJ/B}\n"
         "    network: {read: 0pJ/B, write: 0pJ/B}\n    hbm: {" +
         hbm + "}\n" + extra;
}

inline constexpr const char* kNoHbmEnergy =
    "activation: 0pJ, read: 0pJ/bit, write: 0pJ/bit, io: 0pJ/bit, row_bytes: 1KiB";

/// configs/<bundled> with `section` appended, written as a scratch file; its path.
inline std::string with_energy(ScratchFiles& files, const std::string& bundled,
                               const std::string& section) {
  std::ifstream in(config_path(bundled));
  std::stringstream text;
  text << in.rdbuf();
  return files.write("energy_hardware", text.str() + section);
}

}  // namespace ridgeline::test
