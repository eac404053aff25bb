#include "models/hbm_module.hpp"

#include <cassert>

#include "models/sc_memory_request.hpp"
#include "models/sc_time.hpp"

namespace ridgeline {

Hbm::Hbm(sc_core::sc_module_name name, const HbmParams& params)
    : sc_module(name), port("port"), timing_(params) {
  port.register_b_transport(this, &Hbm::b_transport);
}

void Hbm::b_transport(int /*initiator*/, tlm::tlm_generic_payload& payload,
                      sc_core::sc_time& delay) {
  const auto* request = payload.get_extension<MemoryRequest>();
  assert(request != nullptr && "every memory request carries its region");
  const Time arrival = now() + to_time(delay);
  const Time done = timing_.access(arrival, request->region, payload.is_write());
  const_cast<MemoryRequest*>(request)->accepted = timing_.last_accepted();
  delay = to_sc_time(done - now());
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ridgeline
