// Spindle motor model.
#pragma once

#include <cstdint>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "tlm_bus/command.h"
#include "tlm_bus/sc/irq.h"
#include "tlm_bus/sc/register_bank.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// A spindle turning at constant speed, tickless: the angle is a function of simulated time,
/// phase 0 (the index mark) at time 0 and every `period` after. Models: rotation period, angle,
/// index time, the index interrupt (only when enabled, so an idle platform schedules nothing).
/// Does not model spin-up, speed jitter or power states.
///
/// Registers (docs/registers.md "Spindle"): PERIOD_PS (0x00, RO 64), INDEX_TIME_PS (0x08, RO 64:
/// time of the latest index), ANGLE (0x10, RO 32: phase x 2^32), INDEX_IRQ_ENABLE (0x14, RW 32),
/// IRQ_ACK (0x18, WO 32).
class Spindle : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Spindle> socket;
  InterruptLine index_irq{"index_irq"};

  /// `period`: one revolution, > 0 (DiskParams::rotation_period()).
  Spindle(sc_core::sc_module_name name, Time period);

  Time period() const { return period_; }
  /// Phase in [0, 1) at time t.
  double phase_at(Time t) const;
  /// Phase origin: spindle phase is 0 at this time (and every period after).
  Time phase_origin() const { return Time{0}; }
  /// Registers angle_mdeg and sector_under_head (mechanics group), written by DiskDrive at each
  /// index and 1 ps before the next: drawn interpolated they are the exact ramps.
  void trace(Tracer& tracer, const std::string& prefix);

  /// For waveforms only: ramp end points, millidegrees (an integer: SystemC writes integer VCD
  /// values several times faster than reals).
  std::uint32_t angle_mdeg = 0;
  std::uint32_t sector_under_head = 0;  ///< for waveforms only: ramp end points, slot index

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void on_index();
  Time period_;
  bool index_enabled_ = false;
  sc_core::sc_event index_event_;
  RegisterBank regs_;
};

}  // namespace drivevp
