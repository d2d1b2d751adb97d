// Unit tests of the MEMS scheduling-policy cores of paper 002 (firmware/policies/mems/). Plain
// C++: no SystemC. Positioning times come from hand-written functions or random tables, so every
// expected order is worked out in the test.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {
namespace {

constexpr Time us(std::int64_t v) { return Time{v * 1'000'000}; }

std::vector<std::uint64_t> ids(const Batch& b) {
  std::vector<std::uint64_t> out;
  for (const Request& r : b.requests) out.push_back(r.id);
  return out;
}

Request req(std::uint64_t id, std::uint32_t x, std::uint32_t y, std::uint32_t region, Time arrival = Time{0}) {
  Request r;
  r.id = id;
  r.x = x;
  r.y = y;
  r.region = region;
  r.arrival = arrival;
  return r;
}

std::uint32_t dist(std::uint32_t a, std::uint32_t b) { return a > b ? a - b : b - a; }

/// Positioning (|x - cx| + |y - cy| + extra) microseconds.
Positioning manhattan(std::uint32_t cx, std::uint32_t cy, std::int64_t extra = 0) {
  return [=](std::uint32_t x, std::uint32_t y) { return us(dist(x, cx) + dist(y, cy) + extra); };
}

// --- brute force ------------------------------------------------------------------------------

/// The expected decision recomputed from the raw request list: positions with their count,
/// waiting sum and positioning time, ranked by num / max(t, 1 ps) (cross-multiplied), then the
/// shorter time, then smaller x, then smaller y; the batch gathered from the list.
struct Expected {
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  Time t{0};
  std::vector<std::uint64_t> batch;
};

Expected brute_force(const std::vector<Request>& queue, Time now, const Positioning& positioning, bool aged,
                     std::uint32_t limit) {
  struct Pos {
    Int128 n = 0;
    Int128 wait = 0;
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, Pos> positions;
  for (const Request& r : queue) {
    Pos& p = positions[{r.x, r.y}];
    p.n += 1;
    p.wait += (now - r.arrival).count();  // summed request by request, not from the arrival sum
  }
  bool first = true;
  Int128 best_num = 0;
  Expected e;
  for (const auto& [xy, p] : positions) {
    const Time t = positioning(xy.first, xy.second);
    const Int128 num = aged ? p.wait : p.n;
    bool better = first;
    if (!first) {
      const Int128 lhs = num * std::max<Int128>(e.t.count(), 1);
      const Int128 rhs = best_num * std::max<Int128>(t.count(), 1);
      better = lhs != rhs ? lhs > rhs : (t != e.t ? t < e.t : xy < std::make_pair(e.x, e.y));
    }
    if (better) {
      e.x = xy.first;
      e.y = xy.second;
      e.t = t;
      best_num = num;
    }
    first = false;
  }
  std::vector<Request> here;
  for (const Request& r : queue)
    if (r.x == e.x && r.y == e.y) here.push_back(r);
  std::sort(here.begin(), here.end(),
            [](const Request& a, const Request& b) { return std::tie(a.arrival, a.id) < std::tie(b.arrival, b.id); });
  std::vector<std::uint32_t> regions;
  for (const Request& r : here) {
    if (e.batch.size() == limit) break;
    if (std::find(regions.begin(), regions.end(), r.region) != regions.end()) continue;
    regions.push_back(r.region);
    e.batch.push_back(r.id);
  }
  return e;
}

/// Runs random queues through `key` (P-SPTF or PA-SPTF) to exhaustion with random arrivals and
/// removals in between, checking every decision against brute_force. Returns the decisions made.
std::size_t check_against_brute_force(const std::string& key, bool aged) {
  Geometry g;
  g.x_positions = 40;
  g.y_positions = 8;
  g.max_regions_per_access = 4;
  std::size_t decisions = 0;
  for (std::uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937_64 rng(seed);
    auto queue = make_queue(key, g);
    std::vector<Request> model;
    std::uint64_t next_id = 0;
    Time now{0};
    auto add = [&](Time arrival) {
      Request r =
          req(next_id++, static_cast<std::uint32_t>(rng() % g.x_positions),
              static_cast<std::uint32_t>(rng() % g.y_positions), static_cast<std::uint32_t>(rng() % 12), arrival);
      r.op = rng() % 3 == 0 ? Op::Write : Op::Read;
      queue->enqueue(r);
      model.push_back(r);
    };
    const std::size_t initial = 1 + rng() % 300;
    for (std::size_t i = 0; i < initial; ++i) add(Time{static_cast<std::int64_t>(rng() % 1'000'000'000)});
    now = Time{1'000'000'000};
    while (!model.empty()) {
      // A random positioning table, 0 .. 5 us in 100 ns steps: many equal times, some zeros.
      std::vector<Time> table(std::size_t{g.x_positions} * g.y_positions);
      for (Time& t : table) t = Time{static_cast<std::int64_t>(rng() % 51) * 100'000};
      const Positioning pos = [&](std::uint32_t x, std::uint32_t y) {
        return table[std::size_t{x} * g.y_positions + y];
      };
      const Expected e = brute_force(model, now, pos, aged, g.max_regions_per_access);
      const Batch b = queue->choose(now, pos, SledPosition{});
      INFO("seed " << seed << ", decision " << decisions);
      REQUIRE(b.x == e.x);
      REQUIRE(b.y == e.y);
      REQUIRE(b.positioning == e.t);
      REQUIRE(ids(b) == e.batch);
      for (const Request& r : b.requests) {
        auto it = std::find_if(model.begin(), model.end(), [&](const Request& m) { return m.id == r.id; });
        REQUIRE(it != model.end());
        CHECK(it->op == r.op);
        model.erase(it);
      }
      REQUIRE(queue->size() == model.size());
      ++decisions;
      now += Time{static_cast<std::int64_t>(rng() % 2'000'000)};
      if (rng() % 2 == 0) add(now);
      if (rng() % 5 == 0 && !model.empty()) {
        const std::size_t i = rng() % model.size();
        REQUIRE(queue->remove(model[i].id));
        model.erase(model.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    CHECK(queue->size() == 0);
  }
  return decisions;
}

TEST_CASE("mems: P-SPTF picks the position with the largest N(x,y)/positioning time (brute force)", "[mems][policy]") {
  CHECK(check_against_brute_force("psptf", false) > 5000);
}

TEST_CASE("mems: PA-SPTF picks the position with the largest summed wait/positioning time (brute force)",
          "[mems][policy]") {
  CHECK(check_against_brute_force("pasptf", true) > 5000);
}

// --- batches ------------------------------------------------------------------------------------

TEST_CASE("mems: A batch gathers every request at the chosen (x,y) in distinct regions, oldest first, up to the limit",
          "[mems][policy]") {
  Geometry g;
  g.x_positions = 10;
  g.y_positions = 10;
  g.max_regions_per_access = 3;
  SptfQueue q(g);
  q.enqueue(req(10, 3, 4, 0, Time{5}));
  q.enqueue(req(11, 3, 4, 1, Time{2}));
  q.enqueue(req(12, 3, 4, 1, Time{1}));
  q.enqueue(req(13, 3, 4, 2, Time{3}));
  q.enqueue(req(14, 3, 4, 7, Time{4}));
  q.enqueue(req(15, 3, 5, 0, Time{0}));
  // (3, 4) is under the tips (0 ps); every other position is 1 us away.
  const Positioning pos = [](std::uint32_t x, std::uint32_t y) { return x == 3 && y == 4 ? Time{0} : us(1); };
  CHECK(q.count_at(3, 4) == 5);
  Batch b = q.choose(Time{10}, pos, SledPosition{3, 4});
  CHECK(b.x == 3);
  CHECK(b.y == 4);
  CHECK(b.positioning == Time{0});
  // 12 (region 1, oldest), 11 skipped (region 1 taken), 13 (region 2), 14 (region 7): limit 3.
  CHECK(ids(b) == std::vector<std::uint64_t>{12, 13, 14});
  CHECK(q.count_at(3, 4) == 2);
  CHECK(q.size() == 3);
  b = q.choose(Time{10}, pos, SledPosition{3, 4});
  CHECK(ids(b) == std::vector<std::uint64_t>{11, 10});
  b = q.choose(Time{10}, pos, SledPosition{3, 4});
  CHECK(ids(b) == std::vector<std::uint64_t>{15});
  CHECK(b.positioning == us(1));
  CHECK(q.choose(Time{10}, pos, SledPosition{}).empty());
}

TEST_CASE("mems: With one region per access every policy serves one request per decision", "[mems][policy]") {
  Geometry g;
  g.x_positions = 10;
  g.y_positions = 10;
  g.max_regions_per_access = 1;
  g.zones_x = 5;
  g.zones_y = 2;
  for (const std::string& key : queue_keys()) {
    INFO(key);
    auto q = make_queue(key, g);
    for (std::uint64_t i = 0; i < 4; ++i)
      q->enqueue(req(i, 2, 2, static_cast<std::uint32_t>(i), Time{static_cast<std::int64_t>(10 - i)}));
    for (std::uint64_t expect : {3, 2, 1, 0}) {
      const Batch b = q->choose(us(1), manhattan(0, 0), SledPosition{});
      CHECK(ids(b) == std::vector<std::uint64_t>{expect});
    }
  }
}

// --- FCFS, SSTF, SPTF ---------------------------------------------------------------------------

TEST_CASE("mems: FCFS: the oldest request decides the position, its batch comes with it", "[mems][policy]") {
  Geometry g;
  g.x_positions = 10;
  g.y_positions = 10;
  g.max_regions_per_access = 4;
  FcfsQueue q(g);
  q.enqueue(req(1, 5, 5, 0, Time{1}));
  q.enqueue(req(2, 2, 2, 0, Time{2}));
  q.enqueue(req(3, 5, 5, 1, Time{3}));
  q.enqueue(req(4, 2, 2, 0, Time{4}));  // same region as 2: a second access
  const Positioning pos = manhattan(9, 9);
  CHECK(ids(q.choose(us(1), pos, {})) == std::vector<std::uint64_t>{1, 3});
  CHECK(ids(q.choose(us(1), pos, {})) == std::vector<std::uint64_t>{2});
  CHECK(q.remove(4));
  CHECK_FALSE(q.remove(4));
  CHECK(q.choose(us(1), pos, {}).empty());
}

TEST_CASE("mems: SSTF: smallest X distance, then Y distance, then smaller x, then smaller y", "[mems][policy]") {
  Geometry g;
  g.x_positions = 50;
  g.y_positions = 40;
  g.max_regions_per_access = 4;
  SstfQueue q(g);
  q.enqueue(req(1, 12, 0, 0));
  q.enqueue(req(2, 8, 9, 0));
  q.enqueue(req(3, 10, 30, 0));
  q.enqueue(req(4, 12, 11, 0));
  q.enqueue(req(5, 12, 9, 0));
  std::vector<std::uint64_t> order;
  for (int i = 0; i < 5; ++i) order.push_back(q.choose(us(1), manhattan(0, 0), SledPosition{10, 10}).requests.at(0).id);
  // dx 0 first; then dx 2 dy 1 for (8,9), (12,9), (12,11) by x then y; then (12,0) with dy 10.
  CHECK(order == std::vector<std::uint64_t>{3, 2, 5, 4, 1});
}

TEST_CASE("mems: SPTF: shortest positioning time, ties to smaller x then smaller y", "[mems][policy]") {
  Geometry g;
  g.x_positions = 50;
  g.y_positions = 40;
  g.max_regions_per_access = 4;
  SptfQueue q(g);
  q.enqueue(req(1, 20, 0, 0));   // 10 us from (10, 0)
  q.enqueue(req(2, 0, 0, 0));    // 10 us
  q.enqueue(req(3, 10, 10, 0));  // 10 us
  q.enqueue(req(4, 13, 1, 0));   // 4 us
  q.enqueue(req(5, 13, 1, 1));   // same position
  std::vector<std::vector<std::uint64_t>> order;
  for (int i = 0; i < 4; ++i) order.push_back(ids(q.choose(us(1), manhattan(10, 0), {})));
  CHECK(order == std::vector<std::vector<std::uint64_t>>{{4, 5}, {2}, {3}, {1}});
}

// --- tie-breaking -------------------------------------------------------------------------------

TEST_CASE("mems: P-SPTF ties: equal priority to the shorter positioning time, then smaller x, then smaller y",
          "[mems][policy]") {
  Geometry g;
  g.x_positions = 10;
  g.y_positions = 10;
  g.max_regions_per_access = 4;
  PSptfQueue q(g);
  q.enqueue(req(1, 5, 5, 0));  // N 2, 2 us: priority 1 per us
  q.enqueue(req(2, 5, 5, 1));
  q.enqueue(req(3, 7, 1, 0));  // N 1, 1 us: priority 1 per us, shorter
  q.enqueue(req(4, 3, 9, 0));  // N 1, 3 us each: equal priority and time
  q.enqueue(req(5, 3, 2, 0));
  q.enqueue(req(6, 4, 0, 0));
  const Positioning pos = [](std::uint32_t x, std::uint32_t y) {
    if (x == 5 && y == 5) return us(2);
    if (x == 7 && y == 1) return us(1);
    return us(3);
  };
  std::vector<std::vector<std::uint64_t>> order;
  for (int i = 0; i < 5; ++i) order.push_back(ids(q.choose(us(1), pos, {})));
  CHECK(order == std::vector<std::vector<std::uint64_t>>{{3}, {1, 2}, {5}, {4}, {6}});
}

TEST_CASE("mems: PA-SPTF: zero waiting everywhere reduces to SPTF; waiting outweighs distance", "[mems][policy]") {
  Geometry g;
  g.x_positions = 10;
  g.y_positions = 10;
  g.max_regions_per_access = 4;
  PaSptfQueue q(g);
  const Time now = us(100);
  q.enqueue(req(1, 9, 9, 0, now));  // 18 us
  q.enqueue(req(2, 1, 0, 0, now));  // 1 us
  q.enqueue(req(3, 0, 2, 0, now));  // 2 us
  CHECK(ids(q.choose(now, manhattan(0, 0), {})) == std::vector<std::uint64_t>{2});
  // At now + 36 us: (9, 9) has waited 36 us over 18 us = 2; (0, 2) 36 us over 2 us = 18.
  CHECK(ids(q.choose(now + us(36), manhattan(0, 0), {})) == std::vector<std::uint64_t>{3});
  // Old request far away against a fresh one near: 40 us / 18 us > 1 us / 1 us.
  q.enqueue(req(4, 1, 0, 0, now + us(39)));
  CHECK((q.waiting_sum_at(9, 9, now + us(40)) == Int128{40'000'000}));
  CHECK(ids(q.choose(now + us(40), manhattan(0, 0), {})) == std::vector<std::uint64_t>{1});
  CHECK(ids(q.choose(now + us(40), manhattan(0, 0), {})) == std::vector<std::uint64_t>{4});
}

// --- zones --------------------------------------------------------------------------------------

/// 100 x 30 positions, 25 x 3 zones: zone = (x / 4) * 3 + y / 10.
Geometry zone_geometry() {
  Geometry g;
  g.x_positions = 100;
  g.y_positions = 30;
  g.max_regions_per_access = 4;
  return g;
}

TEST_CASE("mems: Zones: 25 x 3 per region by default, X-major indices", "[mems][policy]") {
  ZsptfQueue q(zone_geometry());
  CHECK(q.zone_of(0, 0) == 0);
  CHECK(q.zone_of(3, 9) == 0);
  CHECK(q.zone_of(3, 10) == 1);
  CHECK(q.zone_of(4, 0) == 3);
  CHECK(q.zone_of(99, 29) == 74);
  CHECK(q.zone_of(50, 5) == 36);
}

TEST_CASE("mems: ZSPTF: zones in C-SCAN order from the sled's zone, SPTF inside, wrapping to the lowest",
          "[mems][policy]") {
  ZsptfQueue q(zone_geometry());
  q.enqueue(req(1, 50, 5, 0));   // zone 36
  q.enqueue(req(2, 10, 25, 0));  // zone 8, 75 us
  q.enqueue(req(3, 11, 0, 0));   // zone 6
  q.enqueue(req(4, 90, 15, 0));  // zone 67
  q.enqueue(req(5, 9, 29, 0));   // zone 8, 80 us
  q.enqueue(req(6, 1, 1, 0));    // zone 0
  // Positioning measured from x = 60 so that SPTF alone would go 1, 4, ...
  const Positioning pos = manhattan(60, 0);
  std::vector<std::uint64_t> order;
  auto next = [&] {
    const Batch b = q.choose(us(1), pos, SledPosition{0, 0});
    REQUIRE(b.requests.size() == 1);
    order.push_back(b.requests[0].id);
  };
  for (int i = 0; i < 5; ++i) next();
  CHECK(q.current_zone() == 36u);
  q.enqueue(req(7, 0, 12, 0));  // zone 1: behind the sweep, waits for the wrap
  q.enqueue(req(8, 51, 6, 0));  // zone 36, now empty but still current: served in this visit
  for (int i = 0; i < 3; ++i) next();
  CHECK(order == std::vector<std::uint64_t>{6, 3, 2, 5, 1, 8, 4, 7});
  CHECK(q.size() == 0);
}

TEST_CASE("mems: ZSCAN-PSPTF: zones in SCAN order reversing at the ends, P-SPTF inside", "[mems][policy]") {
  ZscanPsptfQueue q(zone_geometry());
  q.enqueue(req(1, 52, 0, 0));   // zone 39, N(52,0) = 2
  q.enqueue(req(2, 52, 0, 1));   // zone 39
  q.enqueue(req(3, 53, 9, 0));   // zone 39
  q.enqueue(req(4, 20, 0, 0));   // zone 15
  q.enqueue(req(5, 90, 15, 0));  // zone 67
  q.enqueue(req(6, 30, 20, 0));  // zone 23
  const Positioning pos = manhattan(50, 0, 1);
  std::vector<std::vector<std::uint64_t>> order;
  auto next = [&] { order.push_back(ids(q.choose(us(1), pos, SledPosition{50, 5}))); };
  for (int i = 0; i < 3; ++i) next();  // sled zone 36 empty: up to 39, then 67
  CHECK(q.direction() == 1);
  q.enqueue(req(7, 95, 29, 0));  // zone 71: still ahead of the upward sweep
  q.enqueue(req(8, 60, 3, 0));   // zone 45: behind it, served on the way down
  for (int i = 0; i < 4; ++i) next();
  CHECK(q.direction() == -1);
  q.enqueue(req(9, 99, 29, 0));  // zone 74: after the reversal at the bottom
  q.enqueue(req(10, 0, 0, 0));   // zone 0: still ahead of the downward sweep
  for (int i = 0; i < 2; ++i) next();
  // Inside zone 39: (52,0) 2 / 3 us before (53,9) 1 / 13 us.
  CHECK(order == std::vector<std::vector<std::uint64_t>>{{1, 2}, {3}, {5}, {7}, {8}, {6}, {4}, {10}, {9}});
  CHECK(q.direction() == 1);
  CHECK(q.size() == 0);
}

TEST_CASE("mems: ZPSPTF: zones by N(zone)/shortest positioning into it, P-SPTF inside, a zone finished first",
          "[mems][policy]") {
  ZpsptfQueue q(zone_geometry());
  q.enqueue(req(1, 1, 0, 0));   // zone 0: 1 / 2 us
  q.enqueue(req(2, 40, 0, 0));  // zone 30: 4 requests, nearest 41 us
  q.enqueue(req(3, 40, 0, 1));
  q.enqueue(req(4, 40, 0, 2));
  q.enqueue(req(5, 41, 5, 0));  // zone 30, alone at 47 us
  q.enqueue(req(6, 80, 0, 0));  // zone 60: 3 / 81 us (P-SPTF over positions would take it before 5)
  q.enqueue(req(7, 80, 0, 1));
  q.enqueue(req(8, 80, 0, 2));
  const Positioning pos = manhattan(0, 0, 1);
  std::vector<std::vector<std::uint64_t>> order;
  // The sled starts in zone 60: ZPSPTF does not start from the sled's zone.
  for (int i = 0; i < 4; ++i) order.push_back(ids(q.choose(us(1), pos, SledPosition{80, 0})));
  CHECK(order == std::vector<std::vector<std::uint64_t>>{{1}, {2, 3, 4}, {5}, {6, 7, 8}});
}

// --- incremental bookkeeping ---------------------------------------------------------------------

TEST_CASE("mems: Incremental counts and arrival sums equal recounts after random enqueue/remove", "[mems][policy]") {
  Geometry g;
  g.x_positions = 16;
  g.y_positions = 4;
  g.max_regions_per_access = 3;
  g.zones_x = 4;  // 4 x 2 zones of 4 x 2 positions
  g.zones_y = 2;
  for (const std::string& key : queue_keys()) {
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
      INFO(key << " seed " << seed);
      std::mt19937_64 rng(seed);
      auto q = make_queue(key, g);
      std::vector<Request> model;
      std::uint64_t next_id = 0;
      Time now{0};
      for (int step = 0; step < 3000; ++step) {
        now += Time{static_cast<std::int64_t>(rng() % 1000)};
        const auto action = rng() % 10;
        if (action < 5 || model.empty()) {
          const Request r =
              req(next_id++, static_cast<std::uint32_t>(rng() % g.x_positions),
                  static_cast<std::uint32_t>(rng() % g.y_positions), static_cast<std::uint32_t>(rng() % 8), now);
          q->enqueue(r);
          model.push_back(r);
        } else if (action < 8) {
          const std::size_t i = rng() % model.size();
          REQUIRE(q->remove(model[i].id));
          model.erase(model.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
          const Batch b = q->choose(now, manhattan(8, 2), SledPosition{8, 2});
          for (const Request& r : b.requests)
            model.erase(std::find_if(model.begin(), model.end(), [&](const Request& m) { return m.id == r.id; }));
        }
        REQUIRE(q->size() == model.size());
        if (step % 50 != 0) continue;
        for (std::uint32_t x = 0; x < g.x_positions; ++x)
          for (std::uint32_t y = 0; y < g.y_positions; ++y) {
            std::size_t n = 0;
            Int128 sum = 0;
            Int128 wait = 0;
            for (const Request& r : model)
              if (r.x == x && r.y == y) {
                ++n;
                sum += r.arrival.count();
                wait += (now - r.arrival).count();
              }
            REQUIRE(q->count_at(x, y) == n);
            REQUIRE((q->arrival_sum_at(x, y) == sum));
            REQUIRE((q->waiting_sum_at(x, y, now) == wait));
          }
      }
    }
  }
}

// --- errors ---------------------------------------------------------------------------------------

TEST_CASE("mems: MEMS queues reject bad input with the offending value named", "[mems][policy]") {
  using Catch::Matchers::ContainsSubstring;
  Geometry g;
  g.x_positions = 10;
  g.y_positions = 10;
  g.max_regions_per_access = 2;
  PSptfQueue q(g);
  q.enqueue(req(1, 1, 1, 0, us(5)));
  CHECK_THROWS_WITH(q.enqueue(req(1, 2, 2, 0)), ContainsSubstring("request id 1 is already queued"));
  CHECK_THROWS_WITH(q.enqueue(req(2, 10, 0, 0)), ContainsSubstring("(x 10, y 0) is outside the grid of 10 x 10"));
  CHECK_THROWS_WITH(q.choose(us(4), manhattan(0, 0), {}), ContainsSubstring("precedes the arrival"));
  CHECK_THROWS_WITH(q.choose(us(5), [](std::uint32_t, std::uint32_t) { return Time{-1}; }, {}),
                    ContainsSubstring("returned -1 ps; expected a time in [0, 1 h]"));
  CHECK_THROWS_WITH(make_queue("elevator", g), ContainsSubstring("unknown policy 'elevator'"));
  Geometry bad = g;
  bad.zones_x = 11;
  CHECK_THROWS_WITH(make_queue("zsptf", bad), ContainsSubstring("zones_x must be in [1, x_positions = 10], got 11"));
  CHECK_NOTHROW(make_queue("psptf", bad));  // zones unused without zones
  bad = g;
  bad.max_regions_per_access = 0;
  CHECK_THROWS_WITH(make_queue("sptf", bad), ContainsSubstring("max_regions_per_access must be >= 1"));
  for (const std::string& key : queue_keys()) CHECK(make_queue(key, zone_geometry())->size() == 0);
  CHECK(make_queue("zscan_psptf", zone_geometry())->name() == "ZSCAN-PSPTF");
}

}  // namespace
}  // namespace drivevp::mems_sched
