// SSTF, Shortest Seek Time First (Denning 1967, "Effects of scheduling on file memory
// operations"; paper 003 §1.1.2 ref. [6]): serve the pending request whose cylinder is nearest to
// the arm, measured in cylinders |cylinder - head.cylinder|. Ties (equal distance, or the same
// cylinder) go to the earlier command id, i.e. arrival order. Seek distance, not predicted seek
// time, is the criterion: with a monotone seek curve the two orders agree, and the head in use
// and the rotational position are ignored (that is SPTF, sptf.cpp).
//
// Each decision is O(log n) in the number of pending requests (CylinderQueue).
#include "firmware/policies/cylinder_queue.h"
#include "firmware/policies/mems/mems_policy.h"
#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class Sstf final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "SSTF"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    queue_.insert(c, ctx.predictor->sweep_coordinate(c.lbn));
  }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    return Decision::serve(queue_.take(queue_.nearest(ctx.predictor->sweep_coordinate(ctx.position))));
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  CylinderQueue queue_;
};

}  // namespace

PolicyInfo describe_sstf() {
  return {"sstf",
          "SSTF",
          "shortest seek first: nearest cylinder to the arm, ties by arrival (Denning 1967; paper 003 §1.1.2)",
          {},
          [](const PolicyParams& params, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            if (device == "mems") return make_mems_policy("sstf", params);
            return std::make_unique<Sstf>();
          }};
}

}  // namespace drivevp
