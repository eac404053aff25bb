#include "sim/util/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "sim/util/config_error.hpp"

namespace ridgeline {

namespace {

[[noreturn]] void cannot_write(const std::string& path, const std::string& reason) {
  throw ConfigError(SourceLocation{path, 0, 0}, "", "", "cannot write the file: " + reason,
                    "check the directory exists and is writable");
}

}  // namespace

void create_output_file(const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) cannot_write(path, std::strerror(errno));
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  // The temporary file is this process's own: two runs writing the same report (two tests, two
  // shells) each rename a whole file into place, and the last one stays, instead of one renaming
  // the other's half-written file or failing to find its own.
  const std::string temporary = path + ".partial." + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file << contents;
    file.flush();
    if (!file) {
      const std::string reason = std::strerror(errno);
      std::remove(temporary.c_str());
      cannot_write(path, reason);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    cannot_write(path, reason);
  }
}

}  // namespace ridgeline
