// Unit tests of the QoS metrics of paper 001 (testbench/metrics/qos_metrics.h) and the QoS rule
// (testbench/workload/qos.h): the fast counts against brute-force pair counts on random records.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <random>
#include <vector>

#include "testbench/metrics/qos_metrics.h"
#include "testbench/workload/qos.h"

namespace drivevp {
namespace {

constexpr Time kMs{1'000'000'000};

TEST_CASE("QoS metrics: queue irregularity and priority inversions equal brute-force pair counts", "[sfc][metrics]") {
  std::mt19937_64 rng(21);
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    const unsigned d = 3, levels = 8;
    const QosSpace space(sfc::CurveKind::Hilbert, d, levels);
    QosMetrics m(space);
    std::vector<RequestRecord> recs;
    Time t{0};
    for (std::uint64_t id = 0; id < 120; ++id) {
      RequestRecord r;
      r.command.id = id;
      t += kMs * static_cast<std::int64_t>(rng() % 5);  // equal arrivals occur
      r.command.arrival = t;
      for (unsigned k = 0; k < d; ++k) r.command.set_qos_level(k, static_cast<std::uint32_t>(rng() % levels));
      recs.push_back(r);
    }
    // Dispatch times: an arbitrary service order at times at or after each arrival, some equal to
    // a later request's arrival.
    std::vector<std::size_t> order(recs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    Time clock{0};
    for (std::size_t i : order) {
      clock = std::max(clock, recs[i].command.arrival) + kMs * static_cast<std::int64_t>(rng() % 3);
      recs[i].dispatch = clock;
    }
    for (const RequestRecord& r : recs) m.add(r);
    const nlohmann::json j = m.to_json();
    // Brute force over every pair: i dispatched before j (dispatch, then id), waiting together iff
    // the later arrival came at or before the earlier dispatch.
    std::vector<std::uint64_t> served(d, 0), fcfs(d, 0);
    std::uint64_t pairs = 0, inversions = 0;
    for (const RequestRecord& a : recs)
      for (const RequestRecord& b : recs) {
        const bool a_first = a.dispatch != b.dispatch ? a.dispatch < b.dispatch : a.command.id < b.command.id;
        if (!a_first || a.command.id == b.command.id) continue;
        if (b.command.arrival > a.dispatch) continue;  // b came after a was dispatched
        ++pairs;
        if (space.position(b.command) < space.position(a.command)) ++inversions;
        const RequestRecord& later = a.command.arrival != b.command.arrival
                                         ? (a.command.arrival > b.command.arrival ? a : b)
                                         : (a.command.id > b.command.id ? a : b);
        const RequestRecord& earlier = &later == &a ? b : a;
        for (unsigned k = 0; k < d; ++k) {
          if (b.command.qos_level(k) < a.command.qos_level(k)) ++served[k];
          if (later.command.qos_level(k) < earlier.command.qos_level(k)) ++fcfs[k];
        }
      }
    CHECK(j["waiting_pairs"] == pairs);
    CHECK(j["priority_inversions"] == inversions);
    CHECK(j["queue_irregularity"]["per_dimension"].get<std::vector<std::uint64_t>>() == served);
    CHECK(j["fcfs_queue_irregularity"]["per_dimension"].get<std::vector<std::uint64_t>>() == fcfs);
  }
}

TEST_CASE("QoS rule: D uniform levels per request, one byte each, seeded, validated", "[sfc][metrics]") {
  using Catch::Matchers::ContainsSubstring;
  QosRule rule;
  rule.dims = 12;
  rule.levels = 16;
  rule.seed = 3;
  QosAssigner a(rule), b(rule);
  std::vector<std::uint64_t> count(16, 0);
  for (int i = 0; i < 20000; ++i) {
    Command x, y;
    a.assign(x);
    b.assign(y);
    REQUIRE(x.qos == y.qos);
    for (unsigned k = 12; k < kMaxQosDims; ++k) REQUIRE(x.qos_level(k) == 0);  // beyond D: none
    for (unsigned k = 0; k < 12; ++k) ++count[x.qos_level(k)];
  }
  for (std::uint64_t c : count) CHECK((c > 14000 && c < 16000));  // 15,000 expected per level
  // The widest vector: 16 dimensions of 256 levels (128 bits), every level of every dimension
  // drawn (Command::qos holds 255 in every byte).
  rule.dims = 16;
  rule.levels = 256;
  QosAssigner wide(rule);
  std::vector<std::vector<std::uint64_t>> seen(16, std::vector<std::uint64_t>(256, 0));
  for (int i = 0; i < 40000; ++i) {
    Command x;
    wide.assign(x);
    for (unsigned k = 0; k < 16; ++k) ++seen[k][x.qos_level(k)];
  }
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned v = 0; v < 256; ++v) REQUIRE((seen[k][v] > 80 && seen[k][v] < 240));  // 156 expected
  rule.levels = 512;
  REQUIRE_THROWS_WITH(QosAssigner(rule), ContainsSubstring("levels = 512 is out of range; allowed: [2, 256]"));
  rule.levels = 256;
  rule.dims = 17;
  REQUIRE_THROWS_WITH(QosAssigner(rule), ContainsSubstring("dims = 17 is out of range; allowed: [0, 16]"));
}

}  // namespace
}  // namespace drivevp
