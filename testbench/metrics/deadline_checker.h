// The deadline checker of the test bench (issue 9): per request, met or missed and by how much;
// per direction and request class, the miss count and ratio; the lateness distribution. Plain C++.
//
// Definitions (simulated time, the request's absolute Command::deadline as the host assigned it,
// testbench/workload/deadline.h):
//  * lateness = completion - deadline (ps; negative: finished early, by the slack -lateness);
//  * a request misses its deadline when lateness > 0 (completion strictly after the deadline),
//    and meets it otherwise (completing exactly at the deadline meets it);
//  * tardiness = max(0, lateness), reported over the missed requests.
// Requests without a deadline (kNoDeadline) are counted apart and otherwise ignored.
// Memory: O(1) in the number of requests (moments and a LogLinearHistogram of tardiness).
#pragma once

#include <array>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "testbench/metrics/histogram.h"
#include "testbench/metrics/metrics.h"
#include "testbench/metrics/request_record.h"

namespace drivevp {

/// Lateness of a completed request in ps (completion - deadline); only meaningful when
/// r.command.deadline != kNoDeadline.
inline Time lateness(const RequestRecord& r) { return r.completion - r.command.deadline; }
/// True when `r` has a deadline and completed after it.
inline bool missed_deadline(const RequestRecord& r) {
  return r.command.deadline != kNoDeadline && r.completion > r.command.deadline;
}

class DeadlineChecker {
 public:
  /// Met / missed counts of one class of requests.
  struct Counts {
    std::uint64_t requests = 0;  ///< with a deadline
    std::uint64_t missed = 0;
    /// missed / requests; 0 when no request had a deadline.
    double miss_ratio() const { return requests ? static_cast<double>(missed) / static_cast<double>(requests) : 0.0; }
  };

  /// Checks one completed request.
  void add(const RequestRecord& r);

  const Counts& all() const { return all_; }
  const Counts& reads() const { return by_op_[0]; }
  const Counts& writes() const { return by_op_[1]; }
  const Counts& of_class(RequestClass c) const { return by_class_[static_cast<std::size_t>(c)]; }
  std::uint64_t without_deadline() const { return without_; }
  /// Signed lateness (ps) of every request with a deadline.
  const MomentAccumulator& lateness() const { return lateness_; }
  /// Tardiness (ps) of the missed requests.
  const LogLinearHistogram& tardiness() const { return tardiness_; }

  /// summary.json "deadlines": { requests, without_deadline, met, missed, miss_ratio,
  ///   by_op: { read | write: { requests, missed, miss_ratio } } (those that occurred),
  ///   by_class: { discrete | continuous | real_time | aperiodic: {...} } (those that occurred),
  ///   lateness_ms: { mean, stddev, min, max } (signed, all requests with a deadline; null if none),
  ///   tardiness_ms: { mean, p50, p95, p99, max } (missed requests; null if none missed) }.
  /// Percentiles are nearest-rank from the histogram, within 2^-11 relative error.
  nlohmann::json to_json() const;

 private:
  Counts all_;
  std::array<Counts, 2> by_op_{};
  std::array<Counts, RunMetrics::kClasses> by_class_{};
  std::uint64_t without_ = 0;
  MomentAccumulator lateness_;
  double min_lateness_ = 0;
  LogLinearHistogram tardiness_;
  double tardiness_sum_ = 0;
};

}  // namespace drivevp
