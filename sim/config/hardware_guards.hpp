// Checks between figures of one hardware file that no key's own rule can see (docs/CONFIG.md,
// "Stated figures" and "Warnings"):
// - the stated figures: what a preset's datasheet says (a peak at its clock, the HBM's pins and
//   pin rate, the L2's sets), which the model does not use, against the figures it simulates.
//   A disagreement beyond kStatedTolerance is refused, naming both numbers;
// - the detailed DRAM's column rate against hbm.bandwidth: a DRAM whose bursts cannot come as
//   fast as the bandwidth asks is named in a warning (the run still models it as given).
#pragma once

#include <optional>

#include "models/hardware.hpp"
#include "sim/config/config_node.hpp"

namespace ridgeline {

/// How far apart a simulated figure and the one stated may lie, as a fraction of the stated one
/// (and the DRAM's column rate below hbm.bandwidth). Datasheets print 3 or 4 significant digits
/// (19.5, 989.4 TFLOP/s, 3.35 TB/s): their rounding alone moves a figure by up to 0.26 % (19.45
/// printed as 19.5); a timing rounded to its printed digits (a burst of 833.3 ps written 833ps)
/// moves less.
inline constexpr double kStatedTolerance = 0.005;

/// The stated figures of a hardware document, asked for where their maps are read (so that
/// those maps know the keys) and checked once the whole machine is known.
struct StatedFigures {
  std::optional<ConfigNode> peak;       ///< cores.compute.stated_peak
  std::optional<ConfigNode> interface;  ///< hbm.stated_interface
  std::optional<ConfigNode> sets;       ///< l2.stated_sets
};

/// Reads the stated figures and checks each against `params`, the machine read from the same
/// `hardware` document. A stated figure is checked only where the figures it is checked against
/// come from the file itself or from where the stated figure came from: a value changed by --set
/// or by a sweep makes another machine than the datasheet's. Throws ConfigError.
void check_stated_figures(const ConfigNode& hardware, const StatedFigures& stated,
                          const HardwareParams& params);

/// In detailed mode, a warning on hbm.dram.timing.tCCD_S when one burst per tCCD_S on every
/// pseudo-channel falls short of hbm.bandwidth by more than kStatedTolerance.
void warn_dram_below_bandwidth(const ConfigNode& hbm, const HbmParams& params);

/// Removes from a loaded hardware document the stated figures whose check a value from
/// elsewhere turns off (check_stated_figures), so that the document written out (a sweep
/// point's hardware.yaml) reads as the point did: the figure from elsewhere then sits in the
/// file, beside a stated figure that no longer describes it.
void remove_unchecked_stated_figures(const ConfigNode& hardware);

}  // namespace ridgeline
