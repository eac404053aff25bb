#include "sim/report/energy_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "sim/report/energy_fields.hpp"
#include "sim/report/json_fields.hpp"
#include "sim/util/text_format.hpp"
#include "workloads/wording.hpp"

namespace ridgeline {

namespace {

Json kernel_energy_json(const KernelEnergy& energy, std::uint64_t useful_flops) {
  Json json = Json::object();
  JsonFields fields(json);
  visit_kernel_energy(energy, useful_flops, fields);
  return json;
}

// How the text names a component, and the letter of its part of the bar.
struct ComponentText {
  const char* name;
  char letter;
};

ComponentText text_of(EnergyComponent component) {
  switch (component) {
    case EnergyComponent::flops:
      return {"FLOPs", 'F'};
    case EnergyComponent::registers:
      return {"registers", 'R'};
    case EnergyComponent::sram:
      return {"SRAM", 'M'};
    case EnergyComponent::l2:
      return {"L2", 'L'};
    case EnergyComponent::network:
      return {"network", 'N'};
    case EnergyComponent::hbm_activations:
      return {"HBM activations", 'A'};
    case EnergyComponent::hbm_transfers:
      return {"HBM transfers", 'H'};
    case EnergyComponent::static_power:
      return {"static", 'S'};
  }
  return {"?", '?'};
}

// `width` characters shared out by `shares` (adding up to one), by largest remainder, so that the
// bar is always `width` long and a share's characters are within one of share x width.
std::vector<std::size_t> character_widths(const std::vector<double>& shares, std::size_t width) {
  std::vector<std::size_t> widths(shares.size());
  std::vector<double> remainders(shares.size());
  std::size_t used = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const double exact = std::max(0.0, shares[i]) * static_cast<double>(width);
    widths[i] = static_cast<std::size_t>(std::floor(exact));
    remainders[i] = exact - std::floor(exact);
    used += widths[i];
  }
  std::vector<std::size_t> order(shares.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  for (std::size_t i = 0; used < width && i < order.size(); ++i, ++used) ++widths[order[i]];
  return widths;
}

// "[FFFFRRMM...]" and its legend: where the joules of `energy` went.
std::string bar_text(const EnergyBreakdown& energy) {
  constexpr std::size_t kWidth = 60;
  const double total = energy.total_j();
  std::vector<EnergyComponent> shown;
  std::vector<double> shares;
  for (EnergyComponent component : kAllEnergyComponents) {
    if (component == EnergyComponent::l2 && !energy.has_l2) continue;
    shown.push_back(component);
    shares.push_back(total > 0 ? energy.joules(component) / total : 0);
  }
  const std::vector<std::size_t> widths = character_widths(shares, kWidth);
  std::string bar, legend;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const ComponentText text = text_of(shown[i]);
    bar += std::string(widths[i], text.letter);
    legend += fmt::format("{}{} {} {}", legend.empty() ? "" : ", ", text.letter, text.name,
                          percent(shares[i]));
  }
  return fmt::format("    [{}]\n    {}\n", bar, legend);
}

std::string activations_text(const EnergyCounts& counts, const HardwareParams& hw) {
  if (counts.activations_counted) {
    return fmt::format("{} counted by the DRAM model", with_commas(counts.hbm_activations));
  }
  return fmt::format(
      "{} by the row rule: one per {} of HBM bytes (a stream's; scattered access "
      "opens more)",
      with_commas(counts.hbm_activations), format_bytes(hw.energy ? hw.energy->hbm.row_bytes : 0));
}

std::string power_limit_text(const RunConfig& config, const RunFigures* figures) {
  const PowerLimitSolution& p = *config.power_limit;
  const auto hz = [](std::uint64_t clock) { return engineering(static_cast<double>(clock), "Hz"); };
  std::string out = fmt::format(
      "  power limit {}: at the nominal {} the analytical model draws {} on average; ",
      engineering(p.limit_w, "W"), hz(p.nominal_clock_hz), engineering(p.nominal_power_w, "W"));
  if (p.analytical_clock_hz == p.nominal_clock_hz) {
    out += "its clock stays";
  } else {
    out += fmt::format("it runs at {}, the highest whole MHz within the limit",
                       hz(p.analytical_clock_hz));
  }
  if (!p.trials.empty()) {
    std::string trials;
    for (const PowerLimitSolution::Trial& t : p.trials) {
      trials += fmt::format("\n      at {}: {}, {}", hz(t.clock_hz), duration(t.time_s),
                            engineering(t.power_w, "W"));
    }
    out += fmt::format(
        ";\n    runs of the kernel at trial clocks, each costed from what it counted, settled the "
        "clock at {}:{}",
        hz(p.clock_hz), trials);
  }
  out += fmt::format("\n    the analytical time at {}: {}, against {} at the nominal clock (+{})\n",
                     hz(p.clock_hz), duration(p.time_s), duration(p.nominal_time_s),
                     percent(p.nominal_time_s > 0 ? p.time_s / p.nominal_time_s - 1 : 0));
  if (figures && figures->energy) {
    const double power = figures->energy->breakdown.total_j() / figures->time_s;
    out += fmt::format(
        "    the run drew {} on average: {}\n", engineering(power, "W"),
        power <= p.limit_w
            ? std::string("within the limit")
            : fmt::format("{} above the limit ({})", engineering(power - p.limit_w, "W"),
                          !p.trials.empty()
                              ? "no trial run within it was found"
                              : "the clock was solved from the analytical model alone"));
  }
  return out;
}

}  // namespace

void add_hardware_energy(Json& hardware, const RunConfig& config) {
  JsonFields fields(hardware);
  visit_hardware_energy(config.hardware, fields);
}

void add_analytical_energy(Json& analytical, const RunConfig& config) {
  if (const std::optional<KernelEnergy> energy = analytical_energy(config)) {
    Json json = kernel_energy_json(*energy, config.analysis.flops);
    JsonFields fields(json);
    visit_energy_roofline(config.hardware, *energy_in_effect(config), compute_type(config.workload),
                          fields);
    analytical["energy"] = std::move(json);
  }
  if (config.power_limit) {
    Json limit = Json::object();
    JsonFields fields(limit);
    visit_power_limit(*config.power_limit, fields);
    analytical["power_limit"] = std::move(limit);
  }
}

void add_simulated_energy(Json& simulated, const RunConfig& config, const RunFigures& figures) {
  if (!figures.energy) return;
  Json energy = kernel_energy_json(*figures.energy, figures.flops);
  if (config.power_limit) {
    energy["power_limit_margin_w"] =
        config.power_limit->limit_w - energy["average_power_w"].get<double>();
    Json trials = Json::array();
    for (const PowerLimitSolution::Trial& trial : config.power_limit->trials) {
      trials.push_back(Json{{"clock_hz", trial.clock_hz},
                            {"time_s", trial.time_s},
                            {"average_power_w", trial.power_w}});
    }
    energy["power_limit_trials"] = std::move(trials);
  }
  simulated["energy"] = std::move(energy);
}

std::string energy_text(const RunConfig& config, const RunFigures* figures) {
  const std::optional<KernelEnergy> analytical = analytical_energy(config);
  if (!analytical) return {};
  const KernelEnergy* simulated = figures && figures->energy ? &*figures->energy : nullptr;
  std::string out = fmt::format(
      "\n  energy (hardware.energy; analytical: the model's counts over its time bound {}{})\n",
      duration(analytical->counts.time.seconds()),
      simulated ? "; simulated: the run's counts over its time" : "");
  const char* row = "    {:<24}{:>18}{:>18}{:>10}\n";
  out += fmt::format(row, "component", "analytical", simulated ? "simulated" : "",
                     simulated ? "share" : "");
  const EnergyBreakdown& a = analytical->breakdown;
  const auto joules = [](double j) { return engineering(j, "J"); };
  for (EnergyComponent component : kAllEnergyComponents) {
    if (component == EnergyComponent::l2 && !a.has_l2) continue;
    std::string name = text_of(component).name;
    if (component == EnergyComponent::flops)
      name += fmt::format(" ({})", name_of(analytical->counts.flop_type));
    out += fmt::format(
        row, name, joules(a.joules(component)),
        simulated ? joules(simulated->breakdown.joules(component)) : "",
        simulated ? percent(simulated->breakdown.joules(component) / simulated->breakdown.total_j())
                  : "");
  }
  const auto power = [](const KernelEnergy& e) {
    const double time = e.counts.time.seconds();
    return time > 0 ? e.breakdown.total_j() / time : 0;
  };
  out += fmt::format(row, "total", joules(a.total_j()),
                     simulated ? joules(simulated->breakdown.total_j()) : "", "");
  out += fmt::format(row, "average power", engineering(power(*analytical), "W"),
                     simulated ? engineering(power(*simulated), "W") : "", "");
  const auto flop_per_j = [](std::uint64_t flops, const KernelEnergy& e) {
    return engineering(static_cast<double>(flops) / e.breakdown.total_j(), "FLOP/J");
  };
  out += fmt::format(row, "FLOP per joule", flop_per_j(config.analysis.flops, *analytical),
                     simulated ? flop_per_j(figures->flops, *simulated) : "", "");
  const auto edp = [](const KernelEnergy& e) {
    return fmt::format("{:.6g} J s", e.breakdown.total_j() * e.counts.time.seconds());
  };
  out += fmt::format(row, "energy-delay product", edp(*analytical),
                     simulated ? edp(*simulated) : "", "");
  const KernelEnergy& shown = simulated ? *simulated : *analytical;
  out += fmt::format("  where the joules went ({}):\n", simulated ? "simulated" : "analytical");
  out += bar_text(shown.breakdown);
  out += fmt::format("  HBM activations: analytical {}",
                     activations_text(analytical->counts, config.hardware));
  if (simulated) out += "; simulated " + activations_text(simulated->counts, config.hardware);
  out += '\n';
  if (config.power_limit) out += power_limit_text(config, figures);
  return out;
}

}  // namespace ridgeline
