// A shared memory level between the cores and the HBM: the L2 today (its near and far partitions
// included); a second cache or a network on chip would be more. The elaborator holds the levels
// as a chain, cores -> level 0 -> ... -> HBM, and simulate() and the reports loop over that chain,
// so they need only what every level can say about itself, declared here once. Plain C++: the
// SystemC side of a level is MemoryLevelModule (memory_level_module.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "models/activity.hpp"
#include "models/stat_fields.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// What a level moved, in the terms the levels table uses for every level.
struct LevelTraffic {
  std::uint64_t requested_bytes = 0;  ///< bytes the side towards the cores asked for: its Q
  std::uint64_t below_bytes = 0;      ///< bytes it read from and wrote to the level below
  Time port_busy;                     ///< time its port towards the cores was transferring
  std::uint64_t requests = 0;         ///< requests from the side towards the cores
  Time port_queue_delay;              ///< summed over them: the wait for a free port
};

class MemoryLevel {
 public:
  virtual ~MemoryLevel() = default;

  /// Its name in the reports, the JSON and the waveforms, e.g. "l2".
  virtual const std::string& name() const = 0;
  /// Its port towards the cores, all of them together.
  virtual Bandwidth port_bandwidth() const = 0;
  virtual LevelTraffic traffic() const = 0;
  /// Its counters, each once with its name, unit and meaning.
  virtual void visit(const StatVisitor& visitor) const = 0;
  /// The kernel's end: counts what the level still holds for the level below (dirty lines) and
  /// sends none of it. A GPU keeps its L2's contents when a kernel ends (the next kernel of a
  /// graph finds them there), so a kernel's Q and time are what moved while it ran; what is left
  /// dirty is reported beside Q, not in it.
  virtual void end_of_run() = 0;
  /// Tells `observer` (null: nobody) its port's transfers, as unit (UnitKind::level_port,
  /// `position`): its place in the chain, 0 next to the cores.
  virtual void observe(ActivityObserver* observer, std::uint32_t position) = 0;
};

}  // namespace ridgeline
