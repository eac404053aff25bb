// A shared memory level between the cores and the HBM: the L2 today; a second cache, a near/far
// L2 partition or a network on chip would be more. The elaborator holds the levels as a chain,
// cores -> level 0 -> ... -> HBM, and simulate() and the reports loop over that chain, so they
// need only what every level can say about itself, declared here once. Plain C++: the SystemC
// side of a level is MemoryLevelModule (memory_level_module.hpp).
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
  /// Sends on at `now` (the end of a run) what it still holds for the level below, e.g. dirty
  /// lines: it reaches HBM eventually, so it counts in Q.
  virtual void flush(Time now) = 0;
  /// Tells `observer` (null: nobody) its port's transfers, as unit (UnitKind::level_port,
  /// `position`): its place in the chain, 0 next to the cores.
  virtual void observe(ActivityObserver* observer, std::uint32_t position) = 0;
};

}  // namespace ridgeline
