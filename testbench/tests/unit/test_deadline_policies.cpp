// Unit tests of the deadline and Linux-elevator policies of issue 9 (firmware/policies/: noop,
// deadline, anticipatory, cfq, bfq, nstep_scan, fscan, edf, scan_edf). Plain C++: no SystemC.
// Every expected order is derived by hand in the comments; the disk is the small hand-built
// parameter page of test_policies.cpp (100 cylinders x 2 heads x 10 sectors: 20 blocks per
// cylinder, LBN 20c + 10h + s).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "firmware/disk_predictor.h"
#include "firmware/policy.h"
#include "small_disk.h"

namespace drivevp {
namespace {

using namespace testdisk;

std::uint64_t lbn_of(std::uint32_t cylinder) { return std::uint64_t{cylinder} * kHeads * kSpt; }

struct Req {
  std::uint64_t id;
  std::uint64_t lbn;
  std::uint32_t blocks = 1;
  Op op = Op::Read;
  std::uint32_t stream = 0;
  Time deadline = kNoDeadline;
};

Command cmd(const Req& r) {
  Command c;
  c.id = r.id;
  c.lbn = r.lbn;
  c.blocks = r.blocks;
  c.op = r.op;
  c.stream = r.stream;
  c.deadline = r.deadline;
  return c;
}

Command write(std::uint64_t id, std::uint64_t lbn) { return cmd({id, lbn, 1, Op::Write}); }
Command read(std::uint64_t id, std::uint64_t lbn, std::uint32_t stream = 0, std::uint32_t blocks = 1) {
  return cmd({id, lbn, blocks, Op::Read, stream});
}

SchedulingContext context(std::uint32_t cylinder = 0, Time now = Time{0}) {
  SchedulingContext ctx;
  ctx.now = now;
  ctx.position = DiskPredictor::position_of({cylinder, 0});
  ctx.predictor = &predictor();
  return ctx;
}

void move_to(SchedulingContext& ctx, std::uint32_t cylinder) {
  ctx.position = DiskPredictor::position_of({cylinder, 0});
}

/// The ids of a Serve decision: its command, then its batch ("3" or "3+4+5").
std::string ids(const Decision& d) {
  std::string s = std::to_string(d.command.id);
  for (const Command& c : d.batch) s += "+" + std::to_string(c.id);
  return s;
}

/// Asks `p` until it is idle. Each Serve decision takes `service` of simulated time: the arm
/// moves to the command's cylinder, the clock advances, then on_complete is called for each of
/// its commands; a Reposition moves the arm ("->c"); a WaitUntil advances the clock to its time
/// ("wait@<ms>"). Before each decision, `arrivals` whose time has come are enqueued.
std::vector<std::string> run(SchedulingPolicy& p, SchedulingContext& ctx, Time service,
                             std::multimap<Time, Command> arrivals = {}) {
  std::vector<std::string> out;
  for (int guard = 0; guard < 10000; ++guard) {
    while (!arrivals.empty() && arrivals.begin()->first <= ctx.now) {
      p.enqueue(arrivals.begin()->second, ctx);
      arrivals.erase(arrivals.begin());
    }
    const Decision d = p.next(ctx);
    switch (d.kind) {
      case Decision::Kind::Idle:
        if (arrivals.empty()) return out;
        ctx.now = arrivals.begin()->first;
        break;
      case Decision::Kind::WaitUntil: {
        REQUIRE(d.wake_at > ctx.now);
        const Time wake = arrivals.empty() ? d.wake_at : std::min(d.wake_at, arrivals.begin()->first);
        out.push_back("wait@" + std::to_string(to_ms(d.wake_at)).substr(0, 4));
        ctx.now = wake;
        break;
      }
      case Decision::Kind::Reposition:
        out.push_back("->" + std::to_string(d.sweep_coordinate));
        move_to(ctx, d.sweep_coordinate);
        break;
      case Decision::Kind::Serve: {
        out.push_back(ids(d));
        move_to(ctx, predictor().sweep_coordinate(d.command.lbn));
        ctx.now += service;
        p.on_complete(d.command, ctx);
        for (const Command& c : d.batch) p.on_complete(c, ctx);
        break;
      }
    }
  }
  FAIL("policy never became idle");
  return out;
}

using Order = std::vector<std::string>;

// ---- noop -------------------------------------------------------------------------------------

TEST_CASE("noop serves in arrival order and back-merges contiguous requests into one batch", "[policy][noop]") {
  auto p = make_policy("noop");
  CHECK(p->name() == "noop");
  SchedulingContext ctx = context();
  p->enqueue(read(0, 100, 0, 8), ctx);  // blocks 100..107
  p->enqueue(read(1, 500), ctx);
  p->enqueue(read(2, 108, 0, 4), ctx);  // starts where 0 ends: back merge
  p->enqueue(read(3, 96, 0, 4), ctx);   // ends where 0 starts: a front merge, which noop does not do
  p->enqueue(write(4, 112), ctx);       // starts where 2 ends, but a write: no merge with reads
  p->enqueue(read(5, 112, 0, 2), ctx);  // starts where 2 ends: joins the chain 0, 2
  CHECK(p->pending() == 6);
  // Oldest first: 0 with its chain 0 (100..107), 2 (108..111), 5 (112..113) as one batch in LBN
  // order; then 1, 3 (nothing queued starts at 100 any more), 4.
  CHECK(run(*p, ctx, ms(1)) == Order{"0+2+5", "1", "3", "4"});
  CHECK(p->pending() == 0);
}

TEST_CASE("noop on a MEMS device does not merge", "[policy][noop]") {
  auto p = make_policy("noop", {}, "mems");
  SchedulingContext ctx = context();
  p->enqueue(read(0, 100, 0, 8), ctx);
  p->enqueue(read(1, 108), ctx);
  CHECK(p->next(ctx).batch.empty());
  CHECK(p->next(ctx).command.id == 1);
}

// ---- deadline ---------------------------------------------------------------------------------

TEST_CASE("deadline: a batch goes up in sector order, the next starts from the FIFO head", "[policy][deadline]") {
  auto p = make_policy("deadline");
  CHECK(p->name() == "deadline");
  SchedulingContext ctx = context();
  for (const auto& [id, lbn] : std::vector<std::pair<int, int>>{{0, 500}, {1, 100}, {2, 300}, {3, 700}})
    p->enqueue(read(id, lbn), ctx);
  // Nothing dispatched yet: the batch starts at the FIFO head, 0 (500), and goes on in sector
  // order to 3 (700). Nothing follows 700: the next batch starts from the FIFO head, 1 (100),
  // then 2 (300). Nothing has expired (read_expire 500 ms, 1 ms per request).
  CHECK(run(*p, ctx, ms(1)) == Order{"0", "3", "1", "2"});
}

/// The queue of the expiry and batching tests: at 0 ms reads 0 (LBN 100) and 1 (LBN 50); at 5 ms
/// reads 2..5 at LBNs 200, 300, 400, 500. Each request takes 5 ms.
Order expiry_run(double read_expire_ms, double fifo_batch) {
  auto p = make_policy("deadline", {{"read_expire_ms", read_expire_ms}, {"fifo_batch", fifo_batch}});
  SchedulingContext ctx = context();
  std::multimap<Time, Command> arrivals{{Time{0}, read(0, 100)}, {Time{0}, read(1, 50)}, {ms(5), read(2, 200)},
                                        {ms(5), read(3, 300)},   {ms(5), read(4, 400)},  {ms(5), read(5, 500)}};
  return run(*p, ctx, ms(5), arrivals);
}

TEST_CASE("deadline: an expired FIFO head starts the next batch (read_expire)", "[policy][deadline]") {
  // fifo_batch 2, read_expire 10 ms:
  //   0 ms: FIFO head 0 (100); 5 ms: batch goes on after 100 -> 2 (200); batch full.
  //   10 ms: 1 (queued at 0) expired at 10 ms: the batch starts from it, 1 (50); 15 ms: after 50
  //   -> 3 (300); batch full. 20 ms: the FIFO head 4 (queued at 5 ms) expired at 15 ms -> 4
  //   (400); 25 ms: -> 5 (500).
  CHECK(expiry_run(10, 2) == Order{"0", "2", "1", "3", "4", "5"});
  // read_expire 500 ms, nothing expires: each batch continues after the last dispatched, and 1
  // (50), behind the sweep, waits until nothing follows 500 and the FIFO head is taken.
  CHECK(expiry_run(500, 2) == Order{"0", "2", "3", "4", "5", "1"});
}

TEST_CASE("deadline: expiries are checked only between batches of fifo_batch", "[policy][deadline]") {
  // read_expire 10 ms; with fifo_batch 16 the batch started at 0 ms runs on 100, 200, 300, 400,
  // 500 although 1 expired at 10 ms; it ends only when nothing follows 500 (25 ms), then 1.
  CHECK(expiry_run(10, 16) == Order{"0", "2", "3", "4", "5", "1"});
  // fifo_batch 2: the check at 10 ms, after two requests, finds 1 expired (derivation above).
  CHECK(expiry_run(10, 2) == Order{"0", "2", "1", "3", "4", "5"});
  // fifo_batch 1: a check before every request: 0 (FIFO head); at 5 ms 1 is not expired yet
  // (10 ms): after 100 -> 2 (200); at 10 ms 1 has expired -> 1 (50); at 15 ms the FIFO head 3
  // (queued at 5 ms) has expired -> 3 (300); at 20 ms 4 has -> 4 (400); then 5 (500).
  CHECK(expiry_run(10, 1) == Order{"0", "2", "1", "3", "4", "5"});
}

TEST_CASE("deadline: reads are preferred until writes have been starved writes_starved times", "[policy][deadline]") {
  // fifo_batch 1 (a batch per request), nothing expires. Writes 0 (100), 1 (200); reads 2..6 at
  // 300..700. At each batch start with writes waiting, reads win while starved++ < 2:
  //   #1 starved 0 -> 1: reads, FIFO head 2 (300); #2 starved 1 -> 2: reads, after 300 -> 3;
  //   #3 starved 2 >= 2: writes (starved = 0), other direction last: FIFO head 0 (100);
  //   #4 starved 0 -> 1: reads, direction switched: FIFO head 4 (500); #5 -> 5 (600);
  //   #6 writes: 1 (200); #7 no writes: reads, 6 (700).
  auto p = make_policy("deadline", {{"fifo_batch", 1}});
  SchedulingContext ctx = context();
  p->enqueue(write(0, 100), ctx);
  p->enqueue(write(1, 200), ctx);
  for (int i = 2; i <= 6; ++i) p->enqueue(read(i, 100 * (i + 1)), ctx);
  CHECK(run(*p, ctx, ms(1)) == Order{"2", "3", "0", "4", "5", "1", "6"});

  SECTION("writes_starved 0: writes whenever they wait") {
    auto q = make_policy("deadline", {{"fifo_batch", 1}, {"writes_starved", 0}});
    q->enqueue(read(0, 300), ctx);
    q->enqueue(write(1, 100), ctx);
    q->enqueue(write(2, 200), ctx);
    CHECK(run(*q, ctx, ms(1)) == Order{"1", "2", "0"});
  }
}

TEST_CASE("deadline: front and back merges make one batch in LBN order", "[policy][deadline]") {
  SchedulingContext ctx = context();
  auto fill = [&](SchedulingPolicy& p) {
    p.enqueue(read(0, 100, 0, 8), ctx);  // 100..107
    p.enqueue(read(1, 92, 0, 8), ctx);   // 92..99: ends where 0 starts (front merge)
    p.enqueue(read(2, 108, 0, 4), ctx);  // 108..111: back merge
    p.enqueue(write(3, 112), ctx);       // a write after the chain: not merged with reads
  };
  auto on = make_policy("deadline");
  fill(*on);
  // FIFO head 0 with its chain 1, 0, 2 (LBN order: 92, 100, 108); then the write 3.
  CHECK(run(*on, ctx, ms(1)) == Order{"1+0+2", "3"});
  auto off = make_policy("deadline", {{"front_merges", 0}});
  fill(*off);
  // Without front merges: 0 with 2; then after 108 in sector order nothing (1 is at 92): the
  // FIFO head 1; then the write.
  CHECK(run(*off, ctx, ms(1)) == Order{"0+2", "1", "3"});
}

// ---- anticipatory -----------------------------------------------------------------------------

TEST_CASE("anticipatory waits after a read for the same stream's nearby read", "[policy][anticipatory]") {
  auto p = make_policy("anticipatory");
  CHECK(p->name() == "anticipatory");
  SchedulingContext ctx = context();
  // 0 ms: read 0 of stream 1 (LBN 100) and read 1 of stream 2 (LBN 1500). Each read takes 10 ms.
  // 12 ms: read 2 of stream 1 at 101, right after 0.
  std::multimap<Time, Command> arrivals{
      {Time{0}, read(0, 100, 1)}, {Time{0}, read(1, 1500, 2)}, {ms(12), read(2, 101, 1)}};
  // 0 ms: FIFO head 0; it completes at 10 ms: anticipate stream 1 until 16 ms, though 1 waits;
  // 12 ms: 2 arrives and is served; it completes at 22 ms: anticipate until 28 ms; nothing of
  // stream 1 comes: at 28 ms 1 is served (and after it, stream 2 is anticipated in vain on an
  // empty queue: idle).
  CHECK(run(*p, ctx, ms(10), arrivals) == Order{"0", "wait@16.0", "2", "wait@28.0", "1"});

  SECTION("without anticipation (antic_expire 0) it is the deadline order") {
    auto q = make_policy("anticipatory", {{"antic_expire_ms", 0}});
    SchedulingContext c2 = context();
    CHECK(run(*q, c2, ms(10), arrivals) == Order{"0", "1", "2"});
  }
  SECTION("a write's completion starts no anticipation") {
    auto q = make_policy("anticipatory");
    SchedulingContext c2 = context();
    // Two writes: after 0 completes at 10 ms, 1 is served at once (no wait).
    std::multimap<Time, Command> w{{Time{0}, write(0, 100)}, {Time{0}, write(1, 1500)}};
    CHECK(run(*q, c2, ms(10), w) == Order{"0", "1"});
  }
}

TEST_CASE("anticipatory ends the wait when a FIFO head expires", "[policy][anticipatory]") {
  // read_expire 12 ms: 1 (queued at 0) expires at 12 ms, inside the 10..16 ms anticipation;
  // fifo_batch 1, so that the expiry is checked at every dispatch (between batches).
  auto p = make_policy("anticipatory", {{"read_expire_ms", 12}, {"fifo_batch", 1}});
  SchedulingContext ctx = context();
  std::multimap<Time, Command> arrivals{
      {Time{0}, read(0, 100, 1)}, {Time{0}, read(1, 1500, 2)}, {ms(12), read(2, 900, 3)}};
  // 10 ms: wait until 16 ms; at 12 ms (arrival of 2, stream 3) 1 has expired: the wait ends and
  // the deadline rule serves 1 (the expired FIFO head), then 2 after the anticipation of
  // stream 2 (22..28 ms) runs out.
  CHECK(run(*p, ctx, ms(10), arrivals) == Order{"0", "wait@16.0", "1", "wait@28.0", "2"});
}

// ---- CFQ --------------------------------------------------------------------------------------

TEST_CASE("CFQ serves streams round robin in time slices, sector order within a slice", "[policy][cfq]") {
  auto p = make_policy("cfq", {{"slice_sync_ms", 20}});
  CHECK(p->name() == "CFQ");
  SchedulingContext ctx = context();
  // Stream 1: 0 (300), 1 (100), 2 (200); stream 2: 3 (1000), 4 (900); stream 3: 5 (50). Each
  // request takes 10 ms; slices of 20 ms; slice_idle 8 ms.
  for (const Req& r : std::vector<Req>{{0, 300, 1, Op::Read, 1},
                                       {1, 100, 1, Op::Read, 1},
                                       {2, 200, 1, Op::Read, 1},
                                       {3, 1000, 1, Op::Read, 2},
                                       {4, 900, 1, Op::Read, 2},
                                       {5, 50, 1, Op::Read, 3}})
    p->enqueue(cmd(r), ctx);
  // 0 ms: stream 1's slice (to 20 ms): lowest 1 (100), then 2 (200). 20 ms: the slice is over,
  // stream 1 (300 left) to the tail; stream 2 (to 40 ms): 4 (900), 3 (1000). 40 ms: stream 3: 5
  // (50); 50 ms: its queue is empty within its slice: idle until 58 ms; then stream 1: after
  // 200 -> 0 (300).
  CHECK(run(*p, ctx, ms(10)) == Order{"1", "2", "4", "3", "5", "wait@58.0", "0"});
}

TEST_CASE("CFQ serves a request of the active stream that arrives while it idles", "[policy][cfq]") {
  auto p = make_policy("cfq");
  SchedulingContext ctx = context();
  std::multimap<Time, Command> arrivals{
      {Time{0}, read(0, 100, 1)}, {Time{0}, read(1, 900, 2)}, {ms(13), read(2, 120, 1)}};
  // 0 ms: stream 1: 0; 10 ms: its queue is empty: idle until 18 ms; 13 ms: 2 of stream 1 arrives
  // and is served in the slice; 23 ms: idle until 31 ms; then stream 2: 1.
  CHECK(run(*p, ctx, ms(10), arrivals) == Order{"0", "wait@18.0", "2", "wait@31.0", "1"});
}

// ---- BFQ --------------------------------------------------------------------------------------

TEST_CASE("BFQ serves the eligible stream with the smallest virtual finish time, for its budget", "[policy][bfq]") {
  auto p = make_policy("bfq", {{"max_budget", 16}});
  CHECK(p->name() == "BFQ");
  SchedulingContext ctx = context();
  // Requests of 8 blocks, 1 ms each. Stream 1: a1 (id 0, LBN 100); stream 2: b1, b2, b3 (ids 1..3,
  // LBNs 1000, 1100, 1200). Stream 1's a2 (id 4, LBN 200) arrives at 1.5 ms.
  std::multimap<Time, Command> arrivals{{Time{0}, read(0, 100, 1, 8)},
                                        {Time{0}, read(1, 1000, 2, 8)},
                                        {Time{0}, read(2, 1100, 2, 8)},
                                        {Time{0}, read(3, 1200, 2, 8)},
                                        {us(1500), read(4, 200, 1, 8)}};
  // 0: S1 = S2 = 0, F1 = F2 = 16, V = 0: both eligible, tie -> stream 1: a1 (8 sectors).
  // 1 ms: stream 1 empty: charged 8: V = 0 + 8/2 = 4, F1 = 8. Stream 2 (S 0 <= 4): b1, b2
  //   (16 sectors = its budget). At 1.5 ms a2 arrives: S1 = max(V 4, F1 8) = 8, F1 = 24.
  // 3 ms: stream 2 charged 16: V = 4 + 16/2 = 12, F2 = 16, still busy: S2 = 16, F2 = 32.
  //   Eligible: stream 1 (S 8 <= 12), stream 2 not (S 16 > 12): a2.
  // 4 ms: stream 1 empty, charged 8: V = 12 + 8/2 = 16; stream 2 (S 16 <= 16): b3.
  CHECK(run(*p, ctx, ms(1), arrivals) == Order{"0", "1", "2", "4", "3"});
}

TEST_CASE("BFQ: a larger budget keeps a stream in service longer; timeout_sync cuts it", "[policy][bfq]") {
  SchedulingContext ctx = context();
  auto fill = [&](SchedulingPolicy& p) {
    for (int i = 0; i < 3; ++i) p.enqueue(read(i, 100 * (i + 1), 1, 8), ctx);   // stream 1: 0, 1, 2
    for (int i = 3; i < 5; ++i) p.enqueue(read(i, 1000 + 100 * i, 2, 8), ctx);  // stream 2: 3, 4
  };
  auto big = make_policy("bfq", {{"max_budget", 24}});
  fill(*big);
  // Budget 24 = three requests: stream 1 all three, then stream 2.
  CHECK(run(*big, ctx, ms(1)) == Order{"0", "1", "2", "3", "4"});
  auto small = make_policy("bfq", {{"max_budget", 8}});
  fill(*small);
  // Budget 8: one request per service (F = S + 8 at the start). Stream 1 (tie, lower id): 0;
  // charged 8 of 2 busy: V 4, S1 8, F1 16. Stream 2 (S 0 <= 4; stream 1 not eligible): 3; V 8,
  // S2 8, F2 16. Both eligible, F tie, S tie: stream 1: 1; V 12, S1 16. Stream 2 (S 8 <= 12): 4;
  // it is empty: V 16. Stream 1 (S 16 <= 16): 2.
  CHECK(run(*small, ctx, ms(1)) == Order{"0", "3", "1", "4", "2"});
  auto timed = make_policy("bfq", {{"max_budget", 1000}, {"timeout_sync_ms", 1.5}});
  fill(*timed);
  // Budget 1000 sectors but 1.5 ms: stream 1 gets 0 (0 ms) and 1 (1 ms, < 1.5 ms), then at 2 ms
  // its time is up. Charged 16: V 8, S1 16. Stream 2 (S 0): 3, 4 (then empty). Stream 1: 2.
  CHECK(run(*timed, ctx, ms(1)) == Order{"0", "1", "3", "4", "2"});
}

// ---- EDF and SCAN-EDF -------------------------------------------------------------------------

TEST_CASE("EDF serves the earliest deadline first, requests without one last in arrival order", "[policy][edf]") {
  auto p = make_policy("edf");
  CHECK(p->name() == "EDF");
  SchedulingContext ctx = context();
  p->enqueue(cmd({0, 100, 1, Op::Read, 0, kNoDeadline}), ctx);
  p->enqueue(cmd({1, 200, 1, Op::Read, 0, ms(30)}), ctx);
  p->enqueue(cmd({2, 300, 1, Op::Write, 0, ms(10)}), ctx);
  p->enqueue(cmd({3, 400, 1, Op::Read, 0, kNoDeadline}), ctx);
  p->enqueue(cmd({4, 500, 1, Op::Read, 0, ms(10)}), ctx);  // ties with 2: later id after
  CHECK(run(*p, ctx, ms(1)) == Order{"2", "4", "1", "0", "3"});
}

TEST_CASE("EDF never serves a later deadline while an earlier one waits (random queues)", "[policy][edf][property]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    auto p = make_policy("edf");
    SchedulingContext ctx = context();
    std::map<std::uint64_t, Time> pending;  // id -> deadline
    std::uint64_t next_id = 0;
    for (int step = 0; step < 2000; ++step) {
      for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
        const Time dl = rng() % 5 == 0 ? kNoDeadline : ms(static_cast<std::int64_t>(rng() % 1000));
        p->enqueue(cmd({next_id, rng() % 2000, 1, Op::Read, 0, dl}), ctx);
        pending[next_id++] = dl;
      }
      const Decision d = p->next(ctx);
      if (pending.empty()) {
        REQUIRE(d.kind == Decision::Kind::Idle);
        continue;
      }
      REQUIRE(d.kind == Decision::Kind::Serve);
      const Time served = pending.at(d.command.id);
      for (const auto& [id, dl] : pending) {
        REQUIRE(dl >= served);
        if (dl == served) REQUIRE(id >= d.command.id);  // equal deadlines (and none): arrival order
      }
      pending.erase(d.command.id);
    }
  }
}

TEST_CASE("SCAN-EDF sweeps within a deadline group, groups in deadline order", "[policy][scan_edf]") {
  // Arm at cylinder 30, sweeping up. Group [0, 10) ms: 0 (cyl 60, 2 ms), 1 (20, 5 ms), 2 (40,
  // 8 ms); group [10, 20) ms: 3 (10, 12 ms), 4 (90, 15 ms); no deadline: 5 (50).
  const std::vector<Req> reqs{{0, lbn_of(60), 1, Op::Read, 0, ms(2)},  {1, lbn_of(20), 1, Op::Read, 0, ms(5)},
                              {2, lbn_of(40), 1, Op::Read, 0, ms(8)},  {3, lbn_of(10), 1, Op::Read, 0, ms(12)},
                              {4, lbn_of(90), 1, Op::Read, 0, ms(15)}, {5, lbn_of(50), 1, Op::Read, 0, kNoDeadline}};
  SECTION("granularity 10 ms") {
    auto p = make_policy("scan_edf", {{"deadline_granularity_ms", 10}});
    CHECK(p->name() == "SCAN-EDF");
    SchedulingContext ctx = context(30);
    for (const Req& r : reqs) p->enqueue(cmd(r), ctx);
    // First group from 30 up: 40 (2), 60 (0); nothing above: reverse, 20 (1). Second group from
    // 20 going down: 10 (3); reverse: 90 (4). Last group from 90 up: nothing; reverse: 50 (5).
    CHECK(run(*p, ctx, ms(1)) == Order{"2", "0", "1", "3", "4", "5"});
  }
  SECTION("granularity 0: distinct deadlines, EDF") {
    auto p = make_policy("scan_edf");
    SchedulingContext ctx = context(30);
    for (const Req& r : reqs) p->enqueue(cmd(r), ctx);
    CHECK(run(*p, ctx, ms(1)) == Order{"0", "1", "2", "3", "4", "5"});
  }
  SECTION("equal deadlines: one SCAN sweep") {
    auto p = make_policy("scan_edf");
    SchedulingContext ctx = context(30);
    for (const Req& r : reqs) {
      Req same = r;
      same.deadline = ms(7);
      p->enqueue(cmd(same), ctx);
    }
    // From 30 up: 40, 50, 60, 90; reverse: 20, 10.
    CHECK(run(*p, ctx, ms(1)) == Order{"2", "5", "0", "4", "1", "3"});
  }
}

// ---- N-step SCAN and FSCAN --------------------------------------------------------------------

TEST_CASE("N-step SCAN serves subqueues of N in SCAN order, a newer subqueue after the older", "[policy][nstep_scan]") {
  auto p = make_policy("nstep_scan", {{"nstep_n", 3}});
  CHECK(p->name() == "N-step SCAN");
  SchedulingContext ctx = context(50);
  // 0 (60), 1 (10), 2 (70) fill the first subqueue; 3 (55) starts the second; 4 (65) arrives
  // after the first decision and joins the second.
  for (const auto& [id, c] : std::vector<std::pair<int, std::uint32_t>>{{0, 60}, {1, 10}, {2, 70}, {3, 55}})
    p->enqueue(read(id, lbn_of(c)), ctx);
  std::multimap<Time, Command> arrivals{{ms(1), read(4, lbn_of(65))}};
  // First subqueue from 50 up: 60 (0), 70 (2), to the edge 99, reverse: 10 (1). 55 and 65 lie on
  // the way up but belong to the second subqueue. Second from 10 going down: nothing, to the
  // edge 0, reverse: 55 (3), 65 (4).
  CHECK(run(*p, ctx, ms(1), arrivals) == Order{"0", "2", "->99", "1", "->0", "3", "4"});
}

TEST_CASE("N-step SCAN with N = 1 is FCFS", "[policy][nstep_scan]") {
  auto p = make_policy("nstep_scan", {{"nstep_n", 1}});
  SchedulingContext ctx = context(50);
  for (const auto& [id, c] : std::vector<std::pair<int, std::uint32_t>>{{0, 60}, {1, 10}, {2, 55}})
    p->enqueue(read(id, lbn_of(c)), ctx);
  // Each request is its own subqueue: 60; then 10 (down from 60: to the edge 99 first, since
  // SCAN does not reverse early), 55.
  const Order o = run(*p, ctx, ms(1));
  Order served;
  for (const std::string& s : o)
    if (s.rfind("->", 0) != 0) served.push_back(s);
  CHECK(served == Order{"0", "1", "2"});
}

TEST_CASE("FSCAN freezes the queue in service; arrivals wait for the swap", "[policy][fscan]") {
  auto p = make_policy("fscan");
  CHECK(p->name() == "FSCAN");
  SchedulingContext ctx = context(50);
  p->enqueue(read(0, lbn_of(60)), ctx);
  p->enqueue(read(1, lbn_of(10)), ctx);
  // After the first decision 2 (55) and 3 (70) arrive: into the other queue. From 50 up: 60 (0);
  // 70 is ahead but frozen out: to the edge 99, reverse, 10 (1). Swap; from 10 down: edge 0,
  // reverse: 55 (2), 70 (3).
  std::multimap<Time, Command> arrivals{{ms(1), read(2, lbn_of(55))}, {ms(1), read(3, lbn_of(70))}};
  CHECK(run(*p, ctx, ms(1), arrivals) == Order{"0", "->99", "1", "->0", "2", "3"});
}

TEST_CASE("N-step SCAN and FSCAN never serve a newer subqueue before an older one (random)",
          "[policy][nstep_scan][fscan][property]") {
  for (const char* key : {"nstep_scan", "fscan"}) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      INFO(key << " seed " << seed);
      std::mt19937_64 rng(seed);
      auto p = make_policy(key, key == std::string("fscan") ? PolicyParams{} : PolicyParams{{"nstep_n", 4}});
      SchedulingContext ctx = context(50);
      // Model of the batches: an arrival's batch number; the batch in service is `serving` once
      // a request of it has been served (it then takes no arrivals).
      std::map<std::uint64_t, int> batch_of;
      std::map<int, int> size_of;
      int last_batch = 0;
      int serving = -1;
      std::uint64_t next_id = 0;
      for (int step = 0; step < 3000; ++step) {
        for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
          const bool full = key == std::string("nstep_scan") && size_of[last_batch] >= 4;
          if (last_batch == serving || full) ++last_batch;
          ++size_of[last_batch];
          batch_of[next_id] = last_batch;
          p->enqueue(read(next_id++, lbn_of(static_cast<std::uint32_t>(rng() % kCylinders))), ctx);
        }
        const Decision d = p->next(ctx);
        if (d.kind == Decision::Kind::Idle) {
          REQUIRE(batch_of.empty());
          continue;
        }
        if (d.kind == Decision::Kind::Reposition) {  // the oldest pending batch is in service
          serving = std::min_element(batch_of.begin(), batch_of.end(), [](const auto& x, const auto& y) {
                      return x.second < y.second;
                    })->second;
          move_to(ctx, d.sweep_coordinate);
          continue;
        }
        const int b = batch_of.at(d.command.id);
        for (const auto& [id, other] : batch_of) REQUIRE(other >= b);
        serving = b;
        if (--size_of[b] == 0 && b == last_batch) ++last_batch;  // emptied: arrivals open a new one
        batch_of.erase(d.command.id);
        move_to(ctx, predictor().sweep_coordinate(d.command.lbn));
      }
    }
  }
}

// ---- registry -----------------------------------------------------------------------------------

TEST_CASE("the issue-9 policies are registered with their names, on disk and MEMS", "[policy][registry]") {
  const std::vector<std::pair<std::string, std::string>> expected{
      {"noop", "noop"},   {"deadline", "deadline"}, {"anticipatory", "anticipatory"},
      {"cfq", "CFQ"},     {"bfq", "BFQ"},           {"nstep_scan", "N-step SCAN"},
      {"fscan", "FSCAN"}, {"edf", "EDF"},           {"scan_edf", "SCAN-EDF"}};
  for (const auto& [key, paper] : expected) {
    INFO(key);
    const PolicyInfo* info = find_policy(key);
    REQUIRE(info != nullptr);
    CHECK(info->paper_name == paper);
    CHECK(info->applies_to("disk"));
    CHECK(info->applies_to("mems"));
    for (const PolicyParameter& q : info->params) {
      CHECK(!q.description.empty());
      CHECK((q.type == KeyType::Boolean || !q.unit.empty()));
    }
    auto p = make_policy(key);
    CHECK(p->name() == paper);
    CHECK(p->next(context(50)).kind == Decision::Kind::Idle);  // idle, not moving, when empty
    CHECK(p->pending() == 0);
    CHECK(make_policy(key, {}, "mems")->name() == paper);
  }
  const PolicyInfo* d = find_policy("deadline");
  std::map<std::string, double> defaults;
  for (const PolicyParameter& q : d->params) defaults[q.name] = q.default_value;
  CHECK(defaults == std::map<std::string, double>{{"read_expire_ms", 500},
                                                  {"write_expire_ms", 5000},
                                                  {"fifo_batch", 16},
                                                  {"writes_starved", 2},
                                                  {"front_merges", 1}});
}

}  // namespace
}  // namespace drivevp
