// QoS metrics of paper 001 (issue 11): the irregularity of the actual service order per QoS
// dimension (001 §4.1 Definition 4.1), its mean and its standard deviation across the dimensions
// (001 §5.2.2 fairness), each also as a ratio to the FCFS order of the same arrivals (001 §5:
// "presented as a ratio to ... FCFS"), the standard deviation of the waiting time (001 §5: the
// measure of starvation), priority inversions and deadline losses. Plain C++.
//
// Definitions used here:
//  * the global irregularity counts every pair of the run; since requests far apart in time are
//    served in arrival order by any scheduler, it stays near FCFS's. The *queue* irregularity
//    counts only the pairs that waited together (the ones a scheduler can order), each against
//    FCFS's order of the same pairs: this is what the experiments plot as 001 §5's ratio;
//  * the service order is the dispatch order (RequestRecord::dispatch, ties by id); FCFS's order
//    is the arrival order (the command id: the host numbers requests in submission order);
//  * a request's point is its QoS vector (Command::qos, testbench/workload/qos.h: the workload's
//    D levels; dimensions the sfc policy derives in the firmware — cylinder, access time,
//    deadline — are not in it), and its curve position is Curve::encode of that point on the
//    run's curve (firmware.curve for the sfc policy, Sweep for any other policy);
//  * a priority inversion (001 §4.2.2) is a pair (r, j) where j waits — arrived at the host
//    before r's dispatch and dispatched after r — and has a strictly lower curve position than r
//    (a higher priority); counted over all measured requests in O(n log n) (Fenwick tree);
//  * a deadline loss (001 §4.2.3) is a completion strictly after the request's deadline
//    (missed_deadline, deadline_checker.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/sfc/curves.h"
#include "testbench/metrics/request_record.h"

namespace drivevp {

/// The run's QoS space: D dimensions of N levels read from Command::qos, and the curve that
/// gives a request its position.
class QosSpace {
 public:
  /// D in [1, 16], N in [2, 256] (checked by the scenario): positions up to 2^128 - 1 (sfc::Key);
  /// throws std::invalid_argument from sfc::Curve (e.g. Hilbert with N not a power of two).
  /// `vector_dims` (in [dims, 16]; 0 = dims) is the number of dimensions the requests carry
  /// (workload.qos_dims), which requests.csv's qos column shows; the curve reads the first `dims`.
  QosSpace(sfc::CurveKind curve, unsigned dims, unsigned levels, unsigned vector_dims = 0);
  unsigned dims() const { return curve_.dims(); }
  unsigned vector_dims() const { return vector_dims_; }
  unsigned levels() const { return curve_.levels(); }
  const sfc::Curve& curve() const { return curve_; }
  /// Writes the D levels of `c` to `point`.
  void point(const Command& c, std::uint32_t* point) const;
  /// The curve position of `c`'s point.
  sfc::Key position(const Command& c) const;

 private:
  sfc::Curve curve_;
  unsigned vector_dims_;
};

/// Decimal text of a curve position (up to 39 digits) written at `out`; returns one past it.
char* put_key(char* out, sfc::Key k);

/// Collects the measured records of a run with QoS vectors and computes the metrics at the end.
/// Keeps 64 bytes per record.
class QosMetrics {
 public:
  explicit QosMetrics(const QosSpace& space) : space_(space) {}
  void add(const RequestRecord& r);
  std::size_t count() const { return rows_.size(); }
  const QosSpace& space() const { return space_; }
  /// summary.json "sfc": { curve, dims, levels, requests,
  ///   irregularity: { per_dimension: [...], mean, stddev },   (pairs; 001 Definition 4.1)
  ///   fcfs_irregularity: { per_dimension, mean, stddev },     (arrival order)
  ///   irregularity_ratio,                                      (mean / FCFS's mean; null if 0)
  ///   waiting_pairs,                  (pairs of requests that waited together: the later arrival
  ///                                    came at or before the earlier dispatch)
  ///   queue_irregularity: { per_dimension, mean, stddev },    (Definition 4.1 on those pairs)
  ///   fcfs_queue_irregularity: { ... },                        (the same pairs in arrival order)
  ///   queue_irregularity_ratio,                                (mean / FCFS's; null if 0)
  ///   ratio: { per_dimension, mean, stddev },  (queue irregularity per dimension / FCFS's; null
  ///                                             if one is 0; stddev is 001 §5.2.2's fairness)
  ///   waiting_stddev_ms, waiting_mean_ms, priority_inversions, deadline_losses, deadlines }.
  /// Throws std::logic_error when no record was added.
  nlohmann::json to_json() const;

 private:
  struct Row {
    std::uint64_t id;
    std::array<std::uint8_t, kMaxQosDims> qos;
    Time arrival, dispatch;
    sfc::Key position;
  };
  QosSpace space_;
  std::vector<Row> rows_;
  std::uint64_t with_deadline_ = 0, losses_ = 0;
};

}  // namespace drivevp
