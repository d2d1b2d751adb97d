// Saturation of the drive in an open-loop run: the device busy almost all the time while the
// queue keeps growing, so response times grow with the length of the run instead of settling.
// Plain C++.
//
// Definition (over the measured requests, i.e. after the warm-up, the same records as RunMetrics):
//   utilization     U = busy / span, busy = sum of service times (completion - dispatch),
//                   span = last completion - first arrival (RunMetrics' utilization);
//   arrival window  A = last arrival - first arrival;
//   drain           D = last completion - last arrival: how long the drive still worked after the
//                   last request had arrived, i.e. the backlog left when the arrivals stopped;
//   saturated       open loop, A > 0, U >= utilization threshold and D / A >= drain threshold.
// Defaults: U >= 0.95 and D / A >= 0.10 (the backlog at the last arrival is at least a tenth of
// the arrival window's worth of work).
//
// Why these: in a stable queue (arrival rate below the service rate) the backlog stays bounded,
// so D is a few response times and D / A falls towards 0 as the run gets longer. Above the
// service rate the backlog grows linearly with time: the drive then works continuously for
// N / mu after the first arrival while arrivals stop at N / lambda, so D / A tends to
// lambda / mu - 1 and U to 1. The threshold 0.10 flags a sustained overload of 10 % or more
// (lambda >= 1.1 mu) however long the run; a short burst that the drive works off before the
// last arrival is not flagged (U stays below 0.95 over the run or D stays small). A closed loop
// keeps a fixed number of requests in flight, so its queue cannot grow: never saturated in this
// sense, though U is near 1 by construction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "testbench/metrics/request_record.h"
#include "tlm_bus/command.h"

namespace drivevp {

/// Thresholds of the saturation test (see the file comment).
struct SaturationThresholds {
  double utilization = 0.95;     ///< U at or above this, in (0, 1]
  double drain_fraction = 0.10;  ///< D / A at or above this, > 0
};

/// The verdict and the numbers it rests on.
struct SaturationReport {
  bool assessed = false;   ///< false: closed loop, fewer than 2 requests, or A == 0 (see note)
  bool saturated = false;  ///< assessed and both thresholds reached
  std::optional<double> utilization;
  std::optional<Time> arrival_window;  ///< A
  std::optional<Time> drain;           ///< D
  std::optional<double> drain_fraction;
  SaturationThresholds thresholds;
  std::string note;  ///< why it was not assessed; empty when assessed

  /// The "saturation" object of summary.json: saturated, assessed, note (only when not assessed),
  /// utilization, arrival_window_ms, drain_ms, drain_fraction (null when unknown),
  /// thresholds {utilization, drain_fraction}.
  nlohmann::json to_json() const;
  /// One console line for a saturated run (what was found and what to change); "" otherwise.
  std::string warning(bool trace_workload) const;
};

/// Streams RequestRecords (any order) and judges saturation at the end. O(1) memory.
class SaturationDetector {
 public:
  void add(const RequestRecord& record);
  std::uint64_t count() const { return count_; }
  /// The verdict for an open (closed_loop = false) or closed loop.
  SaturationReport report(bool closed_loop, SaturationThresholds thresholds = {}) const;

 private:
  std::uint64_t count_ = 0;
  Time first_arrival_{0};
  Time last_arrival_{0};
  Time last_completion_{0};
  Time busy_{0};
};

}  // namespace drivevp
