// The executable's own shared libraries, loaded on first use from its folder (where the build
// puts them and python/setup.py copies them): the simulator (SystemC) and the ONNX importer
// (protobuf). The commands that need neither start without loading them (docs/PERFORMANCE.md,
// "Start-up").
//
// A library hands the executable one structure from an entry point of C linkage (a function
// returning a pointer to it) whose first member is the BuildStamp of the build that made it, so
// that the executable never calls a library of another build, whose structures may be laid out
// otherwise.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "sim/util/version.hpp"

namespace ridgeline {

/// The build a library or the executable is of: the version, and the sizes of what crosses
/// between them.
struct BuildStamp {
  const char* version = "";
  std::size_t layout = 0;
};

/// The stamp of the code that includes this, crossing with `Crossing...`.
template <typename... Crossing>
BuildStamp build_stamp() {
  std::size_t layout = 0;
  for (std::size_t bytes : {sizeof(Crossing)...}) layout = layout * 1000003 + bytes;
  return BuildStamp{ridgeline_version(), layout};
}

/// Loads `file` (e.g. "libridgeline_simulator.so") from the executable's folder, and returns
/// what its entry point `symbol` returns (a structure whose first member is a BuildStamp), after
/// checking that its stamp is `expected`. Throws std::runtime_error when the library cannot be
/// loaded, lacks the entry point or is of another build.
const BuildStamp& build_library_entry(const std::string& file, const char* symbol,
                                      const BuildStamp& expected);

/// build_library_entry() for `Abi`, a standard-layout structure whose first member is its stamp
/// and which names its library (Abi::kFile), its entry point (Abi::kEntry) and this build's stamp
/// (Abi::this_build()).
template <typename Abi>
const Abi& build_library_abi() {
  static_assert(std::is_standard_layout_v<Abi>, "its stamp is read before its type is known");
  return reinterpret_cast<const Abi&>(
      build_library_entry(Abi::kFile, Abi::kEntry, Abi::this_build()));
}

}  // namespace ridgeline
