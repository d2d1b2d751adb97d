// Unit tests of the seek-ordered and positioning-time policies (firmware/policies/) and of the
// policy registry. Plain C++: no SystemC. The disk is a small hand-built parameter page so that
// every expected order can be worked out by hand.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/disk_predictor.h"
#include "firmware/policy.h"
#include "small_disk.h"

namespace drivevp {
namespace {

using namespace testdisk;

std::uint64_t lbn_of(std::uint32_t cylinder, std::uint32_t head = 0, std::uint32_t sector = 0) {
  return (std::uint64_t{cylinder} * kHeads + head) * kSpt + sector;
}

Command cmd(std::uint64_t id, std::uint64_t lbn, Time arrival = Time{0}) {
  Command c;
  c.id = id;
  c.lbn = lbn;
  c.arrival = arrival;
  return c;
}

SchedulingContext context(std::uint32_t cylinder, std::uint32_t head = 0, Time now = Time{0}) {
  SchedulingContext ctx;
  ctx.now = now;
  ctx.position = DiskPredictor::position_of({cylinder, head});
  ctx.predictor = &predictor();
  return ctx;
}

/// The heads of a context, and moving them (the opaque MediaPosition of the disk).
HeadPosition head_of(const SchedulingContext& ctx) { return DiskPredictor::head_of(ctx.position); }
void move_to(SchedulingContext& ctx, std::uint32_t cylinder) {
  ctx.position = DiskPredictor::position_of({cylinder, head_of(ctx).head});
}
void move_to(SchedulingContext& ctx, HeadPosition h) { ctx.position = DiskPredictor::position_of(h); }

/// One step of a drained schedule: a served command (id and cylinder) or a reposition.
struct Step {
  bool reposition = false;
  std::uint32_t cylinder = 0;
  std::uint64_t id = 0;
  bool operator==(const Step& o) const { return reposition == o.reposition && cylinder == o.cylinder && id == o.id; }
};
Step served(std::uint32_t cylinder, std::uint64_t id) { return {false, cylinder, id}; }
Step moved(std::uint32_t cylinder) { return {true, cylinder, 0}; }

std::string to_string(const std::vector<Step>& steps) {
  std::string s;
  for (const Step& st : steps)
    s += st.reposition ? "->" + std::to_string(st.cylinder) + " "
                       : std::to_string(st.cylinder) + "#" + std::to_string(st.id) + " ";
  return s;
}

/// Asks the policy until it is idle, moving the arm to each served command's cylinder and head
/// and to each reposition target (time stands still: only the seek-ordered policies use this).
std::vector<Step> drain(SchedulingPolicy& policy, SchedulingContext& ctx) {
  std::vector<Step> steps;
  for (int guard = 0; guard < 1'000'000; ++guard) {
    const Decision d = policy.next(ctx);
    if (d.kind == Decision::Kind::Idle) return steps;
    REQUIRE((d.kind == Decision::Kind::Serve || d.kind == Decision::Kind::Reposition));
    if (d.kind == Decision::Kind::Reposition) {
      steps.push_back(moved(d.sweep_coordinate));
      move_to(ctx, d.sweep_coordinate);
    } else {
      const PhysicalAddress a = predictor().geometry().locate(d.command.lbn);
      steps.push_back(served(a.cylinder, d.command.id));
      move_to(ctx, HeadPosition{a.cylinder, a.head});
    }
  }
  FAIL("policy never became idle");
  return steps;
}

/// Queues one request per cylinder in `cylinders`, ids 0, 1, ... in that order.
void enqueue_cylinders(SchedulingPolicy& p, const std::vector<std::uint32_t>& cylinders, const SchedulingContext& ctx) {
  std::uint64_t id = 0;
  for (std::uint32_t c : cylinders) p.enqueue(cmd(id++, lbn_of(c)), ctx);
}

// ---- fixed orders, worked by hand: arm at cylinder 50, requests at 10, 45, 60, 90 (ids 0..3) --

TEST_CASE("SSTF serves the nearest cylinder first", "[policy][sstf]") {
  auto p = make_policy("sstf");
  CHECK(p->name() == "SSTF");
  SchedulingContext ctx = context(50);
  enqueue_cylinders(*p, {10, 45, 60, 90}, ctx);
  CHECK(p->pending() == 4);
  // 50 -> 45 (5), 45 -> 60 (15, vs 35 to 10), 60 -> 90 (30, vs 50 to 10), then 10.
  const std::vector<Step> expected{served(45, 1), served(60, 2), served(90, 3), served(10, 0)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected));
  CHECK(p->pending() == 0);
}

TEST_CASE("SSTF breaks distance ties by arrival order", "[policy][sstf]") {
  auto p = make_policy("sstf");
  SchedulingContext ctx = context(50);
  // 40 and 60 are both 10 away; 60 arrived first (id 0). Two on 70: FIFO.
  p->enqueue(cmd(0, lbn_of(60)), ctx);
  p->enqueue(cmd(1, lbn_of(40)), ctx);
  SECTION("the earlier of two equidistant cylinders wins") {
    const std::vector<Step> expected{served(60, 0), served(40, 1)};
    CHECK(to_string(drain(*p, ctx)) == to_string(expected));
  }
  SECTION("requests on the same cylinder go in arrival order, on any head") {
    p->enqueue(cmd(2, lbn_of(60, 1, 5)), ctx);
    p->enqueue(cmd(3, lbn_of(60, 0, 9)), ctx);
    const std::vector<Step> expected{served(60, 0), served(60, 2), served(60, 3), served(40, 1)};
    CHECK(to_string(drain(*p, ctx)) == to_string(expected));
  }
}

TEST_CASE("LOOK sweeps up, then reverses at the last request", "[policy][look]") {
  auto p = make_policy("look");
  CHECK(p->name() == "LOOK");
  SchedulingContext ctx = context(50);
  enqueue_cylinders(*p, {10, 45, 60, 90}, ctx);
  const std::vector<Step> expected{served(60, 2), served(90, 3), served(45, 1), served(10, 0)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected));
  // The direction persists: now going down from 10, a request at 30 reverses again, at 5 not.
  p->enqueue(cmd(4, lbn_of(5)), ctx);
  p->enqueue(cmd(5, lbn_of(30)), ctx);
  const std::vector<Step> expected2{served(5, 4), served(30, 5)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected2));
}

TEST_CASE("LOOK serves the current cylinder first, in arrival order", "[policy][look]") {
  auto p = make_policy("look");
  SchedulingContext ctx = context(50);
  enqueue_cylinders(*p, {51, 50, 49, 50}, ctx);
  const std::vector<Step> expected{served(50, 1), served(50, 3), served(51, 0), served(49, 2)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected));
}

TEST_CASE("SCAN sweeps to the edge before reversing", "[policy][scan]") {
  auto p = make_policy("scan");
  CHECK(p->name() == "SCAN");
  SchedulingContext ctx = context(50);
  enqueue_cylinders(*p, {10, 45, 60, 90}, ctx);
  // Up to 90, on to the last cylinder (99) without a transfer, reverse, down to 10, then idle
  // with no move to cylinder 0 because nothing is pending.
  const std::vector<Step> expected{served(60, 2), served(90, 3), moved(99), served(45, 1), served(10, 0)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected));
  CHECK(head_of(ctx).cylinder == 10);

  SECTION("going down, a request behind the arm waits for the sweep to cylinder 0") {
    p->enqueue(cmd(4, lbn_of(20)), ctx);
    p->enqueue(cmd(5, lbn_of(5)), ctx);
    const std::vector<Step> expected2{served(5, 5), moved(0), served(20, 4)};
    CHECK(to_string(drain(*p, ctx)) == to_string(expected2));
  }
  SECTION("a request on the edge cylinder is served, no extra reposition") {
    move_to(ctx, 1);
    p->enqueue(cmd(4, lbn_of(0)), ctx);
    p->enqueue(cmd(5, lbn_of(3)), ctx);
    const std::vector<Step> expected2{served(0, 4), served(3, 5)};
    CHECK(to_string(drain(*p, ctx)) == to_string(expected2));
  }
  SECTION("a request arriving ahead during the sweep to the edge is served on the way") {
    p->enqueue(cmd(4, lbn_of(20)), ctx);  // behind the arm (at 10, going down)
    const Decision d = p->next(ctx);
    REQUIRE(d.kind == Decision::Kind::Reposition);
    CHECK(d.sweep_coordinate == 0);
    move_to(ctx, 5);  // the controller asks again part-way, with a new request at 2
    p->enqueue(cmd(5, lbn_of(2)), ctx);
    const std::vector<Step> expected2{served(2, 5), moved(0), served(20, 4)};
    CHECK(to_string(drain(*p, ctx)) == to_string(expected2));
  }
}

TEST_CASE("every policy is idle, without moving, when its queue is empty", "[policy]") {
  for (const char* key : {"scan", "cscan", "look", "clook", "sstf", "sptf", "aged_sptf"}) {
    INFO(key);
    auto p = make_policy(key);
    const SchedulingContext ctx = context(50);
    CHECK(p->next(ctx).kind == Decision::Kind::Idle);
    CHECK(p->pending() == 0);
  }
}

TEST_CASE("C-LOOK sweeps up and wraps to the lowest pending cylinder", "[policy][clook]") {
  auto p = make_policy("clook");
  CHECK(p->name() == "C-LOOK");
  SchedulingContext ctx = context(50);
  enqueue_cylinders(*p, {10, 45, 60, 90, 45}, ctx);
  const std::vector<Step> expected{served(60, 2), served(90, 3), served(10, 0), served(45, 1), served(45, 4)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected));
}

TEST_CASE("C-SCAN sweeps up to the last cylinder and returns to cylinder 0", "[policy][cscan]") {
  auto p = make_policy("cscan");
  CHECK(p->name() == "C-SCAN");
  SchedulingContext ctx = context(50);
  enqueue_cylinders(*p, {10, 45, 60, 90}, ctx);
  const std::vector<Step> expected{served(60, 2), served(90, 3), moved(99), moved(0), served(10, 0), served(45, 1)};
  CHECK(to_string(drain(*p, ctx)) == to_string(expected));

  SECTION("at the last cylinder the return stroke comes at once") {
    move_to(ctx, 99);
    p->enqueue(cmd(4, lbn_of(0)), ctx);
    p->enqueue(cmd(5, lbn_of(99)), ctx);
    const std::vector<Step> expected2{served(99, 5), moved(0), served(0, 4)};
    CHECK(to_string(drain(*p, ctx)) == to_string(expected2));
  }
}

// ---- properties over random queues with arrivals interleaved --------------------------------

/// Runs `policy` over random arrivals interleaved with decisions, checking after every decision
/// that the elevator rule holds. `to_edge`: SCAN (reposition to the edge before reversing) rather
/// than LOOK. Returns the number of repositions seen.
int check_elevator(const char* key, bool to_edge, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> cyl(0, kCylinders - 1);
  auto p = make_policy(key);
  SchedulingContext ctx = context(cyl(rng));
  std::multiset<std::uint32_t> pending;  // shadow of the policy's queue, by cylinder
  std::uint64_t next_id = 0;
  bool up = true;
  int repositions = 0, reversals = 0;
  for (int step = 0; step < 3000; ++step) {
    const int arrivals = static_cast<int>(rng() % 3);
    for (int k = 0; k < arrivals && next_id < 2000; ++k) {
      const std::uint32_t c = cyl(rng);
      p->enqueue(cmd(next_id++, lbn_of(c, static_cast<std::uint32_t>(rng() % kHeads))), ctx);
      pending.insert(c);
    }
    REQUIRE(p->pending() == pending.size());
    const std::uint32_t h = head_of(ctx).cylinder;
    const bool any_ahead_up = pending.lower_bound(h) != pending.end();
    const bool any_ahead_down = !pending.empty() && *pending.begin() <= h;
    const Decision d = p->next(ctx);
    if (pending.empty()) {
      REQUIRE(d.kind == Decision::Kind::Idle);
      continue;
    }
    if (d.kind == Decision::Kind::Reposition) {
      REQUIRE(to_edge);
      // Only with nothing ahead, and only to the edge in the current direction.
      REQUIRE(!(up ? any_ahead_up : any_ahead_down));
      REQUIRE(d.sweep_coordinate == (up ? kCylinders - 1 : 0));
      REQUIRE(d.sweep_coordinate != h);
      move_to(ctx, d.sweep_coordinate);
      ++repositions;
      continue;
    }
    REQUIRE(d.kind == Decision::Kind::Serve);
    const std::uint32_t c = predictor().geometry().locate(d.command.lbn).cylinder;
    const bool ahead = up ? (c >= h) : (c <= h);
    if (!ahead) {
      // A reversal: allowed only with nothing ahead, and for SCAN only at the edge.
      REQUIRE(!(up ? any_ahead_up : any_ahead_down));
      if (to_edge) REQUIRE(h == (up ? kCylinders - 1 : 0));
      up = !up;
      ++reversals;
    }
    // Monotone sweep: the nearest pending cylinder in the (possibly new) direction.
    const std::uint32_t nearest = up ? *pending.lower_bound(h) : *std::prev(pending.upper_bound(h));
    REQUIRE(c == nearest);
    pending.erase(pending.find(c));
    move_to(ctx, HeadPosition{c, predictor().geometry().locate(d.command.lbn).head});
  }
  CHECK(reversals > 0);
  return repositions;
}

TEST_CASE("LOOK serves monotone sweeps between reversals (random queues)", "[policy][look][property]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    CHECK(check_elevator("look", false, seed) == 0);
  }
}

TEST_CASE("SCAN serves monotone sweeps and repositions to the edge (random queues)", "[policy][scan][property]") {
  int repositions = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    repositions += check_elevator("scan", true, seed);
  }
  CHECK(repositions > 0);
}

TEST_CASE("C-LOOK and C-SCAN serve in one direction only (random queues)", "[policy][clook][cscan][property]") {
  for (const bool circular_scan : {false, true}) {
    const char* key = circular_scan ? "cscan" : "clook";
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      INFO(key << " seed " << seed);
      std::mt19937_64 rng(seed);
      std::uniform_int_distribution<std::uint32_t> cyl(0, kCylinders - 1);
      auto p = make_policy(key);
      SchedulingContext ctx = context(cyl(rng));
      std::multiset<std::uint32_t> pending;
      std::uint64_t next_id = 0;
      for (int step = 0; step < 2000; ++step) {
        for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
          const std::uint32_t c = cyl(rng);
          p->enqueue(cmd(next_id++, lbn_of(c)), ctx);
          pending.insert(c);
        }
        const std::uint32_t h = head_of(ctx).cylinder;
        const Decision d = p->next(ctx);
        if (pending.empty()) {
          REQUIRE(d.kind == Decision::Kind::Idle);
          continue;
        }
        const auto above = pending.lower_bound(h);
        if (d.kind == Decision::Kind::Reposition) {
          REQUIRE(circular_scan);
          REQUIRE(above == pending.end());
          REQUIRE(d.sweep_coordinate == (h < kCylinders - 1 ? kCylinders - 1 : 0));
          move_to(ctx, d.sweep_coordinate);
          continue;
        }
        REQUIRE(d.kind == Decision::Kind::Serve);
        const std::uint32_t c = predictor().geometry().locate(d.command.lbn).cylinder;
        if (circular_scan) {
          REQUIRE(above != pending.end());  // C-SCAN never serves on a downward move
        }
        REQUIRE(c == (above != pending.end() ? *above : *pending.begin()));
        pending.erase(pending.find(c));
        move_to(ctx, c);
      }
    }
  }
}

TEST_CASE("seek-ordered policies cope with tens of thousands of pending requests", "[policy][property]") {
  constexpr std::uint64_t kRequests = 50'000;
  for (const char* key : {"sstf", "look", "scan", "clook", "cscan"}) {
    INFO(key);
    auto p = make_policy(key);
    SchedulingContext ctx = context(50);
    std::mt19937_64 rng(7);
    for (std::uint64_t id = 0; id < kRequests; ++id) p->enqueue(cmd(id, rng() % predictor().capacity_blocks()), ctx);
    REQUIRE(p->pending() == kRequests);
    std::vector<bool> seen(kRequests, false);
    std::uint64_t served_count = 0;
    for (;;) {
      const Decision d = p->next(ctx);
      if (d.kind == Decision::Kind::Idle) break;
      if (d.kind == Decision::Kind::Reposition) {
        move_to(ctx, d.sweep_coordinate);
        continue;
      }
      REQUIRE(!seen[d.command.id]);
      seen[d.command.id] = true;
      ++served_count;
      move_to(ctx, predictor().geometry().locate(d.command.lbn).cylinder);
    }
    CHECK(served_count == kRequests);
    CHECK(p->pending() == 0);
  }
}

// ---- SPTF and aged SPTF ---------------------------------------------------------------------

TEST_CASE("SPTF picks the shortest predicted positioning time", "[policy][sptf]") {
  auto p = make_policy("sptf");
  CHECK(p->name() == "SPTF");
  const SchedulingContext ctx = context(50, 0, Time{0});
  // From cylinder 50 head 0 at t = 0 (phase 0, slot s passes at s ms):
  //   id 0: cyl 50 head 0 sector 3 -> seek 0, rotation 3 ms            = 3 ms
  //   id 1: cyl 51 head 0 sector 2 -> seek 1 ms, at 1 ms wait 1 ms      = 2 ms
  //   id 2: cyl 50 head 1 sector 1 -> switch 0.5 ms, wait 0.5 ms        = 1 ms
  //   id 3: cyl 10 head 0 sector 9 -> seek(40) = 2 + 3*30/89 ms ~ 3.011 ms, wait to 9 ms = 9 ms
  p->enqueue(cmd(0, lbn_of(50, 0, 3)), ctx);
  p->enqueue(cmd(1, lbn_of(51, 0, 2)), ctx);
  p->enqueue(cmd(2, lbn_of(50, 1, 1)), ctx);
  p->enqueue(cmd(3, lbn_of(10, 0, 9)), ctx);
  Decision d = p->next(ctx);
  REQUIRE(d.kind == Decision::Kind::Serve);
  CHECK(d.command.id == 2);
  CHECK(d.predicted_positioning == ms(1));
  d = p->next(ctx);
  CHECK(d.command.id == 1);
  CHECK(d.predicted_positioning == ms(2));
  d = p->next(ctx);
  CHECK(d.command.id == 0);
  CHECK(d.predicted_positioning == ms(3));
  d = p->next(ctx);
  CHECK(d.command.id == 3);
  CHECK(d.predicted_positioning == ms(9));
  CHECK(p->next(ctx).kind == Decision::Kind::Idle);
}

TEST_CASE("SPTF breaks positioning ties by arrival order", "[policy][sptf]") {
  auto p = make_policy("sptf");
  const SchedulingContext ctx = context(20);
  // Same track and sector: identical predictions; enqueued out of id order.
  p->enqueue(cmd(9, lbn_of(30, 1, 4)), ctx);
  p->enqueue(cmd(4, lbn_of(30, 1, 4)), ctx);
  p->enqueue(cmd(6, lbn_of(30, 1, 4)), ctx);
  CHECK(p->next(ctx).command.id == 4);
  CHECK(p->next(ctx).command.id == 6);
  CHECK(p->next(ctx).command.id == 9);
}

/// The minimal access time over `queue`, the smallest id reaching it and its positioning time.
struct BruteForce {
  Time access = Time::max();
  std::uint64_t id = 0;
  Time positioning{0};
};
BruteForce brute_force_min(const std::map<std::uint64_t, Command>& queue, const SchedulingContext& ctx) {
  BruteForce best;
  for (const auto& [cid, c] : queue) {  // ascending id: the first minimum is the earliest
    const Prediction p = predictor().predict(head_of(ctx), ctx.now, c.lbn, c.op);
    if (p.access() < best.access) best = {p.access(), cid, p.positioning()};
  }
  return best;
}

TEST_CASE("SPTF always picks the minimal predicted positioning time (random queues)", "[policy][sptf][property]") {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 50; ++trial) {
    INFO("trial " << trial);
    auto p = make_policy("sptf");
    const auto cylinder = static_cast<std::uint32_t>(rng() % kCylinders);
    const auto head = static_cast<std::uint32_t>(rng() % kHeads);
    SchedulingContext ctx = context(cylinder, head, Time{static_cast<std::int64_t>(rng() % 1'000'000'000'000)});
    std::map<std::uint64_t, Command> queue;
    std::uint64_t next_id = 0;
    for (int step = 0; step < 200; ++step) {
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
        // Few distinct blocks, so that ties occur.
        const Command c = cmd(next_id++, rng() % 64 * 31 % predictor().capacity_blocks());
        p->enqueue(c, ctx);
        queue[c.id] = c;
      }
      const Decision d = p->next(ctx);
      if (queue.empty()) {
        REQUIRE(d.kind == Decision::Kind::Idle);
        continue;
      }
      REQUIRE(d.kind == Decision::Kind::Serve);
      const BruteForce best = brute_force_min(queue, ctx);
      REQUIRE(d.predicted_positioning == best.positioning);
      REQUIRE(d.command.id == best.id);
      queue.erase(d.command.id);
      // Advance: position, then transfer one block.
      const Prediction pr = predictor().predict(head_of(ctx), ctx.now, d.command.lbn, d.command.op);
      ctx.now += pr.positioning() + sectors_time(predictor().rotation_period(), 1, pr.target.sectors_per_track);
      move_to(ctx, HeadPosition{pr.target.cylinder, pr.target.head});
    }
  }
}

/// Serves everything queued in `p`, advancing time and the arm as the disk would; returns ids.
std::vector<std::uint64_t> serve_all(SchedulingPolicy& p, SchedulingContext ctx) {
  std::vector<std::uint64_t> ids;
  for (Decision d = p.next(ctx); d.kind == Decision::Kind::Serve; d = p.next(ctx)) {
    ids.push_back(d.command.id);
    const Prediction pr = predictor().predict(head_of(ctx), ctx.now, d.command.lbn, d.command.op);
    REQUIRE(d.predicted_positioning == pr.positioning());
    const Time transfer = sectors_time(predictor().rotation_period(), d.command.blocks, pr.target.sectors_per_track);
    ctx.now += pr.positioning() + transfer;
    move_to(ctx, HeadPosition{pr.target.cylinder, pr.target.head});
  }
  return ids;
}

TEST_CASE("aged SPTF with age_weight 0 is SPTF", "[policy][aged_sptf]") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    auto sptf = make_policy("sptf");
    auto aged = make_policy("aged_sptf", {{"age_weight", 0}});
    const SchedulingContext ctx = context(static_cast<std::uint32_t>(rng() % kCylinders), 0, ms(1000));
    for (std::uint64_t id = 0; id < 300; ++id) {
      const Time arrival = us(static_cast<std::int64_t>(rng() % 1'000'000));
      const Command c = cmd(id, rng() % predictor().capacity_blocks(), arrival);
      sptf->enqueue(c, ctx);
      aged->enqueue(c, ctx);
    }
    const std::vector<std::uint64_t> a = serve_all(*sptf, ctx);
    CHECK(a.size() == 300);
    CHECK(a == serve_all(*aged, ctx));
  }
}

TEST_CASE("aged SPTF with a large age_weight serves the oldest first", "[policy][aged_sptf]") {
  // Arrivals 1 ms apart: with W = 1e6 per mille one ms of age outweighs 1 s of access time, far
  // above any on this disk (< 16 ms), so the order is the arrival order, not the id order.
  auto p = make_policy("aged_sptf", {{"age_weight", 1e6}});
  CHECK(p->name() == "ASPTF(W)");
  std::mt19937_64 rng(5);
  const SchedulingContext ctx = context(50, 0, ms(200));
  std::vector<std::uint64_t> expected;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const std::uint64_t id = 1000 - i;  // later ids arrived earlier
    p->enqueue(cmd(id, rng() % predictor().capacity_blocks(), ms(static_cast<std::int64_t>(i))), ctx);
    expected.push_back(id);
  }
  CHECK(serve_all(*p, ctx) == expected);
}

TEST_CASE("aged SPTF weighs waiting per mille, as DiskSim does", "[policy][aged_sptf]") {
  // W = 6 (default): 6 us of access time off per ms waited (DiskSim 4.0 delay - age x W x 0.001).
  // From cylinder 50 head 0, phase 0 (now a multiple of 10 ms):
  //   id 0: arrived at 0,           cyl 50 sector 9 -> 9 ms access
  //   id 1: arrived at now - 0 ms,  cyl 50 sector 1 -> 1 ms access
  // id 0 wins once 0.006 x its extra wait exceeds 8 ms, i.e. beyond 1333.33 ms:
  //   now = 1330 ms: 9 - 7.98 = 1.02 ms > 1 ms    -> id 1 (SPTF's choice)
  //   now = 1340 ms: 9 - 8.04 = 0.96 ms < 1 ms    -> id 0
  // (W applied unscaled, 6 ps per ps, would already take id 0 after 1.34 ms of waiting.)
  for (const auto& [now_ms, expected] : std::vector<std::pair<std::int64_t, std::uint64_t>>{{1330, 1}, {1340, 0}}) {
    INFO("now " << now_ms << " ms");
    auto p = make_policy("aged_sptf");
    const SchedulingContext ctx = context(50, 0, ms(now_ms));
    p->enqueue(cmd(0, lbn_of(50, 0, 9), ms(0)), ctx);
    p->enqueue(cmd(1, lbn_of(50, 0, 1), ms(now_ms)), ctx);
    const Decision d = p->next(ctx);
    CHECK(d.command.id == expected);
    CHECK(d.predicted_positioning == ms(expected == 0 ? 9 : 1));  // the positioning, not the effective value
  }
  // A request that has waited 1.34 s does not beat one that has just arrived under plain SPTF.
  auto s = make_policy("sptf");
  const SchedulingContext ctx = context(50, 0, ms(1340));
  s->enqueue(cmd(0, lbn_of(50, 0, 9), ms(0)), ctx);
  s->enqueue(cmd(1, lbn_of(50, 0, 1), ms(1340)), ctx);
  CHECK(s->next(ctx).command.id == 1);
}

TEST_CASE("SPTF ranks by the access time, command path included", "[policy][sptf][path]") {
  // A predictor with the controller's command path (10 ns before a read's seek, 40 ns before a
  // write's, 20 ns after the seek). From cylinder 50 head 0, deciding 35 ns before sector 5:
  //   id 0: write, cyl 50 sector 5: misses it (channel at +60 ns) -> 10 ms + 35 ns access
  //   id 1: read,  cyl 50 sector 5: in time (channel at +30 ns)   -> 35 ns access
  //   id 2: read,  cyl 50 sector 8                                 -> 3 ms + 35 ns
  DiskPredictor pred(small_page(), Time{0});
  pred.set_command_path(CommandPath{Time{10'000}, Time{40'000}, Time{20'000}});
  SchedulingContext ctx = context(50, 0, ms(5) - Time{35'000});
  ctx.predictor = &pred;
  auto p = make_policy("sptf");
  Command w = cmd(0, lbn_of(50, 0, 5));
  w.op = Op::Write;
  p->enqueue(w, ctx);
  p->enqueue(cmd(1, lbn_of(50, 0, 5)), ctx);
  p->enqueue(cmd(2, lbn_of(50, 0, 8)), ctx);
  Decision d = p->next(ctx);
  CHECK(d.command.id == 1);
  CHECK(d.predicted_positioning == Time{25'000});  // seek 0 + 20 ns path + 5 ns wait
  d = p->next(ctx);
  CHECK(d.command.id == 2);
  CHECK(d.predicted_positioning == ms(3) + Time{25'000});
  d = p->next(ctx);
  CHECK(d.command.id == 0);
  CHECK(d.predicted_positioning == ms(10) - Time{5'000});  // from the seek's start at 5 ms + 5 ns
}

// ---- registry ---------------------------------------------------------------------------------

TEST_CASE("the registry lists every policy with its paper name", "[policy][registry]") {
  const std::vector<std::pair<std::string, std::string>> expected{
      {"fcfs", "FCFS"}, {"sstf", "SSTF"},          {"scan", "SCAN"},
      {"look", "LOOK"}, {"cscan", "C-SCAN"},       {"clook", "C-LOOK"},
      {"sptf", "SPTF"}, {"aged_sptf", "ASPTF(W)"}, {"parallel_deadline", "Parallel Deadline"}};
  for (const auto& [key, paper] : expected) {
    INFO(key);
    const PolicyInfo* info = find_policy(key);
    REQUIRE(info != nullptr);
    CHECK(info->paper_name == paper);
    CHECK(!info->description.empty());
    CHECK(make_policy(key)->name() == paper);
  }
  const PolicyInfo* aged = find_policy("aged_sptf");
  REQUIRE(aged->params.size() == 1);
  const PolicyParameter& w = aged->params[0];
  CHECK(w.name == "age_weight");
  CHECK(w.type == KeyType::Number);
  CHECK(w.default_value == 6);
  CHECK(w.min == 0);
  CHECK(w.max == 1e9);
  CHECK(w.unit == "per mille");
  CHECK(w.description.find("DiskSim") != std::string::npos);
  CHECK(w.description.find("Worthington") != std::string::npos);
  CHECK(find_policy("nope") == nullptr);
}

TEST_CASE("make_policy rejects unknown names, parameters and out-of-range values", "[policy][registry]") {
  using Catch::Matchers::Equals;
  REQUIRE_THROWS_AS(make_policy("elevator"), std::invalid_argument);
  REQUIRE_THROWS_WITH(make_policy("elevator"), Equals("unknown scheduling policy 'elevator'"));
  REQUIRE_THROWS_WITH(make_policy("sstf", {{"age_weight", 1}}), Equals("policy 'sstf' has no parameter 'age_weight'"));
  REQUIRE_THROWS_WITH(make_policy("aged_sptf", {{"weight", 1}}),
                      Equals("policy 'aged_sptf' has no parameter 'weight'"));
  REQUIRE_THROWS_WITH(make_policy("aged_sptf", {{"age_weight", 1e9 + 1}}),
                      Equals("policy 'aged_sptf' parameter 'age_weight' must be in [0.000000, 1000000000.000000], "
                             "got 1000000001.000000"));
  REQUIRE_THROWS_WITH(make_policy("aged_sptf", {{"age_weight", -1}}),
                      Equals("policy 'aged_sptf' parameter 'age_weight' must be in [0.000000, 1000000000.000000], "
                             "got -1.000000"));
  CHECK_NOTHROW(make_policy("aged_sptf", {{"age_weight", 0}}));
  CHECK_NOTHROW(make_policy("aged_sptf", {{"age_weight", 1e9}}));
}

TEST_CASE("enqueue rejects a block beyond the capacity", "[policy]") {
  const SchedulingContext ctx = context(0);
  for (const char* key : {"sstf", "scan", "look", "cscan", "clook"}) {
    INFO(key);
    auto p = make_policy(key);
    CHECK_THROWS_AS(p->enqueue(cmd(0, predictor().capacity_blocks()), ctx), std::out_of_range);
    CHECK(p->pending() == 0);
  }
}

}  // namespace
}  // namespace drivevp
