// Conversions between drivevp::Time (int64 ps, plain C++) and sc_core::sc_time.
#pragma once

#include <systemc>

#include "tlm_bus/command.h"

namespace drivevp {

/// Simulated time as drivevp::Time. Precondition: the SystemC time resolution is 1 ps (the
/// platform sets it before elaboration).
inline Time to_time(const sc_core::sc_time& t) { return Time{static_cast<std::int64_t>(t.value())}; }
/// drivevp::Time as an sc_time (1 ps resolution). Negative values are clamped to 0.
inline sc_core::sc_time to_sc(Time t) {
  return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(t.count() < 0 ? 0 : t.count()));
}
/// The current simulated time as drivevp::Time: sc_core::sc_time_stamp(), read inline (the
/// library's function is this same read behind a call).
inline Time sim_now() { return to_time(sc_core::sc_get_curr_simcontext()->time_stamp()); }

}  // namespace drivevp
