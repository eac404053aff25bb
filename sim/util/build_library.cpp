#include "sim/util/build_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "sim/util/child_process.hpp"

namespace ridgeline {

const BuildStamp& build_library_entry(const std::string& file, const char* symbol,
                                      const BuildStamp& expected) {
  const std::string executable = self_executable();
  const std::string path = executable.substr(0, executable.rfind('/') + 1) + file;
  // RTLD_NOW: a symbol missing from it fails here, not in the middle of a run. Loaded again, it
  // is the same handle: dlopen counts, and nothing closes it.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    throw std::runtime_error(
        fmt::format("cannot load a library of Ridgeline: {} (it is built beside the executable: "
                    "scripts/build.sh)",
                    dlerror()));
  }
  using Entry = const BuildStamp* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(library, symbol));
  if (!entry) throw std::runtime_error(fmt::format("{} lacks {}: {}", path, symbol, dlerror()));
  const BuildStamp& stamp = *entry();
  if (std::strcmp(stamp.version, expected.version) != 0 || stamp.layout != expected.layout) {
    throw std::runtime_error(fmt::format(
        "{} is of another build than the executable (version {}, the executable's {}): rebuild "
        "both (scripts/build.sh)",
        path, stamp.version, expected.version));
  }
  return stamp;
}

}  // namespace ridgeline
