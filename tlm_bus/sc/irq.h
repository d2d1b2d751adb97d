// Interrupt lines: a level-sensitive wire from a device to a handler, tickless.
#pragma once

#include <systemc>

#include "waveforms/tracer.h"

namespace drivevp {

/// A level-sensitive interrupt line. The device raises it (now or after a delay); the handler
/// (an SC_METHOD made sensitive to event()) acknowledges the cause at the device, which lowers
/// it. `level` is a Traced<bool> so that waveforms can show it without a signal's delta cycles.
class InterruptLine {
 public:
  explicit InterruptLine(const char* name) : event_((std::string(name) + "_ev").c_str()) {}
  /// Raises the line after `delay` (0: in the next delta cycle). Idempotent while raised.
  void raise(const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME) {
    pending_ = true;
    event_.notify(delay);
  }
  /// Lowers the line (the device does this when its cause is acknowledged).
  void lower() {
    level_ = false;
    pending_ = false;
  }
  /// The event a handler is sensitive to. The line is high when the event fires.
  const sc_core::sc_event& event() const { return event_; }
  /// Called by the handler on entry: marks the line high (for tracing) and reports it.
  bool take() {
    if (pending_) level_ = true;
    return pending_;
  }
  /// The line's level, traceable (waveform group "bus").
  Traced<bool>& level() { return level_; }

 private:
  sc_core::sc_event event_;
  bool pending_ = false;
  Traced<bool> level_{false};
};

}  // namespace drivevp
