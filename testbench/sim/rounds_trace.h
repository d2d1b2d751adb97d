// The round waveforms (trace group "rounds") of the round workloads: paper 003's mixed-media
// rounds (workload.kind = "rounds") and paper 004's rate-based tasks (workload.kind =
// "rate_tasks", WRR-SCAN's rounds). Signals (VCD names, docs/user-guide.md "Waveforms"):
//
//   rounds.round      the current round (decimal). Fixed rounds (003): r from r*T on, exactly
//                     (a timer); WRR-SCAN: the policy's round, from the dispatch time of the first
//                     request the policy serves in it (004 §3: a round starts when the previous
//                     one's work is done, with bandwidth reclamation, or at a multiple of R).
//   rounds.boundary   a 1 µs pulse at every round start (the times rounds.round changes; round 0's
//                     at time 0).
//   rounds.period     "C" (the C-period) or "D" (the D-period), 003 §1.2. Fixed rounds: C from the
//                     round's start until the last of the C-requests due by the round's end has
//                     completed, D for the rest of the round; the same times as rounds.csv's
//                     c_period_ms and d_period_ms of a hiccup-free run (a late C-request of an
//                     earlier round also keeps the C-period open until it completes). A policy
//                     that plans its rounds (WRR-SCAN; C = periodic job commands, D = aperiodic):
//                     C while a periodic command is in service or the rest of the round as the
//                     policy plans it at the latest decision (RoundStatus::c_planned) holds one,
//                     D otherwise; so the round's last change to D is at the completion of its
//                     last periodic command, the end of rounds.csv's c_period_ms. A job released
//                     into a round already in its D-period turns it back to C at the next
//                     decision. A policy without such a plan (SCAN-EDF) has no rounds.period.
//   rounds.serving    what the media serves: "idle", "C" / "D" (003: continuous / discrete), or
//                     "idle", "periodic" / "aperiodic" (004). A request is in service from its
//                     dispatch (requests.csv dispatch_ms: the firmware's decision) to its
//                     completion (completion_ms: the host saw it); a batch served in one media
//                     access counts as in service until its last request completes.
//   rounds.pending_c  the C-requests (periodic job commands) of the policy's current round or
//                     earlier that it still holds after each decision (RoundStatus::pending_c),
//                     changed at dispatch times; 0 with a policy that keeps no rounds.
//   rounds.slack_ms   the slack the firmware predicts at each decision (RoundStatus::slack), in ms,
//                     changed at dispatch times: 003, the round's end less the predicted finish of
//                     the decision's request followed by the pending C-requests in their planned
//                     order; WRR-SCAN (on a disk, with its plan), the round's end (its start on the
//                     round clock plus R) less the predicted finish of the decision's media access
//                     followed by the rest of the round's sweep. It falls as a round fills up and is
//                     negative for a predicted hiccup (overrun). 0 until the first prediction with
//                     WRR-SCAN, T at time 0 with fixed rounds.
//
// Exact times: the firmware decides inside an interrupt handler whose local time offset runs ahead
// of the simulated time (loosely timed), so a decision's values are applied by a timed event at
// its dispatch time, not at the handler's start; completions are applied when the host takes them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "firmware/policy.h"
#include "firmware/rounds/round_status.h"
#include "testbench/metrics/request_record.h"
#include "waveforms/tracer.h"

namespace drivevp {

class RoundsTrace : public sc_core::sc_module {
 public:
  struct Options {
    /// Fixed rounds of length T (the rounds workload, > 0); 0: the policy's rounds (WRR-SCAN).
    Time round_length{0};
    std::uint64_t rounds = 0;       ///< fixed rounds: rounds to mark (boundaries at r*T, r < rounds)
    std::uint32_t c_per_round = 0;  ///< fixed rounds: C-requests due at every round's end (N streams)
    bool periodic = false;          ///< 004's names: "periodic" / "aperiodic" for rounds.serving
  };
  /// Width of rounds.boundary's pulse: 1 µs, far shorter than a round or a request's service.
  static constexpr Time kPulse{1'000'000};

  /// Registers the signals with `tracer` (which must trace TraceGroup::Rounds); `policy` is
  /// asked for its RoundStatus at every dispatch while the trace window is open.
  RoundsTrace(sc_core::sc_module_name name, const Options& options, Tracer& tracer, const SchedulingPolicy& policy);

  /// The controller's dispatch observer (Controller::set_dispatch_observer).
  void dispatched(const Decision& decision, Time dispatch, const SchedulingContext& ctx);
  /// The host's request sink: called at the request's completion time.
  void completed(const RequestRecord& record);

 private:
  /// What a decision changes, applied at its dispatch time.
  struct Update {
    std::uint32_t c = 0, d = 0;  ///< requests entering service, by kind
    bool has_status = false;
    RoundStatus status;
  };
  void on_boundary();
  void end_pulse();
  void apply_due();
  void show_serving();
  /// The policy's own rounds: rounds.period from the requests in service and the latest plan.
  void show_policy_period();
  void pulse();
  static bool is_c(const Command& c) { return c.cls == RequestClass::Continuous || c.cls == RequestClass::RealTime; }

  Options options_;
  const SchedulingPolicy& policy_;
  const Tracer& tracer_;
  std::uint64_t next_boundary_ = 1;  ///< fixed rounds: the next round to start
  std::uint64_t outstanding_c_ = 0;  ///< fixed rounds: C-requests due and not completed
  std::uint32_t in_service_c_ = 0, in_service_d_ = 0;
  bool c_planned_ = false;           ///< the policy's own rounds: RoundStatus::c_planned of the latest decision
  std::multimap<Time, Update> due_;  ///< decisions waiting for their dispatch time
  sc_core::sc_event boundary_event_, pulse_end_;
  sc_core::sc_event_queue apply_event_;
  Traced<std::uint64_t> round_{0};
  Traced<bool> boundary_{false};
  Traced<std::uint8_t> period_{0};
  Traced<std::uint8_t> serving_{0};
  Traced<std::uint32_t> pending_c_{0};
  Traced<double> slack_ms_{0};
};

}  // namespace drivevp
