// Aged SPTF, ASPTF(W) (Worthington, Ganger & Patt, "Scheduling algorithms for modern disk drives",
// SIGMETRICS 1994, paper 002 ref. [5]; the aged SATF of Jacobson & Wilkes, HPL-CSP-91-7, 1991,
// paper 003 ref. [12]): SPTF with an aging term that bounds starvation.
//
// Rule: for each pending request compute
//     effective = positioning - W * (ctx.now - command.arrival)
// where positioning is PositioningPredictor::predict(ctx.head, ctx.now, lbn).positioning() and
// W (parameter `age_weight`, dimensionless, [0, 1000], default 6) weighs the time the request has
// waited since the host submitted it. Serve the request with the smallest effective value; ties
// go to the earlier command id. W = 0 is SPTF; a W large against the spread of positioning times
// serves in arrival order (FCFS). The Serve decision carries the predicted positioning time (not
// the effective value), in picoseconds. The arithmetic is in double: positioning times and ages
// of simulated runs are exact in a double's 53-bit mantissa at picosecond resolution up to ~2.5
// hours.
//
// Each decision is O(n) in the number of pending requests (no allocation); removal is O(1).
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class AgedSptf final : public SchedulingPolicy {
 public:
  explicit AgedSptf(double age_weight) : age_weight_(age_weight) {}
  std::string_view name() const override { return "ASPTF(W)"; }
  void enqueue(const Command& c, const SchedulingContext&) override { queue_.push_back({c, seq_++}); }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    std::size_t best = 0;
    Time best_time{-1};
    double best_effective = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const Command& c = queue_[i].command;
      const Time t = ctx.predictor->predict(ctx.head, ctx.now, c.lbn).positioning();
      const double effective =
          static_cast<double>(t.count()) - age_weight_ * static_cast<double>((ctx.now - c.arrival).count());
      if (i == 0 || effective < best_effective || (effective == best_effective && earlier(queue_[i], queue_[best]))) {
        best = i;
        best_time = t;
        best_effective = effective;
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
  double age_weight_;
  std::vector<Entry> queue_;
  std::uint64_t seq_ = 0;
};

}  // namespace

PolicyInfo describe_aged_sptf() {
  return {"aged_sptf", "ASPTF(W)",
          "SPTF on positioning - W x waiting time (Worthington, Ganger & Patt, SIGMETRICS 1994; "
          "Jacobson & Wilkes 1991 aged SATF)",
          {{"age_weight", 6, 0, 1000, "",
            "W, weight of the waiting time subtracted from the predicted positioning time (dimensionless); "
            "Worthington, Ganger & Patt, SIGMETRICS 1994, ASPTF(W)"}},
          [](const PolicyParams& p) { return std::make_unique<AgedSptf>(p.at("age_weight")); }};
}

}  // namespace drivevp
