// noop, the Linux kernel's first-in first-out elevator (block/noop-iosched.c, removed in 5.0 with
// the legacy block layer; its multi-queue successor is "none"): requests go to the device in
// arrival order; the only thing the block layer does to them is back merging, a new request that
// starts where a queued request of the same direction ends joining that request. Paper 000 §2:
// "simple least operations on the Input Output request before forwarding it".
//
// Rule: serve the oldest queued command; on the disk, with it every queued command of the same
// op that starts where it (or the chain so far) ends, as one batch in LBN order (SectorQueue
// take_chain: how a merge is modelled and what that leaves out). No front merges (the noop
// elevator had no merge hook of its own; the block layer's generic merge is a back merge). On a
// MEMS device there is no merging: its media driver serves a batch only at one sled position
// across regions, which a contiguous chain is not.
#include "firmware/policies/policies.h"
#include "firmware/policies/sector_queue.h"

namespace drivevp {
namespace {

class Noop final : public SchedulingPolicy {
 public:
  explicit Noop(bool merge) : merge_(merge) {}
  std::string_view name() const override { return "noop"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override { queue_.insert(c, ctx.now); }
  Decision next(const SchedulingContext&) override {
    if (queue_.empty()) return Decision::idle();
    if (!merge_) return Decision::serve(queue_.take(queue_.oldest()));
    return serve_chain(queue_.take_chain(queue_.oldest(), false));
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  bool merge_;
  SectorQueue queue_;
};

}  // namespace

PolicyInfo describe_noop() {
  return {"noop",
          "noop",
          "Linux noop elevator: arrival order with back merging of contiguous requests (block/noop-iosched.c; "
          "paper 000 §2)",
          {},
          [](const PolicyParams&, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            return std::make_unique<Noop>(device == "disk");
          }};
}

}  // namespace drivevp
