// The run monitor: one requests.csv row per completed request, summary metrics, progress.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "testbench/metrics/deadline_checker.h"
#include "testbench/metrics/demerit.h"
#include "testbench/metrics/metrics.h"
#include "testbench/metrics/qos_metrics.h"
#include "testbench/metrics/request_record.h"
#include "testbench/metrics/saturation.h"

namespace drivevp {

/// Streams RequestRecords to a CSV file (nothing kept per request) and accumulates RunMetrics for
/// the records after the warm-up. CSV columns (times in ms, printed exactly from integer
/// picoseconds with 9 decimals): id, op, lbn, blocks, cylinder, head, seek_distance, arrival_ms,
/// dispatch_ms, seek_start_ms, seek_end_ms, transfer_start_ms, transfer_end_ms, completion_ms,
/// queue_wait_ms, seek_ms, rotational_latency_ms, transfer_ms, service_ms, response_ms,
/// predicted_positioning_ms (empty when the policy made no prediction), data_ok; in a run with
/// deadlines (workload.deadline other than none) also deadline_ms (absolute), lateness_ms
/// (completion - deadline, negative when early) and deadline_met (1 or 0), all three empty for a
/// request without a deadline. A run with deadlines also feeds a DeadlineChecker. A run with QoS
/// vectors (`qos`) adds the columns qos (the request's QoS vector: its levels, dimension 0 first,
/// ':'-separated, e.g. 3:15:0:7) and sfc_position (the request's curve position in that space,
/// decimal, up to 39 digits) and feeds QosMetrics. A run with measured service times (`measured`: a validate
/// trace) adds measured_service_ms as the last column and feeds two ServiceTimeDistributions
/// (simulated response, measured service) for the demerit.
class RunMonitor {
 public:
  static const char* csv_header();
  /// The header of a run with deadlines: csv_header()'s columns + deadline_ms,lateness_ms,deadline_met.
  static const char* csv_header_with_deadlines();

  /// `csv_path` empty: no CSV. Throws std::runtime_error naming the file and the system's reason
  /// if it cannot be created.
  RunMonitor(const std::string& csv_path, std::uint64_t warmup_requests, std::uint64_t expected_requests, bool progress,
             bool deadlines = false, const QosSpace* qos = nullptr, bool measured = false);
  ~RunMonitor();
  RunMonitor(const RunMonitor&) = delete;
  RunMonitor& operator=(const RunMonitor&) = delete;

  /// Queues `r` for the writer thread (formatting and metrics run there, in record order, so
  /// the output bytes are the same as a single-threaded writer's). Blocks only while the ring of
  /// kRingSize records is full.
  void record(const RequestRecord& r);
  /// Waits for the writer thread, then flushes and closes the CSV; throws std::runtime_error
  /// naming the file and the system's reason (e.g. "No space left on device") on a write error.
  void finish();
  /// True once a CSV write has failed (set by the writer thread; the rows after it are dropped
  /// and finish() throws). Lets the caller stop a doomed run early.
  bool write_failed() const { return write_errno_.load(std::memory_order_relaxed) != 0; }
  /// The errno of the first failed CSV write (after finish(): also of the final flush and close),
  /// 0 if none.
  int write_error() const { return write_errno_.load(); }
  /// Valid after finish().
  const RunMetrics& metrics() const { return metrics_; }
  /// Saturation statistics of the measured records (after the warm-up); valid after finish().
  const SaturationDetector& saturation() const { return saturation_; }
  /// Deadline outcomes of the measured records (after the warm-up) of a run with deadlines;
  /// valid after finish().
  const DeadlineChecker& deadlines() const { return deadline_checker_; }
  /// QoS metrics (paper 001) of the measured records of a run with QoS vectors (`qos` given),
  /// else nullptr; valid after finish().
  const QosMetrics* qos() const { return qos_ ? &*qos_ : nullptr; }
  std::uint64_t recorded() const { return recorded_; }
  /// A run with measured service times: the simulated response times (issue to completion,
  /// closed loop) and the measured service times of the measured records; valid after finish().
  const ServiceTimeDistribution& simulated_times() const { return simulated_times_; }
  const ServiceTimeDistribution& measured_times() const { return measured_times_; }

 private:
  static constexpr std::size_t kRingSize = 4096;  ///< records in flight to the writer (flat memory)
  void progress(const RequestRecord& r);
  void drain();        ///< the writer thread's loop
  void stop_writer();  ///< signals the end and joins the writer
  void write_row(const RequestRecord& r, std::uint64_t index);
  std::FILE* csv_ = nullptr;
  std::string csv_path_;
  std::vector<char> buffer_;  ///< pending CSV bytes [0, used_)
  std::size_t used_ = 0;
  RunMetrics metrics_;
  SaturationDetector saturation_;
  DeadlineChecker deadline_checker_;
  std::optional<QosMetrics> qos_;  ///< a run with QoS vectors: metrics and the sfc_position column
  ServiceTimeDistribution simulated_times_;
  ServiceTimeDistribution measured_times_;
  std::atomic<int> write_errno_{0};  ///< errno of the first failed CSV write, 0 if none
  std::uint64_t warmup_;
  std::uint64_t expected_;
  std::uint64_t recorded_ = 0;
  bool progress_enabled_;
  bool progress_shown_ = false;
  bool deadlines_ = false;  ///< the run has deadlines: CSV columns and the checker
  bool measured_ = false;   ///< the run has measured service times: CSV column and distributions
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_progress_;
  // Single-producer single-consumer ring between the simulation and the writer thread.
  std::vector<RequestRecord> ring_;
  std::atomic<std::uint64_t> head_{0};  ///< next record the writer takes
  std::atomic<std::uint64_t> tail_{0};  ///< next slot the simulation fills
  std::atomic<bool> done_{false};
  std::thread writer_;
};

}  // namespace drivevp
