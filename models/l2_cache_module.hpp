// The SystemC shell of the L2; the timing is L2CacheTiming (l2_cache.hpp).
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string_view>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/activity.hpp"
#include "models/l2_cache.hpp"
#include "models/memory_level_module.hpp"
#include "models/program.hpp"
#include "models/sc_memory_request.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// The SystemC shell: a TLM-2.0 target for the cores and an initiator towards the HBM. Its
/// module name is the level's name.
class L2Cache : public MemoryLevelModule, private MemoryBelow {
 public:
  tlm_utils::multi_passthrough_target_socket<L2Cache> port_socket;
  tlm_utils::simple_initiator_socket<L2Cache> memory_socket;

  /// `cores`: the machine's, each near one partition of the L2 (L2CacheTiming).
  L2Cache(sc_core::sc_module_name name, const L2CacheParams& params, std::uint32_t cores);
  ~L2Cache() override;

  const L2CacheTiming& timing() const { return timing_; }
  /// Before the run starts: lines to place in it (L2CacheTiming::preload).
  L2CacheTiming& timing() { return timing_; }

  MemoryTargetSocket& port() override { return port_socket; }
  tlm::tlm_initiator_socket<>& memory() override { return memory_socket; }
  const MemoryLevel& level() const override { return timing_; }
  void observe(ActivityObserver* observer, std::uint32_t position) override {
    timing_.observe(observer, position);
  }
  void end_of_run() override { timing_.end_of_run(); }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  Time access(Time at, const Region& region, bool is_write) override;

  L2CacheTiming timing_;
  tlm::tlm_generic_payload payload_;
  MemoryRequest request_;
};

}  // namespace ridgeline
