// Run metrics: streaming statistics over completed requests (RequestRecord), exported as the
// metrics object of summary.json and as a response-time histogram CSV. Plain C++.
//
// Covers: counts, response-time mean / percentiles / max, squared coefficient of variation
// (paper 002 §4, Fig. 3), Jain fairness index (paper 003 eq. (2)), the same per request class,
// seek distance, the service-time breakdown, utilization, throughput, the firmware predictor's
// positioning error, data-integrity failures. Leaves out: warm-up filtering (the caller decides
// which records to add), per-stream statistics, round and deadline statistics (their checkers own
// those), and confidence intervals across runs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "testbench/metrics/histogram.h"
#include "testbench/metrics/request_record.h"
#include "tlm_bus/command.h"

namespace drivevp {

/// Streaming mean and population variance (Welford 1962), from which the squared coefficient of
/// variation and Jain's fairness index follow. O(1) memory. Values in any unit (RunMetrics uses ps).
class MomentAccumulator {
 public:
  void add(double x);

  std::uint64_t count() const { return n_; }
  /// std::nullopt when no samples.
  std::optional<double> mean() const;
  /// Population variance sum((x - mean)^2) / n; std::nullopt when no samples.
  std::optional<double> variance() const;
  std::optional<double> stddev() const;
  std::optional<double> max() const;
  /// Squared coefficient of variation variance / mean^2 (paper 002 §4); std::nullopt when no
  /// samples or mean == 0.
  std::optional<double> scv() const;
  /// Jain fairness index (sum x)^2 / (n * sum x^2) (paper 003 eq. (2), Jain, Chiu, Hawe 1984), in
  /// (0, 1] for non-negative samples, 1 when all are equal. Computed as the identical
  /// mean^2 / (mean^2 + variance) = 1 / (1 + scv) from the Welford moments, which does not lose
  /// precision on large sums. std::nullopt when no samples or all samples are 0.
  std::optional<double> jain_fairness() const;

 private:
  std::uint64_t n_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;  ///< sum of squared deviations from the running mean
  double max_ = 0.0;
};

/// Accumulates RequestRecords as they complete; memory does not grow with the number of requests
/// (the response-time histogram grows only with the largest response time, see LogLinearHistogram).
///
/// Definitions (all times are simulated time):
/// - response time = completion - arrival; percentiles are nearest-rank values from a
///   LogLinearHistogram, within response_histogram().relative_error_bound() (2^-11 by default);
///   mean, stddev, SCV, Jain and max are exact.
/// - span = last completion - first arrival over the added records; busy = sum of service times
///   (completion - dispatch); utilization = busy / span (can exceed 1 only if the device serves
///   requests concurrently).
/// - throughput = requests / span and bytes / span, MB = 10^6 bytes.
/// - prediction error = predicted_positioning - (seek + rotational latency), over the records whose
///   predicted_positioning >= 0.
class RunMetrics {
 public:
  static constexpr std::size_t kClasses = 4;  ///< RequestClass values

  explicit RunMetrics(int histogram_precision_bits = LogLinearHistogram::kDefaultPrecisionBits);

  /// Adds one completed request. No allocation except when a response time reaches a new power of
  /// two for the first time.
  void add(const RequestRecord& record);

  std::uint64_t count() const { return response_.count(); }
  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }
  std::uint64_t data_errors() const { return data_errors_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t total_seek_distance() const { return seek_distance_total_; }

  /// Response-time moments in picoseconds.
  const MomentAccumulator& response() const { return response_; }
  /// Response-time moments (ps) of one request class; nullptr if that class never occurred.
  const MomentAccumulator* response_of(RequestClass cls) const;
  const LogLinearHistogram& response_histogram() const { return histogram_; }
  /// Nearest-rank response-time quantile in ms, q in [0, 1]; std::nullopt when empty.
  std::optional<double> response_quantile_ms(double q) const;

  /// Means in picoseconds of the service-time components.
  const MomentAccumulator& queue_wait() const { return queue_wait_; }
  const MomentAccumulator& seek() const { return seek_; }
  const MomentAccumulator& rotational_latency() const { return rotational_latency_; }
  const MomentAccumulator& transfer() const { return transfer_; }
  const MomentAccumulator& service() const { return service_; }
  /// Signed and absolute prediction errors in picoseconds.
  const MomentAccumulator& prediction_error() const { return prediction_error_; }
  const MomentAccumulator& prediction_abs_error() const { return prediction_abs_error_; }

  /// Sum of service times; 0 when empty.
  Time busy() const { return busy_; }
  /// Last completion - first arrival; std::nullopt when empty.
  std::optional<Time> span() const;
  /// busy / span; std::nullopt when empty or the span is 0.
  std::optional<double> utilization() const;
  std::optional<double> throughput_requests_per_s() const;
  /// MB/s with MB = 10^6 bytes.
  std::optional<double> throughput_mb_per_s() const;

  /// The metrics object of summary.json. Keys (std::map order), times in ms as doubles, null when
  /// the metric has no samples (never NaN):
  ///   requests, reads, writes, data_errors, bytes,
  ///   response_mean_ms, response_stddev_ms, response_min_ms, response_p50_ms, response_p95_ms,
  ///   response_p99_ms, response_max_ms, response_scv, response_jain_fairness,
  ///   response_percentile_relative_error,
  ///   by_class: { discrete | continuous | real_time | aperiodic (only those that occurred):
  ///               { requests, response_mean_ms, response_stddev_ms, response_max_ms,
  ///                 response_scv, response_jain_fairness } },
  ///   seek_distance_total_cylinders, seek_distance_mean_cylinders,
  ///   queue_wait_mean_ms, seek_mean_ms, rotational_latency_mean_ms, transfer_mean_ms,
  ///   service_mean_ms, busy_ms, span_ms, utilization,
  ///   throughput_requests_per_s, throughput_mb_per_s,
  ///   prediction_samples, prediction_mean_abs_error_ms, prediction_mean_error_ms,
  ///   prediction_max_abs_error_ms.
  nlohmann::json to_json() const;

 private:
  LogLinearHistogram histogram_;
  MomentAccumulator response_;
  std::array<MomentAccumulator, kClasses> by_class_{};
  MomentAccumulator queue_wait_, seek_, rotational_latency_, transfer_, service_;
  MomentAccumulator prediction_error_, prediction_abs_error_;
  std::uint64_t reads_ = 0;
  std::uint64_t writes_ = 0;
  std::uint64_t data_errors_ = 0;
  std::uint64_t bytes_ = 0;
  std::uint64_t seek_distance_total_ = 0;
  Time busy_{0};
  Time first_arrival_{0};
  Time last_completion_{0};
};

/// Scenario / JSON spelling of a request class: "discrete", "continuous", "real_time", "aperiodic".
const char* request_class_key(RequestClass cls);

/// Writes the non-empty buckets of a histogram of picosecond values as CSV with the header
/// "lower_ms,upper_ms,count,cumulative_fraction": [lower_ms, upper_ms) is the bucket, count its
/// samples, cumulative_fraction the fraction of all samples in this and the lower buckets (the
/// CDF at upper_ms). Only the header when the histogram is empty.
void write_histogram_csv(std::ostream& os, const LogLinearHistogram& histogram);
/// write_histogram_csv() of the response-time histogram.
void write_response_histogram_csv(std::ostream& os, const RunMetrics& metrics);

}  // namespace drivevp
