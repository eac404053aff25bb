// libFuzzer target for the configuration loader: a hardware file, a workload file and --set
// arguments, as ridgeline reads them.
//
// Input: sections separated by lines holding only "%%": the hardware YAML, the workload YAML, then
// one --set argument per line. Whatever the bytes, loading must either succeed or throw a
// ConfigError whose message is one line starting with where the problem is: "FILE:LINE:COLUMN: "
// or "--set ARGUMENT: ". Anything else (another exception, a crash, a sanitizer report, a message
// without position) stops the fuzzer with the input that caused it.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "models/sc_main_stub.hpp"
#include "sim/config.hpp"
#include "sim/config_error.hpp"
#include "sim/report.hpp"
#include "sim/run_limits.hpp"

namespace {

using namespace ridgeline;

// Where the two files go: one directory per process, made once.
const std::string& scratch_directory() {
  static const std::string directory = [] {
    char name[] = "/tmp/ridgeline-fuzz-XXXXXX";
    if (mkdtemp(name) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    return std::string(name);
  }();
  return directory;
}

void write(const std::string& path, std::string_view contents) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
}

[[noreturn]] void fail(const char* what, const std::string& message) {
  std::fprintf(stderr, "config fuzz target: %s:\n%s\n", what, message.c_str());
  std::abort();
}

// "PATH:LINE:COLUMN: " with LINE and COLUMN >= 1.
bool starts_with_position(const std::string& message, const std::string& path) {
  if (message.rfind(path + ":", 0) != 0) return false;
  std::size_t i = path.size() + 1;
  for (int field = 0; field < 2; ++field) {
    const std::size_t digits = i;
    while (i < message.size() && message[i] >= '0' && message[i] <= '9') ++i;
    if (i == digits || message[digits] == '0' || i >= message.size() || message[i] != ':')
      return false;
    ++i;
  }
  return message.compare(i, 1, " ") == 0;
}

// Block programs up to this many steps are built, to check the simulated-time bound too; larger
// ones are legal but cost milliseconds each, which would slow the fuzzer down for nothing new.
constexpr std::uint64_t kMaxStepsToBuild = 4096;

// Steps of a block's program; a trace has none (its bound needs no kernel).
std::uint64_t steps_per_block(const WorkloadSpec& spec) {
  if (const auto* g = std::get_if<GemmSpec>(&spec)) return g->k / g->tile.k;
  if (const auto* v = std::get_if<VectorAddSpec>(&spec))
    return (v->block_elements + v->chunk_elements - 1) / v->chunk_elements;
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> sections;
  for (std::size_t start = 0;;) {
    const std::size_t marker = input.find("\n%%\n", start);
    if (marker == std::string_view::npos) {
      sections.push_back(input.substr(start));
      break;
    }
    sections.push_back(input.substr(start, marker + 1 - start));
    start = marker + 4;
  }
  const std::string hardware = scratch_directory() + "/hardware.yaml";
  const std::string workload = scratch_directory() + "/workload.yaml";
  write(hardware, sections[0]);
  write(workload, sections.size() > 1 ? sections[1] : std::string_view());
  std::vector<std::string> overrides;
  for (std::size_t s = 2; s < sections.size(); ++s) {
    std::string_view lines = sections[s];
    while (!lines.empty()) {
      const std::size_t end = std::min(lines.find('\n'), lines.size());
      if (end > 0) overrides.emplace_back(lines.substr(0, end));
      lines.remove_prefix(std::min(end + 1, lines.size()));
    }
  }

  try {
    const RunConfig config = load_config(hardware, workload, overrides);
    // What analyze prints and writes, from the same figures.
    const Json report = report_json(config, nullptr);
    if (report_csv(report).empty() || report_text(config, nullptr).empty())
      fail("empty report", report.dump());
    if (steps_per_block(config.workload) <= kMaxStepsToBuild) {
      // What run checks before it elaborates; a refusal is a ConfigError like any other.
      check_simulated_time_fits(config);
    }
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    if (message.find('\n') != std::string::npos) fail("message of more than one line", message);
    if (!starts_with_position(message, hardware) && !starts_with_position(message, workload) &&
        message.rfind("--set ", 0) != 0) {
      fail("message without file:line:column or --set argument", message);
    }
  }
  return 0;
}
