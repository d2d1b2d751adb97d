// Sled power states and energy of a MEMS-based storage device: after "time before sled inactive" of
// idleness the sled stops; the next request first pays the startup delay; energy from the sled's
// active and inactive power and the per-tip access power (../shared/reference/mems-model.md
// "Power states"; DiskSim 4.0 memsmodel: sled states INACTIVE / IDLE / ACTIVE, per-request and
// total energy). Plain C++ (no SystemC).
#pragma once

#include <array>
#include <cstdint>

#include "hw_models/mems/mems_params.h"
#include "tlm_bus/command.h"

namespace drivevp::mems {

/// DiskSim's sled states (MEMS_SLED_INACTIVE / IDLE / ACTIVE). Idle: moving, no request (sled
/// active power). Active: serving a request, startup included (sled active power, plus the tip
/// access power of the transferring tips). Inactive: stopped (sled inactive power).
enum class SledPowerState : std::uint8_t { Inactive = 0, Idle = 1, Active = 2 };

/// Sled power in watts in `state` with `active_tips` tips transferring (counted only when Active):
/// P = (Inactive ? inactive : active) + (Active ? tips × tip power : 0), the mW parameters / 1000.
double sled_power_w(const MemsParams& p, SledPowerState state, std::uint32_t active_tips = 0);

/// Accumulates a sled's energy over simulated time. Starts at time 0; intervals are half-open
/// [now, until). Energy of an interval = power × its length in seconds (double; the picosecond
/// interval converted exactly up to double rounding).
class EnergyMeter {
 public:
  /// Validates `params`.
  explicit EnergyMeter(const MemsParams& params);

  Time now() const { return now_; }
  /// Spends [now(), until) in `state` with `active_tips` tips transferring; until < now() throws
  /// std::invalid_argument.
  void advance(Time until, SledPowerState state, std::uint32_t active_tips = 0);
  /// Adds tip access energy measured in tip-seconds (MediaAccess::tip_seconds) × tip power; use it
  /// with advance(..., Active, 0) for the sled part when a request's tips vary row by row.
  void add_tip_seconds(double tip_seconds);
  /// No request from now() until `request_start`: the sled idles until now() + time before sled
  /// inactive, then is inactive (both clipped to request_start). Returns the startup delay the
  /// request pays first: the delay when the gap reached the timeout (gap >= time before inactive),
  /// else 0. The caller then spends the startup as Active.
  Time idle_until(Time request_start);

  double joules() const { return total_; }  ///< everything so far
  double joules_in(SledPowerState s) const { return by_state_[static_cast<std::size_t>(s)]; }
  double tip_joules() const { return tip_; }
  Time time_in(SledPowerState s) const { return time_[static_cast<std::size_t>(s)]; }
  std::uint64_t startups() const { return startups_; }

 private:
  // The parameters the meter uses (not the whole MemsParams: a meter is copied for every energy
  // read-out, EnergyMeter as returned by MemsDevice::energy_at).
  double sled_active_mw_, sled_inactive_mw_, tip_mw_;
  Time timeout_, startup_delay_;
  Time now_{0};
  double total_ = 0, tip_ = 0;
  std::array<double, 3> by_state_{};
  std::array<Time, 3> time_{};
  std::uint64_t startups_ = 0;
};

}  // namespace drivevp::mems
