#include "testbench/metrics/deadline_checker.h"

#include <algorithm>

namespace drivevp {

namespace {

void count(DeadlineChecker::Counts& c, bool missed) {
  ++c.requests;
  if (missed) ++c.missed;
}

nlohmann::json counts_json(const DeadlineChecker::Counts& c) {
  return {{"requests", c.requests}, {"missed", c.missed}, {"miss_ratio", c.miss_ratio()}};
}

nlohmann::json ms(double ps) { return ps / 1e9; }

}  // namespace

void DeadlineChecker::add(const RequestRecord& r) {
  if (r.command.deadline == kNoDeadline) {
    ++without_;
    return;
  }
  const Time late = drivevp::lateness(r);
  const bool missed = late > Time{0};
  count(all_, missed);
  count(by_op_[r.command.is_read() ? 0 : 1], missed);
  const auto cls = static_cast<std::size_t>(r.command.cls);
  if (cls < by_class_.size()) count(by_class_[cls], missed);
  const double l = static_cast<double>(late.count());
  min_lateness_ = lateness_.count() == 0 ? l : std::min(min_lateness_, l);
  lateness_.add(l);
  if (missed) {
    tardiness_.record(late.count());
    tardiness_sum_ += l;
  }
}

nlohmann::json DeadlineChecker::to_json() const {
  nlohmann::json j;
  j["requests"] = all_.requests;
  j["without_deadline"] = without_;
  j["met"] = all_.requests - all_.missed;
  j["missed"] = all_.missed;
  j["miss_ratio"] = all_.miss_ratio();
  nlohmann::json by_op = nlohmann::json::object();
  if (reads().requests) by_op["read"] = counts_json(reads());
  if (writes().requests) by_op["write"] = counts_json(writes());
  j["by_op"] = std::move(by_op);
  nlohmann::json by_class = nlohmann::json::object();
  for (std::size_t i = 0; i < by_class_.size(); ++i)
    if (by_class_[i].requests) by_class[request_class_key(static_cast<RequestClass>(i))] = counts_json(by_class_[i]);
  j["by_class"] = std::move(by_class);
  if (lateness_.count())
    j["lateness_ms"] = {{"mean", ms(*lateness_.mean())},
                        {"stddev", ms(*lateness_.stddev())},
                        {"min", ms(min_lateness_)},
                        {"max", ms(*lateness_.max())}};
  else
    j["lateness_ms"] = nullptr;
  if (all_.missed) {
    auto q = [this](double p) { return ms(*tardiness_.value_at_quantile(p)); };
    j["tardiness_ms"] = {{"mean", ms(tardiness_sum_ / static_cast<double>(all_.missed))},
                         {"p50", q(0.5)},
                         {"p95", q(0.95)},
                         {"p99", q(0.99)},
                         {"max", ms(static_cast<double>(*tardiness_.max()))}};
  } else {
    j["tardiness_ms"] = nullptr;
  }
  return j;
}

}  // namespace drivevp
