// libFuzzer target for the configuration loader: a hardware file, a workload file and --set
// arguments, as ridgeline reads them.
//
// Input: sections separated by lines holding only "%%": the hardware YAML, the workload YAML, then
// one --set argument per line. Whatever the bytes, loading must either succeed or throw a
// ConfigError whose message is one line starting with where the problem is: "FILE:LINE:COLUMN: "
// or "--set ARGUMENT: ". Anything else (another exception, a crash, a sanitizer report, a message
// without position) stops the fuzzer with the input that caused it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/harness.hpp"
#include "models/sc_main_stub.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ridgeline;
  const std::vector<std::string_view> sections =
      fuzz::sections_of(std::string_view(reinterpret_cast<const char*>(data), size));
  const std::string hardware = fuzz::scratch_path("hardware.yaml");
  const std::string workload = fuzz::scratch_path("workload.yaml");
  fuzz::write_file(hardware, sections[0]);
  fuzz::write_file(workload, sections.size() > 1 ? sections[1] : std::string_view());
  std::vector<std::string> overrides;
  for (std::size_t s = 2; s < sections.size(); ++s) {
    for (std::string& line : fuzz::lines_of(sections[s])) overrides.push_back(std::move(line));
  }
  try {
    fuzz::check_loaded(load_config(hardware, workload, overrides));
  } catch (const ConfigError& error) {
    fuzz::check_error(error, {hardware, workload});
  }
  return 0;
}
