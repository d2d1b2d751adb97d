// SaturationDetector (testbench/metrics/saturation.h) on hand-made request records.
#include <catch2/catch_test_macros.hpp>

#include "testbench/metrics/saturation.h"

namespace drivevp {
namespace {

constexpr Time ms(std::int64_t n) { return Time{n * 1'000'000'000}; }

RequestRecord record(Time arrival, Time dispatch, Time completion) {
  RequestRecord r;
  r.command.arrival = arrival;
  r.dispatch = dispatch;
  r.completion = completion;
  return r;
}

/// A single server with constant service time `service`, FCFS, arrivals every `gap` from 0.
SaturationDetector fcfs_queue(int n, Time gap, Time service) {
  SaturationDetector d;
  Time free_at{0};
  for (int i = 0; i < n; ++i) {
    const Time arrival = gap * i;
    const Time start = std::max(arrival, free_at);
    free_at = start + service;
    d.add(record(arrival, start, free_at));
  }
  return d;
}

TEST_CASE("unit: An overloaded queue is saturated, with the exact drain and utilization", "[unit][saturation]") {
  // 100 arrivals 10 ms apart, 11 ms of service each (10 % overload): the server works from 0 to
  // 1100 ms, the last arrival is at 990 ms.
  const SaturationReport s = fcfs_queue(100, ms(10), ms(11)).report(false);
  CHECK(s.assessed);
  CHECK(s.saturated);
  CHECK(*s.utilization == 1.0);
  CHECK(*s.arrival_window == ms(990));
  CHECK(*s.drain == ms(110));
  CHECK(*s.drain_fraction == 110.0 / 990.0);
  CHECK(s.note.empty());
  const nlohmann::json j = s.to_json();
  CHECK(j["saturated"] == true);
  CHECK(j["drain_ms"].get<double>() == to_ms(ms(110)));  // to_ms: the ps count times 1e-9
  CHECK(j["arrival_window_ms"].get<double>() == to_ms(ms(990)));
  CHECK(!j.contains("note"));
  CHECK(s.warning(true).rfind("the drive is saturated: utilization 1.000, and 0.1 s of queued work remained", 0) == 0);
  CHECK(s.warning(true).find("workload.time_scale below 1") != std::string::npos);
  CHECK(s.warning(false).find("lower workload.rate_per_s") != std::string::npos);
}

TEST_CASE("unit: A stable queue is not saturated", "[unit][saturation]") {
  // 9 ms of service every 10 ms: utilization 0.9, the queue never grows.
  const SaturationReport s = fcfs_queue(100, ms(10), ms(9)).report(false);
  CHECK(s.assessed);
  CHECK(!s.saturated);
  CHECK(*s.utilization == 900.0 / 999.0);
  CHECK(*s.drain == ms(9));
  CHECK(s.warning(true).empty());
}

TEST_CASE("unit: Saturation needs both thresholds, each inclusive", "[unit][saturation]") {
  // Busy all the time but the backlog at the last arrival is exactly a tenth of the window.
  SaturationDetector d;
  d.add(record(ms(0), ms(0), ms(50)));
  d.add(record(ms(100), ms(50), ms(110)));  // served back to back: busy 0..110 ms
  SaturationReport s = d.report(false);
  CHECK(*s.utilization == 1.0);
  CHECK(*s.drain_fraction == 0.1);
  CHECK(s.saturated);
  s = d.report(false, {1.0, 0.1000001});
  CHECK(!s.saturated);
  // A long drain at low utilization: a burst at the end of an idle run is not saturation.
  SaturationDetector burst;
  burst.add(record(ms(0), ms(0), ms(1)));
  burst.add(record(ms(1000), ms(1000), ms(1500)));
  s = burst.report(false);
  CHECK(*s.drain_fraction == 0.5);
  CHECK(!s.saturated);
}

TEST_CASE("unit: Closed loops, single requests and simultaneous arrivals are not assessed", "[unit][saturation]") {
  const SaturationReport closed = fcfs_queue(100, ms(10), ms(11)).report(true);
  CHECK(!closed.assessed);
  CHECK(!closed.saturated);
  CHECK(closed.note == "closed loop: a fixed number of requests is kept in flight, so the queue cannot grow");
  CHECK(closed.to_json()["note"] == closed.note);

  SaturationDetector one;
  CHECK(!one.report(false).assessed);
  CHECK(one.report(false).to_json()["utilization"].is_null());
  one.add(record(ms(0), ms(0), ms(5)));
  CHECK(one.report(false).note == "fewer than 2 measured requests");

  const SaturationReport batch = fcfs_queue(10, ms(0), ms(5)).report(false);
  CHECK(!batch.assessed);
  CHECK(batch.note == "every measured request arrived at the same time");
  CHECK(batch.to_json()["drain_fraction"].is_null());
}

}  // namespace
}  // namespace drivevp
