#include "testbench/metrics/rate_task_metrics.h"

#include <algorithm>

namespace drivevp {

void RateTaskMetrics::add(const RequestRecord& r) {
  const Command& c = r.command;
  if (c.cls == RequestClass::RealTime && c.deadline != kNoDeadline) {
    auto [it, fresh] = jobs_.try_emplace({c.stream, c.deadline.count()}, r.completion);
    if (!fresh) it->second = std::max(it->second, r.completion);
  } else if (c.cls == RequestClass::Aperiodic) {
    aperiodic_response_ms_.add(to_ms(r.response()));
    if (r.completion <= window_) aperiodic_bytes_ += std::uint64_t{c.blocks} * kBlockBytes;
  }
  if (r.completion > window_) return;
  // The commands of one media access (a contiguous batch) share its dispatch, seek and transfer
  // and complete one after another: the access's times count once.
  if (have_last_ && r.dispatch == last_dispatch_ && r.transfer_end == last_transfer_end_) return;
  have_last_ = true;
  last_dispatch_ = r.dispatch;
  last_transfer_end_ = r.transfer_end;
  seek_distance_ += r.seek_distance;
  seek_ += r.seek();
  rotation_ += r.rotational_latency();
  transfer_ += r.transfer();
}

std::map<std::uint32_t, RateTaskMetrics::TaskJobs> RateTaskMetrics::tasks() const {
  std::map<std::uint32_t, TaskJobs> out;
  for (const auto& [key, completion] : jobs_) {
    TaskJobs& t = out[key.first];
    const double lateness = to_ms(completion - Time{key.second});
    t.max_lateness_ms = t.jobs == 0 ? lateness : std::max(t.max_lateness_ms, lateness);
    ++t.jobs;
    if (completion > Time{key.second}) ++t.missed;
  }
  return out;
}

nlohmann::json RateTaskMetrics::to_json() const {
  const double l = to_ms(window_);
  const double seek = to_ms(seek_), rot = to_ms(rotation_), xfer = to_ms(transfer_);
  nlohmann::json j;
  j["execution_ms"] = l;
  std::uint64_t jobs = 0, missed = 0;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [id, t] : tasks()) {
    jobs += t.jobs;
    missed += t.missed;
    list.push_back({{"id", id}, {"jobs", t.jobs}, {"missed", t.missed}, {"max_lateness_ms", t.max_lateness_ms}});
  }
  j["jobs"] = jobs;
  j["jobs_missed"] = missed;
  j["tasks"] = list;
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  j["aperiodic"] = {{"requests", aperiodic_response_ms_.count()},
                    {"bytes", aperiodic_bytes_},
                    {"throughput_bytes_per_s", l > 0 ? static_cast<double>(aperiodic_bytes_) / (l * 1e-3) : 0.0},
                    {"response_mean_ms", opt(aperiodic_response_ms_.mean())},
                    {"response_max_ms", opt(aperiodic_response_ms_.max())}};
  j["seek_distance_total_cylinders"] = seek_distance_;
  j["seek_ms"] = seek;
  j["rotation_ms"] = rot;
  j["transfer_ms"] = xfer;
  j["normalized_idle"] = l > 0 ? (l - xfer - seek - rot) / l : 0.0;
  j["normalized_seek"] = l > 0 ? seek / l : 0.0;
  j["normalized_rotation"] = l > 0 ? rot / l : 0.0;
  j["normalized_non_transmission"] = l > 0 ? (seek + rot) / l : 0.0;
  j["utilization"] = xfer + seek + rot > 0 ? xfer / (xfer + seek + rot) : 0.0;
  return j;
}

}  // namespace drivevp
