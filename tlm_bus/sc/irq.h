// Interrupt lines: a level-sensitive wire from a device to a handler, tickless.
#pragma once

#include <functional>

#include <systemc>

#include "waveforms/tracer.h"

namespace drivevp {

/// A level-sensitive interrupt line. The device raises it (now or after a delay); the handler
/// (an SC_METHOD made sensitive to event()) acknowledges the cause at the device, which lowers
/// it at the acknowledge's annotated time. `level` is a Traced<bool> so that waveforms can show
/// it without a signal's delta cycles; while tracing is live the line stays high until the
/// acknowledge's time, so even a short handler shows as a pulse.
class InterruptLine : public sc_core::sc_module {
 public:
  explicit InterruptLine(sc_core::sc_module_name name) : sc_module(name), event_("raised") {
    SC_HAS_PROCESS(InterruptLine);
    SC_METHOD(drop);
    sensitive << drop_event_;
    dont_initialize();
  }
  /// Raises the line after `delay` (0: in the next delta cycle). Idempotent while raised.
  void raise(const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME) {
    pending_ = true;
    event_.notify(delay);
  }
  /// Moves a raise not yet due to `delay` after now, earlier or later (an sc_event keeps the
  /// earlier of two pending notifications: a later one needs the earlier cancelled first).
  void reschedule(const sc_core::sc_time& delay) {
    event_.cancel();
    raise(delay);
  }
  /// Lowers the line `delay` after now (the device does this when its cause is acknowledged,
  /// with the acknowledge's annotated delay).
  void lower(const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME) {
    pending_ = false;
    if (level_.live() && delay > sc_core::SC_ZERO_TIME)
      drop_event_.notify(delay);
    else
      level_ = false;
  }
  /// A handler the raiser may run at once instead of notifying the event (Controller's
  /// completion path, untraced runs): called with the annotated delay at which the line rises, it
  /// serves the line as the event's handler would at now + delay, or returns false when it
  /// cannot (nothing done).
  using DirectHandler = std::function<bool(const sc_core::sc_time& delay)>;
  void set_direct_handler(DirectHandler handler) { direct_ = std::move(handler); }
  bool has_direct_handler() const { return static_cast<bool>(direct_); }
  /// Raises the line `delay` after now and serves it at once through the direct handler when
  /// there is one and it accepts (true); else as raise(delay). The caller makes sure that nothing
  /// else happens up to and including now + delay (sc_core::sc_time_to_pending_activity()), so
  /// that serving it now and serving it at its time are the same.
  bool raise_direct(const sc_core::sc_time& delay) {
    if (direct_) {
      event_.cancel();  // a later notification would have been moved to now + delay
      pending_ = true;
      if (direct_(delay)) return true;
    }
    raise(delay);
    return false;
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
  void drop() {
    if (!pending_) level_ = false;
  }
  sc_core::sc_event event_;
  sc_core::sc_event drop_event_;
  bool pending_ = false;
  Traced<bool> level_{false};
  DirectHandler direct_;
};

}  // namespace drivevp
