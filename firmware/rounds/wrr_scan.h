// WRR-SCAN (paper 004 §3): weighted round-robin over real-time tasks and an aperiodic server, each
// round one SCAN sweep. The small interface through which the platform hands the policy its round
// plan (the admission test's R, x_i and x_a, firmware/rounds/wrr_admission.h). Its rounds run on the
// round manager's round clock (firmware/rounds/round_manager.h: begin_round, over, current_end),
// which also predicts its slack (RoundStatus). Plain C++.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "firmware/policy.h"
#include "firmware/rounds/round_manager.h"
#include "firmware/rounds/wrr_admission.h"

namespace drivevp {

/// A WRR-SCAN round plan: what the admission test decided, in the firmware's units.
struct WrrRoundPlan {
  Time round{0};                       ///< R (> 0)
  std::uint32_t block_sectors = 8;     ///< C in 512 B sectors (004 Table 2: 4096 B = 8)
  std::uint32_t aperiodic_blocks = 1;  ///< x_a: blocks the aperiodic server may be served per round
  /// x_i by task: Command::stream of the task's jobs (RequestClass::RealTime) -> blocks per round.
  std::map<std::uint32_t, std::uint32_t> weight_blocks;
};

/// A WRR-SCAN policy. Rules (004 §3, the experiments of §4):
///  * Rounds: a round serves, in one SCAN direction (the first round toward higher sweep
///    coordinates, then alternating), every queued command whose owner still has budget in the
///    round: task i (a RealTime command whose stream has a weight) x_i blocks, the aperiodic
///    server (every other command) x_a blocks. The nearest eligible command at or beyond the head
///    in the direction is next (same coordinate: lower LBN first going up, higher going down).
///  * A command larger than its owner's whole budget is served when the owner's budget is untouched
///    in the round (it then uses the whole budget), so nothing starves.
///  * Contiguous commands of the same owner next in the sweep are served in one media access
///    (data compaction, 004 §3.2: a contiguous segment costs one rotation), within the budget.
///  * The round ends when no eligible command lies ahead, or when R has passed since it started.
///    With bandwidth reclamation (004 §4: "starting a new round at the completion of all requests
///    in the current round") the next round starts at once; without, at the next multiple of R.
///    At a round's start, when nothing eligible lies ahead, the sweep reverses at once (LOOK).
///  * Before configure(): every command belongs to the aperiodic server with an unlimited budget
///    (plain LOOK rounds), so the policy runs with any workload.
/// Simplified: the sweep reverses at the last eligible command (LOOK), not at the disk's edge; the
/// bounds of 004 (t_s per round) hold either way.
class WrrScanPolicy : public SchedulingPolicy {
 public:
  /// Sets the round plan; call before the first command. Throws std::invalid_argument for R <= 0,
  /// block_sectors = 0 or a zero weight.
  virtual void configure(const WrrRoundPlan& plan) = 0;
  /// Rounds started so far.
  virtual std::uint64_t rounds() const = 0;
  /// The round clock: the current round (current_round()) and its start, where the policy began it
  /// (the rounds of rounds.csv, testbench/metrics/rounds_checker.h).
  virtual const RoundManager& round_clock() const = 0;
};

/// The WRR-SCAN policy of `variant` (the variants differ in their admission test, weights and the
/// workload's placement and release alignment, not in the service rule). `reclaim`: bandwidth
/// reclamation.
std::unique_ptr<WrrScanPolicy> make_wrr_scan(wrr::Variant variant, bool reclaim);

}  // namespace drivevp
