// WRR-SCAN-R, WRR-SCAN-C, WRR-SCAN-CA (paper 004 §3.1-3.3); the rules are in wrr_scan.h.
#include "firmware/rounds/wrr_scan.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "firmware/policies/policies.h"
#include "firmware/rounds/round_manager.h"
#include "firmware/rounds/round_status.h"

namespace drivevp {
namespace {

/// Largest media access a batch may form, in sectors (the firmware's largest transfer).
constexpr std::uint64_t kMaxBatchSectors = 65536;
/// The aperiodic server's owner id (tasks are their Command::stream, at most 2^32 - 1).
constexpr std::int64_t kAperiodicServer = -1;

class WrrScan final : public WrrScanPolicy, public RoundStatusSource {
 public:
  WrrScan(wrr::Variant variant, bool reclaim) : variant_(variant), reclaim_(reclaim) {}
  std::string_view name() const override { return wrr::paper_name(variant_); }

  void configure(const WrrRoundPlan& plan) override {
    if (plan.round <= Time{0}) throw std::invalid_argument("WRR-SCAN plan: the round length R must be positive");
    if (plan.block_sectors == 0) throw std::invalid_argument("WRR-SCAN plan: the block size C must be positive");
    if (plan.aperiodic_blocks == 0) throw std::invalid_argument("WRR-SCAN plan: x_a must be at least 1 block");
    for (const auto& [stream, x] : plan.weight_blocks)
      if (x == 0) throw std::invalid_argument("WRR-SCAN plan: task " + std::to_string(stream) + " has weight 0");
    plan_ = plan;
    configured_ = true;
    clock_ = RoundManager(plan.round, Time{0});
  }
  std::uint64_t rounds() const override { return clock_.rounds_begun(); }
  const RoundManager& round_clock() const override { return clock_; }
  /// The WRR round, the periodic job commands (RealTime) still queued and, with a plan on a disk
  /// (RoundManager::predicts), the slack: the round's end less the predicted finish
  /// (RoundManager::finish_of) of the decision's media access followed by the rest of the round's
  /// sweep as the queue stands (the accesses next() would still serve in this round, the owners'
  /// budgets spent as they go; each access predicted as one command over its blocks). After a
  /// Serve decision also whether that rest holds a periodic job command (RealTime; any command of
  /// a batch), RoundStatus::c_planned.
  std::optional<RoundStatus> round_status(const SchedulingContext& ctx, const Decision& decision) const override {
    RoundStatus s;
    s.round = clock_.started() ? clock_.current_round() : 0;
    for (const auto& [k, c] : queue_)
      if (c.cls == RequestClass::RealTime) ++s.pending_c;
    if (decision.kind != Decision::Kind::Serve) return s;
    const Command access = merged(decision);
    const std::vector<Decision> rest = rest_of_round(*ctx.predictor, access);
    s.has_c_planned = true;
    for (const Decision& d : rest) {
      auto periodic = [](const Command& c) { return c.cls == RequestClass::RealTime; };
      s.c_planned = s.c_planned || periodic(d.command) || std::any_of(d.batch.begin(), d.batch.end(), periodic);
    }
    if (configured_ && RoundManager::predicts(*ctx.predictor)) {
      std::vector<Command> accesses;
      accesses.reserve(rest.size());
      for (const Decision& d : rest) accesses.push_back(merged(d));
      s.slack = clock_.slack(RoundManager::finish_of(ctx, &access, accesses));
      s.has_slack = true;
    }
    return s;
  }
  /// The Serve decisions next() would make in the current round after `access` if no command
  /// arrived and the round had time: the sweep continued from `access`'s last block on a copy of
  /// the state.
  std::vector<Decision> rest_of_round(const Predictor& predictor, const Command& access) const {
    WrrScan sweep(*this);
    std::vector<Decision> out;
    std::uint32_t cyl = predictor.sweep_coordinate(access.end_lbn() - 1);
    for (auto it = sweep.find_ahead(cyl); it != sweep.queue_.end(); it = sweep.find_ahead(cyl)) {
      out.push_back(sweep.serve(it));
      cyl = predictor.sweep_coordinate(merged(out.back()).end_lbn() - 1);
    }
    return out;
  }
  /// A Serve decision's media access as one command: the first command over all its blocks.
  static Command merged(const Decision& d) {
    Command c = d.command;
    for (const Command& b : d.batch) c.blocks += b.blocks;
    return c;
  }

  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    const Key k{ctx.predictor->sweep_coordinate(c.lbn), c.lbn, c.id};
    queue_.emplace(k, c);
    by_lbn_.emplace(c.lbn, k);
  }
  std::size_t pending() const override { return queue_.size(); }

  Decision next(const SchedulingContext& ctx) override {
    if (queue_.empty()) return Decision::idle();
    const std::uint32_t cyl = ctx.predictor->sweep_coordinate(ctx.position);
    bool fresh = false;
    if (clock_.over(ctx.now)) {  // no round yet, or R has passed (never before configure())
      start_round(ctx.now);
      fresh = true;
    }
    auto it = find_ahead(cyl);
    if (it == queue_.end() && fresh) {
      up_ = !up_;
      it = find_ahead(cyl);
    }
    if (it == queue_.end()) {
      // The round's work is done.
      if (configured_ && !reclaim_) return Decision::wait_until(clock_.current_end());
      start_round(ctx.now);
      it = find_ahead(cyl);
      if (it == queue_.end()) {
        up_ = !up_;
        it = find_ahead(cyl);
      }
      if (it == queue_.end()) return Decision::idle();  // unreachable: a fresh round serves anything
    }
    return serve(it);
  }

 private:
  using Key = std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>;  // sweep coordinate, LBN, id
  using Queue = std::map<Key, Command>;

  std::int64_t owner(const Command& c) const {
    if (configured_ && c.cls == RequestClass::RealTime && plan_.weight_blocks.count(c.stream)) return c.stream;
    return kAperiodicServer;
  }
  std::int64_t full_budget(std::int64_t o) const {
    if (!configured_) return std::numeric_limits<std::int64_t>::max();
    const std::uint32_t blocks =
        o == kAperiodicServer ? plan_.aperiodic_blocks : plan_.weight_blocks.at(static_cast<std::uint32_t>(o));
    return static_cast<std::int64_t>(blocks) * plan_.block_sectors;
  }
  std::int64_t used(std::int64_t o) const {
    auto it = used_.find(o);
    return it == used_.end() ? 0 : it->second;
  }
  bool eligible(const Command& c) const {
    const std::int64_t o = owner(c);
    const std::int64_t u = used(o);
    return u == 0 || static_cast<std::int64_t>(c.blocks) <= full_budget(o) - u;
  }

  void start_round(Time now) {
    up_ = clock_.started() ? !up_ : true;
    clock_.begin_round(configured_ && !reclaim_ ? Time{now.count() / plan_.round.count() * plan_.round.count()} : now);
    used_.clear();
  }

  Queue::iterator find_ahead(std::uint32_t cyl) {
    if (up_) {
      for (auto it = queue_.lower_bound(Key{cyl, 0, 0}); it != queue_.end(); ++it)
        if (eligible(it->second)) return it;
      return queue_.end();
    }
    constexpr auto kMax64 = std::numeric_limits<std::uint64_t>::max();
    for (auto it = queue_.upper_bound(Key{cyl, kMax64, kMax64}); it != queue_.begin();) {
      --it;
      if (eligible(it->second)) return it;
    }
    return queue_.end();
  }

  void erase(Queue::iterator it) {
    auto [b, e] = by_lbn_.equal_range(it->second.lbn);
    for (auto j = b; j != e; ++j)
      if (j->second == it->first) {
        by_lbn_.erase(j);
        break;
      }
    queue_.erase(it);
  }

  /// A queued command that continues `run` contiguously (after its end going up, before its start
  /// going down), of the same owner and direction, within `room` sectors; queue_.end() if none.
  Queue::iterator neighbour(const std::vector<Command>& run, std::int64_t o, std::int64_t room) {
    auto fits = [&](const Command& c) {
      return owner(c) == o && c.op == run.front().op && static_cast<std::int64_t>(c.blocks) <= room;
    };
    if (up_) {
      auto [b, e] = by_lbn_.equal_range(run.back().end_lbn());
      for (auto j = b; j != e; ++j)
        if (fits(queue_.at(j->second))) return queue_.find(j->second);
      return queue_.end();
    }
    auto j = by_lbn_.lower_bound(run.front().lbn);
    if (j == by_lbn_.begin()) return queue_.end();
    --j;
    const std::uint64_t lbn = j->first;
    while (true) {
      const Command& c = queue_.at(j->second);
      if (c.end_lbn() == run.front().lbn && fits(c)) return queue_.find(j->second);
      if (j == by_lbn_.begin()) break;
      --j;
      if (j->first != lbn) break;
    }
    return queue_.end();
  }

  Decision serve(Queue::iterator it) {
    const Command first = it->second;
    const std::int64_t o = owner(first);
    const std::int64_t budget_left = full_budget(o) - used(o);
    std::int64_t room = std::min<std::int64_t>(budget_left, static_cast<std::int64_t>(kMaxBatchSectors)) -
                        static_cast<std::int64_t>(first.blocks);
    std::vector<Command> run{first};
    erase(it);
    for (auto n = neighbour(run, o, room); n != queue_.end(); n = neighbour(run, o, room)) {
      room -= static_cast<std::int64_t>(n->second.blocks);
      if (up_)
        run.push_back(n->second);
      else
        run.insert(run.begin(), n->second);
      erase(n);
    }
    std::int64_t total = 0;
    for (const Command& c : run) total += c.blocks;
    // An oversized command (larger than the whole budget) uses the whole budget.
    used_[o] = total > budget_left ? full_budget(o) : used(o) + total;
    return Decision::serve_batch(run.front(), std::vector<Command>(run.begin() + 1, run.end()));
  }

  wrr::Variant variant_;
  bool reclaim_;
  bool configured_ = false;
  WrrRoundPlan plan_;
  Queue queue_;
  std::multimap<std::uint64_t, Key> by_lbn_;
  std::map<std::int64_t, std::int64_t> used_;  ///< sectors served this round, by owner
  /// The round clock: R from the plan; before configure() rounds are unbounded (they end when
  /// their work is done).
  RoundManager clock_{RoundManager::kUnbounded, Time{0}};
  bool up_ = true;
};

PolicyInfo describe(wrr::Variant v, const char* key, const char* section) {
  return {key,
          wrr::paper_name(v),
          std::string("weighted round-robin over rate-based real-time tasks and an aperiodic server, each round one "
                      "SCAN sweep (paper 004 ") +
              section + "); weights from the admission test of the rate_tasks workload",
          {PolicyParameter::boolean("reclaim", true,
                                    "WRR-SCAN: bandwidth reclamation, a new round starts when the current round's "
                                    "work is done instead of at the round boundary (paper 004 §4)")},
          [v](const PolicyParams& p, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
            return make_wrr_scan(v, p.at("reclaim") != 0);
          },
          {"disk", "mems"}};
}

}  // namespace

std::unique_ptr<WrrScanPolicy> make_wrr_scan(wrr::Variant variant, bool reclaim) {
  return std::make_unique<WrrScan>(variant, reclaim);
}

PolicyInfo describe_wrr_scan_r() { return describe(wrr::Variant::R, "wrr_scan_r", "§3.1"); }
PolicyInfo describe_wrr_scan_c() { return describe(wrr::Variant::C, "wrr_scan_c", "§3.2"); }
PolicyInfo describe_wrr_scan_ca() { return describe(wrr::Variant::CA, "wrr_scan_ca", "§3.3"); }

}  // namespace drivevp
