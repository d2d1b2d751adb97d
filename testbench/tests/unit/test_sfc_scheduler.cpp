// Unit tests of the SFC schedulers of paper 001 §3 (firmware/sfc/scheduler.h) and of the `sfc`
// policy (firmware/policies/sfc.cpp): Fig. 5's three service orders, the blocking window at its
// boundaries, AE and ER, the non- and fully-preemptive schedulers, and 001 §2's claim that EDF and
// SATF are Sweep with the deadline (access time) as the major dimension. Plain C++.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "firmware/disk_predictor.h"
#include "firmware/policy.h"
#include "firmware/sfc/curves.h"
#include "firmware/sfc/scheduler.h"
#include "small_disk.h"

namespace drivevp {
namespace {

using namespace testdisk;
using sfc::Item;
using sfc::Key;
using sfc::Scheduler;
using sfc::SchedulerConfig;

Item item(Key position, std::uint64_t id) {
  Item i;
  i.position = position;
  i.command.id = id;
  return i;
}

/// 100 curve points (last = 99), so a window fraction of 0.1 is w0 = 10 points.
constexpr Key kLast = 99;

SchedulerConfig conditional(sfc::Inversion inv, sfc::Starvation st = sfc::Starvation::ER, double window = 0.1,
                            double expansion = 0.0) {
  SchedulerConfig c;
  c.preemption = sfc::Preemption::Conditional;
  c.inversion = inv;
  c.starvation = st;
  c.window = window;
  c.expansion = expansion;
  return c;
}

/// Ids in the order the scheduler hands them out until it is empty.
std::vector<std::uint64_t> drain(Scheduler& s) {
  std::vector<std::uint64_t> ids;
  while (auto i = s.next()) ids.push_back(i->command.id);
  return ids;
}

/// 001 Fig. 5: T1 is being served (position 50, w = 10, so the window is [40, 50)); then arrive
/// T2, T3, T4 inside the window (41, 45, 48), T5 far below it (10) and T6, T7 after T1 (53, 57).
/// The positions are chosen so that SRP's promotions happen where the paper says: T2 lies below
/// T6's window (53 - 10 = 43) and T3 does not; T3 lies below T7's (47) and T4 does not.
std::vector<std::uint64_t> figure5(sfc::Inversion inv) {
  Scheduler s(conditional(inv), kLast);
  s.insert(item(50, 1));
  REQUIRE(s.next()->command.id == 1);
  for (auto [pos, id] :
       std::vector<std::pair<Key, std::uint64_t>>{{41, 2}, {45, 3}, {48, 4}, {10, 5}, {53, 6}, {57, 7}})
    s.insert(item(pos, id));
  std::vector<std::uint64_t> order{1};
  for (std::uint64_t id : drain(s)) order.push_back(id);
  return order;
}

TEST_CASE("SFC: Fig. 5's example, SR, SRP and SS orders (001 §3.2)", "[sfc][scheduler]") {
  CHECK(figure5(sfc::Inversion::SR) == std::vector<std::uint64_t>{1, 5, 6, 7, 2, 3, 4});
  CHECK(figure5(sfc::Inversion::SRP) == std::vector<std::uint64_t>{1, 5, 2, 6, 3, 7, 4});
  CHECK(figure5(sfc::Inversion::SS) == std::vector<std::uint64_t>{1, 5, 2, 3, 4, 6, 7});
}

TEST_CASE("SFC: the blocking window at its boundaries (001 §3.1)", "[sfc][scheduler]") {
  Scheduler s(conditional(sfc::Inversion::SR), kLast);
  CHECK(s.initial_window() == 10);
  s.insert(item(50, 0));
  REQUIRE(s.next()->position == 50);
  REQUIRE(s.current() == 50);
  s.insert(item(40, 1));  // exactly at T_cur - w: inside the window, not a preemption
  CHECK(s.waiting() == 1);
  CHECK(s.preemptions() == 0);
  s.insert(item(49, 2));  // just below T_cur: inside
  CHECK(s.waiting() == 2);
  s.insert(item(50, 3));  // equal to T_cur: not of higher priority, joins the cycle
  CHECK(s.waiting() == 2);
  s.insert(item(39, 4));  // one point below the window: preempts
  CHECK(s.waiting() == 2);
  CHECK(s.preemptions() == 1);
  CHECK(drain(s) == std::vector<std::uint64_t>{4, 3, 1, 2});

  // While T_cur < w, T_cur - w is below the first point: nothing can preempt.
  Scheduler low(conditional(sfc::Inversion::SR), kLast);
  low.insert(item(9, 0));
  REQUIRE(low.next());
  low.insert(item(0, 1));
  CHECK(low.waiting() == 1);
  CHECK(low.preemptions() == 0);
  Scheduler edge(conditional(sfc::Inversion::SR), kLast);
  edge.insert(item(11, 0));
  REQUIRE(edge.next());
  edge.insert(item(0, 1));  // 0 < 11 - 10 = 1
  CHECK(edge.waiting() == 0);
  CHECK(edge.preemptions() == 1);

  // w = 0 is the fully-preemptive scheduler, w = 1 (all N^D points) the non-preemptive one.
  Scheduler zero(conditional(sfc::Inversion::SR, sfc::Starvation::ER, 0.0), kLast);
  zero.insert(item(50, 0));
  REQUIRE(zero.next());
  zero.insert(item(49, 1));
  CHECK(zero.waiting() == 0);
  Scheduler all(conditional(sfc::Inversion::SR, sfc::Starvation::ER, 1.0), kLast);
  CHECK(all.initial_window() == kLast);
  all.insert(item(99, 0));
  REQUIRE(all.next());
  all.insert(item(0, 1));
  CHECK(all.waiting() == 1);
  // The largest grid: N^D = 2^128 points; a whole window saturates at the last position.
  const Key last128 = ~Key{0};
  CHECK(Scheduler(conditional(sfc::Inversion::SR, sfc::Starvation::ER, 1.0), last128).initial_window() == last128);
  CHECK(Scheduler(conditional(sfc::Inversion::SR, sfc::Starvation::ER, 0.5), last128).initial_window() == Key{1}
                                                                                                              << 127);
}

TEST_CASE("SFC: AE grows w at every preemption, ER resets it at every dispatch (001 §3.3)", "[sfc][scheduler]") {
  for (sfc::Starvation st : {sfc::Starvation::AE, sfc::Starvation::ER}) {
    INFO(to_string(st));
    // w0 = 10, e = 20 % of w0 = 2 points.
    Scheduler s(conditional(sfc::Inversion::SR, st, 0.1, 0.2), kLast);
    CHECK(s.expansion() == 2);
    s.insert(item(90, 0));
    REQUIRE(s.next());
    s.insert(item(79, 1));  // < 90 - 10: preempts, w = 12
    CHECK(s.window() == 12);
    s.insert(item(77, 2));  // < 90 - 12: preempts, w = 14
    CHECK(s.window() == 14);
    s.insert(item(76, 3));  // 76 >= 90 - 14: blocked now (it would have preempted w0)
    CHECK(s.window() == 14);
    CHECK(s.waiting() == 1);
    CHECK(s.preemptions() == 2);
    REQUIRE(s.next()->command.id == 2);
    CHECK(s.window() == (st == sfc::Starvation::AE ? 14 : 10));
  }
  // AE saturates at the last point (the non-preemptive scheduler, 001 §3.3).
  Scheduler s(conditional(sfc::Inversion::SR, sfc::Starvation::AE, 0.9, 1.0), kLast);
  s.insert(item(99, 0));
  REQUIRE(s.next());
  s.insert(item(0, 1));  // 0 < 99 - 90
  CHECK(s.window() == kLast);
}

TEST_CASE("SFC: non- and fully-preemptive schedulers (001 §3)", "[sfc][scheduler]") {
  SchedulerConfig non;
  non.preemption = sfc::Preemption::Non;
  Scheduler n(non, kLast);
  n.insert(item(50, 0));
  REQUIRE(n.next());
  for (auto [pos, id] : std::vector<std::pair<Key, std::uint64_t>>{{0, 1}, {49, 2}, {50, 3}, {70, 4}, {60, 5}})
    n.insert(item(pos, id));
  CHECK(n.waiting() == 2);
  CHECK(drain(n) == std::vector<std::uint64_t>{3, 5, 4, 1, 2});  // the cycle, then the next one

  SchedulerConfig full;
  full.preemption = sfc::Preemption::Full;
  Scheduler f(full, kLast);
  f.insert(item(50, 0));
  REQUIRE(f.next());
  for (auto [pos, id] : std::vector<std::pair<Key, std::uint64_t>>{{0, 1}, {49, 2}, {50, 3}, {70, 4}, {60, 5}})
    f.insert(item(pos, id));
  CHECK(f.waiting() == 0);
  CHECK(drain(f) == std::vector<std::uint64_t>{1, 2, 3, 5, 4});
}

TEST_CASE("SFC: bad window and expansion are refused", "[sfc][scheduler]") {
  using Catch::Matchers::ContainsSubstring;
  REQUIRE_THROWS_WITH(Scheduler(conditional(sfc::Inversion::SR, sfc::Starvation::ER, 1.5), kLast),
                      ContainsSubstring("window = 1.5"));
  REQUIRE_THROWS_WITH(Scheduler(conditional(sfc::Inversion::SR, sfc::Starvation::ER, 0.5, -1), kLast),
                      ContainsSubstring("expansion = -1"));
}

// ---- the policy -------------------------------------------------------------------------------

std::uint64_t lbn_of(std::uint32_t cylinder, std::uint32_t head = 0, std::uint32_t sector = 0) {
  return (std::uint64_t{cylinder} * kHeads + head) * kSpt + sector;
}

SchedulingContext context(std::uint32_t cylinder, Time now) {
  SchedulingContext ctx;
  ctx.now = now;
  ctx.position = DiskPredictor::position_of({cylinder, 0});
  ctx.predictor = &predictor();
  return ctx;
}

/// Sweep (curve index 0) over one dimension, fully preemptive.
PolicyParams sweep_over(const char* dim) { return {{"curve", 0}, {"preemption", 1}, {dim, 1}}; }

TEST_CASE("SFC: Sweep with the deadline as its dimension serves exactly as EDF (001 §2)", "[sfc][policy]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    INFO("trial " << trial);
    auto edf = make_policy("edf");
    auto sfc = make_policy("sfc", sweep_over("deadline_dim"));
    REQUIRE(sfc->name() == "SFC");
    const SchedulingContext ctx = context(0, ms(5));
    std::vector<std::uint64_t> a, b;
    std::uint64_t id = 0;
    // Arrivals and decisions interleaved; a few deadlines equal, some absent, some past.
    for (int round = 0; round < 40; ++round) {
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
        Command c;
        c.id = id++;
        c.lbn = rng() % predictor().capacity_blocks();
        const std::uint64_t r = rng() % 20;
        c.deadline = r == 0 ? kNoDeadline : ms(static_cast<std::int64_t>(rng() % 3000));
        edf->enqueue(c, ctx);
        sfc->enqueue(c, ctx);
      }
      const Decision x = edf->next(ctx), y = sfc->next(ctx);
      REQUIRE(x.kind == y.kind);
      if (x.kind == Decision::Kind::Serve) {
        a.push_back(x.command.id);
        b.push_back(y.command.id);
      }
    }
    for (Decision x = edf->next(ctx); x.kind == Decision::Kind::Serve; x = edf->next(ctx)) a.push_back(x.command.id);
    for (Decision y = sfc->next(ctx); y.kind == Decision::Kind::Serve; y = sfc->next(ctx)) b.push_back(y.command.id);
    CHECK(a.size() == id);
    CHECK(a == b);
  }
}

TEST_CASE("SFC: Sweep with the access time as its dimension serves exactly as SPTF (001 §2)", "[sfc][policy]") {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    auto sptf = make_policy("sptf");
    auto sfc = make_policy("sfc", sweep_over("access_dim"));
    SchedulingContext ctx = context(static_cast<std::uint32_t>(rng() % kCylinders), ms(1));
    std::vector<std::uint64_t> a, b;
    std::uint64_t id = 0;
    for (int round = 0; round < 60; ++round) {
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
        Command c;
        c.id = id++;
        c.lbn = rng() % 64 * 31 % predictor().capacity_blocks();  // few distinct blocks: ties occur
        c.op = rng() % 3 == 0 ? Op::Write : Op::Read;
        sptf->enqueue(c, ctx);
        sfc->enqueue(c, ctx);
      }
      const Decision x = sptf->next(ctx), y = sfc->next(ctx);
      REQUIRE(x.kind == y.kind);
      if (x.kind != Decision::Kind::Serve) continue;
      a.push_back(x.command.id);
      b.push_back(y.command.id);
      // The disk moves: positioning, then one block.
      const Prediction pr =
          predictor().predict(DiskPredictor::head_of(ctx.position), ctx.now, x.command.lbn, x.command.op);
      ctx.now += pr.positioning() + sectors_time(predictor().rotation_period(), 1, pr.target.sectors_per_track);
      ctx.position = DiskPredictor::position_of({pr.target.cylinder, pr.target.head});
    }
    CHECK(!a.empty());
    CHECK(a == b);
  }
}

TEST_CASE("SFC: the policy reads the QoS vector and orders by the curve", "[sfc][policy]") {
  // 2-D, 4 levels, Sweep, fully preemptive: dimension 1 is the major one.
  auto p = make_policy("sfc", {{"curve", 0}, {"preemption", 1}, {"qos_dims", 2}, {"levels", 4}});
  const SchedulingContext ctx = context(0, Time{0});
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> levels{{3, 0}, {0, 1}, {2, 0}, {1, 3}, {0, 0}};
  for (std::uint64_t id = 0; id < levels.size(); ++id) {
    Command c;
    c.id = id;
    c.set_qos_level(0, levels[id].first);
    c.set_qos_level(1, levels[id].second);
    p->enqueue(c, ctx);
  }
  std::vector<std::uint64_t> order;
  for (Decision d = p->next(ctx); d.kind == Decision::Kind::Serve; d = p->next(ctx)) order.push_back(d.command.id);
  CHECK(order == std::vector<std::uint64_t>{4, 2, 0, 1, 3});
}

TEST_CASE("SFC: 16 dimensions of 256 levels, every curve: 128-bit keys, served in sorted key order", "[sfc][policy]") {
  // Fully preemptive: the queue is served in curve order, so the service order must equal a
  // brute-force sort of the requests by (curve position, major level, id). Levels near 0 and 255
  // in the major dimension put positions on both sides of 2^64 and 2^127.
  for (sfc::CurveKind kind : sfc::all_curve_kinds()) {
    INFO(sfc::curve_name(kind));
    auto p = make_policy(
        "sfc",
        {{"curve", static_cast<double>(static_cast<int>(kind))}, {"preemption", 1}, {"qos_dims", 16}, {"levels", 256}});
    const sfc::Curve curve(kind, 16, 256);
    const SchedulingContext ctx = context(0, Time{0});
    std::mt19937_64 rng(static_cast<std::uint64_t>(kind) + 77);
    struct Expected {
      Key key;
      std::uint32_t major;
      std::uint64_t id;
    };
    std::vector<Expected> expected;
    bool above_64 = false;
    for (std::uint64_t id = 0; id < 40; ++id) {
      Command c;
      c.id = id;
      std::vector<std::uint32_t> point(16);
      for (unsigned k = 0; k < 16; ++k) {
        point[k] = static_cast<std::uint32_t>(rng() % 256);
        if (id % 4 == 0) point[k] = point[k] % 2;        // near the origin
        if (id % 4 == 1) point[k] = 254 + point[k] % 2;  // near the far corner
        c.set_qos_level(k, point[k]);
      }
      const Key key = curve.encode_checked(point);
      above_64 = above_64 || key > ~std::uint64_t{0};
      expected.push_back({key, point[15], id});
      p->enqueue(c, ctx);
    }
    CHECK(above_64);
    std::sort(expected.begin(), expected.end(), [](const Expected& a, const Expected& b) {
      if (a.key != b.key) return a.key < b.key;
      if (a.major != b.major) return a.major < b.major;
      return a.id < b.id;
    });
    std::vector<std::uint64_t> want, got;
    for (const Expected& e : expected) want.push_back(e.id);
    for (Decision d = p->next(ctx); d.kind == Decision::Kind::Serve; d = p->next(ctx)) got.push_back(d.command.id);
    CHECK(got == want);
  }
}

TEST_CASE("SFC: the policy refuses no dimensions and a curve that cannot take N", "[sfc][policy]") {
  using Catch::Matchers::ContainsSubstring;
  REQUIRE_THROWS_WITH(make_policy("sfc"), ContainsSubstring("expected 1 to 16 dimensions"));
  REQUIRE_THROWS_WITH(make_policy("sfc", {{"qos_dims", 2}, {"levels", 12}}), ContainsSubstring("power of two"));
  CHECK(make_policy("sfc", {{"qos_dims", 16}, {"levels", 256}})->pending() == 0);
}

TEST_CASE("SFC: same requests, same order (determinism)", "[sfc][policy]") {
  auto run = [] {
    std::mt19937_64 rng(5);
    auto p = make_policy("sfc", {{"qos_dims", 4}, {"levels", 16}, {"cylinder_dim", 1}, {"window", 0.3}});
    const SchedulingContext ctx = context(0, Time{0});
    std::vector<std::uint64_t> order;
    for (std::uint64_t id = 0; id < 500; ++id) {
      Command c;
      c.id = id;
      c.lbn = lbn_of(static_cast<std::uint32_t>(rng() % kCylinders));
      for (unsigned k = 0; k < 4; ++k) c.set_qos_level(k, static_cast<std::uint32_t>(rng() % 16));
      p->enqueue(c, ctx);
      if (id % 3 == 0) order.push_back(p->next(ctx).command.id);
    }
    for (Decision d = p->next(ctx); d.kind == Decision::Kind::Serve; d = p->next(ctx)) order.push_back(d.command.id);
    return order;
  };
  const std::vector<std::uint64_t> a = run();
  CHECK(a.size() == 500);
  CHECK(a == run());
}

}  // namespace
}  // namespace drivevp
