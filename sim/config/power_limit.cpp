#include "sim/config/power_limit.hpp"

#include <fmt/format.h>

#include "sim/config/analytical_energy.hpp"
#include "sim/config/run_config.hpp"
#include "sim/util/text_format.hpp"

namespace ridgeline {

namespace {

constexpr std::uint64_t kMHz = 1'000'000;

// The analytical model of the kernel at clock `hz`: its time and average power.
struct AtClock {
  double time_s = 0;
  double power_w = 0;
};

AtClock at_clock(const HardwareParams& nominal, const WorkloadSpec& workload, const Analysis& a,
                 const EnergyCounts& counts, std::uint64_t hz) {
  HardwareParams hw = nominal;
  hw.core_clock = Clock(hz);
  AtClock at;
  at.time_s = analytical_time_s(hw, workload, a);
  EnergyCounts timed = counts;
  timed.time = time_of_seconds(at.time_s);
  const EnergyBreakdown energy =
      energy_of(nominal.energy->at_clock(hz, nominal.core_clock.frequency_hz), timed);
  at.power_w = at.time_s > 0 ? energy.total_j() / at.time_s : 0;
  return at;
}

}  // namespace

std::optional<Violation> apply_power_limit(RunConfig& config) {
  HardwareParams& hw = config.hardware;
  if (hw.power_limit_uw == 0 || !hw.energy) return std::nullopt;
  const double limit_w = static_cast<double>(hw.power_limit_uw) / 1e6;
  const std::uint64_t nominal_hz = hw.core_clock.frequency_hz;
  // The counts do not depend on the clock; only the time and the energy per action do.
  const EnergyCounts counts = analytical_energy_counts(hw, config.workload, config.analysis);
  const AtClock nominal = at_clock(hw, config.workload, config.analysis, counts, nominal_hz);
  PowerLimitSolution solution{limit_w,         nominal_hz,     nominal_hz,     nominal.time_s,
                              nominal.power_w, nominal.time_s, nominal.power_w};
  if (nominal.power_w > limit_w) {
    const auto meets = [&](std::uint64_t mhz) {
      return at_clock(hw, config.workload, config.analysis, counts, mhz * kMHz).power_w <= limit_w;
    };
    // The highest whole MHz below the nominal clock that meets the limit: P rises with the clock.
    std::uint64_t low = 1, high = (nominal_hz - 1) / kMHz;  // meets(low) is to be shown
    if (high < low || !meets(low)) {
      return Violation{
          "hardware.power_limit",
          fmt::format(
              "no clock of at least 1 MHz meets it: at 1 MHz the kernel's analytical "
              "average power is {}, above the limit of {} (the static power is {})",
              engineering(at_clock(hw, config.workload, config.analysis, counts, kMHz).power_w,
                          "W"),
              engineering(limit_w, "W"),
              engineering(static_cast<double>(hw.energy->static_power_uw) / 1e6, "W")),
          "raise the limit"};
    }
    while (low < high) {
      const std::uint64_t middle = low + (high - low + 1) / 2;
      if (meets(middle)) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    const AtClock found = at_clock(hw, config.workload, config.analysis, counts, low * kMHz);
    solution.clock_hz = low * kMHz;
    solution.time_s = found.time_s;
    solution.power_w = found.power_w;
    hw.core_clock = Clock(solution.clock_hz);
    config.analysis = analyze_on(hw, config.workload);
  }
  config.power_limit = solution;
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
