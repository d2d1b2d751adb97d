// What a round-based policy shows of its current round (waveform group "rounds",
// testbench/sim/rounds_trace.h). Plain C++.
#pragma once

#include <cstdint>
#include <optional>

#include "firmware/policy.h"

namespace drivevp {

/// A round-based policy's view of its current round right after a decision. Times in ps.
struct RoundStatus {
  std::uint64_t round = 0;      ///< the policy's current round (0-based)
  std::uint32_t pending_c = 0;  ///< C-requests (periodic job commands) of this round or earlier still queued
  /// Predicted slack: the round's end less the predicted finish of the decision's command followed
  /// by the pending C-requests in their planned order (negative: a predicted hiccup).
  Time slack{0};
  bool has_slack = false;  ///< false when the policy makes no such prediction
  /// The policy's own rounds (WRR-SCAN): whether the rest of the current round as planned right
  /// after the decision (the decision's access excluded, the queue as it stands) still serves
  /// periodic job commands. Drives the rounds.period waveform of such rounds.
  bool c_planned = false;
  bool has_c_planned = false;  ///< false when the policy makes no such plan
};

/// Implemented, beside SchedulingPolicy, by the round-based policies (paper 003's mixed-media
/// schedulers, paper 004's WRR-SCAN); found by dynamic_cast.
class RoundStatusSource {
 public:
  virtual ~RoundStatusSource() = default;
  /// The round status right after `decision`, which next(`ctx`) returned. May cost predictions:
  /// the waveforms ask only while they are recorded.
  virtual std::optional<RoundStatus> round_status(const SchedulingContext& ctx, const Decision& decision) const = 0;
};

}  // namespace drivevp
