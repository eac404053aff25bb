// One run's configuration: a hardware file, a workload file and --set overrides, read, checked
// against each other (data type supported, one block fits a core) and analysed.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/hardware.hpp"
#include "sim/config/power_limit.hpp"
#include "sim/util/config_error.hpp"
#include "workloads/analysis.hpp"
#include "workloads/violation.hpp"
#include "workloads/workload.hpp"

namespace ridgeline {

class ConfigNode;

struct RunConfig {
  std::string hardware_path;
  std::string workload_path;
  std::vector<std::string> overrides;  ///< "key.path=value", in command-line order
  SourceLocation workload_location;    ///< the workload's position, for rules on the whole run
  HardwareParams hardware;
  WorkloadSpec workload;
  Analysis analysis;    ///< the seed note's model for this workload on this hardware
  Occupancy occupancy;  ///< blocks per core and what limits it
  /// With hardware.power_limit: the clock solved for this workload (hardware.core_clock is set
  /// to it, and `analysis` is at it) and the figures at the nominal clock.
  std::optional<PowerLimitSolution> power_limit;
  /// What the reader found that loads but should be known (keys ignored where they are, a DRAM
  /// below its bandwidth): hardware's first, then the workload's, each once. The commands print
  /// them on stderr before they run; the JSON report records them (config.warnings).
  std::vector<ConfigWarning> warnings;
  /// The workload's input tensors (by the kind's own names: "A", "x") that are in the L2 when
  /// the run starts, as a kernel before it left them (a graph's, or `run --l2-resident`): read,
  /// so each partition near a core holds a copy where there is room.
  std::vector<std::string> l2_resident;
  /// The same for tensors a kernel before it wrote and none has read since (a graph's, or
  /// `run --l2-written`): at home only, as stores leave them.
  std::vector<std::string> l2_written;
};

/// A configuration document: a file, or its text given in the file's place (a YAML string from
/// Python), which messages and the report then name by `path`.
struct ConfigInput {
  std::string path;                 ///< the file, or the name the text goes by ("<workload>")
  std::optional<std::string> text;  ///< the document; none: read the file at `path`
};

/// The document `input` holds (its file, or its text), rooted at `root`, with the overrides.
/// Throws ConfigError.
ConfigNode load_input(const ConfigInput& input, std::string_view root,
                      const std::vector<std::string>& overrides);
/// Appends the warnings `hardware` and `workload` recorded to `warnings`: hardware's first.
void append_warnings(const ConfigNode& hardware, const ConfigNode& workload,
                     std::vector<ConfigWarning>& warnings);

/// Reads both files, applies the overrides, checks every rule and collects the warnings. Throws
/// ConfigError.
RunConfig load_config(const std::string& hardware_path, const std::string& workload_path,
                      const std::vector<std::string>& overrides);
/// The same for documents that may be given as text.
RunConfig load_config(const ConfigInput& hardware, const ConfigInput& workload,
                      const std::vector<std::string>& overrides);

/// Every override's key path starts with `hardware.` or `workload.` (throws ConfigError).
void check_override_roots(const std::vector<std::string>& overrides);

/// Sets config.l2_resident (`left_by` reads: `run --l2-resident`) or config.l2_written (writes:
/// `run --l2-written`) to `names`, the workload's input tensors that a kernel before it left in
/// the L2; throws ConfigError for a name that is no input of the workload or is in the other
/// list already, or a machine without an L2.
void set_l2_resident(RunConfig& config, const std::vector<std::string>& names,
                     L2CacheTiming::LeftBy left_by = L2CacheTiming::LeftBy::reads);

// The steps of load_config on typed values, for callers that set values without YAML (sweeps).
// Each rule returns what it finds broken; load_config reports it at the key's position.

/// The machine lists a throughput for the workload's data type (a workload replayed by trace
/// players has no FLOPs: it needs none).
std::optional<Violation> check_data_type(const HardwareParams& hardware,
                                         const WorkloadSpec& workload);
/// The analytical model of the workload on the machine (check_rules and check_data_type hold).
Analysis analyze_on(const HardwareParams& hardware, const WorkloadSpec& workload);
/// Threads per block, warps per block and registers per thread within the cores' limits (a
/// register spill is allowed where the GEMM says `spill: local`).
std::optional<Violation> check_threads(const HardwareParams& hardware, const WorkloadSpec& workload,
                                       const Footprint& footprint);
/// One block's SRAM buffers and registers fit a core.
std::optional<Violation> check_fits(const HardwareParams& hardware, const WorkloadSpec& workload,
                                    const Footprint& footprint);
/// Blocks per core and what limits them.
Occupancy occupancy_on(const HardwareParams& hardware, const Footprint& footprint);

/// The steps of load_config after the documents are read, in its order, on `config`'s typed
/// hardware and workload (whose check_rules holds): the workload's input files (throws
/// ConfigError; `workload_document` is asked for the workload document only by kinds that read
/// files), the data type, the analysis, threads, fit and occupancy. Returns the first rule broken,
/// for the caller to report at its key, or fills config.analysis and config.occupancy.
std::optional<Violation> check_and_analyze(RunConfig& config,
                                           const std::function<ConfigNode()>& workload_document);

}  // namespace ridgeline
