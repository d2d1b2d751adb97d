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

EnergyMeter::EnergyMeter(const MemsParams& params) : params_(params) { params_.validate(); }

void EnergyMeter::advance(Time until, SledPowerState state, std::uint32_t active_tips) {
  if (until < now_)
    throw std::invalid_argument("EnergyMeter::advance to " + std::to_string(until.count()) + " ps, before now (" +
                                std::to_string(now_.count()) + " ps)");
  const Time dt = until - now_;
  const auto i = static_cast<std::size_t>(state);
  const double sled_j = sled_power_w(params_, state, 0) * to_s(dt);
  const double tip_j = sled_power_w(params_, state, active_tips) * to_s(dt) - sled_j;
  by_state_[i] += sled_j + tip_j;
  tip_ += tip_j;
  total_ += sled_j + tip_j;
  time_[i] += dt;
  now_ = until;
}

void EnergyMeter::add_tip_seconds(double tip_seconds) {
  const double j = tip_seconds * params_.tip_access_power_mw * 1e-3;
  tip_ += j;
  by_state_[static_cast<std::size_t>(SledPowerState::Active)] += j;
  total_ += j;
}

Time EnergyMeter::idle_until(Time request_start) {
  const Time timeout = params_.time_before_inactive();
  const Time gap = request_start - now_;
  if (gap < Time{0})
    throw std::invalid_argument("EnergyMeter::idle_until " + std::to_string(request_start.count()) +
                                " ps, before now (" + std::to_string(now_.count()) + " ps)");
  advance(now_ + std::min(gap, timeout), SledPowerState::Idle);
  if (gap < timeout) return Time{0};
  advance(request_start, SledPowerState::Inactive);
  ++startups_;
  return params_.startup_delay();
}

}  // namespace drivevp::mems
