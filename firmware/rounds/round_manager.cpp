#include "firmware/rounds/round_manager.h"

#include <algorithm>
#include <stdexcept>
#include <typeinfo>

namespace drivevp {

RoundManager::RoundManager(Time round_length, Time guard) : length_(round_length), guard_(guard) {
  if (length_ <= Time{0}) throw std::invalid_argument("round manager: the round length must be > 0");
  if (guard_ < Time{0} || guard_ >= length_)
    throw std::invalid_argument("round manager: the guard must be in [0, round length)");
}

void RoundManager::begin_round(Time start) {
  if (started() && start < start_) throw std::invalid_argument("round manager: a round cannot start before the last");
  start_ = start;
  ++begun_;
}

std::uint64_t RoundManager::current_round() const {
  if (!started()) throw std::logic_error("round manager: no round has begun");
  return begun_ - 1;
}

Time RoundManager::slack(Time finish) const {
  if (length_ == kUnbounded) throw std::logic_error("round manager: an unbounded round has no slack");
  return current_end() - finish;
}

std::uint64_t RoundManager::round_of(const Command& c) const {
  if (is_continuous(c) && c.deadline != kNoDeadline) {
    const std::uint64_t r = round_at(c.deadline);
    return r == 0 ? 0 : r - 1 + (c.deadline.count() % length_.count() != 0 ? 1 : 0);
  }
  return round_at(c.arrival);
}

namespace {

/// The disk's predictor behind `predictor` (std::invalid_argument if it is not a disk's).
const DiskPredictor& disk_of(const Predictor& predictor) {
  // DiskPredictor is final: comparing the dynamic type is exact and cheaper than a dynamic_cast
  // (this runs for every step of every OPT search).
  if (typeid(predictor) != typeid(DiskPredictor))
    throw std::invalid_argument("round manager: the round policies need a disk's predictor");
  return static_cast<const DiskPredictor&>(predictor);
}

/// The part of RoundManager::predict that depends on `c` alone: from the first block's leading
/// edge under the head to the last block's end (the blocks plus the track and cylinder skews
/// crossed), and the last block's address. `first` is the first block's address.
struct Transfer {
  Time time{0};
  PhysicalAddress last;
};
Transfer transfer_of(const DiskPredictor& disk, const PhysicalAddress& first, const Command& c) {
  const DiskGeometry& g = disk.geometry();
  const PhysicalAddress& a = first;
  const PhysicalAddress b = disk.locate(c.end_lbn() - 1);
  const std::uint64_t tracks =
      (std::uint64_t{b.cylinder} * g.heads() + b.head) - (std::uint64_t{a.cylinder} * g.heads() + a.head);
  const std::uint64_t cylinders = b.cylinder - a.cylinder;
  const std::uint64_t sectors = c.blocks + (tracks - cylinders) * g.track_skew() + cylinders * g.cylinder_skew();
  const Time sector{disk.rotation_period().count() / a.sectors_per_track};  // a.cylinder's zone
  return {Time{sector.count() * static_cast<std::int64_t>(sectors)}, b};
}

}  // namespace

bool RoundManager::predicts(const Predictor& predictor) { return typeid(predictor) == typeid(DiskPredictor); }

RoundManager::Step RoundManager::predict(const Predictor& predictor, const MediaPosition& from, Time start,
                                         const Command& c) {
  const DiskPredictor& disk = disk_of(predictor);
  const Prediction p = disk.predict(DiskPredictor::head_of(from), start, c.lbn, c.op);
  const Transfer x = transfer_of(disk, p.target, c);
  Step s;
  s.positioning = p.positioning();
  s.finish = start + p.access() + x.time;
  s.end = DiskPredictor::position_of({x.last.cylinder, x.last.head});
  return s;
}

Time RoundManager::finish_of(const SchedulingContext& ctx, const Command* first, const std::vector<Command>& sequence) {
  Time t = ctx.now;
  MediaPosition at = ctx.position;
  bool started = false;
  auto step = [&](const Command& c) {
    const Step s = predict(*ctx.predictor, at, started ? t + gap(*ctx.predictor) : t, c);
    t = s.finish;
    at = s.end;
    started = true;
  };
  if (first) step(*first);
  for (const Command& c : sequence) step(c);
  return started ? t : ctx.now;
}

namespace {

struct Search {
  const SchedulingContext& ctx;
  const std::vector<Command>& items;
  OptCost cost;
  std::vector<std::size_t> order, best;
  std::vector<bool> used;
  Time best_cost = Time::max();
  /// Per item, the least time it adds after another request: the gap, the command path to the
  /// seek (Prediction::lead), the path from the seek to the channel (the least rotation) and its
  /// transfer, none of which depends on where or when it starts.
  std::vector<Time> least;
  Time least_left{0};  ///< least[] summed over the items not yet in `order`
  Time base{0};        ///< ctx.now: finishes are summed from it (no overflow over long runs)

  /// `t`: the last finish so far; `sum`: the finishes so far less `base`, summed.
  void go(Time t, Time sum, const MediaPosition& at, bool started) {
    if (order.size() == items.size()) {
      const Time c = cost == OptCost::LastFinish ? t : sum;
      if (c < best_cost) {  // strict: the first (lexicographically smallest) order wins a tie
        best_cost = c;
        best = order;
      }
      return;
    }
    const std::int64_t left_after = static_cast<std::int64_t>(items.size() - order.size()) - 1;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (used[i]) continue;
      const RoundManager::Step s =
          RoundManager::predict(*ctx.predictor, at, started ? t + RoundManager::gap(*ctx.predictor) : t, items[i]);
      // Bound: every order below finishes its other items at s.finish plus at least their least
      // times, so one strictly worse than the best cannot become strictly better (the result and
      // its tie-break are those of the exhaustive search). Last finish: s.finish + the others'
      // least times; sum: each other item finishes at least at s.finish + its least time.
      const Time others = least_left - least[i];
      const Time after = s.finish - base;
      const Time bound =
          cost == OptCost::LastFinish ? s.finish + others : sum + after + Time{after.count() * left_after} + others;
      if (bound > best_cost) continue;
      used[i] = true;
      order.push_back(i);
      least_left -= least[i];
      go(s.finish, sum + after, s.end, true);
      least_left += least[i];
      order.pop_back();
      used[i] = false;
    }
  }
};

}  // namespace

std::vector<Command> optimal_order(const SchedulingContext& ctx, std::vector<Command> cluster, OptCost cost) {
  if (cluster.size() > 8) throw std::invalid_argument("optimal_order: at most 8 requests (8! orders)");
  if (cluster.size() <= 1) return cluster;
  std::sort(cluster.begin(), cluster.end(), [](const Command& a, const Command& b) { return a.id < b.id; });
  Search s{ctx, cluster, cost, {}, {}, std::vector<bool>(cluster.size(), false), Time::max(), {}, Time{0}, ctx.now};
  const DiskPredictor& disk = disk_of(*ctx.predictor);
  const CommandPath& path = disk.command_path();
  for (const Command& c : cluster) {
    const Time least = RoundManager::gap(disk) + path.to_seek(c.op) + path.seek_to_transfer +
                       transfer_of(disk, disk.locate(c.lbn), c).time;
    s.least.push_back(least);
    s.least_left += least;
  }
  s.go(ctx.now, Time{0}, ctx.position, false);
  std::vector<Command> out;
  out.reserve(cluster.size());
  for (std::size_t i : s.best) out.push_back(cluster[i]);
  return out;
}

}  // namespace drivevp
