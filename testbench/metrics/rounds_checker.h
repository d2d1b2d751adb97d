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
// Memory: one small record per round.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

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
  /// c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups (times exact to the picosecond).
  void write_csv(std::ostream& os) const;
  /// summary.json "rounds": { round_ms, rounds, c_requests, hiccups, hiccup_free, first_hiccups:
  /// [{stream, round, lateness_ms, id}], d_requests, d_response_mean_ms, d_fairness_index,
  /// total_seek_cylinders, seek_fraction, rotation_fraction, transfer_fraction, idle_fraction,
  /// utilization, slack_ms: {mean, min}, c_period_mean_ms }.
  nlohmann::json to_json() const;

 private:
  void add_busy(Time from, Time to);
  Time length_;
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
