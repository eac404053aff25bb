// The TLM-2.0 extension a memory request carries: the 2-D region it moves and who asked.
// The generic payload's address and length give the first byte and the total; the region gives
// the shape, which decides the channels (and, with a cache, the lines) it touches.
#pragma once

#include <cstdint>
#include <tlm>

#include "models/program.hpp"
#include "models/units.hpp"

namespace ridgeline {

struct MemoryRequest : tlm::tlm_extension<MemoryRequest> {
  Region region;
  std::uint32_t initiator = 0;  ///< index of the core that issued it
  /// Set by the HBM (detailed mode, fr_fcfs): when its controller took the request, later than the
  /// arrival when a queue was full. An in-order requester issues nothing before it.
  Time accepted;

  tlm::tlm_extension_base* clone() const override { return new MemoryRequest(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemoryRequest&>(other);
  }
};

}  // namespace ridgeline
