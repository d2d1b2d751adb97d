// Conversions between drivevp::Time (int64 ps, plain C++) and sc_core::sc_time.
#pragma once

#include <systemc>
#include <type_traits>

#include "tlm_bus/command.h"

namespace drivevp {

/// Simulated time as drivevp::Time. Precondition: the SystemC time resolution is 1 ps (the
/// platform sets it before elaboration).
inline Time to_time(const sc_core::sc_time& t) { return Time{static_cast<std::int64_t>(t.value())}; }
/// drivevp::Time as an sc_time (1 ps resolution). Negative values are clamped to 0.
inline sc_core::sc_time to_sc(Time t) {
  return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(t.count() < 0 ? 0 : t.count()));
}
/// to_sc() for a simulation process or a handler called from one: the same value without the
/// library's sc_time::from_value call. from_value stores the value and, for a value other than 0,
/// marks the time resolution as fixed; once sc_start has run (it builds sc_max_time() through
/// from_value) the mark is already set, so storing the value is all that is left to do. sc_time is
/// a standard-layout class whose only member is its value (checked below), so a pointer to it is
/// a pointer to that value. Precondition: sc_start has been called in this simulation context.
inline sc_core::sc_time to_sc_in_run(Time t) {
  static_assert(std::is_standard_layout_v<sc_core::sc_time> && sizeof(sc_core::sc_time) == sizeof(sc_dt::uint64),
                "sc_time is no longer its 64-bit value alone: use to_sc()");
  sc_core::sc_time r;
  *reinterpret_cast<sc_dt::uint64*>(&r) = static_cast<sc_dt::uint64>(t.count() < 0 ? 0 : t.count());
  return r;
}
/// The current simulated time as drivevp::Time: sc_core::sc_time_stamp(), read inline (the
/// library's function is this same read behind a call).
inline Time sim_now() { return to_time(sc_core::sc_get_curr_simcontext()->time_stamp()); }

}  // namespace drivevp
