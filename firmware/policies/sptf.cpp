// SPTF, Shortest Positioning Time First (Seltzer, Chen & Ousterhout, "Disk scheduling revisited",
// USENIX 1990; Jacobson & Wilkes, HPL-CSP-91-7, 1991; Worthington, Ganger & Patt, SIGMETRICS 1994;
// named in paper 003 §1.1.2 and paper 002 §2.2).
//
// Rule: serve the pending request with the smallest predicted positioning time (seek + settle or
// head switch, plus rotational latency) from the arm's current cylinder and head, starting at
// ctx.now, as given by the firmware's PositioningPredictor::predict(). Ties go to the earlier
// command id. The Serve decision carries that predicted positioning time (picoseconds).
// Transfer time and request length are not considered; the prediction is for the first block.
//
// Each decision is O(n) in the number of pending requests (one prediction per request, no
// allocation); removal is O(1) (the queue is unordered).
#include <cstdint>
#include <tuple>
#include <vector>

#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class Sptf final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "SPTF"; }
  void enqueue(const Command& c, const SchedulingContext&) override { queue_.push_back({c, seq_++}); }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    std::size_t best = 0;
    Time best_time = Time::max();
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const Time t = ctx.predictor->predict(ctx.head, ctx.now, queue_[i].command.lbn).positioning();
      if (t < best_time || (t == best_time && earlier(queue_[i], queue_[best]))) {
        best = i;
        best_time = t;
      }
    }
    const Command chosen = queue_[best].command;
    queue_[best] = queue_.back();  // unordered: O(1) removal
    queue_.pop_back();
    return Decision::serve(chosen, best_time);
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  struct Entry {
    Command command;
    std::uint64_t seq;  ///< enqueue order, the tie-break after the id
  };
  static bool earlier(const Entry& a, const Entry& b) {
    return std::tie(a.command.id, a.seq) < std::tie(b.command.id, b.seq);
  }
  std::vector<Entry> queue_;
  std::uint64_t seq_ = 0;
};

}  // namespace

PolicyInfo describe_sptf() {
  return {"sptf", "SPTF",
          "shortest predicted positioning time (seek + rotation) first, ties by arrival (Seltzer, Chen & "
          "Ousterhout 1990; Worthington, Ganger & Patt 1994)",
          {},
          [](const PolicyParams&) { return std::make_unique<Sptf>(); }};
}

}  // namespace drivevp
