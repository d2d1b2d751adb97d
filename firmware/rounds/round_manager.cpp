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

/// OPT(k)'s branch and bound over the orders of `n` requests. What a step predicts that does not
/// depend on when it starts is computed once per search: each request's first block's address,
/// command path to the seek and transfer (transfer_of), and the seek time from the heads' start
/// and from each request's end to each request (DiskPredictor::seek_time, an n + 1 by n table).
/// A step then adds only the rotational wait (DiskPredictor::rotation_after_seek): the same sums
/// of the same integers as RoundManager::predict, so the same finishes.
struct Search {
  struct Item {
    PhysicalAddress target;  ///< the first block's address
    Time lead{0};            ///< command path to the seek
    Time transfer{0};        ///< transfer_of(...).time
    Time least{0};           ///< the least time it adds after another request (below)
  };
  const DiskPredictor& disk;
  Time gap{0};
  std::size_t n = 0;
  std::vector<Item> items;
  /// seek[from * n + i]: the seek to item i from the heads' start (from = 0) or from the end of
  /// item from - 1.
  std::vector<Time> seek;
  OptCost cost = OptCost::LastFinish;
  Time base{0};  ///< the decision's time: finishes are summed from it (no overflow over long runs)
  std::vector<std::size_t> order, best;
  std::vector<bool> used;
  Time best_cost = Time::max();
  Time least_left{0};  ///< Item::least summed over the items not yet in `order`

  /// `t`: the last finish (the decision's time before the first step); `sum`: the finishes so
  /// far less `base`, summed; `at`: 0 before the first step, else 1 + the last item.
  void go(Time t, Time sum, std::size_t at) {
    if (order.size() == n) {
      // The least cost, ties to the lexicographically smallest order (of indices, sorted by id):
      // the exhaustive search's result whatever order the orders are visited in.
      const Time c = cost == OptCost::LastFinish ? t : sum;
      if (c < best_cost || (c == best_cost && order < best)) {
        best_cost = c;
        best = order;
      }
      return;
    }
    const std::int64_t left_after = static_cast<std::int64_t>(n - order.size()) - 1;
    const Time start = at == 0 ? t : t + gap;
    // The next steps, earliest finish first (ties by index) so that good orders are found early
    // and cut more of the rest.
    std::pair<Time, std::size_t> next[8];
    std::size_t m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (used[i]) continue;
      const Item& it = items[i];
      const Time seek_end = start + it.lead + seek[at * n + i];
      // Insertion into the sorted prefix (at most 8 entries).
      const std::pair<Time, std::size_t> e{seek_end + disk.rotation_after_seek(seek_end, it.target) + it.transfer, i};
      std::size_t k = m++;
      for (; k > 0 && e < next[k - 1]; --k) next[k] = next[k - 1];
      next[k] = e;
    }
    for (std::size_t j = 0; j < m; ++j) {
      const auto [finish, i] = next[j];
      const Item& it = items[i];
      // Bound: every order below finishes its other items at `finish` plus at least their least
      // times, so one whose bound is strictly above the best cost can be neither better nor a
      // tie. Last finish: `finish` + the others' least times; sum of finishes: each other item
      // finishes at least at `finish` + its least time.
      const Time others = least_left - it.least;
      const Time after = finish - base;
      const Time bound =
          cost == OptCost::LastFinish ? finish + others : sum + after + Time{after.count() * left_after} + others;
      if (bound > best_cost) continue;
      used[i] = true;
      order.push_back(i);
      least_left -= it.least;
      go(finish, sum + after, i + 1);
      least_left += it.least;
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
  const DiskPredictor& disk = disk_of(*ctx.predictor);
  const CommandPath& path = disk.command_path();
  const std::size_t n = cluster.size();
  Search s{disk, RoundManager::gap(disk),     n,           {},     {}, cost, ctx.now, {},
           {},   std::vector<bool>(n, false), Time::max(), Time{0}};
  // Where each step may start: the heads' position, then each request's last block's track.
  std::vector<HeadPosition> from{DiskPredictor::head_of(ctx.position)};
  for (const Command& c : cluster) {
    Search::Item it;
    it.target = disk.locate(c.lbn);
    it.lead = path.to_seek(c.op);
    const Transfer x = transfer_of(disk, it.target, c);
    it.transfer = x.time;
    // The gap, the command path to the seek (Prediction::lead), the path from the seek to the
    // channel (the least rotation) and the transfer: none depends on where or when it starts.
    it.least = s.gap + it.lead + path.seek_to_transfer + x.time;
    s.least_left += it.least;
    s.items.push_back(it);
    from.push_back({x.last.cylinder, x.last.head});
  }
  s.seek.reserve((n + 1) * n);
  for (const HeadPosition& f : from)
    for (std::size_t i = 0; i < n; ++i)
      s.seek.push_back(disk.seek_time(f, s.items[i].target.cylinder, s.items[i].target.head, cluster[i].op));
  s.go(ctx.now, Time{0}, 0);
  std::vector<Command> out;
  out.reserve(n);
  for (std::size_t i : s.best) out.push_back(cluster[i]);
  return out;
}

}  // namespace drivevp
