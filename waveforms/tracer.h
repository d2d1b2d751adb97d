// Waveform tracing: named, grouped, traceable state with a time window, written as VCD through
// sc_trace (1 ps time unit) with a matching GTKWave save file.
//
// Models keep their state in Traced<T> members. Writing one always updates the model's value;
// the copy the VCD sees is updated only while the trace window is open, so outside the window
// the VCD records no changes and stays small. When tracing is off nothing is registered and the
// cost is one predictable branch per state change.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

namespace drivevp {

/// Waveform signal groups (scenario key trace.groups). Sled: the MEMS device's sled (X/Y ramps,
/// settle, tips, transfer, power state, startup). Rounds: round workloads' rounds (round index and
/// boundary, C-/D-period, what the media serves, pending C-requests, predicted slack;
/// testbench/sim/rounds_trace.h).
enum class TraceGroup { Mechanics, Firmware, Bus, Host, Sled, Rounds };
/// Scenario spelling: "mechanics", "firmware", "bus", "host", "sled", "rounds".
const char* to_string(TraceGroup g);

/// How GTKWave should show a signal.
enum class WaveFormat { Decimal, Hex, Binary, AnalogStep, AnalogInterpolated };

/// One traced signal, for the GTKWave save file.
struct TracedSignal {
  TraceGroup group;
  std::string name;  ///< full hierarchical name as it appears in the VCD, e.g. drive.actuator.cylinder
  unsigned width;    ///< bits (64 for doubles, which VCD stores as real)
  bool is_real;
  WaveFormat format;
  /// For an enum traced as its integer value: enum_names[v] names value v (shown as text in
  /// GTKWave through a translate filter file); empty for other signals.
  std::vector<std::string> enum_names;
};

namespace detail {
inline const bool kNeverLive = false;
}

/// A traceable state variable. Assigning sets the model value; the traced copy follows while the
/// owning Tracer's window is open.
template <class T>
class Traced {
 public:
  Traced() = default;
  explicit Traced(T v) : value_(v), shown_(v) {}
  Traced& operator=(T v) {
    value_ = v;
    if (*live_) shown_ = v;
    return *this;
  }
  operator T() const { return value_; }
  const T& get() const { return value_; }
  /// Used by Tracer.
  const T& shown() const { return shown_; }
  void bind_live(const bool* live) { live_ = live; }
  /// True while the owning tracer's window is open (false when not traced).
  bool live() const { return *live_; }
  void sync() { shown_ = value_; }

 private:
  T value_{};
  T shown_{};
  const bool* live_ = &detail::kNeverLive;
};

/// Owns the VCD file and the trace window. Create it before elaboration ends; modules register
/// their Traced members through add() from their constructors or before_end_of_elaboration.
class Tracer : public sc_core::sc_module {
 public:
  struct Options {
    std::string vcd_path_base;       ///< file name without ".vcd"
    std::vector<TraceGroup> groups;  ///< enabled groups
    sc_core::sc_time start = sc_core::SC_ZERO_TIME;
    sc_core::sc_time stop = sc_core::SC_ZERO_TIME;  ///< SC_ZERO_TIME: until the end
  };
  Tracer(sc_core::sc_module_name name, Options options);
  ~Tracer() override;

  /// True if `g` is traced.
  bool enabled(TraceGroup g) const;
  /// Registers `v` under `name` (full hierarchical name) in group `g`, if that group is enabled.
  /// `enum_names` (optional, for an enum traced as its integer value): enum_names[i] names value i.
  template <class T>
  void add(TraceGroup g, Traced<T>& v, const std::string& name, WaveFormat fmt, unsigned width = sizeof(T) * 8,
           std::vector<std::string> enum_names = {}) {
    if (!enabled(g)) return;
    v.bind_live(&live_);
    sc_core::sc_trace(file_, v.shown(), name);
    syncs_.push_back([&v] { v.sync(); });
    signals_.push_back({g, name, std::is_floating_point<T>::value ? 64u : width, std::is_floating_point<T>::value, fmt,
                        std::move(enum_names)});
  }
  /// Registers a plain variable the caller updates only while live() (sampled quantities).
  template <class T>
  void add_plain(TraceGroup g, const T& v, const std::string& name, WaveFormat fmt, unsigned width = sizeof(T) * 8) {
    if (!enabled(g)) return;
    sc_core::sc_trace(file_, v, name);
    signals_.push_back(
        {g, name, std::is_floating_point<T>::value ? 64u : width, std::is_floating_point<T>::value, fmt, {}});
  }
  /// True while the trace window is open.
  bool live() const { return live_; }
  const bool* live_flag() const { return &live_; }
  const std::vector<TracedSignal>& signals() const { return signals_; }
  const Options& options() const { return options_; }
  /// Flushes and closes the VCD (idempotent). Called when the window closes (trace.stop) and at
  /// the end of the run. SystemC's VCD writer ends the file with a line "#<ps>" holding the
  /// simulated time of the close, so a window's VCD ends at the window's end and GTKWave's time
  /// range is [0, trace.stop], not the whole run.
  void close();
  /// Simulated time at which close() closed the VCD (meaningful after close()).
  sc_core::sc_time closed_at() const { return closed_at_; }

 private:
  void window();
  Options options_;
  sc_core::sc_trace_file* file_ = nullptr;
  bool live_ = false;
  sc_core::sc_time closed_at_ = sc_core::SC_ZERO_TIME;
  std::vector<std::function<void()>> syncs_;
  std::vector<TracedSignal> signals_;
  sc_core::sc_event window_event_;
};

}  // namespace drivevp
