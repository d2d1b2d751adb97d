// C-LOOK, circular LOOK (the seek-ordered baseline of Worthington, Ganger & Patt, "Scheduling
// algorithms for modern disk drives", SIGMETRICS 1994, paper 002 ref. [5]): sweep toward higher
// cylinders only. Serve the
// first request on the nearest pending cylinder at or above the arm (the arm's own cylinder first,
// earlier id first); when nothing is pending at or above the arm, serve the first request on the
// lowest pending cylinder (the wrap: one long seek back, with a transfer at its end). The arm
// never moves without a transfer (compare C-SCAN, cscan.cpp). Idle when the queue is empty.
//
// Each decision is O(log n) in the number of pending requests (CylinderQueue).
#include "firmware/policies/cylinder_queue.h"
#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class CLook final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "C-LOOK"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    queue_.insert(c, ctx.predictor->sweep_coordinate(c.lbn));
  }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    auto it = queue_.at_or_above(ctx.predictor->sweep_coordinate(ctx.position));
    if (it == queue_.end()) it = queue_.lowest();
    return Decision::serve(queue_.take(it));
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  CylinderQueue queue_;
};

}  // namespace

PolicyInfo describe_clook() {
  return {"clook",
          "C-LOOK",
          "one-way upward sweep, wrapping to the lowest pending cylinder (Worthington, Ganger & Patt 1994)",
          {},
          [](const PolicyParams&, std::string_view) { return std::make_unique<CLook>(); }};
}

}  // namespace drivevp
