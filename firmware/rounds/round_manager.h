// The firmware's round manager for round-based schedulers (paper 003 §1.2, §2.1; reusable by
// other round schedulers, e.g. paper 004's WRR-SCAN). Plain C++: no SystemC.
//
// Interface (docs/models/firmware.md "Rounds"):
//  * round length T (picoseconds); round r is [r*T, (r+1)*T); round_at(), round_start(), round_end();
//  * the round boundary as a firmware timer event: a policy that has nothing it may serve before
//    the boundary answers Decision::wait_until(wake_at_boundary(r)), T*(r+1) plus kRoundSync, and
//    the controller's timer (or the next command's arrival, which comes first: the next round's
//    C-requests arrive at the boundary) asks it again;
//  * the round's C-set: a C-request (RequestClass::Continuous) belongs to the round whose end is
//    its deadline (round_of());
//  * the time left for D-requests: predict() chains the firmware's own positioning predictor
//    (firmware/predictor.h, here the disk's, firmware/disk_predictor.h) with the transfer time the
//    disk's geometry gives, so fits() can check, before a D-request is served, that it and the
//    remaining C-requests in their planned order still finish by the round's end less `guard`
//    (003 §2.1: "before serving a D-request ... check if there will be enough time to serve all
//    remaining C-requests").
#pragma once

#include <cstdint>
#include <vector>

#include "firmware/disk_predictor.h"
#include "firmware/policy.h"

namespace drivevp {

class RoundManager {
 public:
  /// After the boundary, how long a policy waits for the next round's C-requests before it asks
  /// again anyway: 1 ms, far longer than the host's doorbell and the controller's fetch (a few
  /// microseconds) and far shorter than a round.
  static constexpr Time kRoundSync{1'000'000'000};

  /// `round_length` > 0; `guard` >= 0 is kept free at the end of every round for prediction
  /// errors (the firmware's completion path and DMA between requests, which the predictor does
  /// not see). Throws std::invalid_argument otherwise.
  RoundManager(Time round_length, Time guard);

  Time round_length() const { return length_; }
  Time guard() const { return guard_; }
  std::uint64_t round_at(Time t) const {
    return t.count() <= 0 ? 0 : static_cast<std::uint64_t>(t.count() / length_.count());
  }
  Time round_start(std::uint64_t r) const { return Time{length_.count() * static_cast<std::int64_t>(r)}; }
  Time round_end(std::uint64_t r) const { return round_start(r + 1); }
  /// The latest predicted finish allowed in round r: round_end(r) - guard.
  Time round_budget_end(std::uint64_t r) const { return round_end(r) - guard_; }
  Time wake_at_boundary(std::uint64_t r) const { return round_end(r) + kRoundSync; }
  /// A C-request's round: the round whose end is its deadline (deadline / T - 1, at least 0);
  /// any other request: the round of its arrival.
  std::uint64_t round_of(const Command& c) const;
  static bool is_continuous(const Command& c) { return c.cls == RequestClass::Continuous; }

  /// One predicted service.
  struct Step {
    Time finish{0};       ///< when the last block has been transferred
    Time positioning{0};  ///< seek + rotation (Decision::predicted_positioning)
    MediaPosition end;    ///< where the heads are afterwards
  };
  /// Predicts serving `c` when the firmware decides at `start` (SchedulingContext::now) with the
  /// heads at `from`: finish = start + lead + seek + rotation + transfer; transfer is the sector
  /// time (revolution / sectors per track) times the blocks plus the track and cylinder skews
  /// crossed (docs/models/disk.md). `predictor` must be a DiskPredictor (std::invalid_argument).
  static Step predict(const Predictor& predictor, const MediaPosition& from, Time start, const Command& c);
  /// The time between one request's finish and the next decision (the controller's command
  /// overhead, from the predictor).
  static Time gap(const Predictor& predictor) { return predictor.command_overhead(); }
  /// Predicted finish of serving `first` (optional, may be null) and then `sequence` in order,
  /// starting at ctx.now from ctx.position.
  static Time finish_of(const SchedulingContext& ctx, const Command* first, const std::vector<Command>& sequence);
  /// True when `first` then `sequence` (the round's remaining C-requests in planned order) are
  /// predicted to finish by round_budget_end(r).
  bool fits(const SchedulingContext& ctx, const Command* first, const std::vector<Command>& sequence,
            std::uint64_t r) const {
    return finish_of(ctx, first, sequence) <= round_budget_end(r);
  }

 private:
  Time length_;
  Time guard_;
};

/// CI-OPT's / OPT(k)'s exact order (003 §2.1): of all orders of `cluster` (at most 8 requests),
/// the one whose predicted last finish (RoundManager::finish_of from ctx) is earliest, i.e. the
/// open travelling-salesman path from the heads' position with the disk's time-dependent
/// (rotational) costs; ties go to the lexicographically smallest order of command ids. Exhaustive
/// with branch and bound (a partial order already later than the best is cut). Throws
/// std::invalid_argument for more than 8 requests.
std::vector<Command> optimal_order(const SchedulingContext& ctx, std::vector<Command> cluster);

}  // namespace drivevp
