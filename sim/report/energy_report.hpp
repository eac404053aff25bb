// The energy's side of a report: the hardware's energy per action and power limit, the
// analytical model's joules and the run's, by component, with average power, FLOP per joule and
// the energy-delay product, and what the power limit did to the clock. Every figure comes from
// the counts (sim/config/analytical_energy, sim/run/simulated_energy) through models/energy; the
// leaves are listed once in energy_fields.hpp.
#pragma once

#include <string>

#include "sim/config/run_config.hpp"
#include "sim/report/run_figures.hpp"
#include "sim/util/json.hpp"

namespace ridgeline {

/// Adds `energy` (and `power_limit_w`) to the report's `hardware` object, when given.
void add_hardware_energy(Json& hardware, const RunConfig& config);
/// Adds `energy` and, with a power limit, `power_limit` to the `analytical` object.
void add_analytical_energy(Json& analytical, const RunConfig& config);
/// Adds `energy` to the `simulated` object (and, with a power limit, how the run's average power
/// stands against it: `power_limit_margin_w`, the limit less that power).
void add_simulated_energy(Json& simulated, const RunConfig& config, const RunFigures& figures);

/// The text report's energy table (analytical beside simulated, by component), a bar of where
/// the joules went, and the power limit's line; empty without hardware.energy.
std::string energy_text(const RunConfig& config, const RunFigures* figures);

}  // namespace ridgeline
