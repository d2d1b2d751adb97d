// Paper 003's round machinery and mixed-media schedulers on hand-built rounds (firmware/rounds/,
// firmware/policies/mixed_media.cpp): round boundaries, each algorithm's service order derived
// here from its rule and the firmware's predictor, CI-OPT(6) against a brute force over all
// orders, cluster formation of CLUST-REQ / CLUST-CYL, FAMISH's insertion and stop rule. Plain C++.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "firmware/policy.h"
#include "firmware/rounds/round_manager.h"
#include "small_disk.h"

namespace drivevp {
namespace {

using testdisk::ms;
using testdisk::us;

constexpr std::int64_t kRoundMs = 1000;

/// A request on the small disk at (cylinder, head 0, sector), `blocks` long.
Command at(std::uint64_t id, std::uint32_t cylinder, std::uint32_t sector, bool continuous, std::uint32_t blocks = 1) {
  Command c;
  c.id = id;
  c.lbn = std::uint64_t{cylinder} * 20 + sector;
  c.blocks = blocks;
  c.cls = continuous ? RequestClass::Continuous : RequestClass::Discrete;
  c.deadline = continuous ? ms(kRoundMs) : kNoDeadline;
  c.stream = continuous ? static_cast<std::uint32_t>(id) : 0;
  return c;
}

SchedulingContext context(Time now, std::uint32_t cylinder) {
  SchedulingContext ctx;
  ctx.now = now;
  ctx.position = DiskPredictor::position_of({cylinder, 0});
  ctx.predictor = &testdisk::predictor();
  return ctx;
}

/// Drives `p` like the controller: every Serve advances the clock to the predicted finish and the
/// heads to the request's end; a WaitUntil jumps to its time. Returns the ids served, at most
/// `limit`, stopping at the first Idle.
std::vector<std::uint64_t> drive(SchedulingPolicy& p, SchedulingContext ctx, std::size_t limit,
                                 std::vector<Time>* starts = nullptr) {
  std::vector<std::uint64_t> out;
  for (int decisions = 0; out.size() < limit; ++decisions) {
    REQUIRE(decisions < 1000);  // a policy that never serves again is a failure, not a hang
    const Decision d = p.next(ctx);
    if (d.kind == Decision::Kind::Idle) break;
    if (d.kind == Decision::Kind::WaitUntil) {
      ctx.now = d.wake_at;
      continue;
    }
    REQUIRE(d.kind == Decision::Kind::Serve);
    if (starts) starts->push_back(ctx.now);
    const RoundManager::Step s = RoundManager::predict(*ctx.predictor, ctx.position, ctx.now, d.command);
    ctx.now = s.finish;
    ctx.position = s.end;
    out.push_back(d.command.id);
  }
  return out;
}

std::unique_ptr<SchedulingPolicy> make(const char* key, PolicyParams extra = {}) {
  extra["round_ms"] = kRoundMs;
  extra["guard_ms"] = 0;
  return make_policy(key, extra, "disk");
}

void enqueue_all(SchedulingPolicy& p, const std::vector<Command>& cs, const SchedulingContext& ctx) {
  for (const Command& c : cs) p.enqueue(c, ctx);
}

}  // namespace

TEST_CASE("round manager: boundaries are exact multiples of the round length", "[rounds]") {
  const RoundManager rm(ms(1000), ms(2));
  CHECK(rm.round_at(Time{0}) == 0);
  CHECK(rm.round_at(ms(1000) - Time{1}) == 0);
  CHECK(rm.round_at(ms(1000)) == 1);
  CHECK(rm.round_at(ms(2500)) == 2);
  CHECK(rm.round_start(3) == ms(3000));
  CHECK(rm.round_end(3) == ms(4000));
  CHECK(rm.round_budget_end(3) == ms(3998));
  CHECK(rm.wake_at_boundary(3) == ms(4000) + RoundManager::kRoundSync);
  Command c = at(1, 0, 0, true);
  c.deadline = ms(3000);  // the end of round 2
  CHECK(rm.round_of(c) == 2);
  c.deadline = ms(2500);  // within round 2
  CHECK(rm.round_of(c) == 2);
  Command d = at(2, 0, 0, false);
  d.arrival = ms(1999);
  CHECK(rm.round_of(d) == 1);
  CHECK_THROWS_AS(RoundManager(Time{0}, Time{0}), std::invalid_argument);
  CHECK_THROWS_AS(RoundManager(ms(10), ms(10)), std::invalid_argument);
}

TEST_CASE("round manager: the predicted service is access plus the transfer of the blocks and skews crossed",
          "[rounds]") {
  const SchedulingContext ctx = context(Time{0}, 0);
  // Cylinder 0, sector 3, 4 blocks: no seek; the first sector passes at 3 ms; 4 sectors of 1 ms.
  const RoundManager::Step s = RoundManager::predict(*ctx.predictor, ctx.position, Time{0}, at(1, 0, 3, false, 4));
  CHECK(s.positioning == ms(3));
  CHECK(s.finish == ms(7));
  CHECK(DiskPredictor::head_of(s.end).cylinder == 0);
  // 12 blocks from sector 8 of head 0: 2 on head 0, a head switch (no skew on the small disk), 10 on head 1.
  const RoundManager::Step t = RoundManager::predict(*ctx.predictor, ctx.position, Time{0}, at(2, 0, 8, false, 12));
  CHECK(t.finish == ms(8) + ms(12));
  CHECK(DiskPredictor::head_of(t.end).head == 1);
}

TEST_CASE("TPS:SCAN/SCAN: the C-period sweeps the C-requests, then the D-period sweeps the D-requests",
          "[rounds][policy]") {
  auto p = make("tps_scan_scan");
  const SchedulingContext ctx = context(Time{0}, 50);
  // C at 10, 60, 90 (heads at 50: both extremes 40 away, the tie goes up: 10, 60, 90); D at 55, 20.
  enqueue_all(
      *p, {at(1, 10, 0, true), at(2, 60, 0, true), at(3, 90, 0, true), at(4, 55, 0, false), at(5, 20, 0, false)}, ctx);
  // The D-period starts at 90 going up: nothing ahead, so the elevator turns: 55, then 20.
  CHECK(drive(*p, ctx, 5) == std::vector<std::uint64_t>{1, 2, 3, 4, 5});
}

TEST_CASE("OPS:SCAN/CI-SPTF: each C-interval's D-requests in SPTF order before the next C-request",
          "[rounds][policy]") {
  auto p = make("ops_scan_ci_sptf");
  const SchedulingContext ctx = context(Time{0}, 0);
  // C at 30 and 70 (heads at 0: 30 is the nearer extreme, up). D at (10, sector 5), (20, sector 0),
  // 50 and 90.
  const std::vector<Command> cs = {at(1, 30, 0, true),  at(2, 70, 0, true),  at(3, 10, 5, false),
                                   at(4, 20, 0, false), at(5, 50, 0, false), at(6, 90, 0, false)};
  enqueue_all(*p, cs, ctx);
  // The interval [0, 30] holds D3 and D4; SPTF from cylinder 0 at time 0 picks the shorter access.
  const Predictor& pr = *ctx.predictor;
  const Time a3 = pr.estimate(ctx.position, Time{0}, cs[2].lbn, Op::Read).access();
  const Time a4 = pr.estimate(ctx.position, Time{0}, cs[3].lbn, Op::Read).access();
  REQUIRE(a3 != a4);
  const std::vector<std::uint64_t> first =
      a3 < a4 ? std::vector<std::uint64_t>{3, 4} : std::vector<std::uint64_t>{4, 3};
  std::vector<std::uint64_t> want = first;
  // Then C30, the interval [30, 70] (D5), C70, and the rest of the round (D6).
  for (std::uint64_t id : {1, 5, 2, 6}) want.push_back(id);
  CHECK(drive(*p, ctx, 6) == want);
}

namespace {

/// The brute force of CI-OPT: every order of `cluster` from `ctx`, the earliest last finish (or,
/// with `sum`, the least sum of the requests' finishes, each timed by finish_of over the order's
/// prefix), ties to the lexicographically smallest order of ids.
std::vector<std::uint64_t> brute_force(const SchedulingContext& ctx, std::vector<Command> cluster, bool sum = false) {
  std::sort(cluster.begin(), cluster.end(), [](const Command& a, const Command& b) { return a.id < b.id; });
  std::vector<std::uint64_t> best;
  Time best_t = Time::max();
  do {
    Time t{0};
    if (!sum) {
      t = RoundManager::finish_of(ctx, nullptr, cluster);
    } else {
      for (std::size_t n = 1; n <= cluster.size(); ++n)
        t +=
            RoundManager::finish_of(ctx, nullptr, std::vector<Command>(cluster.begin(), cluster.begin() + n)) - ctx.now;
    }
    if (t < best_t) {
      best_t = t;
      best.clear();
      for (const Command& c : cluster) best.push_back(c.id);
    }
  } while (std::next_permutation(cluster.begin(), cluster.end(),
                                 [](const Command& a, const Command& b) { return a.id < b.id; }));
  return best;
}

std::vector<Command> six_ds() {
  return {at(11, 12, 7, false, 3), at(12, 5, 2, false, 2), at(13, 40, 9, false),
          at(14, 33, 1, false, 4), at(15, 21, 6, false),   at(16, 8, 4, false, 5)};
}

}  // namespace

TEST_CASE("CI-OPT(6): the cluster's order equals a brute force over all 720 orders", "[rounds][policy]") {
  const SchedulingContext ctx = context(Time{0}, 0);
  const std::vector<Command> ds = six_ds();
  const std::vector<std::uint64_t> want = brute_force(ctx, ds);
  std::vector<std::uint64_t> got;
  for (const Command& c : optimal_order(ctx, ds)) got.push_back(c.id);
  CHECK(got == want);
  // Through the policy: one C at 99, so the C-interval [0, 99] holds all six: one cluster.
  auto p = make("ops_scan_ci_opt");
  enqueue_all(*p, ds, ctx);
  p->enqueue(at(1, 99, 0, true), ctx);
  std::vector<std::uint64_t> all = want;
  all.push_back(1);
  CHECK(drive(*p, ctx, 7) == all);
  CHECK_THROWS_AS(optimal_order(ctx, std::vector<Command>(9, at(1, 0, 0, false))), std::invalid_argument);
}

TEST_CASE("OPT with opt_cost mean_response: the order of least summed finishes, by brute force", "[rounds][policy]") {
  // 003 §2.1 does not define OPT's cost; §4.1.1 scores OPT on the cluster's mean response, which
  // is the sum of the finishes over the cluster's size. Heads at cylinder 0 at 3 ms. X (0, sector
  // 4, 20 blocks: a whole cylinder) ends at about 24.5 ms, Y (5, sector 9) about 30 ms after it:
  // the earliest last finish. Y first ends at 10 ms and X after it at about 34.5 ms: a later last
  // finish but a smaller sum (7 + 31.5 against 21.5 + 27 ms). Z (8, sector 4) joins both.
  const SchedulingContext ctx = context(ms(3), 0);
  const std::vector<Command> ds = {at(21, 0, 4, false, 20), at(22, 5, 9, false), at(23, 8, 4, false)};
  const std::vector<std::uint64_t> want = brute_force(ctx, ds, true);
  std::vector<std::uint64_t> got;
  for (const Command& c : optimal_order(ctx, ds, OptCost::SumOfFinishes)) got.push_back(c.id);
  CHECK(got == want);
  // The two costs choose different orders here (Y before X, or X before Y).
  CHECK(want != brute_force(ctx, ds, false));
  auto before = [](const std::vector<std::uint64_t>& order, std::uint64_t a, std::uint64_t b) {
    return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
  };
  CHECK(before(want, 22, 21));
  CHECK(before(brute_force(ctx, ds, false), 21, 22));
  // Through the policy: CLUST-REQ(6) with one C at 99 takes all three as one cluster.
  auto p = make("ops_scan_clust_req", {{"opt_cost", 1}});
  enqueue_all(*p, ds, ctx);
  p->enqueue(at(1, 99, 0, true), ctx);
  std::vector<std::uint64_t> all = want;
  all.push_back(1);
  CHECK(drive(*p, ctx, 4) == all);
}

TEST_CASE("OPT(k) equals a brute force on random clusters with a command path, writes and track crossings",
          "[rounds][policy]") {
  // The search keeps each request's address, transfer and the seeks between requests; its
  // finishes must be RoundManager::predict's to the picosecond, so its order the brute force's.
  // A disk with a command path (non-zero lead and channel path) and a command overhead (the gap
  // between steps); requests of 1-25 blocks (crossing head and cylinder boundaries), reads and
  // writes, from random heads' positions and decision times. Deterministic: a fixed LCG.
  ParameterPage page = testdisk::small_page();
  page.command_overhead_ps = testdisk::us(300).count();
  page.write_settle_ps = testdisk::us(100).count();
  DiskPredictor disk(page, testdisk::us(1234));
  disk.set_command_path(CommandPath{Time{7'000'000}, Time{19'000'000}, Time{3'000'000}});
  std::uint64_t x = 12345;
  auto next = [&x](std::uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  const std::uint64_t capacity = disk.capacity_blocks();
  for (int trial = 0; trial < 150; ++trial) {
    SchedulingContext ctx;
    ctx.now = Time{static_cast<std::int64_t>(next(1'000'000)) * 1'000'000};
    ctx.position = DiskPredictor::position_of(
        {static_cast<std::uint32_t>(next(testdisk::kCylinders)), static_cast<std::uint32_t>(next(testdisk::kHeads))});
    ctx.predictor = &disk;
    std::vector<Command> cluster(2 + next(5));  // 2-6 requests
    for (std::size_t i = 0; i < cluster.size(); ++i) {
      Command& c = cluster[i];
      c.id = 100 - i * 7;
      c.blocks = static_cast<std::uint32_t>(1 + next(25));
      c.lbn = next(capacity - c.blocks);
      c.op = next(3) == 0 ? Op::Write : Op::Read;
      c.cls = RequestClass::Discrete;
    }
    std::vector<std::uint64_t> got, got_sum;
    for (const Command& c : optimal_order(ctx, cluster)) got.push_back(c.id);
    CHECK(got == brute_force(ctx, cluster));
    for (const Command& c : optimal_order(ctx, cluster, OptCost::SumOfFinishes)) got_sum.push_back(c.id);
    CHECK(got_sum == brute_force(ctx, cluster, true));
  }
}

TEST_CASE("CI-OPT(3): an interval of six is halved by cylinder and each half served in its OPT order",
          "[rounds][policy]") {
  const SchedulingContext ctx = context(Time{0}, 0);
  auto p = make("ops_scan_ci_opt", {{"cluster_max", 3}});
  const std::vector<Command> ds = six_ds();
  enqueue_all(*p, ds, ctx);
  p->enqueue(at(1, 99, 0, true), ctx);
  std::vector<std::uint64_t> got = drive(*p, ctx, 7);
  // Along the sweep up from 0: cylinders 5, 8, 12 | 21, 33, 40: the first half is D12, D16, D11.
  const std::vector<std::uint64_t> first_three(got.begin(), got.begin() + 3);
  CHECK(std::set<std::uint64_t>(first_three.begin(), first_three.end()) == std::set<std::uint64_t>{11, 12, 16});
  CHECK(first_three == brute_force(ctx, {ds[0], ds[1], ds[5]}));
  CHECK(std::set<std::uint64_t>(got.begin() + 3, got.begin() + 6) == std::set<std::uint64_t>{13, 14, 15});
  CHECK(got.back() == 1);
}

TEST_CASE("CLUST-REQ(2) and CLUST-CYL(6|5): clusters along the sweep by count, and by count or width",
          "[rounds][policy]") {
  const SchedulingContext ctx = context(Time{0}, 0);
  const std::vector<Command> ds = {at(11, 10, 0, false), at(12, 12, 5, false), at(13, 40, 3, false),
                                   at(14, 42, 8, false), at(15, 44, 1, false)};
  auto sets_of = [](const std::vector<std::uint64_t>& order, std::vector<std::size_t> sizes) {
    std::vector<std::set<std::uint64_t>> out;
    std::size_t i = 0;
    for (std::size_t n : sizes) {
      out.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(i),
                       order.begin() + static_cast<std::ptrdiff_t>(i + n));
      i += n;
    }
    return out;
  };
  {
    auto p = make("ops_scan_clust_req", {{"cluster_max", 2}});
    enqueue_all(*p, ds, ctx);
    p->enqueue(at(1, 99, 0, true), ctx);
    const std::vector<std::uint64_t> got = drive(*p, ctx, 6);
    CHECK(sets_of(got, {2, 2, 1, 1}) == std::vector<std::set<std::uint64_t>>{{11, 12}, {13, 14}, {15}, {1}});
  }
  {
    auto p = make("ops_scan_clust_cyl", {{"cluster_max", 6}, {"cluster_cylinders", 5}});
    enqueue_all(*p, ds, ctx);
    p->enqueue(at(1, 99, 0, true), ctx);
    const std::vector<std::uint64_t> got = drive(*p, ctx, 6);
    // 40 is 30 cylinders past 10: the first cluster ends at 12; 40, 42, 44 lie within 5 of 40.
    CHECK(sets_of(got, {2, 3, 1}) == std::vector<std::set<std::uint64_t>>{{11, 12}, {13, 14, 15}, {1}});
  }
}

TEST_CASE("OPS:FAMISH: D-requests join the SCAN in arrival order until one does not fit, and no later one joins",
          "[rounds][policy]") {
  SchedulingContext ctx = context(Time{0}, 0);
  // The C-requests are 100 blocks (100 ms of transfer) each, so that D90 (also 100 ms) does not
  // fit after them but fits alone in the next round.
  const Command c20 = at(1, 20, 0, true, 100), c80 = at(2, 80, 0, true, 100);
  const Command d50 = at(3, 50, 0, false);
  const Command d90 = at(4, 90, 0, false, 100);
  const Command d30 = at(5, 30, 0, false);  // one block, on the way
  const Time fits = RoundManager::finish_of(ctx, nullptr, {c20, d50, c80});
  const Time too_long = RoundManager::finish_of(ctx, nullptr, {c20, d50, c80, d90});
  const Time with_d30 = RoundManager::finish_of(ctx, nullptr, {c20, d30, d50, c80});
  // A round between the two: D90 does not fit; D30 alone would.
  const double round_ms = to_ms(fits + (too_long - fits) / 2);
  REQUIRE(with_d30 < from_ms(round_ms));
  PolicyParams pp = {{"round_ms", round_ms}, {"guard_ms", 0}};
  auto p = make_policy("ops_famish", pp, "disk");
  Command a = c20, b = c80;
  a.deadline = b.deadline = from_ms(round_ms);
  enqueue_all(*p, {a, b, d50, d90, d30}, ctx);
  std::vector<Time> starts;
  const std::vector<std::uint64_t> got = drive(*p, ctx, 5, &starts);
  // Round 0: C20, D50 (inserted between), C80; D90 stops the iteration, so D30 waits as well.
  // Round 1 (heads at 80, the nearer extreme of nothing: both D-requests in arrival order).
  REQUIRE(got.size() == 5);
  CHECK(std::vector<std::uint64_t>(got.begin(), got.begin() + 3) == std::vector<std::uint64_t>{1, 3, 2});
  CHECK(starts[3] >= from_ms(round_ms));
  CHECK(std::set<std::uint64_t>(got.begin() + 3, got.end()) == std::set<std::uint64_t>{4, 5});
}

namespace {

/// SPTF with the glitch guard (no guard time) on rounds of `round_ms`: C-request `c` of round 0
/// and D-request `d`; the two served, and their start times in `starts`.
std::vector<std::uint64_t> sptf_one_c(const SchedulingContext& ctx, Command c, const Command& d, double round_ms,
                                      std::vector<Time>& starts) {
  auto p = make_policy("sptf_glitch_guard", {{"round_ms", round_ms}, {"guard_ms", 0}}, "disk");
  c.deadline = from_ms(round_ms);
  p->enqueue(c, ctx);
  p->enqueue(d, ctx);
  return drive(*p, ctx, 2, &starts);
}

}  // namespace

TEST_CASE("SPTF with the glitch guard: a D-request that would leave no time for the C SCAN waits", "[rounds][policy]") {
  SchedulingContext ctx = context(Time{0}, 0);
  const Command c = at(1, 60, 0, true, 200);         // 200 ms of transfer
  const Command near_big = at(2, 0, 1, false, 300);  // nearest, but 300 ms of transfer
  const Time c_alone = RoundManager::finish_of(ctx, nullptr, {c});
  const Time both = RoundManager::finish_of(ctx, &near_big, {c});
  const double round_ms = to_ms(c_alone + (both - c_alone) / 2);
  std::vector<Time> starts;
  CHECK(sptf_one_c(ctx, c, near_big, round_ms, starts) == std::vector<std::uint64_t>{1, 2});
  CHECK(starts[1] >= from_ms(round_ms));  // postponed to the next round
  // Without the C-request it is simply the nearest.
  auto q = make_policy("sptf_glitch_guard", {{"round_ms", 1000}, {"guard_ms", 0}}, "disk");
  q->enqueue(near_big, ctx);
  q->enqueue(at(3, 60, 0, false), ctx);
  CHECK(drive(*q, ctx, 2) == std::vector<std::uint64_t>{2, 3});
}

TEST_CASE("SPTF with the glitch guard: a D-request that does not fit now is checked again at the next decision",
          "[rounds][policy]") {
  // 003 §4.3 serves a D-request "only if the service of this request leaves enough time to perform
  // a SCAN for all the remaining C-requests": a check at every decision, not a postponement to the
  // next round (which §2.1 prescribes for the clustered algorithms only). Heads at cylinder 50,
  // phase 0. D (cylinder 50, sector 8): 8 ms to position; C (cylinder 99, sector 9): a 49-cylinder
  // seek (2 + 3 x 39/89 = 3.31 ms) and sector 9 at 9 ms. SPTF picks D (8 < 9 ms). D then C: D
  // ends at 9 ms, the seek at 12.3 ms, sector 9 passes at 19 ms: C ends at 20 ms. C then D: C ends
  // at 10 ms, the seek back at 13.3 ms, sector 8 passes at 18 ms: D ends at 19 ms. With a round
  // of 19.5 ms, D does not fit before C, but fits after it in the same round.
  const SchedulingContext ctx = context(Time{0}, 50);
  const Command d = at(2, 50, 8, false), c = at(1, 99, 9, true);
  const Predictor& pr = *ctx.predictor;
  REQUIRE(pr.estimate(ctx.position, Time{0}, d.lbn, Op::Read).access() <
          pr.estimate(ctx.position, Time{0}, c.lbn, Op::Read).access());
  const Time d_first = RoundManager::finish_of(ctx, &d, {c});
  const Time c_first = RoundManager::finish_of(ctx, &c, {d});
  REQUIRE(d_first > ms(19) + us(500));
  REQUIRE(c_first < ms(19) + us(500));
  const double round_ms = 19.5;
  std::vector<Time> starts;
  CHECK(sptf_one_c(ctx, c, d, round_ms, starts) == std::vector<std::uint64_t>{1, 2});
  CHECK(starts[1] < from_ms(round_ms));  // in the same round
}

TEST_CASE("SPTF with the glitch guard, sptf_pool d: SPTF over the D-queue, the C-requests when none may be served",
          "[rounds][policy]") {
  // Heads at cylinder 50: C (50, sector 1) is 1 ms away, D (60, sector 5) 5 ms (a 10-cylinder seek
  // of 2 ms, then sector 5). With every request in the pool SPTF takes C first; with the D-queue
  // alone, D first (it fits: the round is 1 s), then the C SCAN.
  const SchedulingContext ctx = context(Time{0}, 50);
  const Command c = at(1, 50, 1, true), d = at(2, 60, 5, false);
  auto all = make("sptf_glitch_guard");
  auto only_d = make("sptf_glitch_guard", {{"sptf_pool", 1}});
  enqueue_all(*all, {c, d}, ctx);
  enqueue_all(*only_d, {c, d}, ctx);
  CHECK(drive(*all, ctx, 2) == std::vector<std::uint64_t>{1, 2});
  CHECK(drive(*only_d, ctx, 2) == std::vector<std::uint64_t>{2, 1});
}

TEST_CASE("SPTF with the glitch guard, sptf_pool scan: SPTF between the D-queue and the next C-request of the SCAN",
          "[rounds][policy]") {
  // Heads at cylinder 50. C-set {20, 50, 99}: 20 is the nearer extreme (30 against 49), so the SCAN
  // is C20, C50, C99. C50 (sector 2) is 2 ms away, C20 (sector 0) 10 ms (a 30-cylinder seek of
  // 2.67 ms, then sector 0), D (55, sector 5) 5 ms (a 5-cylinder seek of 1.44 ms, then sector 5).
  // Pool "all": C50 first. Pool "scan": D is nearer than the SCAN's next (C20), then the SCAN.
  const SchedulingContext ctx = context(Time{0}, 50);
  const std::vector<Command> cs = {at(1, 50, 2, true), at(2, 20, 0, true), at(3, 99, 0, true), at(4, 55, 5, false)};
  auto all = make("sptf_glitch_guard");
  auto scan = make("sptf_glitch_guard", {{"sptf_pool", 2}});
  enqueue_all(*all, cs, ctx);
  enqueue_all(*scan, cs, ctx);
  CHECK(drive(*all, ctx, 1) == std::vector<std::uint64_t>{1});
  CHECK(drive(*scan, ctx, 4) == std::vector<std::uint64_t>{4, 2, 1, 3});
}

TEST_CASE("the registry lists every 003 algorithm with its paper name; each is idle when empty",
          "[rounds][policy][registry]") {
  const std::vector<std::pair<std::string, std::string>> expected{{"tps_scan_scan", "TPS:SCAN/SCAN"},
                                                                  {"tps_scan_scan_ci_opt", "TPS:SCAN/[SCAN/CI-OPT(6)]"},
                                                                  {"ops_famish", "OPS:FAMISH"},
                                                                  {"ops_scan_ci_sptf", "OPS:SCAN/CI-SPTF"},
                                                                  {"ops_scan_ci_opt", "OPS:SCAN/CI-OPT(6)"},
                                                                  {"ops_scan_clust_req", "OPS:SCAN/CLUST-REQ(6)"},
                                                                  {"ops_scan_clust_cyl", "OPS:SCAN/CLUST-CYL(6|1000)"},
                                                                  {"sptf_glitch_guard", "SPTF (glitch guard)"}};
  for (const auto& [key, paper] : expected) {
    INFO(key);
    const PolicyInfo* info = find_policy(key);
    REQUIRE(info != nullptr);
    CHECK(info->paper_name == paper);
    CHECK(info->devices == std::vector<std::string>{"disk"});
    auto p = make_policy(key);
    CHECK(p->name() == paper);
    CHECK(p->next(context(Time{0}, 50)).kind == Decision::Kind::Idle);
    CHECK(p->pending() == 0);
  }
}

TEST_CASE("round policies: parameters and devices are checked", "[rounds][policy]") {
  CHECK_THROWS_AS(make_policy("ops_scan_ci_opt", {{"cluster_max", 9}}, "disk"), std::invalid_argument);
  CHECK_THROWS_AS(make_policy("ops_famish", {}, "mems"), std::invalid_argument);
  CHECK(make_policy("ops_scan_clust_cyl")->name() == "OPS:SCAN/CLUST-CYL(6|1000)");
}

}  // namespace drivevp
