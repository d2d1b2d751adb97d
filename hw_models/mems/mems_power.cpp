#include "hw_models/mems/mems_power.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace drivevp::mems {

double sled_power_w(const MemsParams& p, SledPowerState state, std::uint32_t active_tips) {
  double mw = state == SledPowerState::Inactive ? p.sled_inactive_power_mw : p.sled_active_power_mw;
  if (state == SledPowerState::Active) mw += active_tips * p.tip_access_power_mw;
  return mw * 1e-3;
}

namespace {
const MemsParams& validated(const MemsParams& p) {
  p.validate();
  return p;
}
}  // namespace

EnergyMeter::EnergyMeter(const MemsParams& params)
    : sled_active_mw_(validated(params).sled_active_power_mw),
      sled_inactive_mw_(params.sled_inactive_power_mw),
      tip_mw_(params.tip_access_power_mw),
      timeout_(params.time_before_inactive()),
      startup_delay_(params.startup_delay()) {}

void EnergyMeter::advance(Time until, SledPowerState state, std::uint32_t active_tips) {
  if (until < now_)
    throw std::invalid_argument("EnergyMeter::advance to " + std::to_string(until.count()) + " ps, before now (" +
                                std::to_string(now_.count()) + " ps)");
  const Time dt = until - now_;
  const auto i = static_cast<std::size_t>(state);
  // sled_power_w(params, state, tips), from the stored parameters (the same operations).
  const double base_mw = state == SledPowerState::Inactive ? sled_inactive_mw_ : sled_active_mw_;
  double tips_mw = base_mw;
  if (state == SledPowerState::Active) tips_mw += active_tips * tip_mw_;
  const double sled_j = base_mw * 1e-3 * to_s(dt);
  const double tip_j = tips_mw * 1e-3 * to_s(dt) - sled_j;
  by_state_[i] += sled_j + tip_j;
  tip_ += tip_j;
  total_ += sled_j + tip_j;
  time_[i] += dt;
  now_ = until;
}

void EnergyMeter::add_tip_seconds(double tip_seconds) {
  const double j = tip_seconds * tip_mw_ * 1e-3;
  tip_ += j;
  by_state_[static_cast<std::size_t>(SledPowerState::Active)] += j;
  total_ += j;
}

Time EnergyMeter::idle_until(Time request_start) {
  const Time timeout = timeout_;
  const Time gap = request_start - now_;
  if (gap < Time{0})
    throw std::invalid_argument("EnergyMeter::idle_until " + std::to_string(request_start.count()) +
                                " ps, before now (" + std::to_string(now_.count()) + " ps)");
  advance(now_ + std::min(gap, timeout), SledPowerState::Idle);
  if (gap < timeout) return Time{0};
  advance(request_start, SledPowerState::Inactive);
  ++startups_;
  return startup_delay_;
}

}  // namespace drivevp::mems
