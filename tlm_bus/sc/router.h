// The drive's interconnect: a loosely-timed TLM-2.0 router with an address map and a fixed
// latency per access (annotated on the transaction's delay, no wait()).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "waveforms/tracer.h"

namespace drivevp {

/// Router parameters.
struct RouterParams {
  /// Added to every access's annotated delay. Default 10 ns: one arbitration + address phase of
  /// an on-chip bus (assumed; the papers' disk models fold bus costs into controller overhead).
  sc_core::sc_time latency = sc_core::sc_time(10, sc_core::SC_NS);
};

/// Routes b_transport calls by address to the target bound at the matching range, with the
/// address made relative to the range base. Unmapped addresses answer
/// TLM_ADDRESS_ERROR_RESPONSE. Forwards DMI requests (adding its latency to the granted
/// read/write latencies and translating the granted range back to bus addresses) and DMI
/// invalidations to every initiator. Does not model contention.
class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> target_socket;        ///< initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Router> initiator_socket;  ///< targets bind here

  Router(sc_core::sc_module_name name, const RouterParams& params);

  /// Maps [base, base + size) to the target bound as the `port`-th binding of initiator_socket.
  void map(std::uint64_t base, std::uint64_t size, unsigned port, std::string target_name);

  // Traceable state (waveform group "bus").
  Traced<std::uint64_t> accesses{0};      ///< number of transactions routed
  Traced<std::uint64_t> last_address{0};  ///< address of the last transaction
  Traced<bool> last_was_write{false};

 private:
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
  struct Range {
    std::uint64_t base, size;
    unsigned port;
    std::string name;
  };
  const Range* decode(std::uint64_t address) const;
  RouterParams params_;
  std::vector<Range> ranges_;
};

}  // namespace drivevp
