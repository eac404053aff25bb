#include "fuzz/harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "sim/report/report.hpp"
#include "sim/run/run_limits.hpp"

namespace ridgeline::fuzz {

namespace {

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

std::vector<std::string_view> sections_of(std::string_view input) {
  std::vector<std::string_view> sections;
  for (std::size_t start = 0;;) {
    const std::size_t marker = input.find("\n%%\n", start);
    if (marker == std::string_view::npos) {
      sections.push_back(input.substr(start));
      return sections;
    }
    sections.push_back(input.substr(start, marker + 1 - start));
    start = marker + 4;
  }
}

std::vector<std::string> lines_of(std::string_view section) {
  std::vector<std::string> lines;
  while (!section.empty()) {
    const std::size_t end = std::min(section.find('\n'), section.size());
    if (end > 0) lines.emplace_back(section.substr(0, end));
    section.remove_prefix(std::min(end + 1, section.size()));
  }
  return lines;
}

std::string scratch_path(const std::string& name) {
  static const std::string directory = [] {
    char path[] = "/tmp/ridgeline-fuzz-XXXXXX";
    if (mkdtemp(path) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    return std::string(path);
  }();
  return directory + "/" + name;
}

void write_file(const std::string& path, std::string_view contents) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
}

void fail(const char* what, const std::string& message) {
  std::fprintf(stderr, "fuzz target: %s:\n%s\n", what, message.c_str());
  std::abort();
}

void check_error(const ConfigError& error, const std::vector<std::string>& files) {
  const std::string message = error.what();
  if (message.find('\n') != std::string::npos) fail("message of more than one line", message);
  const bool positioned = message.rfind("--set ", 0) == 0 ||
                          std::any_of(files.begin(), files.end(), [&](const std::string& file) {
                            return starts_with_position(message, file);
                          });
  if (!positioned) fail("message without file:line:column or --set argument", message);
}

void check_loaded(const RunConfig& config) {
  const Json report = report_json(config, nullptr);
  if (report_csv(report).empty() || report_text(config, nullptr).empty())
    fail("empty report", report.dump());
  if (steps_per_block(config.workload) <= kMaxStepsToBuild) check_simulated_time_fits(config);
}

}  // namespace ridgeline::fuzz
