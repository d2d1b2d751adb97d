// The shared engine of SPTF and aged SPTF (ASPTF(W)); see sptf.cpp and aged_sptf.cpp for the
// rules and their sources.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "firmware/policy.h"

namespace drivevp {

/// Serves the pending request with the smallest effective access time
///     effective = access - (age_weight / 1000) * (ctx.now - command.arrival),
/// access = Predictor::estimate(ctx.position, ctx.now, lbn, op).access(): the firmware's
/// command path to the seek (a write's is longer: its data DMA precedes the seek) + seek +
/// rotational latency, i.e. the time from ctx.now until the first block is under the head, the
/// quantity DiskSim 4.0 minimises (its read/write delay plus access time). Ties go to the earlier
/// command id, then the earlier enqueue. age_weight is W of ASPTF(W), per mille (DiskSim 4.0
/// `src/disksim_ioqueue.c`, `ioqueue_get_request_from_opt_sptf_queue`: delay - age x W x 0.001);
/// age_weight = 0 is SPTF. The Serve decision carries the predicted positioning time (seek +
/// rotation, picoseconds), not the effective value. The arithmetic is in double: access times and
/// ages are exact at picosecond resolution up to ~2.5 hours; the product with W/1000 rounds to
/// 2^-53 of its value.
/// Each decision is O(n) in the pending requests with no allocation; removal is O(1).
class ShortestPositioningFirst final : public SchedulingPolicy {
 public:
  /// `name` as in the paper; `age_weight` W in per mille (ps of access time per 1000 ps of
  /// waiting), >= 0.
  ShortestPositioningFirst(std::string name, double age_weight)
      : name_(std::move(name)), age_factor_(age_weight / 1000.0) {}
  std::string_view name() const override { return name_; }
  void enqueue(const Command& c, const SchedulingContext&) override { queue_.push_back({c, seq_++}); }
  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    std::size_t best = 0;
    Time best_time{-1};
    double best_effective = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const Command& c = queue_[i].command;
      const PositioningEstimate p = ctx.predictor->estimate(ctx.position, ctx.now, c.lbn, c.op);
      const double effective =
          static_cast<double>(p.access().count()) - age_factor_ * static_cast<double>((ctx.now - c.arrival).count());
      if (i == 0 || effective < best_effective || (effective == best_effective && earlier(queue_[i], queue_[best]))) {
        best = i;
        best_time = p.positioning;
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
  std::string name_;
  double age_factor_;  ///< W / 1000
  std::vector<Entry> queue_;
  std::uint64_t seq_ = 0;
};

}  // namespace drivevp
