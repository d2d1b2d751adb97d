// Scheduling policies end to end: the service order seen in requests.csv (rows are written in
// completion order, which is dispatch order since the drive serves one request at a time).
//
// Seek-ordered policies (SCAN, LOOK, C-LOOK, SSTF): request 0 (cylinder 1000) arrives alone at
// time 0 and is served at once; requests 1..10 arrive together at 1 ms, while request 0 is still
// in its command overhead, so they are all queued when the next decision is made with the arm on
// cylinder 1000 (head 0). SPTF: 24 requests all queued at time 0, checked against a brute-force
// recomputation with the firmware's predictor built from the same parameter page.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "firmware/disk_predictor.h"
#include "hw_models/disk/disk_params.h"
#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

struct Req {
  std::uint32_t cylinder;
  std::uint32_t head;
};

/// Request i of the seek-ordered scenario. Two requests share cylinder 200 (ids 2 and 9) and one
/// shares request 0's cylinder 1000 (id 7, head 5).
const std::vector<Req>& seek_requests() {
  static const std::vector<Req> r = {{1000, 0}, {1500, 0}, {200, 3},  {1200, 0}, {50, 0}, {1900, 0},
                                     {800, 0},  {1000, 5}, {1300, 0}, {200, 0},  {10, 0}};
  return r;
}

/// Runs the seek-ordered scenario under `policy`; returns the CSV of the run.
Csv run_seek_scenario(const TempDir& dir, const std::string& policy) {
  std::string trace;
  const auto& reqs = seek_requests();
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    const std::uint64_t lbn = (std::uint64_t{reqs[i].cylinder} * 19 + reqs[i].head) * 72;
    trace += disksim_line(i == 0 ? 0.0 : 1.0, lbn, 1, true);
  }
  write_text(dir / "queue.trace", trace);
  const RunResult r = run_platform(dir, trace_scenario(dir / "queue.trace", policy));
  REQUIRE(r.checks_passed);
  Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == reqs.size());
  // Every request of the batch was queued before the first decision after request 0.
  for (std::size_t i = 1; i < csv.size(); ++i) REQUIRE(csv.ps(i, "dispatch_ms") > 1'000'000'000);
  return csv;
}

std::vector<std::uint64_t> ids_of(const Csv& csv) {
  std::vector<std::uint64_t> ids;
  for (std::size_t i = 0; i < csv.size(); ++i) ids.push_back(csv.u64(i, "id"));
  return ids;
}

std::vector<std::uint32_t> cylinders_of(const Csv& csv) {
  std::vector<std::uint32_t> c;
  for (std::size_t i = 0; i < csv.size(); ++i) c.push_back(static_cast<std::uint32_t>(csv.u64(i, "cylinder")));
  return c;
}

/// Number of direction changes of a cylinder sequence (equal neighbours do not count).
int direction_changes(const std::vector<std::uint32_t>& c) {
  int changes = 0, dir = 0;
  for (std::size_t i = 1; i < c.size(); ++i) {
    const int d = c[i] > c[i - 1] ? 1 : c[i] < c[i - 1] ? -1 : 0;
    if (d != 0 && dir != 0 && d != dir) ++changes;
    if (d != 0) dir = d;
  }
  return changes;
}

/// Rows' cylinders agree with the requests' cylinders (the CSV reports the first block's).
void check_cylinders(const Csv& csv) {
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const Req& q = seek_requests().at(csv.u64(i, "id"));
    CHECK(csv.u64(i, "cylinder") == q.cylinder);
    CHECK(csv.u64(i, "head") == q.head);
  }
}

TEST_CASE("sim: LOOK serves an upward sweep then reverses at the last request", "[sim][policy][look]") {
  TempDir dir("look");
  const Csv csv = run_seek_scenario(dir, "look");
  check_cylinders(csv);
  // Up from 1000: 1000 (id 7), 1200, 1300, 1500, 1900; then down: 800, 200 (id 2 before id 9), 50, 10.
  CHECK(ids_of(csv) == std::vector<std::uint64_t>{0, 7, 3, 8, 1, 5, 6, 2, 9, 4, 10});
  CHECK(direction_changes(cylinders_of(csv)) == 1);
  CHECK(csv.u64(6, "seek_distance") == 1900 - 800);  // reverses at 1900, no trip to the edge
}

TEST_CASE("sim: SCAN sweeps to the disk edge before reversing", "[sim][policy][scan]") {
  TempDir dir("scan");
  const Csv csv = run_seek_scenario(dir, "scan");
  check_cylinders(csv);
  CHECK(ids_of(csv) == std::vector<std::uint64_t>{0, 7, 3, 8, 1, 5, 6, 2, 9, 4, 10});
  CHECK(direction_changes(cylinders_of(csv)) == 1);
  // After 1900 the arm repositions to the last cylinder (1961) without a transfer, so the first
  // request of the downward sweep seeks from the edge.
  CHECK(csv.u64(6, "seek_distance") == 1961 - 800);
  // Its dispatch waits for the repositioning seek of 61 cylinders (3.24 + 0.4 sqrt(61) ms). Bus
  // accesses: the reposition command (one burst: TARGET_CYLINDER, TARGET_HEAD, COMMAND) follows the
  // completion entry write, 10 ns after the host's completion time; after the seek the firmware
  // acknowledges and reads CYLINDER (20 ns) before it dispatches again.
  const std::int64_t seek61 = std::llround((3.24 + 0.4 * std::sqrt(61.0)) * 1e9);
  CHECK(csv.ps(6, "dispatch_ms") - csv.ps(5, "completion_ms") == 10'000 + seek61 + 20'000);
}

TEST_CASE("sim: C-LOOK sweeps upward and wraps to the lowest pending cylinder", "[sim][policy][clook]") {
  TempDir dir("clook");
  const Csv csv = run_seek_scenario(dir, "clook");
  check_cylinders(csv);
  // Up from 1000: 1000, 1200, 1300, 1500, 1900; wrap to 10; up: 50, 200 (id 2, id 9), 800.
  CHECK(ids_of(csv) == std::vector<std::uint64_t>{0, 7, 3, 8, 1, 5, 10, 4, 2, 9, 6});
  CHECK(csv.u64(6, "seek_distance") == 1900 - 10);
  const auto c = cylinders_of(csv);
  CHECK(std::is_sorted(c.begin(), c.begin() + 6));
  CHECK(std::is_sorted(c.begin() + 6, c.end()));
}

TEST_CASE("sim: SSTF serves the nearest pending cylinder", "[sim][policy][sstf]") {
  TempDir dir("sstf");
  const Csv csv = run_seek_scenario(dir, "sstf");
  check_cylinders(csv);
  // Reference: greedy nearest cylinder from the arm, ties (same distance or same cylinder) to the
  // earlier id. From 1000: 1000 (id 7); 1200 and 800 are both 200 away, id 3 < id 6 -> 1200; 1300;
  // 1500; 1900; 800; 200 (id 2, id 9); 50; 10.
  std::vector<std::uint64_t> pending = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<std::uint64_t> expected = {0};
  std::uint32_t arm = 1000;
  while (!pending.empty()) {
    auto best = pending.begin();
    for (auto it = pending.begin(); it != pending.end(); ++it) {
      const auto dist = [&](std::uint64_t id) {
        const std::uint32_t c = seek_requests()[id].cylinder;
        return c > arm ? c - arm : arm - c;
      };
      if (dist(*it) < dist(*best) || (dist(*it) == dist(*best) && *it < *best)) best = it;
    }
    expected.push_back(*best);
    arm = seek_requests()[*best].cylinder;
    pending.erase(best);
  }
  CHECK(expected == std::vector<std::uint64_t>{0, 7, 3, 8, 1, 5, 6, 2, 9, 4, 10});
  CHECK(ids_of(csv) == expected);
}

TEST_CASE("sim: SPTF serves the request with the least predicted positioning time", "[sim][policy][sptf]") {
  TempDir dir("sptf");
  // 24 single-block reads at random LBNs, all arriving at time 0 (queue depth 64).
  const DiskParams disk = hp97560();
  const std::uint64_t capacity = disk.geometry().capacity_blocks();
  std::mt19937_64 rng(20240611);
  std::vector<std::uint64_t> lbns;
  std::string trace;
  for (int i = 0; i < 24; ++i) {
    lbns.push_back(rng() % capacity);
    trace += disksim_line(0.0, lbns.back(), 1, true);
  }
  write_text(dir / "sptf.trace", trace);
  const RunResult r = run_platform(dir, trace_scenario(dir / "sptf.trace", "sptf"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == lbns.size());

  // Brute force with the firmware's predictor from the same parameter page and the controller's
  // command path (10 ns per bus access: the seek burst before the seek, the IRQ_ACK and channel
  // bursts after it); the spindle is at phase 0 at time 0. At each decision the arm is where the
  // previous request's (only) block is, and the decision is for after the command overhead: at
  // dispatch + 2.2 ms.
  DiskPredictor predictor(disk.parameter_page(), Time{0});
  predictor.set_command_path(CommandPath{Time{10'000}, Time{40'000}, Time{20'000}});
  std::vector<std::uint64_t> pending(lbns.size());
  for (std::size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  HeadPosition head{0, 0};
  for (std::size_t row = 0; row < csv.size(); ++row) {
    INFO("row " << row);
    REQUIRE_FALSE(csv.at(row, "predicted_positioning_ms").empty());
    const Time start = Time{csv.ps(row, "dispatch_ms")} + predictor.command_overhead();
    std::uint64_t best = pending.front();
    Time best_time = Time::max();
    for (std::uint64_t id : pending) {
      const Time t = predictor.predict(head, start, lbns[id], Op::Read).positioning();
      if (t < best_time || (t == best_time && id < best)) {
        best = id;
        best_time = t;
      }
    }
    CHECK(csv.u64(row, "id") == best);
    CHECK(csv.ps(row, "predicted_positioning_ms") == best_time.count());
    // The prediction is the minimum over the queue at that moment.
    for (std::uint64_t id : pending)
      CHECK(csv.ps(row, "predicted_positioning_ms") <=
            predictor.predict(head, start, lbns[id], Op::Read).positioning().count());
    // ... and exactly what the drive then took: seek + rotational latency.
    CHECK(csv.ps(row, "predicted_positioning_ms") == csv.ps(row, "seek_ms") + csv.ps(row, "rotational_latency_ms"));
    const std::uint64_t served = csv.u64(row, "id");
    pending.erase(std::find(pending.begin(), pending.end(), served));
    const PhysicalAddress a = disk.geometry().locate(lbns[served]);
    head = {a.cylinder, a.head};
  }
}

}  // namespace
}  // namespace drivevp
