// The hiccup checker and per-round statistics of round workloads (paper 003 §1.2, §3.2;
// testbench/workload/rounds.h). Plain C++.
//
// Definitions (simulated time; round r is [r*T, (r+1)*T)):
//  * a C-request (RequestClass::Continuous) belongs to the round whose end is its deadline; it
//    must complete within that round: completion <= deadline. A C-request completing later is a
//    hiccup (003 §1: "interruptions in the flow of data, termed hiccups or glitches"), recorded
//    with its stream, round and lateness = completion - deadline;
//  * C-period of round r: from the round's start to the last completion of its C-requests (0 when
//    it has none); D-period = T - C-period (at least 0); slack at the round's end = the round's
//    end - the last completion of its C-requests (negative for a hiccup; T when it has none);
//  * busy time: the union of the requests' service intervals [dispatch, completion] (one media:
//    they do not overlap), cut at round boundaries; idle = T - busy;
//  * D-request metrics over the D-requests (RequestClass::Discrete): mean response, and the
//    fairness index of 003 eq. (2), (Σx)² / (n Σx²) over their response times (Jain, Chiu & Hawe);
//  * normalised seek / rotation / transfer / idle time and utilisation: their sums over the run's
//    rounds divided by rounds x T (003 §3.2's overhead breakdown); total seek distance in cylinders.
//
// Explicit rounds (paper 004's WRR-SCAN, whose rounds start where the firmware's round clock says:
// RoundManager::begin_round, firmware/rounds/round_manager.h), RoundsChecker(R, explicit_rounds):
//  * the platform's dispatch hook reports every Serve decision with the firmware's current round
//    and its start (dispatched()); round r's window is [s_r, s_r+1), the last one's up to the
//    run's end (end_run()); its nominal end is s_r + R (the round clock's end);
//  * a request belongs to the round in which the firmware dispatched it. C: the periodic job
//    commands (RequestClass::RealTime); D: every other request;
//  * c_served: the round's C-requests; c_in_round: of which completed within its window;
//    d_served: the round's D-requests; C-period: s_r to the last completion of its C-requests (0
//    when none); D-period = window length - C-period (at least 0); slack = s_r + R - that last
//    completion (R when none); hiccups: its C-requests completing after their deadline;
//  * busy time as above, cut at the window boundaries (busy time before s_0, the first command's
//    overhead, is in no round: the round clock starts at the decision's predicted command start,
//    SchedulingContext::now, after its dispatch); the busy time is the union of the service
//    intervals (a batch's commands share one dispatch; requests complete in the order of their
//    media accesses); idle = window length - busy.
//  summary.json is not changed by explicit rounds (write_csv only).
// Memory: one small record per round (and, in explicit mode, one per request in service).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/policy.h"
#include "testbench/metrics/request_record.h"

namespace drivevp {

class RoundsChecker {
 public:
  /// One hiccup.
  struct Hiccup {
    std::uint64_t id = 0;      ///< command id
    std::uint32_t stream = 0;  ///< Command::stream
    std::uint64_t round = 0;
    Time lateness{0};  ///< completion - deadline, > 0
  };
  /// The statistics of one round.
  struct Round {
    std::uint64_t c_requests = 0;  ///< C-requests of the round completed (any time)
    std::uint64_t c_in_round = 0;  ///< of which within the round
    std::uint64_t d_served = 0;    ///< D-requests completed within the round's window
    Time last_c{-1};               ///< last completion of the round's C-requests; -1 if none
    Time busy{0};                  ///< service time inside the round's window
    std::uint64_t hiccups = 0;
  };

  /// `round_length` > 0; `rounds` the run's rounds (>= 1). Throws std::invalid_argument otherwise.
  RoundsChecker(Time round_length, std::uint64_t rounds);
  /// Tag for explicit rounds.
  struct ExplicitRounds {};
  static constexpr ExplicitRounds explicit_rounds{};
  /// Explicit rounds of nominal length `round_length` (> 0, std::invalid_argument otherwise),
  /// started by dispatched().
  RoundsChecker(Time round_length, ExplicitRounds);
  bool explicit_mode() const { return explicit_; }

  /// Explicit rounds: the firmware dispatched `decision` (its command and batch) in its round
  /// `round` (0-based), which started at `start`. A round number above the last seen opens rounds
  /// up to it (a skipped round: empty, starting at `start`); std::logic_error for a round below
  /// the last, or without explicit rounds.
  void dispatched(const Decision& decision, std::uint64_t round, Time start);
  /// Explicit rounds: the run ended at `end` (the last round's window ends there; default: the
  /// last completion).
  void end_run(Time end) { run_end_ = end; }

  /// Checks one completed request (any order).
  void add(const RequestRecord& r);

  std::uint64_t hiccup_count() const { return hiccup_count_; }
  /// The first kKeptHiccups hiccups in completion order.
  const std::vector<Hiccup>& hiccups() const { return hiccups_; }
  static constexpr std::size_t kKeptHiccups = 100;
  const std::vector<Round>& rounds() const { return rounds_; }
  /// 003 eq. (2) over the D-requests' response times; 1 when there is none.
  double fairness_index() const;

  /// rounds.csv: header and one row per round: round,start_ms,c_served,c_in_round,d_served,
  /// c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups (times exact to the picosecond). Explicit
  /// rounds: nothing but the header before the first dispatched().
  void write_csv(std::ostream& os) const;
  /// summary.json "rounds": { round_ms, rounds, c_requests, hiccups, hiccup_free, first_hiccups:
  /// [{stream, round, lateness_ms, id}], d_requests, d_response_mean_ms, d_fairness_index,
  /// total_seek_cylinders, seek_fraction, rotation_fraction, transfer_fraction, idle_fraction,
  /// utilization, slack_ms: {mean, min}, c_period_mean_ms }.
  nlohmann::json to_json() const;

 private:
  void add_busy(Time from, Time to);
  void add_explicit(const RequestRecord& r);
  /// Explicit rounds: round r's window end (the next start, or the run's end for the last).
  Time window_end(std::size_t r) const;
  /// Explicit rounds: the round whose window holds `t` (the last start <= t; round 0 before it).
  std::size_t round_at(Time t) const;
  /// Explicit rounds: adds the busy intervals that no later round start can split any more
  /// (those ending by the last start).
  void settle_busy();
  /// The explicit rounds' busy time with the unsettled intervals added (write_csv's view).
  std::vector<Time> busy_by_round() const;

  Time length_;
  bool explicit_ = false;
  std::vector<Time> starts_;                         ///< explicit rounds: s_r
  std::map<std::uint64_t, std::uint64_t> round_of_;  ///< explicit rounds: command id -> round, until completed
  std::vector<std::pair<Time, Time>> unsettled_;     ///< explicit rounds: busy intervals ending after starts_.back()
  Time covered_{0};                                  ///< explicit rounds: the busy intervals' union reaches this far
  Time run_end_{-1};
  Time last_completion_{0};
  std::vector<Round> rounds_;
  std::vector<Hiccup> hiccups_;
  std::uint64_t hiccup_count_ = 0;
  std::uint64_t c_total_ = 0;
  std::uint64_t d_total_ = 0;
  double d_sum_ms_ = 0, d_sum_sq_ms_ = 0;
  std::uint64_t seek_cylinders_ = 0;
  Time seek_{0}, rotation_{0}, transfer_{0};
};

}  // namespace drivevp
