#include "sim/commands/power_limit_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/analytical_energy.hpp"
#include "sim/util/child_process.hpp"
#include "sim/util/internal_error.hpp"
#include "sim/util/json.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMHz = 1'000'000;

EnergyCounts counts_of(const Json& energy) {
  const Json& c = energy["counts"];
  const auto count = [&](const char* key) { return c.value(key, std::uint64_t{0}); };
  EnergyCounts counts;
  counts.flop_type =
      data_type_named(energy["flop_data_type"].get<std::string>()).value_or(DataType::fp32);
  counts.flops = count("flops");
  counts.register_read_bytes = count("register_read_bytes");
  counts.register_write_bytes = count("register_write_bytes");
  counts.sram_read_bytes = count("sram_read_bytes");
  counts.sram_write_bytes = count("sram_write_bytes");
  counts.l2_read_bytes = count("l2_read_bytes");
  counts.l2_write_bytes = count("l2_write_bytes");
  counts.network_read_bytes = count("network_read_bytes");
  counts.network_write_bytes = count("network_write_bytes");
  counts.hbm_read_bytes = count("hbm_read_bytes");
  counts.hbm_write_bytes = count("hbm_write_bytes");
  counts.hbm_activations = count("hbm_activations");
  counts.activations_counted = c["hbm_activations_from"].get<std::string>() == "dram_model";
  return counts;
}

// The run's own lower bound on its time at core clock `hz`: what slows with the clock (the
// FLOPs at P, the SRAM's bytes over its ports) against what does not (HBM's and the L2's bytes
// over their bandwidths).
double bound_s(const HardwareParams& nominal, const EnergyCounts& c, std::uint64_t hz) {
  HardwareParams hw = nominal;
  hw.core_clock = Clock(hz);
  const double peak = hw.peak_flop_per_s(c.flop_type);
  double time = peak > 0 ? static_cast<double>(c.flops) / peak : 0;
  if (const std::uint64_t sram = c.sram_read_bytes + c.sram_write_bytes; sram > 0) {
    time = std::max(time, static_cast<double>(sram) /
                              hw.sram_bytes_per_s(c.sram_read_bytes, c.sram_write_bytes));
  }
  time = std::max(time,
                  static_cast<double>(c.hbm_read_bytes + c.hbm_write_bytes) / hw.hbm_bytes_per_s());
  if (hw.l2) {
    time = std::max(time, static_cast<double>(c.l2_read_bytes + c.l2_write_bytes) /
                              static_cast<double>(hw.l2->bandwidth.bytes_per_second));
  }
  return time;
}

// `ridgeline run` of `config`'s files at core clock `hz`, without the power limit: its counts.
PowerLimitTrialRun run_at(const RunConfig& config, std::uint64_t hz, const std::string& folder,
                          unsigned index) {
  const std::string json = fmt::format("{}/trial-{}.json", folder, index);
  std::vector<std::string> overrides = config.overrides;
  overrides.push_back(fmt::format("hardware.clock={}Hz", hz));
  overrides.push_back("hardware.power_limit=null");
  const std::vector<std::string> arguments =
      run_arguments(config.hardware_path, config.workload_path, overrides, json, config.l2_resident,
                    config.l2_written);
  const ChildResult result = run_children(self_executable(), {arguments}, 1)[0];
  if (!result.ok()) {
    throw InternalError(
        fmt::format("the run at {} Hz that checks the power limit's clock "
                    "failed: {}",
                    hz, result.failure()));
  }
  return trial_of_report(read_json_file(json), hz);
}

}  // namespace

PowerLimitTrialRun trial_of_report(const Json& report, std::uint64_t clock_hz) {
  const Json& energy = report["simulated"]["energy"];
  PowerLimitTrialRun trial;
  trial.clock_hz = clock_hz;
  trial.counts = counts_of(energy);
  trial.time_s = energy["time_s"].get<double>();
  return trial;
}

bool settle_power_limit(RunConfig& config, const PowerLimitTrialRun& first) {
  if (!config.power_limit) return true;
  PowerLimitSolution& solution = *config.power_limit;
  HardwareParams nominal = config.hardware;
  nominal.core_clock = Clock(solution.nominal_clock_hz);
  const EnergyParams& energy = *nominal.energy;
  const std::string folder = make_temporary_directory("ridgeline-power-limit");
  std::uint64_t clock = solution.clock_hz;
  std::uint64_t best_within = 0;                                           // the highest run within
  std::uint64_t lowest_above = std::numeric_limits<std::uint64_t>::max();  // and above the limit
  std::vector<PowerLimitSolution::Trial> trials;
  try {
    while (trials.size() < kPowerLimitTrialRuns) {
      const PowerLimitTrialRun trial =
          trials.empty() ? first
                         : run_at(config, clock, folder, static_cast<unsigned>(trials.size()));
      const double power_w =
          average_power_w(energy, solution.nominal_clock_hz, clock, trial.counts, trial.time_s);
      trials.push_back({clock, trial.time_s, power_w});
      if (power_w <= solution.limit_w) {
        best_within = std::max(best_within, clock);
      } else {
        lowest_above = std::min(lowest_above, clock);
      }
      // The run's time at another clock: its own bound's, in the proportion it took to it.
      const double slack = trial.time_s / bound_s(nominal, trial.counts, clock);
      const std::optional<std::uint64_t> solved =
          highest_clock_within(solution.limit_w, solution.nominal_clock_hz, [&](std::uint64_t hz) {
            return average_power_w(energy, solution.nominal_clock_hz, hz, trial.counts,
                                   slack * bound_s(nominal, trial.counts, hz));
          });
      // Between what is known to be within and what is known to be above.
      std::uint64_t next = solved.value_or(kMHz);
      if (next >= lowest_above) next = (lowest_above - 1) / kMHz * kMHz;
      next = std::max(next, best_within);
      if (next == clock || next == best_within) break;
      clock = next;
    }
  } catch (...) {
    std::filesystem::remove_all(folder);
    throw;
  }
  std::filesystem::remove_all(folder);
  const std::uint64_t settled = best_within != 0 ? best_within : clock;
  set_power_limit_clock(config, settled);
  config.power_limit->trials = std::move(trials);
  return settled == first.clock_hz;
}

std::string save_settled_power_limit(const RunConfig& config) {
  const PowerLimitSolution& solution = *config.power_limit;
  Json trials = Json::array();
  for (const PowerLimitSolution::Trial& trial : solution.trials) {
    trials.push_back(
        {{"clock_hz", trial.clock_hz}, {"time_s", trial.time_s}, {"power_w", trial.power_w}});
  }
  const std::string path =
      make_temporary_directory("ridgeline-power-limit") + "/settled-power-limit.json";
  std::ofstream file(path);
  file << Json{{"clock_hz", solution.clock_hz}, {"trials", trials}}.dump();
  if (!file.flush()) throw InternalError("cannot write the power limit's clock to " + path);
  return path;
}

void resume_settled_power_limit(RunConfig& config, const std::string& path) {
  if (!config.power_limit) {
    throw InternalError("a settled power limit was handed to a run without one: " + path);
  }
  const Json settled = read_json_file(path);
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
  set_power_limit_clock(config, settled["clock_hz"].get<std::uint64_t>());
  std::vector<PowerLimitSolution::Trial> trials;
  for (const Json& trial : settled["trials"]) {
    trials.push_back({trial["clock_hz"].get<std::uint64_t>(), trial["time_s"].get<double>(),
                      trial["power_w"].get<double>()});
  }
  config.power_limit->trials = std::move(trials);
}

}  // namespace ridgeline
