#include "tlm_bus/sc/router.h"

#include <algorithm>
#include <stdexcept>

namespace drivevp {

Router::Router(sc_core::sc_module_name name, const RouterParams& params)
    : sc_module(name), target_socket("target_socket"), initiator_socket("initiator_socket"), params_(params) {
  target_socket.register_b_transport(this, &Router::b_transport);
  target_socket.register_transport_dbg(this, &Router::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  initiator_socket.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::map(std::uint64_t base, std::uint64_t size, unsigned port, std::string target_name) {
  for (const Range& r : ranges_)
    if (base < r.base + r.size && r.base < base + size)
      throw std::logic_error("router: range of " + target_name + " overlaps " + r.name);
  ranges_.push_back({base, size, port, std::move(target_name)});
}

const Router::Range* Router::decode(std::uint64_t address) const {
  for (const Range& r : ranges_)
    if (address >= r.base && address - r.base < r.size) return &r;
  return nullptr;
}

void Router::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const std::uint64_t address = trans.get_address();
  const Range* r = decode(address);
  accesses = accesses.get() + 1;
  last_address = address;
  last_was_write = trans.is_write();
  delay += params_.latency;
  if (!r) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  trans.set_address(address - r->base);
  initiator_socket[r->port]->b_transport(trans, delay);
  trans.set_address(address);
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const std::uint64_t address = trans.get_address();
  const Range* r = decode(address);
  if (!r) return false;
  trans.set_address(address - r->base);
  const bool granted = initiator_socket[r->port]->get_direct_mem_ptr(trans, dmi);
  trans.set_address(address);
  if (!granted) return false;
  dmi.set_start_address(r->base + dmi.get_start_address());
  dmi.set_end_address(r->base + std::min<std::uint64_t>(dmi.get_end_address(), r->size - 1));
  dmi.set_read_latency(dmi.get_read_latency() + params_.latency);
  dmi.set_write_latency(dmi.get_write_latency() + params_.latency);
  return true;
}

void Router::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Range& r : ranges_) {
    if (r.port != static_cast<unsigned>(port) || start >= r.size) continue;
    const std::uint64_t last = r.base + std::min<std::uint64_t>(end, r.size - 1);
    for (unsigned i = 0; i < target_socket.size(); ++i)
      target_socket[i]->invalidate_direct_mem_ptr(r.base + start, last);
  }
}

unsigned Router::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  const std::uint64_t address = trans.get_address();
  const Range* r = decode(address);
  if (!r) return 0;
  trans.set_address(address - r->base);
  const unsigned n = initiator_socket[r->port]->transport_dbg(trans);
  trans.set_address(address);
  return n;
}

}  // namespace drivevp
