// The SFC disk schedulers of paper 001 (Aref, El-Bassyouni, Kamel, Mokbel, "Scalable QoS-Aware
// Disk-Scheduling", §3): requests are points of a D-dimensional QoS space, ordered by their
// position on a space-filling curve (firmware/sfc/curves.h), a lower position served first.
// Plain C++: no SystemC (ARCHITECTURE.md, firmware layer).
//
// Queues (001 §3, Fig. 2 and 3): q holds the requests of the current cycle in curve order; q'
// (the waiting queue) holds requests that would preempt the cycle but may not. T_cur is the
// position of the request dispatched last; a new cycle starts (T_cur = 0, q' moved into q) when q
// runs empty. A new request T_new goes
//   - non-preemptive: to q' iff T_new < T_cur, else to q;
//   - fully-preemptive: always to q (the lowest position in q is served next);
//   - conditionally-preemptive (001 §3.1), blocking window w:
//       T_new >= T_cur           -> q   (case 1; T_new == T_cur is not of higher priority)
//       T_cur - w <= T_new < T_cur -> q' (case 2; T_new exactly at T_cur - w is *inside* the
//                                        window: 001 preempts only iff T_new < T_cur - w)
//       T_new < T_cur - w        -> q, a preemption (case 3; impossible while T_cur < w)
// Irregularity policies (001 §3.2), conditional only:
//   - SR (serve and resume): q' is served when q runs empty (as the next cycle).
//   - SRP (serve, resume and promote): also, before each dispatch from q, the requests of q'
//     with position < T_next - w (T_next the head of q) are promoted into q: a preemption.
//   - SS (serve and scan): at a preemption, all of q' moves into q, so it is served in curve
//     order right after the preempting request, before the cycle resumes.
// Starvation policies (001 §3.3), conditional only: at every preemption (a case-3 arrival, an
// SRP promotion) w grows by the expansion e = expansion x w0 (001 §5: e = 5 % of w). AE (always
// expand) never shrinks it; ER (expand and reset) resets w to w0 whenever a request is dispatched
// ("when a disk request is served and another disk request from q is dispatched").
//
// Ties between equal positions go to the smaller `tie` (the caller's raw value of the major
// dimension, so that Sweep with one dimension is exactly a sort on it), then to the smaller id.
// Cost: insert and dispatch O(log n) (two std::set); moving q' into q O(|q'| log n).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "firmware/sfc/curves.h"
#include "tlm_bus/command.h"

namespace drivevp::sfc {

/// 001 §3 / §3.1.
enum class Preemption { Non, Full, Conditional };
/// 001 §3.2.
enum class Inversion { SR, SRP, SS };
/// 001 §3.3.
enum class Starvation { AE, ER };

/// Scheduler settings. `window` and `expansion` are fractions: w0 = window x N^D curve points
/// (001 §5.1: "a percentage of the total points in the space"), e = expansion x w0 (001 §5: 5 %).
struct SchedulerConfig {
  Preemption preemption = Preemption::Conditional;
  Inversion inversion = Inversion::SRP;
  Starvation starvation = Starvation::ER;
  double window = 0.5;      ///< [0, 1]
  double expansion = 0.05;  ///< [0, 1]
};

/// One queued request.
struct Item {
  Key position = 0;      ///< curve position (Curve::encode)
  std::int64_t tie = 0;  ///< tie-break between equal positions, smaller first
  Command command;       ///< command.id is the last tie-break
};

/// The SFC scheduler's queues q and q', window and current position. Not thread-safe (one per
/// controller); no global state.
class Scheduler {
 public:
  /// `last` = N^D - 1, the curve's last position (Curve::last()). Throws std::invalid_argument
  /// when window or expansion is outside [0, 1] (naming it).
  Scheduler(const SchedulerConfig& config, Key last);

  /// A new request (001 §3, §3.1 cases 1-3).
  void insert(const Item& item);
  /// The next request to serve (removed), or nothing when q and q' are empty.
  std::optional<Item> next();

  std::size_t size() const { return q_.size() + waiting_.size(); }
  /// Requests in q' (blocked by the window or, non-preemptive, by the cycle).
  std::size_t waiting() const { return waiting_.size(); }
  /// T_cur: the position of the request dispatched last (0 at the start of a cycle).
  Key current() const { return current_; }
  /// The blocking window now (curve points) and its initial value w0.
  Key window() const { return window_; }
  Key initial_window() const { return window0_; }
  /// The expansion e (curve points).
  Key expansion() const { return expansion_; }
  /// Preemptions so far (case-3 arrivals and SRP promotions).
  std::uint64_t preemptions() const { return preemptions_; }
  /// The items of q and of q', each in curve order (for re-keying, see rebuild).
  std::vector<Item> queued() const { return {q_.begin(), q_.end()}; }
  std::vector<Item> blocked() const { return {waiting_.begin(), waiting_.end()}; }
  /// Replaces the contents of q and q' (cycle position and window unchanged): the caller
  /// re-keyed the items (the access-time dimension, recomputed at each decision).
  void rebuild(const std::vector<Item>& q, const std::vector<Item>& waiting);
  const SchedulerConfig& config() const { return config_; }

 private:
  struct Order {
    bool operator()(const Item& a, const Item& b) const {
      if (a.position != b.position) return a.position < b.position;
      if (a.tie != b.tie) return a.tie < b.tie;
      return a.command.id < b.command.id;
    }
  };
  void preempted();  ///< one preemption: count it, expand w
  /// position < T - w, with T - w < 0 (T < w) never true.
  bool below_window(Key position, Key t) const { return t >= window_ && position < t - window_; }

  SchedulerConfig config_;
  Key last_;
  Key window0_ = 0, window_ = 0, expansion_ = 0;
  Key current_ = 0;
  std::set<Item, Order> q_, waiting_;
  std::uint64_t preemptions_ = 0;
};

/// Scenario spellings: "non", "full", "conditional"; "sr", "srp", "ss"; "ae", "er".
std::string_view to_string(Preemption p);
std::string_view to_string(Inversion i);
std::string_view to_string(Starvation s);

}  // namespace drivevp::sfc
