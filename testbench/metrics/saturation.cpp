#include "testbench/metrics/saturation.h"

#include <algorithm>

#include <fmt/format.h>

namespace drivevp {

void SaturationDetector::add(const RequestRecord& r) {
  if (count_ == 0) {
    first_arrival_ = last_arrival_ = r.command.arrival;
    last_completion_ = r.completion;
  } else {
    first_arrival_ = std::min(first_arrival_, r.command.arrival);
    last_arrival_ = std::max(last_arrival_, r.command.arrival);
    last_completion_ = std::max(last_completion_, r.completion);
  }
  busy_ += r.service();
  ++count_;
}

SaturationReport SaturationDetector::report(bool closed_loop, SaturationThresholds thresholds) const {
  SaturationReport s;
  s.thresholds = thresholds;
  if (count_ > 0) {
    const Time span = last_completion_ - first_arrival_;
    if (span > Time{0}) s.utilization = static_cast<double>(busy_.count()) / static_cast<double>(span.count());
    s.arrival_window = last_arrival_ - first_arrival_;
    s.drain = last_completion_ - last_arrival_;
    if (*s.arrival_window > Time{0})
      s.drain_fraction = static_cast<double>(s.drain->count()) / static_cast<double>(s.arrival_window->count());
  }
  if (closed_loop) {
    s.note = "closed loop: a fixed number of requests is kept in flight, so the queue cannot grow";
  } else if (count_ < 2) {
    s.note = "fewer than 2 measured requests";
  } else if (!s.drain_fraction || !s.utilization) {
    s.note = "every measured request arrived at the same time";
  } else {
    s.assessed = true;
    s.saturated = *s.utilization >= thresholds.utilization && *s.drain_fraction >= thresholds.drain_fraction;
  }
  return s;
}

nlohmann::json SaturationReport::to_json() const {
  auto ms = [](const std::optional<Time>& t) { return t ? nlohmann::json(to_ms(*t)) : nlohmann::json(nullptr); };
  auto num = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json j = {
      {"assessed", assessed},
      {"saturated", saturated},
      {"utilization", num(utilization)},
      {"arrival_window_ms", ms(arrival_window)},
      {"drain_ms", ms(drain)},
      {"drain_fraction", num(drain_fraction)},
      {"thresholds", {{"utilization", thresholds.utilization}, {"drain_fraction", thresholds.drain_fraction}}}};
  if (!assessed) j["note"] = note;
  return j;
}

std::string SaturationReport::warning(bool trace_workload) const {
  if (!saturated) return "";
  return fmt::format(
      "the drive is saturated: utilization {:.3f}, and {:.1f} s of queued work remained when the last request "
      "arrived ({:.0f} % of the {:.1f} s arrival window), so the queue grew without bound and response times "
      "grow with the run's length. This measures the overload, not the policy: {}",
      *utilization, to_ms(*drain) / 1000.0, *drain_fraction * 100.0, to_ms(*arrival_window) / 1000.0,
      trace_workload ? "slow the replay with workload.time_scale below 1 (it divides inter-arrival times) or "
                       "use a faster device"
                     : "lower workload.rate_per_s or use a faster device");
}

}  // namespace drivevp
