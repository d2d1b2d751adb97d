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
//    remaining C-requests");
//  * a round clock for schedulers whose rounds start where the firmware says rather than at
//    multiples of T (paper 004's WRR-SCAN: with bandwidth reclamation a round starts when the
//    previous one's work is done): begin_round(start) opens round rounds_begun() - 1 =
//    current_round() at `start`; it ends at current_end() = start + T, or never with a round
//    length of kUnbounded (WRR-SCAN before its plan is set: rounds end only when their work is
//    done); over(t) says the round's time is up; fits_current(finish) says work predicted
//    (finish_of) to finish by `finish` fits in the round less `guard`, and slack(finish) is by how
//    much. The fixed-round interface above ignores the round clock.
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
  /// A round length for rounds that end only when their work is done (the round clock's
  /// current_end() is then kUnbounded and over() is never true). Not for the fixed-round interface.
  static constexpr Time kUnbounded = Time::max();

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
  /// crossed (docs/models/disk.md). `predictor` must be a DiskPredictor (std::invalid_argument):
  /// predicts() says whether it is.
  static bool predicts(const Predictor& predictor);
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

  // ---- the round clock (rounds started explicitly) ----

  /// Opens the next round at `start`, which must not precede the current round's start
  /// (std::invalid_argument otherwise).
  void begin_round(Time start);
  bool started() const { return begun_ > 0; }
  std::uint64_t rounds_begun() const { return begun_; }
  /// The current round (0-based): rounds_begun() - 1. std::logic_error before begin_round().
  std::uint64_t current_round() const;
  /// The current round's start; Time{0} before begin_round().
  Time current_start() const { return start_; }
  /// current_start() + round length, or kUnbounded.
  Time current_end() const { return length_ == kUnbounded ? kUnbounded : start_ + length_; }
  /// True when no round has begun or `t` has reached the current round's end.
  bool over(Time t) const { return !started() || (length_ != kUnbounded && t >= current_end()); }
  /// True when work predicted to finish at `finish` (finish_of) ends by current_end() - guard.
  bool fits_current(Time finish) const { return length_ == kUnbounded || finish <= current_end() - guard_; }
  /// current_end() - finish: the round's slack after work predicted to finish at `finish`
  /// (negative: a predicted overrun). std::logic_error for unbounded rounds.
  Time slack(Time finish) const;

 private:
  Time length_;
  Time guard_;
  std::uint64_t begun_ = 0;
  Time start_{0};
};

/// What OPT(k) minimises over a cluster's orders (003 §2.1 says only "the one with the minimum
/// cost"): the cluster's last finish (the open travelling-salesman path 003 §2.1 reduces OPT to),
/// or the sum of its requests' finishes (their mean response, the measure 003 §4.1.1 scores OPT
/// on in Fig. 3).
enum class OptCost { LastFinish, SumOfFinishes };

/// CI-OPT's / OPT(k)'s exact order (003 §2.1): of all orders of `cluster` (at most 8 requests),
/// the one with the least `cost` over the predicted finishes (RoundManager::finish_of from ctx,
/// the disk's time-dependent, rotational costs); ties go to the lexicographically smallest order
/// of command ids. Exhaustive with branch and bound (a partial order already worse than the best
/// is cut). Throws std::invalid_argument for more than 8 requests.
std::vector<Command> optimal_order(const SchedulingContext& ctx, std::vector<Command> cluster,
                                   OptCost cost = OptCost::LastFinish);

}  // namespace drivevp
