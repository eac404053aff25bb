// What the units did and when, told by the timing cores as they decide it: the source of the
// waveform (VCD) and timeline traces.
//
// The models are reservation models: a core knows an op's start and end when it issues it, a
// channel knows a transfer's slot when the request arrives, and cores sleep until a completion
// changes what they do. Sampling their variables at SystemC time steps would miss most changes, so
// each timing core calls an optional observer where it already holds the times. Every activity is
// reported at or before its issue time (no report lies in the past of the simulation, except an
// SRAM write that streams in as its data arrives, whose start may precede the request's issue), so
// an observer can turn reports into value changes at their exact times with a time-ordered queue.
//
// No observer is the default: each call site is one predictable branch on a null pointer.
#pragma once

#include <cstdint>

#include "models/program.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// The unit an activity occupied.
enum class UnitKind : std::uint8_t {
  compute,     ///< a core's compute unit: one activity per compute op, while it executes
  dma,         ///< a core's memory requests: one per load or store, from issue to its data
  barrier,     ///< a core's barriers: one per barrier, for its cycles
  sram_read,   ///< a core's SRAM read port: operands into the compute unit
  sram_write,  ///< a core's SRAM write port: loaded tiles landing
  hbm,         ///< one HBM channel (pseudo-channel): its transfers (detailed mode: its data bus)
  level_port,  ///< a shared memory level's port to the cores (the L2's): every byte asked of it
  player,      ///< a trace player's accesses, from issue to their data
};

/// One interval of one unit: when it was asked for, when the unit worked on it, what it moved.
struct Activity {
  Activity() = default;
  /// Unit `index` of kind `unit` busy over [start, end), asked for at `issue`, ready at `end`.
  Activity(UnitKind unit_kind, std::uint32_t unit_index, Time issued, Time started, Time ended)
      : unit(unit_kind),
        index(unit_index),
        issue(issued),
        start(started),
        end(ended),
        ready(ended) {}

  UnitKind unit = UnitKind::compute;
  std::uint32_t index = 0;  ///< the core, channel (channel x pseudo-channels + pseudo-channel),
                            ///< or player; a shared level's place in the chain
  Time issue;               ///< asked for: waiting from here until `start`
  Time start;               ///< the unit begins
  Time end;                 ///< the unit is done (for a request: its data has arrived)
  Time ready;               ///< its result is available (compute: after the pipeline; else end)
  std::uint64_t bytes = 0;  ///< bytes moved
  std::uint64_t flops = 0;  ///< FLOPs executed
  bool write = false;       ///< a store / write transfer
  const char* detail = nullptr;  ///< a short note, e.g. "row hit" (static storage), or null

  // For a core's op: which op of which block (labels such as "load A_3", buffer stages).
  const Program* program = nullptr;  ///< null for activities that are not a program's op
  std::uint32_t op = 0;              ///< index into program->ops()
  std::uint32_t slot = 0;            ///< the core's block slot the block runs in
  BlockCoord block;                  ///< the block's coordinates in its grid
};

/// A core's levels that change only when the core runs (at its wake-ups).
enum class LevelKind : std::uint8_t {
  queued_requests,  ///< loads and stores waiting in the core's in-order queue to issue
  resident_blocks,  ///< thread blocks resident on the core
};

class ActivityObserver;

/// The models' test before telling an observer: one branch, marked unlikely so that the compiler
/// lays the hot paths out as it would without tracing.
inline bool observing(const ActivityObserver* observer) {
  return __builtin_expect(observer != nullptr, 0);
}

class ActivityObserver {
 public:
  virtual ~ActivityObserver() = default;
  /// An interval of a unit, reported no later than `issue` (the simulation's present).
  virtual void activity(const Activity& a) = 0;
  /// Core `core`'s `kind` is `value` from `at` (the present) on.
  virtual void level(std::uint32_t core, LevelKind kind, Time at, std::uint64_t value) = 0;
  /// A block ran in `slot` of core `core` from `admitted` until it retired at `retired` (the
  /// present): told when it retires.
  virtual void block(std::uint32_t core, std::uint32_t slot, BlockCoord coord, Time admitted,
                     Time retired) = 0;
};

}  // namespace ridgeline
