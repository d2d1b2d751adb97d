// The shared engine of SCAN and LOOK; see scan.cpp and look.cpp for the rules and their sources.
#pragma once

#include <string>

#include "firmware/policies/cylinder_queue.h"
#include "firmware/policy.h"

namespace drivevp {

/// The two-way elevator. Keeps a sweep direction, initially toward higher cylinders, and serves
/// the first request on the nearest pending cylinder at or beyond the arm in that direction
/// (requests on the arm's own cylinder count as ahead). When nothing is pending ahead: with
/// `sweep_to_edge` (SCAN) the arm first travels to the edge of the sweep without a transfer
/// (Decision::Reposition) and reverses there; without it (LOOK) it reverses at once. Idle when
/// the queue is empty (no sweep for nothing; the direction is kept). O(log n) per decision.
class Elevator final : public SchedulingPolicy {
 public:
  Elevator(std::string name, bool sweep_to_edge) : name_(std::move(name)), sweep_to_edge_(sweep_to_edge) {}
  std::string_view name() const override { return name_; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    queue_.insert(c, ctx.predictor->sweep_coordinate(c.lbn));
  }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    const std::uint32_t c = ctx.predictor->sweep_coordinate(ctx.position);
    auto it = up_ ? queue_.at_or_above(c) : queue_.at_or_below(c);
    if (it == queue_.end()) {
      if (sweep_to_edge_) {
        const std::uint32_t edge = up_ ? ctx.predictor->sweep_extent() - 1 : 0;
        if (c != edge) return Decision::reposition(edge);
      }
      up_ = !up_;  // reverse; the queue is not empty, so something is there
      it = up_ ? queue_.at_or_above(c) : queue_.at_or_below(c);
    }
    return Decision::serve(queue_.take(it));
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  std::string name_;
  bool sweep_to_edge_;
  CylinderQueue queue_;
  bool up_ = true;  ///< sweeping toward higher cylinders
};

}  // namespace drivevp
