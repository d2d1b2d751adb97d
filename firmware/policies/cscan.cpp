// C-SCAN, circular SCAN (Teorey & Pinkerton, "A comparative analysis of disk scheduling policies",
// CACM 1972; the zone order of ZSPTF in paper 002 §2.2): a one-way sweep toward higher cylinders
// that runs to the disk edge and returns to cylinder 0 without serving.
//
// Rule, exactly (L = cylinders()-1):
//   1. Serve the first request on the nearest pending cylinder at or above the arm (the arm's own
//      cylinder first, earlier id first).
//   2. If nothing is pending at or above the arm and the arm is below L, return Reposition(L):
//      finish the upward sweep to the edge without a transfer.
//   3. If nothing is pending at or above the arm and the arm is at L, return Reposition(0): the
//      return stroke, without a transfer. The next call is then at cylinder 0, where every pending
//      request is "at or above", so rule 1 resumes the upward sweep.
// Each call looks at the queue afresh, so a request that arrives during the sweep to the edge,
// above the arm, is served on the way. With an empty queue the answer is Idle and the arm stays
// where it is (no sweep and no return stroke for nothing).
//
// Each decision is O(log n) in the number of pending requests (CylinderQueue).
#include "firmware/policies/cylinder_queue.h"
#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class CScan final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "C-SCAN"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    queue_.insert(c, ctx.predictor->sweep_coordinate(c.lbn));
  }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    const std::uint32_t c = ctx.predictor->sweep_coordinate(ctx.position);
    const auto it = queue_.at_or_above(c);
    if (it != queue_.end()) return Decision::serve(queue_.take(it));
    const std::uint32_t last = ctx.predictor->sweep_extent() - 1;
    return Decision::reposition(c < last ? last : 0);
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  CylinderQueue queue_;
};

}  // namespace

PolicyInfo describe_cscan() {
  return {"cscan",
          "C-SCAN",
          "one-way upward sweep to the last cylinder, then a return stroke to cylinder 0 (Teorey & Pinkerton 1972)",
          {},
          [](const PolicyParams&, std::string_view) { return std::make_unique<CScan>(); }};
}

}  // namespace drivevp
