// Request deadlines: the scenario rule that gives every submitted request its absolute deadline
// (issue 9; paper 000 §2: deadline-based schedulers serve requests "before the deadline of the
// request"; papers 003 §1.2 and 004 §2: real-time requests carry deadlines). Plain C++.
//
// A rule yields a *relative* deadline; the host adds it to the request's arrival (its submission
// time in a closed loop, its source arrival in an open loop), so Command::deadline =
// arrival + relative. Rules:
//  * none: no request has a deadline (Command::deadline stays kNoDeadline). The default.
//  * relative: a fixed relative deadline per class: `streams` (a request whose Command::stream is
//    listed takes that stream's deadline) before `read_ms` / `write_ms` (by direction) before
//    `relative_ms` (every other request).
//  * uniform: relative deadline uniform on [min_ms, max_ms].
//  * exponential: relative deadline exponential with mean mean_ms (capped at
//    kMaxRelativeDeadlineMs).
// Draws come from the rule's own std::mt19937_64 seeded with `seed`, one draw per request in
// submission order, so a scenario and seed give the same deadlines whatever the policy does.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tlm_bus/command.h"

namespace drivevp {

/// The kinds of deadline rule (scenario key workload.deadline).
enum class DeadlineKind { None, Relative, Uniform, Exponential };

/// Scenario spellings: "none", "relative", "uniform", "exponential".
const char* to_string(DeadlineKind k);
/// Parses the scenario spelling; std::nullopt if unknown.
std::optional<DeadlineKind> parse_deadline_kind(const std::string& s);

/// Largest relative deadline a rule may give: 10^9 ms (11.6 days), far inside kMaxArrival's
/// headroom so that arrival + relative never overflows Time.
inline constexpr double kMaxRelativeDeadlineMs = 1e9;

/// A deadline rule (scenario keys workload.deadline*). Times in milliseconds; every time is in
/// (0, kMaxRelativeDeadlineMs] except min_ms, which may be 0.
struct DeadlineRule {
  DeadlineKind kind = DeadlineKind::None;
  double relative_ms = 100.0;                             ///< relative: every request not matched below
  std::optional<double> read_ms;                          ///< relative: reads (overrides relative_ms)
  std::optional<double> write_ms;                         ///< relative: writes (overrides relative_ms)
  std::vector<std::pair<std::uint32_t, double>> streams;  ///< relative: (stream, ms), overrides by op
  double min_ms = 0.0;                                    ///< uniform: lower bound, <= max_ms
  double max_ms = 100.0;                                  ///< uniform: upper bound
  double mean_ms = 100.0;                                 ///< exponential: mean
  std::uint64_t seed = 1;                                 ///< uniform / exponential: the draws' seed

  bool enabled() const { return kind != DeadlineKind::None; }
  /// Throws std::invalid_argument naming the first offending member and its allowed range.
  void validate() const;
  /// One line for the run summary, e.g. "relative 100 ms (reads 50 ms, writes 500 ms)".
  std::string describe() const;
};

/// Applies a DeadlineRule to commands in submission order. Not thread-safe (one per host).
class DeadlineAssigner {
 public:
  /// Throws std::invalid_argument if `rule` does not validate.
  explicit DeadlineAssigner(DeadlineRule rule);
  /// The relative deadline of `c` (a draw for the random rules); kNoDeadline for kind none.
  Time relative(const Command& c);
  /// Sets c.deadline = c.arrival + relative(c) (kNoDeadline for kind none). c.arrival must be
  /// set (the host's submission-time arrival).
  void assign(Command& c) {
    const Time r = relative(c);
    c.deadline = r == kNoDeadline ? kNoDeadline : c.arrival + r;
  }
  const DeadlineRule& rule() const { return rule_; }

 private:
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  DeadlineRule rule_;
  std::mt19937_64 engine_;
  Time relative_{0}, read_{0}, write_{0};
  std::vector<std::pair<std::uint32_t, Time>> streams_;  ///< rule_.streams in picoseconds
};

}  // namespace drivevp
