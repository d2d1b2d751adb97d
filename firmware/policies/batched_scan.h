// The shared engine of N-step SCAN (nstep_scan.cpp) and FSCAN (fscan.cpp): the queue is a
// sequence of batches; the first is served with SCAN and is closed to arrivals once its service
// has started; arrivals join the last open batch while it holds fewer than `n` requests (N-step
// SCAN) or without a limit (FSCAN, n = 0), else start a new batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "firmware/policies/cylinder_queue.h"
#include "firmware/policy.h"

namespace drivevp {

/// SCAN over the first batch: a sweep direction, initially toward higher sweep coordinates and
/// kept across batches; serve the first request on the nearest coordinate at or beyond the media
/// in that direction (the current coordinate counts as ahead, earlier id first); when the batch
/// has nothing ahead, Reposition to the edge of the sweep (no transfer), then reverse there (as
/// scan.cpp). Idle when every batch is empty.
class BatchedScan final : public SchedulingPolicy {
 public:
  BatchedScan(std::string name, std::size_t n) : name_(std::move(name)), n_(n) {}
  std::string_view name() const override { return name_; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    const std::uint32_t cyl = ctx.predictor->sweep_coordinate(c.lbn);
    const bool closed = batches_.size() == 1 && started_;
    if (batches_.empty() || closed || (n_ > 0 && batches_.back().size() >= n_)) batches_.emplace_back();
    batches_.back().insert(c, cyl);
    ++pending_;
  }
  Decision next(const SchedulingContext& ctx) override {
    if (pending_ == 0) return Decision::idle();
    if (batches_.front().empty()) {  // the batch in service is done: the next one opens
      batches_.pop_front();
      started_ = false;
    }
    started_ = true;
    CylinderQueue& q = batches_.front();
    const std::uint32_t c = ctx.predictor->sweep_coordinate(ctx.position);
    auto it = up_ ? q.at_or_above(c) : q.at_or_below(c);
    if (it == q.end()) {
      const std::uint32_t edge = up_ ? ctx.predictor->sweep_extent() - 1 : 0;
      if (c != edge) return Decision::reposition(edge);
      up_ = !up_;
      it = up_ ? q.at_or_above(c) : q.at_or_below(c);
    }
    --pending_;
    return Decision::serve(q.take(it));
  }
  std::size_t pending() const override { return pending_; }
  /// Requests in each batch, the one in service first (for tests).
  std::deque<std::size_t> batch_sizes() const {
    std::deque<std::size_t> s;
    for (const CylinderQueue& q : batches_) s.push_back(q.size());
    return s;
  }

 private:
  std::string name_;
  std::size_t n_;
  std::deque<CylinderQueue> batches_;
  bool started_ = false;  ///< the first batch is in service (closed to arrivals)
  std::size_t pending_ = 0;
  bool up_ = true;
};

}  // namespace drivevp
