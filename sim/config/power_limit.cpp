#include "sim/config/power_limit.hpp"

#include <fmt/format.h>

#include "sim/config/analytical_energy.hpp"
#include "sim/config/run_config.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMHz = 1'000'000;

double watts(std::uint64_t microwatts) { return static_cast<double>(microwatts) / 1e6; }

// The analytical model of the kernel at clock `hz`: its time, and its average power.
struct AtClock {
  double time_s = 0;
  double power_w = 0;
};

AtClock analytical_at(const HardwareParams& nominal, const WorkloadSpec& workload,
                      const Analysis& a, const EnergyCounts& counts, std::uint64_t hz) {
  HardwareParams hw = nominal;
  hw.core_clock = Clock(hz);
  const double time_s = analytical_time_s(hw, workload, a);
  return {time_s,
          average_power_w(*nominal.energy, nominal.core_clock.frequency_hz, hz, counts, time_s)};
}

}  // namespace

double average_power_w(const EnergyParams& nominal, std::uint64_t nominal_hz, std::uint64_t hz,
                       EnergyCounts counts, double time_s) {
  if (time_s <= 0) return 0;
  counts.time = time_of_seconds(time_s);
  return energy_of(nominal.at_clock(hz, nominal_hz), counts).total_j() / time_s;
}

std::optional<std::uint64_t> highest_clock_within(
    double limit_w, std::uint64_t nominal_hz,
    const std::function<double(std::uint64_t hz)>& power_w) {
  if (power_w(nominal_hz) <= limit_w) return nominal_hz;
  // P rises with the clock: bisection over whole MHz below the nominal clock.
  std::uint64_t low = 1, high = (nominal_hz - 1) / kMHz;
  if (high < low || power_w(low * kMHz) > limit_w) return std::nullopt;
  while (low < high) {
    const std::uint64_t middle = low + (high - low + 1) / 2;
    if (power_w(middle * kMHz) <= limit_w) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low * kMHz;
}

void set_power_limit_clock(RunConfig& config, std::uint64_t hz) {
  PowerLimitSolution& solution = *config.power_limit;
  HardwareParams nominal = config.hardware;
  nominal.core_clock = Clock(solution.nominal_clock_hz);
  const EnergyCounts counts = analytical_energy_counts(nominal, config.workload, config.analysis);
  const AtClock at = analytical_at(nominal, config.workload, config.analysis, counts, hz);
  solution.clock_hz = hz;
  solution.time_s = at.time_s;
  solution.power_w = at.power_w;
  config.hardware.core_clock = Clock(hz);
  config.analysis = analyze_on(config.hardware, config.workload);
}

std::optional<Violation> apply_power_limit(RunConfig& config) {
  const HardwareParams& hw = config.hardware;
  if (hw.power_limit_uw == 0 || !hw.energy) return std::nullopt;
  const double limit_w = watts(hw.power_limit_uw);
  const std::uint64_t nominal_hz = hw.core_clock.frequency_hz;
  // The counts do not depend on the clock; only the time and the energy per action do.
  const EnergyCounts counts = analytical_energy_counts(hw, config.workload, config.analysis);
  const auto at = [&](std::uint64_t hz) {
    return analytical_at(hw, config.workload, config.analysis, counts, hz);
  };
  const AtClock nominal = at(nominal_hz);
  const std::optional<std::uint64_t> clock =
      highest_clock_within(limit_w, nominal_hz, [&](std::uint64_t hz) { return at(hz).power_w; });
  if (!clock) {
    return Violation{
        "hardware.power_limit",
        fmt::format("no clock of at least 1 MHz meets it: at 1 MHz the kernel's analytical "
                    "average power is {}, above the limit of {} (the static power is {})",
                    engineering(at(kMHz).power_w, "W"), engineering(limit_w, "W"),
                    engineering(watts(hw.energy->static_power_uw), "W")),
        "raise the limit"};
  }
  PowerLimitSolution solution;
  solution.limit_w = limit_w;
  solution.nominal_clock_hz = solution.clock_hz = solution.analytical_clock_hz = nominal_hz;
  solution.nominal_time_s = solution.time_s = nominal.time_s;
  solution.nominal_power_w = solution.power_w = nominal.power_w;
  config.power_limit = solution;
  if (*clock != nominal_hz) set_power_limit_clock(config, *clock);
  config.power_limit->analytical_clock_hz = *clock;
  return std::nullopt;
}

std::optional<EnergyParams> energy_in_effect(const RunConfig& config) {
  const HardwareParams& hw = config.hardware;
  if (!hw.energy) return std::nullopt;
  const std::uint64_t nominal =
      config.power_limit ? config.power_limit->nominal_clock_hz : hw.core_clock.frequency_hz;
  return hw.energy->at_clock(hw.core_clock.frequency_hz, nominal);
}

std::optional<KernelEnergy> analytical_energy(const RunConfig& config) {
  const std::optional<EnergyParams> energy = energy_in_effect(config);
  if (!energy) return std::nullopt;
  KernelEnergy kernel;
  kernel.counts = analytical_energy_counts(config.hardware, config.workload, config.analysis);
  kernel.counts.time =
      time_of_seconds(analytical_time_s(config.hardware, config.workload, config.analysis));
  kernel.breakdown = energy_of(*energy, kernel.counts);
  return kernel;
}

}  // namespace ridgeline
