// The metrics of paper 004 §4 (Figs. 5-12) for a rate_tasks run, summary.json root "rate_tasks".
// Plain C++.
//
// Definitions (004 §4: "we apply the same workload to each algorithm for a fixed amount of time";
// the execution length L is the workload's duration, and the disk-time sums, seek distance and
// aperiodic bytes count the commands completed within [0, L]):
//  * a job (the commands of one task with one deadline) misses when its last command completes
//    after the deadline; per task: jobs, missed, the largest lateness;
//  * total seek distance: cylinders moved by the initial seeks of all commands (Fig. 5);
//  * normalised idle = (L - transfer - seek - rotation) / L (Fig. 6), normalised seek = seek / L
//    (Fig. 7), rotation = rotational latency / L (Fig. 8), non-transmission = (seek + rotation) / L
//    (Fig. 9), utilisation = transfer / (transfer + seek + rotation) (Fig. 10), summed over all
//    media accesses (a contiguous batch of commands is one access, counted once; the controller's
//    command overhead is in none of them, as in 004's disk model);
//  * aperiodic throughput = bytes of aperiodic requests completed by L / L (Fig. 11); response time
//    = completion - arrival, mean over all aperiodic requests, also those completed after L (Fig. 12).
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "testbench/metrics/metrics.h"
#include "testbench/metrics/request_record.h"

namespace drivevp {

class RateTaskMetrics {
 public:
  /// `window` = L > 0, the workload's duration.
  explicit RateTaskMetrics(Time window) : window_(window) {}
  /// Accounts one completed command.
  void add(const RequestRecord& r);

  /// One task's jobs.
  struct TaskJobs {
    std::uint64_t jobs = 0;
    std::uint64_t missed = 0;
    double max_lateness_ms = 0;  ///< largest completion - deadline over its jobs (negative: all early)
  };
  /// Per task (Command::stream), computed from the jobs seen so far.
  std::map<std::uint32_t, TaskJobs> tasks() const;

  /// summary.json "rate_tasks" (without "admission", which the platform adds):
  /// { execution_ms, jobs, jobs_missed, tasks: [{ id, jobs, missed, max_lateness_ms }],
  ///   aperiodic: { requests, bytes, throughput_bytes_per_s, response_mean_ms, response_max_ms },
  ///   seek_distance_total_cylinders, seek_ms, rotation_ms, transfer_ms, normalized_idle,
  ///   normalized_seek, normalized_rotation, normalized_non_transmission, utilization }.
  nlohmann::json to_json() const;

 private:
  /// Latest completion of each job, by (task, absolute deadline).
  Time window_;
  std::map<std::pair<std::uint32_t, std::int64_t>, Time> jobs_;
  MomentAccumulator aperiodic_response_ms_;
  std::uint64_t aperiodic_bytes_ = 0;
  std::uint64_t seek_distance_ = 0;
  Time seek_{0}, rotation_{0}, transfer_{0};
  bool have_last_ = false;
  Time last_dispatch_{0}, last_transfer_end_{0};  ///< of the last access counted
};

}  // namespace drivevp
