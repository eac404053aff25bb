// The SystemC shell of the HBM; the timing is HbmTiming (hbm.hpp).
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/activity.hpp"
#include "models/dram_system.hpp"
#include "models/hbm.hpp"
#include "models/program.hpp"
#include "models/units.hpp"

namespace ridgeline {

/// The SystemC shell: a TLM-2.0 target any number of initiators bind to.
class Hbm : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Hbm> port;

  Hbm(sc_core::sc_module_name name, const HbmParams& params);

  const HbmTiming& timing() const { return timing_; }
  void end_of_run() { timing_.end_of_run(); }
  void observe(ActivityObserver* observer) { timing_.observe(observer); }

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);

  HbmTiming timing_;
};

}  // namespace ridgeline
