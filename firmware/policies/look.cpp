// LOOK, the elevator that reverses at the last request (Merten 1970; named in paper 003 §1.1.2,
// "changes scanning direction when no more requests are pending in the current direction").
//
// Rule: keep a sweep direction, initially toward higher cylinders. Serve the first request on the
// nearest pending cylinder at or beyond the arm in the current direction (requests on the arm's
// own cylinder count as ahead and are served first, earlier id first). When nothing is pending
// ahead, reverse the direction and serve the nearest request in the new direction. The arm never
// moves without a transfer (compare SCAN, scan.cpp). Idle when the queue is empty.
//
// Each decision is O(log n) in the number of pending requests (CylinderQueue).
#include "firmware/policies/cylinder_queue.h"
#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class Look final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "LOOK"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override { queue_.insert(c, cylinder_of(c, ctx)); }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    const std::uint32_t c = ctx.head.cylinder;
    auto it = up_ ? queue_.at_or_above(c) : queue_.at_or_below(c);
    if (it == queue_.end()) {
      up_ = !up_;  // nothing ahead: reverse; the queue is not empty, so something is there
      it = up_ ? queue_.at_or_above(c) : queue_.at_or_below(c);
    }
    return Decision::serve(queue_.take(it));
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  CylinderQueue queue_;
  bool up_ = true;  ///< sweeping toward higher cylinders
};

}  // namespace

PolicyInfo describe_look() {
  return {"look", "LOOK",
          "elevator reversing at the last pending request, starting upward (paper 003 §1.1.2)",
          {},
          [](const PolicyParams&) { return std::make_unique<Look>(); }};
}

}  // namespace drivevp
