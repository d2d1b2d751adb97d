// The mixed-media round schedulers of paper 003 (Balafoutis, Paterakis, Triantafillou, Nerjes,
// Muth, Weikum, "Clustered scheduling algorithms for mixed-media disk workloads in a multimedia
// server", Cluster Computing 6, 2003), on the firmware's round manager (firmware/rounds/).
//
// Every round r (RoundManager: [r*T, (r+1)*T)) the firmware holds the round's C-requests (one
// fragment of each continuous stream, deadline = the round's end) and a D-queue of discrete
// requests. The C-requests are served in one SCAN sweep (003 §2.2): ascending or descending by
// cylinder, towards the C-set's extreme cylinder nearer the heads first. Before a D-request is
// served the policy checks with the firmware's predictor that it and the remaining C-requests in
// their planned order still finish by the round's end less the guard (003 §2.1); a D-request that
// does not fit is postponed to the next round. After the C-requests (the D-period of TPS, the rest
// of the round of OPS) D-requests are served while one still fits before the round's end; then
// the policy waits for the round boundary (RoundManager::wake_at_boundary).
//
// The algorithms (003 §2.1-2.3, §4.2), by scenario key:
//  * tps_scan_scan, TPS:SCAN/SCAN: C-period (SCAN), then D-period with D-requests in SCAN
//    (elevator) order from the heads.
//  * tps_scan_scan_ci_opt, TPS:SCAN/[SCAN/CI-OPT(k)]: C-period, then D-period: the whole D-queue
//    sorted by cylinder and recursively halved until no part holds more than k (003 §2.2: "instead
//    of a C-interval, the whole disk"), parts visited in SCAN order, each part in its OPT order.
//  * ops_famish, OPS:FAMISH: the round's plan is the C-requests' SCAN; the D-request at the head
//    of the (arrival-ordered) D-queue is inserted at its place in the SCAN (requests ahead of the
//    heads by cylinder in the sweep's direction, those behind in a return sweep after it); if the
//    predicted plan still ends by the round's end it stays and the next is tried, otherwise it is
//    removed and no further D-request joins this round (003 §2.3, steps 1-5).
//  * ops_scan_ci_sptf, OPS:SCAN/CI-SPTF: the C-interval between the heads' last C-request (the
//    heads at the round's start) and the next C-request holds a cluster; its D-requests are served
//    in SPTF order, re-sorted after each, before the next C-request (003 §2.1).
//  * ops_scan_ci_opt, OPS:SCAN/CI-OPT(k): as CI-SPTF, but the interval's D-requests are split in
//    halves by cylinder until no part holds more than k, and each part is served in its OPT order.
//  * ops_scan_clust_req, OPS:SCAN/CLUST-REQ(M): clusters are the next M D-requests ahead of the
//    sweep in its direction, whatever the C-intervals (003 §4.2.1); a cluster whose first request
//    comes before the next C-request is served (OPT order) before it.
//  * ops_scan_clust_cyl, OPS:SCAN/CLUST-CYL(M|T): as CLUST-REQ, but a cluster also ends before a
//    request more than T cylinders from its first (003 §4.2.2).
//  * sptf_glitch_guard, SPTF with the glitch guard (003 §4.3): SPTF over the round's C-requests and
//    the D-queue; a D-request is served only if the remaining C-requests' SCAN still fits after it
//    (003 §4.3), and a C-request out of SCAN order only if the same holds, else the C-requests go
//    in their SCAN from the heads (greedy C order could otherwise undo the D-request's check). The
//    check is made at every decision: a D-request that does not fit is skipped for that decision,
//    not postponed to the next round (that is §2.1's rule for the clustered algorithms). 003 does
//    not say which C-requests SPTF chooses from: sptf_pool "all" (above), "d" (the D-queue alone;
//    the C-requests in their SCAN when no D-request may be served) or "scan" (the D-queue and the
//    next C-request of the round's SCAN).
// After the C-requests, the OPS algorithms serve the rest of the round's D-requests with their own
// lower level over the whole disk (CI-SPTF: SPTF; CI-OPT, CLUST-*: clusters in SCAN order, OPT
// within). OPT(k) is firmware/rounds/round_manager.h optimal_order (exact, k <= 8); what it
// minimises, 003 §2.1's undefined "cost", is opt_cost: the cluster's last finish (default) or the
// sum of its requests' finishes.
#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/policies/policies.h"
#include "firmware/rounds/round_manager.h"
#include "firmware/rounds/round_status.h"

namespace drivevp {

namespace {

/// What SPTF with the glitch guard chooses from (sptf_pool; 003 §4.3 leaves it open): every
/// C-request of the round and the D-queue; the D-queue alone (the C-requests in their SCAN when no
/// D-request may be served); the D-queue and the next C-request of the round's SCAN.
enum class SptfPool { All, D, Scan };

enum class Variant { TpsScanScan, TpsScanCiOpt, OpsFamish, OpsCiSptf, OpsCiOpt, OpsClustReq, OpsClustCyl, Sptf };

class MixedMediaScheduler final : public SchedulingPolicy, public RoundStatusSource {
 public:
  MixedMediaScheduler(std::string name, Variant v, Time round, Time guard, std::size_t k, std::uint32_t t_cyl,
                      SptfPool pool, OptCost opt_cost)
      : name_(std::move(name)), v_(v), rounds_(round, guard), k_(k), t_cyl_(t_cyl), pool_(pool), opt_cost_(opt_cost) {}
  std::string_view name() const override { return name_; }

  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    if (RoundManager::is_continuous(c)) {
      if (started_ && rounds_.round_of(c) <= round_) {
        insert_c(c, ctx);
      } else {
        held_.push_back(c);
      }
    } else {
      d_.push_back(c);
    }
  }

  std::size_t pending() const override { return c_.size() + held_.size() + d_.size() + cluster_.size() + plan_.size(); }

  Decision next(const SchedulingContext& ctx) override {
    const std::uint64_t r = rounds_.round_at(ctx.now);
    if (!started_ || r != round_) start_round(r, ctx);
    return decide(ctx);
  }

  /// The round, its C-requests still queued (FAMISH: in the plan; the decision's own excluded),
  /// and the slack: the round's end less the predicted finish of the decision's command followed
  /// by those C-requests in their SCAN order (FAMISH: the whole plan, admitted D-requests
  /// included), the prediction 003 §2.1's check makes before a D-request.
  std::optional<RoundStatus> round_status(const SchedulingContext& ctx, const Decision& d) const override {
    RoundStatus s;
    s.round = round_;
    const Cmds& rest = v_ == Variant::OpsFamish ? plan_ : c_;
    s.pending_c = static_cast<std::uint32_t>(
        std::count_if(rest.begin(), rest.end(), [](const Command& c) { return RoundManager::is_continuous(c); }));
    const Command* first = d.kind == Decision::Kind::Serve ? &d.command : nullptr;
    s.slack = rounds_.round_end(round_) - RoundManager::finish_of(ctx, first, rest);
    s.has_slack = true;
    return s;
  }

 private:
  using Cmds = std::vector<Command>;
  static std::uint32_t cyl(const SchedulingContext& ctx, const Command& c) {
    return ctx.predictor->sweep_coordinate(c.lbn);
  }

  void start_round(std::uint64_t r, const SchedulingContext& ctx) {
    // Unserved D-requests of the last round's plan or cluster return to the D-queue (FIFO by id).
    for (const Command& c : plan_) (RoundManager::is_continuous(c) ? c_ : d_).push_back(c);
    for (const Command& c : cluster_) d_.push_back(c);
    plan_.clear();
    cluster_.clear();
    std::sort(d_.begin(), d_.end(), [](const Command& a, const Command& b) { return a.id < b.id; });
    started_ = true;
    round_ = r;
    postponed_.clear();
    famish_stopped_ = false;
    // The round's C-set: held C-requests of this round or earlier, and any left over (late).
    for (auto it = held_.begin(); it != held_.end();) {
      if (rounds_.round_of(*it) <= r) {
        c_.push_back(*it);
        it = held_.erase(it);
      } else {
        ++it;
      }
    }
    pos_ = ctx.predictor->sweep_coordinate(ctx.position);
    order_c(ctx);
    if (v_ == Variant::OpsFamish) plan_ = std::move(c_), c_.clear();
  }

  /// SCAN order of the C-set from the heads: towards the nearer extreme first.
  void order_c(const SchedulingContext& ctx) {
    if (c_.empty()) return;
    std::uint32_t lo = UINT32_MAX, hi = 0;
    for (const Command& c : c_) {
      lo = std::min(lo, cyl(ctx, c));
      hi = std::max(hi, cyl(ctx, c));
    }
    const std::uint32_t at = pos_;
    up_ = (at > lo ? at - lo : lo - at) <= (at > hi ? at - hi : hi - at);
    std::stable_sort(c_.begin(), c_.end(), [&](const Command& a, const Command& b) {
      const std::uint32_t ca = cyl(ctx, a), cb = cyl(ctx, b);
      if (ca != cb) return up_ ? ca < cb : ca > cb;
      return a.id < b.id;
    });
  }

  /// Sweep key relative to the last C position: ahead (in the sweep's direction) first by
  /// distance, then behind in the return direction.
  std::pair<int, std::int64_t> sweep_key(const SchedulingContext& ctx, const Command& c) const {
    const std::int64_t x = cyl(ctx, c), p = pos_;
    const bool ahead = up_ ? x >= p : x <= p;
    return ahead ? std::pair<int, std::int64_t>{0, up_ ? x - p : p - x}
                 : std::pair<int, std::int64_t>{1, up_ ? p - x : x - p};
  }

  void insert_into(Cmds& list, const Command& c, const SchedulingContext& ctx) {
    const auto key = sweep_key(ctx, c);
    auto it = std::find_if(list.begin(), list.end(), [&](const Command& o) { return key < sweep_key(ctx, o); });
    list.insert(it, c);
  }
  /// A C-request of the current round arriving after the round started: into the sweep.
  void insert_c(const Command& c, const SchedulingContext& ctx) {
    insert_into(v_ == Variant::OpsFamish ? plan_ : c_, c, ctx);
  }

  Decision serve(const SchedulingContext& ctx, const Command& c) {
    const RoundManager::Step s = RoundManager::predict(*ctx.predictor, ctx.position, ctx.now, c);
    if (RoundManager::is_continuous(c)) pos_ = cyl(ctx, c);
    return Decision::serve(c, s.positioning);
  }
  Decision serve_c(const SchedulingContext& ctx) {
    const Command c = c_.front();
    c_.erase(c_.begin());
    return serve(ctx, c);
  }
  Command take_d(std::size_t i) {
    const Command c = d_[i];
    d_.erase(d_.begin() + static_cast<std::ptrdiff_t>(i));
    return c;
  }
  bool eligible(const Command& c) const { return postponed_.count(c.id) == 0; }

  /// Nothing may be served now.
  Decision wait() const {
    if (!d_.empty() || !c_.empty() || !cluster_.empty() || !plan_.empty())
      return Decision::wait_until(rounds_.wake_at_boundary(round_));
    if (!held_.empty()) {
      std::uint64_t first = UINT64_MAX;
      for (const Command& c : held_) first = std::min(first, rounds_.round_of(c));
      return Decision::wait_until(rounds_.round_start(first));
    }
    return Decision::idle();
  }

  /// Serves the next of the active cluster that fits; false when the cluster is done.
  bool next_of_cluster(const SchedulingContext& ctx, Decision& out) {
    while (!cluster_.empty()) {
      const Command c = cluster_.front();
      cluster_.erase(cluster_.begin());
      if (rounds_.fits(ctx, &c, c_, round_)) {
        out = serve(ctx, c);
        return true;
      }
      postponed_.insert(c.id);
      d_.push_back(c);
    }
    return false;
  }

  /// Splits `part` (sorted along the sweep) into halves until no part exceeds k_; returns the first.
  Cmds first_part(Cmds part) const {
    while (part.size() > k_) part.resize((part.size() + 1) / 2);
    return part;
  }

  /// Starts a cluster made of `members` (removed from the D-queue) in OPT order.
  void open_cluster(const SchedulingContext& ctx, const Cmds& members) {
    for (const Command& m : members)
      d_.erase(std::find_if(d_.begin(), d_.end(), [&](const Command& c) { return c.id == m.id; }));
    cluster_ = optimal_order(ctx, members, opt_cost_);
  }

  /// Eligible D-requests ordered along an elevator from cylinder `from` in direction `up`,
  /// reversing when none lies ahead; `only_ahead` keeps only those ahead. Only the first `limit`
  /// of that order are returned (the order is total, by cylinder then id, so the prefix is the
  /// same as the full order's). The D-queue is ordered by a compact key so that an overload's
  /// backlog of thousands is sorted without moving whole commands.
  Cmds along(const SchedulingContext& ctx, std::uint32_t from, bool up, bool only_ahead,
             std::size_t limit = SIZE_MAX) const {
    struct Key {
      std::uint32_t cyl;
      std::uint64_t id;
      std::size_t index;  ///< in d_
    };
    std::vector<Key> ahead, behind;
    ahead.reserve(d_.size());
    for (std::size_t i = 0; i < d_.size(); ++i) {
      const Command& c = d_[i];
      if (!eligible(c)) continue;
      const std::uint32_t x = cyl(ctx, c);
      ((up ? x >= from : x <= from) ? ahead : behind).push_back({x, c.id, i});
    }
    auto by = [](bool asc) {
      return [asc](const Key& a, const Key& b) {
        if (a.cyl != b.cyl) return asc ? a.cyl < b.cyl : a.cyl > b.cyl;
        return a.id < b.id;
      };
    };
    auto first = [&](std::vector<Key>& keys, std::size_t n, bool asc) {
      n = std::min(n, keys.size());
      std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n), keys.end(), by(asc));
      keys.resize(n);
    };
    first(ahead, limit, up);
    if (!only_ahead && ahead.size() < limit) {
      first(behind, limit - ahead.size(), !up);
      ahead.insert(ahead.end(), behind.begin(), behind.end());
    }
    Cmds out;
    out.reserve(ahead.size());
    for (const Key& k : ahead) out.push_back(d_[k.index]);
    return out;
  }

  /// SPTF over the eligible D-requests satisfying `in`; the first that fits, or none. One that
  /// does not fit is postponed to the next round when `postpone` (the clustered algorithms' check,
  /// 003 §2.1), else only skipped for this decision (SPTF's, 003 §4.3).
  template <class Pred>
  bool sptf_d(const SchedulingContext& ctx, Pred in, Decision& out, bool postpone) {
    std::set<std::uint64_t> skip;
    for (;;) {
      std::size_t best = d_.size();
      Time best_t = Time::max();
      for (std::size_t i = 0; i < d_.size(); ++i) {
        if (!eligible(d_[i]) || skip.count(d_[i].id) != 0 || !in(d_[i])) continue;
        const Time a = ctx.predictor->estimate(ctx.position, ctx.now, d_[i].lbn, d_[i].op).access();
        if (a < best_t || (a == best_t && d_[i].id < d_[best].id)) {
          best = i;
          best_t = a;
        }
      }
      if (best == d_.size()) return false;
      if (rounds_.fits(ctx, &d_[best], c_, round_)) {
        out = serve(ctx, take_d(best));
        return true;
      }
      (postpone ? postponed_ : skip).insert(d_[best].id);
    }
  }

  /// The D-period (no C-request left this round), per the variant's lower level.
  Decision d_period(const SchedulingContext& ctx) {
    Decision out;
    if (next_of_cluster(ctx, out)) return out;
    const std::uint32_t at = ctx.predictor->sweep_coordinate(ctx.position);
    switch (v_) {
      case Variant::TpsScanScan:
        for (const Command& c : along(ctx, at, up_, false)) {
          if (rounds_.fits(ctx, &c, c_, round_)) {
            const std::uint32_t x = cyl(ctx, c);
            if (!(up_ ? x >= at : x <= at)) up_ = !up_;  // the elevator turned
            for (std::size_t i = 0; i < d_.size(); ++i)
              if (d_[i].id == c.id) return serve(ctx, take_d(i));
          }
          postponed_.insert(c.id);
        }
        return wait();
      case Variant::OpsCiSptf:
      case Variant::Sptf:
        if (sptf_d(
                ctx, [](const Command&) { return true; }, out, v_ == Variant::OpsCiSptf))
          return out;
        return wait();
      default: {
        // Clusters over the whole disk in SCAN order: the eligible D-requests along the elevator.
        // CLUST-*: only the first cluster (at most k_) of the order is needed.
        const bool clust_only = v_ == Variant::OpsClustReq || v_ == Variant::OpsClustCyl;
        const std::size_t need = clust_only ? k_ : SIZE_MAX;
        Cmds all = along(ctx, at, up_, true, need);
        if (all.empty()) {
          up_ = !up_;
          all = along(ctx, at, up_, true, need);
        }
        if (all.empty()) return wait();
        Cmds part;
        if (v_ == Variant::OpsClustReq || v_ == Variant::OpsClustCyl)
          part = clust(ctx, all);
        else
          part = first_part(all);
        open_cluster(ctx, part);
        if (next_of_cluster(ctx, out)) return out;
        return d_period(ctx);
      }
    }
  }

  /// CLUST-REQ / CLUST-CYL: the first cluster of `along` (sorted along the sweep).
  Cmds clust(const SchedulingContext& ctx, const Cmds& along_sweep) const {
    Cmds part;
    const std::uint32_t first = cyl(ctx, along_sweep.front());
    for (const Command& c : along_sweep) {
      if (part.size() == k_) break;
      const std::uint32_t x = cyl(ctx, c);
      if (v_ == Variant::OpsClustCyl && (x > first ? x - first : first - x) > t_cyl_) break;
      part.push_back(c);
    }
    return part;
  }

  Decision famish(const SchedulingContext& ctx) {
    // Steps 2-5 of 003 §2.3: admit D-requests from the head of the D-queue while the plan fits.
    while (!famish_stopped_ && !d_.empty()) {
      Cmds trial = plan_;
      insert_into(trial, d_.front(), ctx);
      if (RoundManager::finish_of(ctx, nullptr, trial) <= rounds_.round_budget_end(round_)) {
        plan_ = std::move(trial);
        d_.erase(d_.begin());
      } else {
        famish_stopped_ = true;
      }
    }
    if (plan_.empty()) return wait();
    const Command c = plan_.front();
    plan_.erase(plan_.begin());
    return serve(ctx, c);
  }

  /// The remaining C-requests in SCAN order from cylinder `from` (towards the nearer extreme).
  Cmds scan_from(const SchedulingContext& ctx, std::uint32_t from) {
    const std::uint32_t saved_pos = pos_;
    const bool saved_up = up_;
    pos_ = from;
    order_c(ctx);
    Cmds out = c_;
    pos_ = saved_pos;
    up_ = saved_up;
    return out;
  }

  /// sptf_pool "scan": SPTF between the next C-request of the round's SCAN and the D-requests
  /// that fit before the rest of that SCAN.
  Decision sptf_scan_pool(const SchedulingContext& ctx) {
    const Command& next_c = c_.front();
    const Time c_access = ctx.predictor->estimate(ctx.position, ctx.now, next_c.lbn, next_c.op).access();
    auto nearer = [&](const Command& d) {
      const Time a = ctx.predictor->estimate(ctx.position, ctx.now, d.lbn, d.op).access();
      return a < c_access || (a == c_access && d.id < next_c.id);
    };
    Decision out;
    if (sptf_d(ctx, nearer, out, false)) return out;
    return serve_c(ctx);
  }

  Decision sptf_guard(const SchedulingContext& ctx) {
    // SPTF among the D-requests and the C-requests the pool admits (sptf_pool: all of the
    // round's, none, or the next of their SCAN), keeping the invariant that the remaining
    // C-requests' SCAN fits in the round: a D-request (or, pool "all", a C-request out of SCAN
    // order) is served only if the SCAN of the C-requests left after it, from its end (pool
    // "scan": the planned SCAN), still fits; otherwise the C-requests are served in their SCAN
    // order from here. The check is made afresh at every decision (003 §4.3 serves "a D-request
    // only if the service of this request leaves enough time"; unlike the clustered algorithms'
    // check, §2.1, it does not postpone the D-request to the next round): a D-request that does
    // not fit now is only skipped for this decision.
    if (pool_ == SptfPool::Scan) return sptf_scan_pool(ctx);
    std::set<std::uint64_t> skip;
    for (;;) {
      const Command* best = nullptr;
      Time best_t = Time::max();
      auto consider = [&](const Command& c) {
        const Time a = ctx.predictor->estimate(ctx.position, ctx.now, c.lbn, c.op).access();
        if (!best || a < best_t || (a == best_t && c.id < best->id)) {
          best = &c;
          best_t = a;
        }
      };
      if (pool_ == SptfPool::All)
        for (const Command& c : c_) consider(c);
      for (const Command& c : d_)
        if (eligible(c) && skip.count(c.id) == 0) consider(c);
      if (!best) {  // sptf_pool "d" and no D-request may be served: the C-requests' SCAN
        if (c_.empty()) return wait();
        c_ = scan_from(ctx, ctx.predictor->sweep_coordinate(ctx.position));
        return serve_c(ctx);
      }
      const Command chosen = *best;
      const bool is_c = RoundManager::is_continuous(chosen);
      Cmds rest;
      for (const Command& c : c_)
        if (c.id != chosen.id) rest.push_back(c);
      std::swap(c_, rest);
      const Cmds after = scan_from(ctx, cyl(ctx, chosen));
      std::swap(c_, rest);
      if (rounds_.fits(ctx, &chosen, after, round_)) {
        if (is_c) {
          c_.erase(std::find_if(c_.begin(), c_.end(), [&](const Command& o) { return o.id == chosen.id; }));
          return serve(ctx, chosen);
        }
        for (std::size_t i = 0; i < d_.size(); ++i)
          if (d_[i].id == chosen.id) return serve(ctx, take_d(i));
      }
      if (is_c) {  // out of SCAN order it would not fit: the SCAN from the heads
        c_ = scan_from(ctx, ctx.predictor->sweep_coordinate(ctx.position));
        return serve_c(ctx);
      }
      skip.insert(chosen.id);
    }
  }

  Decision decide(const SchedulingContext& ctx) {
    if (v_ == Variant::OpsFamish) return famish(ctx);
    if (v_ == Variant::Sptf) return c_.empty() ? d_period(ctx) : sptf_guard(ctx);
    if (c_.empty()) return d_period(ctx);
    if (v_ == Variant::TpsScanScan || v_ == Variant::TpsScanCiOpt) return serve_c(ctx);
    Decision out;
    if (next_of_cluster(ctx, out)) return out;
    // The leg from the last C position (or the heads at the round's start) to the next C-request.
    const std::uint32_t p = pos_, c = cyl(ctx, c_.front());
    const std::uint32_t lo = std::min(p, c), hi = std::max(p, c);
    const bool leg_up = c == p ? up_ : c > p;
    auto in_interval = [&](const Command& d) {
      const std::uint32_t x = cyl(ctx, d);
      return x >= lo && x <= hi;
    };
    switch (v_) {
      case Variant::OpsCiSptf:
        if (sptf_d(ctx, in_interval, out, true)) return out;
        return serve_c(ctx);
      case Variant::OpsCiOpt: {
        Cmds in;
        for (const Command& d : along(ctx, p, leg_up, true))
          if (in_interval(d)) in.push_back(d);
        if (in.empty()) return serve_c(ctx);
        open_cluster(ctx, first_part(in));
        if (next_of_cluster(ctx, out)) return out;
        return decide(ctx);
      }
      default: {  // CLUST-REQ, CLUST-CYL: a cluster ahead that starts before the next C-request
        const Cmds ahead = along(ctx, p, leg_up, true, k_);
        if (ahead.empty() || !in_interval(ahead.front())) return serve_c(ctx);
        open_cluster(ctx, clust(ctx, ahead));
        if (next_of_cluster(ctx, out)) return out;
        return decide(ctx);
      }
    }
  }

  std::string name_;
  Variant v_;
  RoundManager rounds_;
  std::size_t k_;
  std::uint32_t t_cyl_;
  SptfPool pool_;     ///< SPTF: what competes with the D-requests (sptf_pool)
  OptCost opt_cost_;  ///< what OPT(k) minimises (opt_cost)
  bool started_ = false;
  std::uint64_t round_ = 0;
  bool up_ = true;         ///< the round's sweep direction
  std::uint32_t pos_ = 0;  ///< cylinder of the last C-request served (the heads' at the round's start)
  Cmds c_;                 ///< the round's C-requests not yet served, in SCAN order
  Cmds held_;              ///< C-requests of later rounds
  Cmds d_;                 ///< the D-queue, in arrival (id) order
  Cmds cluster_;           ///< the cluster being served, in OPT order
  Cmds plan_;              ///< FAMISH: the round's SCAN plan of C- and admitted D-requests
  bool famish_stopped_ = false;
  std::set<std::uint64_t> postponed_;  ///< D-requests that did not fit this round
};

PolicyParameter round_param() {
  return PolicyParameter::number("round_ms", 1000, 1e-3, 3.6e6, "ms",
                                 "round length T (003 section 3.3: 1 s); defaults to workload.round_ms");
}
PolicyParameter guard_param() {
  return PolicyParameter::number(
      "guard_ms", 10, 0, 1000, "ms",
      "time kept free at every round's end for prediction errors: a missed revolution (6 ms on disk003; the "
      "predictor interpolates the seek table) plus the completion path between requests; assumed, "
      "docs/models/firmware.md");
}
PolicyParameter k_param(const char* what) {
  return PolicyParameter::integer("cluster_max", 6, 1, 8, "requests",
                                  std::string("largest cluster served in OPT order (") + what +
                                      "; 003 section 2.1: 6; exact search, 8! orders at most)");
}

PolicyInfo mixed(std::string key, std::string paper, std::string desc, Variant v, bool has_k, bool has_t) {
  std::vector<PolicyParameter> params = {round_param(), guard_param()};
  if (v == Variant::Sptf)
    params.push_back(PolicyParameter::one_of(
        "sptf_pool", {"all", "d", "scan"}, "all",
        "what SPTF with the glitch guard chooses from (003 section 4.3 leaves it open): all = the round's "
        "C-requests and the D-queue (the flat reading); d = the D-queue alone, the C-requests in their SCAN "
        "from the heads whenever no D-request may be served; scan = the D-queue and the next C-request of the "
        "round's SCAN"));
  if (has_k) {
    params.push_back(k_param(v == Variant::OpsClustReq || v == Variant::OpsClustCyl ? "M" : "k"));
    params.push_back(PolicyParameter::one_of(
        "opt_cost", {"last_finish", "mean_response"}, "last_finish",
        "what OPT(k) minimises over a cluster's orders (003 section 2.1: 'the minimum cost', not defined): "
        "last_finish = the cluster's last finish (the TSP path of section 2.1); mean_response = the sum of its "
        "requests' finishes (the measure of section 4.1.1, Fig. 3)"));
  }
  if (has_t)
    params.push_back(PolicyParameter::integer("cluster_cylinders", 1000, 1, 1e6, "cylinders",
                                              "T of CLUST-CYL(M|T): widest cluster (003 section 4.2.2: 1000)"));
  PolicyInfo info{std::move(key), paper, std::move(desc), std::move(params),
                  [v, paper](const PolicyParams& p, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
                    const auto get = [&p](const char* n, double d) {
                      auto it = p.find(n);
                      return it == p.end() ? d : it->second;
                    };
                    return std::make_unique<MixedMediaScheduler>(
                        paper, v, from_ms(get("round_ms", 1000)), from_ms(get("guard_ms", 10)),
                        static_cast<std::size_t>(get("cluster_max", 6)),
                        static_cast<std::uint32_t>(get("cluster_cylinders", 1000)),
                        static_cast<SptfPool>(static_cast<int>(get("sptf_pool", 0))),
                        get("opt_cost", 0) == 0 ? OptCost::LastFinish : OptCost::SumOfFinishes);
                  }};
  info.devices = {"disk"};
  return info;
}

}  // namespace

std::vector<PolicyInfo> describe_mixed_media_policies() {
  return {
      mixed("tps_scan_scan", "TPS:SCAN/SCAN", "two-phase rounds: C-requests in SCAN, then D-requests in SCAN (003 2.2)",
            Variant::TpsScanScan, false, false),
      mixed("tps_scan_scan_ci_opt", "TPS:SCAN/[SCAN/CI-OPT(6)]",
            "two-phase rounds: C SCAN, then D clusters of at most k in SCAN order, OPT inside (003 2.2)",
            Variant::TpsScanCiOpt, true, false),
      mixed("ops_famish", "OPS:FAMISH",
            "one-phase rounds: arrival-ordered D-requests inserted into the C SCAN while it fits (003 2.3)",
            Variant::OpsFamish, false, false),
      mixed("ops_scan_ci_sptf", "OPS:SCAN/CI-SPTF",
            "one-phase rounds: C SCAN, D-requests of each C-interval in SPTF order (003 2.1)", Variant::OpsCiSptf,
            false, false),
      mixed("ops_scan_ci_opt", "OPS:SCAN/CI-OPT(6)",
            "one-phase rounds: C SCAN, each C-interval's D-requests in parts of at most k, OPT order (003 2.1)",
            Variant::OpsCiOpt, true, false),
      mixed("ops_scan_clust_req", "OPS:SCAN/CLUST-REQ(6)",
            "one-phase rounds: C SCAN, clusters of the next M D-requests along the sweep, OPT order (003 4.2.1)",
            Variant::OpsClustReq, true, false),
      mixed("ops_scan_clust_cyl", "OPS:SCAN/CLUST-CYL(6|1000)",
            "one-phase rounds: as CLUST-REQ, clusters also at most T cylinders wide (003 4.2.2)", Variant::OpsClustCyl,
            true, true),
      mixed("sptf_glitch_guard", "SPTF (glitch guard)",
            "SPTF over C- and D-requests; a D-request only if the remaining C SCAN still fits (003 4.3)", Variant::Sptf,
            false, false),
  };
}

}  // namespace drivevp
