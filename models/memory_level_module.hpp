// The SystemC side of a shared memory level (memory_level.hpp): what the elaborator needs to bind
// the chain cores -> level 0 -> ... -> HBM in one loop, whatever each level is.
#pragma once

#include <systemc>
#include <tlm>

#include "models/memory_level.hpp"

namespace ridgeline {

/// A TLM-2.0 target any number of requesters bind to: a level's port, or the HBM's.
using MemoryTargetSocket =
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0, sc_core::SC_ONE_OR_MORE_BOUND>;

class MemoryLevelModule : public sc_core::sc_module {
 public:
  explicit MemoryLevelModule(sc_core::sc_module_name name) : sc_module(name) {}

  /// Where the cores, or the level above, send their requests.
  virtual MemoryTargetSocket& port() = 0;
  /// Where this level sends what it misses: the next level's port, or the HBM's.
  virtual tlm::tlm_initiator_socket<>& memory() = 0;
  virtual const MemoryLevel& level() const = 0;
  virtual void observe(ActivityObserver* observer, std::uint32_t position) = 0;
  /// The kernel's end (MemoryLevel::end_of_run); call once the simulation has stopped.
  virtual void end_of_run() = 0;
};

}  // namespace ridgeline
