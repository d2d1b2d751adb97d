// Unit tests of paper 000's Parallel Deadline Scheduling (firmware/policies/parallel_deadline.h):
// the serial, the OpenMP-parallel and the indexed queue serve exactly the order of a
// straightforward implementation of Algorithm 1 written here; hand-built queues whose order is
// worked out by hand (expiry within the time quantum, nearest sector, the tie rules); the policy
// through the registry. Plain C++ and OpenMP: no SystemC.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "firmware/policies/parallel_deadline.h"
#include "firmware/policy.h"

namespace drivevp {
namespace {

using pdl::DeadlineOptions;
using pdl::IndexedDeadlineQueue;
using pdl::ParallelDeadlineQueue;

constexpr Time ms(std::int64_t v) { return Time{v * 1'000'000'000}; }

Command req(std::uint64_t id, std::uint64_t lbn, Time deadline = kNoDeadline) {
  Command c;
  c.id = id;
  c.lbn = lbn;
  c.deadline = deadline;
  return c;
}

std::vector<std::uint64_t> ids(const std::vector<Command>& v) {
  std::vector<std::uint64_t> r;
  for (const Command& c : v) r.push_back(c.id);
  return r;
}

/// Algorithm 1 as the paper states it, written plainly: QUEUE1 and QUEUE2 are vectors sorted once
/// (step 2); each pass takes QUEUE1's first entry if its deadline - now <= quantum, else scans
/// QUEUE2 from the front for the first entry at the smallest |LBN - previous| (QUEUE2's order makes
/// that the lower LBN, then the lower id, then the earlier enqueue); the request is erased from
/// both vectors by a linear search. The k-th decision is made at start + k * service.
std::vector<Command> reference(const std::vector<Command>& input, Time start, Time service, Time quantum,
                               std::uint64_t previous = 0, std::size_t decisions = SIZE_MAX) {
  struct R {
    Command c;
    std::size_t order;
  };
  std::vector<R> q1, q2;
  for (std::size_t i = 0; i < input.size(); ++i) q1.push_back({input[i], i});
  q2 = q1;
  std::sort(q1.begin(), q1.end(), [](const R& a, const R& b) {
    return std::tie(a.c.deadline, a.c.lbn, a.c.id, a.order) < std::tie(b.c.deadline, b.c.lbn, b.c.id, b.order);
  });
  std::sort(q2.begin(), q2.end(), [](const R& a, const R& b) {
    return std::tie(a.c.lbn, a.c.id, a.order) < std::tie(b.c.lbn, b.c.id, b.order);
  });
  std::vector<Command> out;
  for (std::int64_t k = 0; !q1.empty() && out.size() < decisions; ++k) {
    const Time now = start + service * k;
    R next = q1.front();
    if (next.c.deadline != kNoDeadline && next.c.deadline - now <= quantum) {
      q1.erase(q1.begin());
    } else {
      std::size_t best = 0;
      for (std::size_t j = 1; j < q2.size(); ++j) {
        const auto dist = [&](std::size_t i) {
          return q2[i].c.lbn > previous ? q2[i].c.lbn - previous : previous - q2[i].c.lbn;
        };
        if (dist(j) < dist(best)) best = j;
      }
      next = q2[best];
      q1.erase(std::find_if(q1.begin(), q1.end(), [&](const R& r) { return r.order == next.order; }));
    }
    q2.erase(std::find_if(q2.begin(), q2.end(), [&](const R& r) { return r.order == next.order; }));
    out.push_back(next.c);
    previous = next.c.lbn;
  }
  return out;
}

/// n random requests: LBNs over `lbn_range` blocks (a small range makes equal LBNs), deadlines
/// within `deadline_range_ms` of time 0 in whole ms (equal deadlines), a quarter without one, ids
/// shuffled and some repeated (ties reach the enqueue order).
std::vector<Command> random_requests(std::size_t n, std::uint64_t seed, std::uint64_t lbn_range,
                                     std::int64_t deadline_range_ms) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> lbn(0, lbn_range - 1);
  std::uniform_int_distribution<std::int64_t> dl(0, deadline_range_ms);
  std::uniform_int_distribution<int> kind(0, 3);
  std::vector<Command> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(req(i, lbn(rng), kind(rng) == 0 ? kNoDeadline : ms(dl(rng))));
  std::shuffle(v.begin(), v.end(), rng);
  for (std::size_t i = 0; i + 7 < n; i += 97) v[i + 7].id = v[i].id;  // repeated ids
  return v;
}

DeadlineOptions serial_options(Time quantum) {
  DeadlineOptions o;
  o.time_quantum = quantum;
  o.parallel_threshold = SIZE_MAX;
  return o;
}

DeadlineOptions parallel_options(Time quantum, int threads) {
  DeadlineOptions o;
  o.time_quantum = quantum;
  o.parallel_threshold = 0;
  o.threads = threads;
  return o;
}

template <class Queue>
std::vector<Command> drain(Queue&& q, const std::vector<Command>& input, Time start, Time service) {
  for (const Command& c : input) q.add(c);
  std::vector<Command> out;
  q.drain(start, service, out);
  return out;
}

// ---- the same order everywhere ------------------------------------------------------------------

struct RandomCase {
  std::uint64_t seed, lbn_range;
  std::int64_t deadline_range_ms, quantum_ms, service_ms;
};

/// Serial, parallel (2 threads; seed 1 also 1 and 3) and indexed drains of 10^4 random requests
/// equal the reference.
void check_random(const RandomCase& k) {
  const std::vector<Command> in = random_requests(10'000, k.seed, k.lbn_range, k.deadline_range_ms);
  const Time quantum = ms(k.quantum_ms), service = ms(k.service_ms);
  const std::vector<std::uint64_t> expected = ids(reference(in, Time{0}, service, quantum));
  REQUIRE(expected.size() == in.size());
  CHECK(ids(drain(ParallelDeadlineQueue(serial_options(quantum)), in, Time{0}, service)) == expected);
  CHECK(ids(drain(ParallelDeadlineQueue(parallel_options(quantum, 2)), in, Time{0}, service)) == expected);
  if (k.seed == 1) {  // other thread counts once (every decision forks: slow on shared cores)
    CHECK(ids(drain(ParallelDeadlineQueue(parallel_options(quantum, 3)), in, Time{0}, service)) == expected);
    CHECK(ids(drain(ParallelDeadlineQueue(parallel_options(quantum, 1)), in, Time{0}, service)) == expected);
  }
  CHECK(ids(drain(IndexedDeadlineQueue(serial_options(quantum)), in, Time{0}, service)) == expected);
}

// Wide and narrow LBN ranges (few and many equal LBNs), deadlines that expire all through the
// drain, none expiring (quantum 0, deadlines late), all expiring (huge quantum: EDF order).
TEST_CASE("parallel deadline: random queues of 10^4, wide LBNs, deadlines expiring during the drain",
          "[deadline][pdl]") {
  check_random({1, 2'600'000, 100'000, 25, 10});
}
TEST_CASE("parallel deadline: random queues of 10^4, narrow LBNs (equal LBNs)", "[deadline][pdl]") {
  check_random({2, 5'000, 20'000, 25, 3});
  check_random({3, 300, 50'000, 100, 5});
}
TEST_CASE("parallel deadline: random queues of 10^4, no deadline expires / every deadline expires", "[deadline][pdl]") {
  check_random({4, 1'000'000, 100'000, 0, 0});
  check_random({5, 1'000'000, 100'000, 1'000'000, 1});
}

TEST_CASE("parallel deadline: parallel searches and sorts of a large queue keep Algorithm 1's order",
          "[deadline][pdl]") {
  // 300,000 requests: parallel chunk searches and task-split sorts run; the first 500 decisions
  // are compared (4 threads: the sorts split into tasks).
  const std::vector<Command> in = random_requests(300'000, 9, 2'600'000, 1'000'000);
  const Time quantum = ms(25), service = ms(12);
  const std::vector<Command> expected = reference(in, Time{0}, service, quantum, 0, 500);
  for (int threads : {2, 4}) {
    INFO(threads << " threads");
    ParallelDeadlineQueue q(parallel_options(quantum, threads));
    for (const Command& c : in) q.add(c);
    q.sort();
    for (std::size_t k = 0; k < 500; ++k) {
      const auto c = q.next(service * static_cast<std::int64_t>(k));
      REQUIRE(c);
      REQUIRE(c->id == expected[k].id);
      REQUIRE(c->lbn == expected[k].lbn);
    }
  }
}

/// The three queues side by side: the same arrivals, each decision checked to be the same.
struct ThreeQueues {
  ParallelDeadlineQueue serial{serial_options(ms(25))}, parallel{parallel_options(ms(25), 2)};
  IndexedDeadlineQueue indexed{serial_options(ms(25))};
  void add(const Command& c) {
    serial.add(c);
    parallel.add(c);
    indexed.add(c);
  }
  /// The next decision at `now` of all three (REQUIREd equal and present); its id.
  std::uint64_t next(Time now) {
    const auto a = serial.next(now), b = parallel.next(now), c = indexed.next(now);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(c);
    REQUIRE(a->id == c->id);
    REQUIRE(b->id == c->id);
    REQUIRE(serial.size() == indexed.size());
    return a->id;
  }
};

TEST_CASE("parallel deadline: requests added between decisions: every queue serves the same order", "[deadline][pdl]") {
  // The policy's use: arrivals (one at a time, or bursts above the insertion limit) between
  // decisions, the queue never drained in one go. The order is each version's own; they agree.
  std::mt19937_64 rng(77);
  std::uniform_int_distribution<std::uint64_t> lbn(0, 100'000);
  std::uniform_int_distribution<std::int64_t> dl(0, 3'000);
  std::uniform_int_distribution<int> burst(0, 80);
  ThreeQueues q;
  std::uint64_t id = 0;
  Time now{0};
  for (int round = 0; round < 400; ++round) {
    const int arrivals = round % 10 == 0 ? burst(rng) : 1;
    for (int i = 0; i < arrivals; ++i) q.add(req(id++, lbn(rng), i % 3 == 0 ? kNoDeadline : now + ms(dl(rng))));
    q.next(now);
    now += ms(7);
  }
  CHECK(q.serial.size() == q.parallel.size());
  CHECK(q.serial.size() == q.indexed.size());
}

TEST_CASE("parallel deadline: removed entries squeezed out mid-drain, arrivals inserted among them",
          "[deadline][pdl]") {
  // 5,000 queued requests, then 5,000 decisions with an arrival every other decision: removed
  // entries pile up and are squeezed out several times (at an eighth of the array), and arrivals
  // land among them, some before every queued deadline (in front of QUEUE1's removed prefix) and
  // some at LBNs of removed requests. Every decision of both array versions equals the indexed
  // version's.
  std::mt19937_64 rng(5150);
  std::uniform_int_distribution<std::uint64_t> lbn(0, 20'000);
  std::uniform_int_distribution<std::int64_t> dl(0, 60'000);
  ThreeQueues q;
  std::uint64_t id = 0;
  for (int i = 0; i < 5'000; ++i) q.add(req(id++, lbn(rng), ms(dl(rng))));
  Time now{0};
  for (int k = 0; k < 5'000; ++k) {
    if (k % 2 == 1) q.add(req(id++, lbn(rng), k % 6 == 1 ? now + ms(1) : now + ms(dl(rng))));
    q.next(now);
    now += ms(12);
  }
  CHECK(q.serial.size() == 2'500);
  std::vector<Command> rest_a, rest_c;
  q.serial.drain(now, ms(12), rest_a);
  q.indexed.drain(now, ms(12), rest_c);
  CHECK(ids(rest_a) == ids(rest_c));
}

// ---- hand-built queues ------------------------------------------------------------------------

TEST_CASE("parallel deadline: a deadline within the time quantum is served first; otherwise the nearest sector",
          "[deadline][pdl]") {
  // Quantum 25 ms, decisions at 0, 10, 20, ... ms, previous sector 0.
  //   A lbn 1000, no deadline; B lbn 50, deadline 200 ms; C lbn 9000, deadline 30 ms; D lbn 120,
  //   deadline 45 ms.
  // t=0: QUEUE1's first is C (30 ms): 30 - 0 > 25, not expiring -> nearest to 0 is B (50).
  // t=10: first is C: 30 - 10 = 20 <= 25 -> C (the far one).
  // t=20: first is D (45 ms): 45 - 20 = 25 <= 25 (the boundary expires) -> D.
  // t=30: first is A (no deadline): never expires -> nearest to 120 is A (the only one).
  const std::vector<Command> in{req(0, 1000), req(1, 50, ms(200)), req(2, 9000, ms(30)), req(3, 120, ms(45))};
  const std::vector<std::uint64_t> expected{1, 2, 3, 0};
  CHECK(ids(reference(in, Time{0}, ms(10), ms(25))) == expected);
  CHECK(ids(drain(ParallelDeadlineQueue(serial_options(ms(25))), in, Time{0}, ms(10))) == expected);
  CHECK(ids(drain(ParallelDeadlineQueue(parallel_options(ms(25), 2)), in, Time{0}, ms(10))) == expected);
  CHECK(ids(drain(IndexedDeadlineQueue(serial_options(ms(25))), in, Time{0}, ms(10))) == expected);
}

TEST_CASE("parallel deadline: an arrival whose deadline precedes removed entries becomes QUEUE1's first",
          "[deadline][pdl]") {
  // Quantum 25 ms, previous sector 0. A lbn 9000 deadline 100 ms; B lbn 10 deadline 110 ms;
  // C lbn 20 deadline 300 ms.
  // t=0: first of QUEUE1 is A: 100 > 25, not expiring -> nearest to 0 is B (QUEUE1: A, B removed, C).
  // t=80: A: 100 - 80 = 20 <= 25 -> A (QUEUE1's first live entry is now C, behind removed B).
  // D arrives: lbn 50000, deadline 105 ms: in QUEUE1 it sorts between A and B, i.e. before the
  // removed entry B and so before C.
  // t=80: first is D: 105 - 80 = 25 <= 25 -> D (not C, the nearest to 9000 otherwise).
  // t=92: C.
  const auto check = [](auto q) {
    for (const Command& c : {req(0, 9000, ms(100)), req(1, 10, ms(110)), req(2, 20, ms(300))}) q.add(c);
    CHECK(q.next(ms(0))->id == 1);
    CHECK(q.next(ms(80))->id == 0);
    q.add(req(3, 50'000, ms(105)));
    CHECK(q.next(ms(80))->id == 3);
    CHECK(q.next(ms(92))->id == 2);
    CHECK(q.empty());
  };
  check(ParallelDeadlineQueue(serial_options(ms(25))));
  check(ParallelDeadlineQueue(parallel_options(ms(25), 2)));
  check(IndexedDeadlineQueue(serial_options(ms(25))));
}

TEST_CASE("parallel deadline: expiry is deadline - now <= quantum, to the picosecond", "[deadline][pdl]") {
  const Time q = ms(25);
  CHECK(pdl::about_to_expire(ms(125), ms(100), q));
  CHECK(!pdl::about_to_expire(ms(125) + Time{1}, ms(100), q));
  CHECK(pdl::about_to_expire(ms(50), ms(100), q));  // already missed: still "about to expire"
  CHECK(!pdl::about_to_expire(kNoDeadline, Time::max() - Time{1}, Time::max()));
  // No overflow at the ends of the clock: 2^64 - 3 ps apart is beyond any quantum, 2^63 - 1 is not.
  CHECK(!pdl::about_to_expire(Time::max() - Time{1}, Time::min() + Time{1}, Time::max()));
  CHECK(pdl::about_to_expire(Time{0}, Time::min() + Time{1}, Time::max()));
  CHECK(!pdl::about_to_expire(ms(1), ms(0), Time{0}));
  for (Time now : {ms(100) - Time{1}, ms(100)}) {  // the same at the queue: B expires at now = 100 ms
    ParallelDeadlineQueue queue(serial_options(q));
    queue.add(req(0, 10));
    queue.add(req(1, 500'000, ms(125)));
    CHECK(queue.next(now)->id == (now == ms(100) ? 1u : 0u));
  }
}

TEST_CASE(
    "parallel deadline: nearest sector: distance ties go to the lower LBN, equal LBNs to the lower id, then enqueue "
    "order",
    "[deadline][pdl]") {
  // Previous sector 100 (set), no deadlines.
  //   lbn 90 (id 5) and 110 (id 1) are both 10 away -> 90 first although its id is higher;
  //   from 90: 110 (20 away) before 60 (30 away);
  //   from 110: 60 twice, ids 9 and 4 -> id 4, then id 9;
  //   id 7 twice at lbn 300 -> enqueue order (the first added, deadline none, tagged by blocks).
  Command late = req(7, 300), early = req(7, 300);
  early.blocks = 1;
  late.blocks = 2;
  const std::vector<Command> in{req(1, 110), req(9, 60), early, req(5, 90), req(4, 60), late};
  const auto check = [&](auto&& queue) {
    queue.set_previous_sector(100);
    std::vector<Command> out = drain(queue, in, Time{0}, Time{0});
    CHECK(ids(out) == std::vector<std::uint64_t>{5, 1, 4, 9, 7, 7});
    CHECK(out[4].blocks == 1);
    CHECK(out[5].blocks == 2);
    CHECK(queue.previous_sector() == 300);
  };
  check(ParallelDeadlineQueue(serial_options(ms(25))));
  check(ParallelDeadlineQueue(parallel_options(ms(25), 2)));
  check(IndexedDeadlineQueue(serial_options(ms(25))));
  CHECK(ids(reference(in, Time{0}, Time{0}, ms(25), 100)) == std::vector<std::uint64_t>{5, 1, 4, 9, 7, 7});
}

TEST_CASE("parallel deadline: equal deadlines are served lower LBN first, then lower id", "[deadline][pdl]") {
  // All three expire at once (deadline 10 ms, quantum 25 ms): QUEUE1 order, not distance: the
  // previous sector (400) is nearest to lbn 500, but 300 comes first; lbn 300 twice: id 2 first.
  const std::vector<Command> in{req(3, 500, ms(10)), req(8, 300, ms(10)), req(2, 300, ms(10))};
  const auto check = [&](auto&& queue) {
    queue.set_previous_sector(400);
    CHECK(ids(drain(queue, in, Time{0}, Time{0})) == std::vector<std::uint64_t>{2, 8, 3});
  };
  check(ParallelDeadlineQueue(serial_options(ms(25))));
  check(ParallelDeadlineQueue(parallel_options(ms(25), 2)));
  check(IndexedDeadlineQueue(serial_options(ms(25))));
}

TEST_CASE("parallel deadline: the parallel deadline queue empties, refills and reports its size", "[deadline][pdl]") {
  ParallelDeadlineQueue q(serial_options(ms(25)));
  CHECK(q.empty());
  CHECK(!q.next(Time{0}));
  q.add(req(0, 5));
  q.add(req(1, 3));
  CHECK(q.size() == 2);
  CHECK(q.next(Time{0})->id == 1);
  CHECK(q.next(Time{0})->id == 0);
  CHECK(q.empty());
  q.add(req(2, 8));
  CHECK(q.next(Time{0})->id == 2);
  q.add(req(3, 8));
  q.clear();
  CHECK(q.empty());
  CHECK_THROWS_AS(ParallelDeadlineQueue(serial_options(Time{-1})), std::invalid_argument);
  CHECK_THROWS_AS(IndexedDeadlineQueue(serial_options(Time{-1})), std::invalid_argument);
  CHECK_THROWS_AS(ParallelDeadlineQueue(parallel_options(ms(1), -1)), std::invalid_argument);
}

// ---- the policy ---------------------------------------------------------------------------------

TEST_CASE("parallel_deadline policy: registry entry, parameters, Algorithm 1's order on disk and MEMS",
          "[deadline][pdl][policy]") {
  const PolicyInfo* info = find_policy("parallel_deadline");
  REQUIRE(info != nullptr);
  CHECK(info->paper_name == "Parallel Deadline");
  CHECK(info->applies_to("disk"));
  CHECK(info->applies_to("mems"));
  REQUIRE(info->params.size() == 4);
  CHECK(info->params[0].name == "time_quantum_ms");
  CHECK(info->params[0].default_value == 25);
  CHECK(info->params[0].unit == "ms");
  CHECK(info->params[1].name == "parallel_threshold");
  CHECK(info->params[1].default_value == static_cast<double>(pdl::kDefaultParallelThreshold));
  CHECK(info->params[2].name == "sort_parallel_threshold");
  CHECK(info->params[2].default_value == static_cast<double>(pdl::kDefaultSortParallelThreshold));
  CHECK(info->params[3].name == "threads");
  CHECK(info->params[3].default_value == 0);
  for (const char* device : {"disk", "mems"}) {
    INFO(device);
    auto p = make_policy("parallel_deadline", {{"time_quantum_ms", 25}, {"parallel_threshold", 2}}, device);
    CHECK(p->name() == "Parallel Deadline");
    SchedulingContext ctx;
    CHECK(p->next(ctx).kind == Decision::Kind::Idle);
    // The hand-built case above, arriving one by one.
    const std::vector<Command> in{req(0, 1000), req(1, 50, ms(200)), req(2, 9000, ms(30)), req(3, 120, ms(45))};
    for (const Command& c : in) p->enqueue(c, ctx);
    CHECK(p->pending() == 4);
    std::vector<std::uint64_t> order;
    for (int k = 0; k < 4; ++k) {
      ctx.now = ms(10) * k;
      const Decision d = p->next(ctx);
      REQUIRE(d.kind == Decision::Kind::Serve);
      order.push_back(d.command.id);
    }
    CHECK(order == std::vector<std::uint64_t>{1, 2, 3, 0});
    CHECK(p->pending() == 0);
  }
  CHECK_THROWS_AS(make_policy("parallel_deadline", {{"time_quantum_ms", -1}}), std::invalid_argument);
  CHECK_THROWS_AS(make_policy("parallel_deadline", {{"threads", 0.5}}), std::invalid_argument);
}

}  // namespace
}  // namespace drivevp
