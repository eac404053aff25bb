#include "models/l2_cache_module.hpp"

#include <cassert>

#include "models/sc_time.hpp"

namespace ridgeline {

L2Cache::L2Cache(sc_core::sc_module_name name, const L2CacheParams& params, std::uint32_t cores)
    : MemoryLevelModule(name),
      port_socket("port"),
      memory_socket("memory"),
      timing_(params, *this, cores, basename()) {
  port_socket.register_b_transport(this, &L2Cache::b_transport);
  payload_.set_extension(&request_);
  payload_.set_streaming_width(0);
  payload_.set_byte_enable_ptr(nullptr);
}

L2Cache::~L2Cache() { payload_.clear_extension(&request_); }

void L2Cache::b_transport(int /*initiator*/, tlm::tlm_generic_payload& payload,
                          sc_core::sc_time& delay) {
  const auto* request = payload.get_extension<MemoryRequest>();
  assert(request != nullptr && "every memory request carries its region");
  request_.initiator = request->initiator;  // fills and write-backs go out on its behalf
  const Time arrival = now() + to_time(delay);
  const Time done =
      timing_.access(arrival, request->region, payload.is_write(), request->initiator);
  delay = to_sc_time(done - now());
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}


Time L2Cache::access(Time at, const Region& region, bool is_write) {
  request_.region = region;
  payload_.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_address(region.base);
  payload_.set_data_length(
      static_cast<unsigned int>(std::min<std::uint64_t>(region.bytes(), UINT32_MAX)));
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = to_sc_time(at - now());
  memory_socket->b_transport(payload_, delay);
  assert(payload_.is_response_ok());
  return now() + to_time(delay);
}

}  // namespace ridgeline
