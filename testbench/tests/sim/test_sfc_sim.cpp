// The SFC scheduler of paper 001 through the whole platform (issue 11): the host draws each
// request's QoS vector, the sfc policy serves by curve position, summary.json's "sfc" root holds
// the irregularity of the actual service order (checked against a recount from requests.csv's
// sfc_position column), FCFS's order has ratio 1, bad QoS keys are refused before the run, and a
// run is byte-for-byte repeatable.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "firmware/sfc/curves.h"
#include "firmware/sfc/irregularity.h"
#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;
using Catch::Matchers::ContainsSubstring;

/// 001 §5.1: four QoS parameters, exponential inter-arrivals with mean 25 ms (40 per second).
const char* kQosWorkload = "rate_per_s = 40\nqos_dims = 4\nqos_levels = 16\n";

sfc::Key key_of(const std::string& text) {
  sfc::Key k = 0;
  for (char c : text) k = k * 10 + static_cast<unsigned>(c - '0');
  return k;
}

/// The per-dimension irregularity of requests.csv's rows in dispatch order, each point decoded
/// from its sfc_position on `curve`.
std::vector<std::uint64_t> recount(const Csv& csv, const sfc::Curve& curve) {
  std::vector<std::size_t> rows(csv.size());
  std::iota(rows.begin(), rows.end(), 0);
  std::sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
    const auto da = csv.ps(a, "dispatch_ms"), db = csv.ps(b, "dispatch_ms");
    return da != db ? da < db : csv.u64(a, "id") < csv.u64(b, "id");
  });
  std::vector<std::uint32_t> points;
  for (std::size_t r : rows)
    for (std::uint32_t u : curve.decode_checked(key_of(csv.at(r, "sfc_position")))) points.push_back(u);
  return sfc::irregularity_per_dimension(points, curve.dims());
}

}  // namespace

TEST_CASE("sim: sfc serves by curve position and reports the irregularity of its service order", "[sim][sfc]") {
  TempDir dir("sfc-run");
  const RunResult r = run_platform(dir, synthetic_scenario("sfc", kQosWorkload, "requests = 400\n"),
                                   {"firmware.curve=\"diagonal\"", "firmware.window=0.25"});
  REQUIRE(r.checks_passed);
  const nlohmann::json& s = r.summary["sfc"];
  CHECK(s["curve"] == "diagonal");
  CHECK(s["dims"] == 4);
  CHECK(s["levels"] == 16);
  CHECK(s["requests"] == 400);
  CHECK(r.summary["scenario"]["qos_rule"] == "4 dimensions x 16 levels, uniform");
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 400);
  const sfc::Curve curve(sfc::CurveKind::Diagonal, 4, 16);
  const std::vector<std::uint64_t> per_dim = recount(csv, curve);
  CHECK(s["irregularity"]["per_dimension"].get<std::vector<std::uint64_t>>() == per_dim);
  // The scheduler reorders: its mean irregularity differs from FCFS's on the same arrivals.
  // Over the pairs that waited together, the scheduler's order is far more regular than FCFS's.
  CHECK(s["waiting_pairs"].get<std::uint64_t>() > 1000);
  const double ratio = s["queue_irregularity_ratio"].get<double>();
  CHECK(ratio > 0);
  CHECK(ratio < 0.9);
  CHECK(s["ratio"]["per_dimension"].size() == 4);
  CHECK(s["waiting_stddev_ms"].get<double>() > 0);
  CHECK(s["deadline_losses"] == 0);
}

TEST_CASE("sim: FCFS's own service order has an irregularity ratio of 1", "[sim][sfc]") {
  TempDir dir("sfc-fcfs");
  const RunResult r = run_platform(dir, synthetic_scenario("fcfs", kQosWorkload, "requests = 200\n"));
  REQUIRE(r.checks_passed);
  const nlohmann::json& s = r.summary["sfc"];
  CHECK(s["curve"] == "sweep");
  CHECK(s["irregularity_ratio"] == 1.0);
  CHECK(s["irregularity"] == s["fcfs_irregularity"]);
  CHECK(s["queue_irregularity_ratio"] == 1.0);
  CHECK(s["queue_irregularity"] == s["fcfs_queue_irregularity"]);
  CHECK(s["ratio"]["stddev"] == 0.0);
  const Csv csv(dir / "out" / "requests.csv");
  CHECK(s["irregularity"]["per_dimension"].get<std::vector<std::uint64_t>>() ==
        recount(csv, sfc::Curve(sfc::CurveKind::Sweep, 4, 16)));
}

TEST_CASE("sim: a run without QoS vectors has no sfc outputs", "[sim][sfc]") {
  TempDir dir("sfc-none");
  const RunResult r = run_platform(dir, synthetic_scenario("fcfs", "", "requests = 20\n"));
  CHECK_FALSE(r.summary.contains("sfc"));
  CHECK(read_text(dir / "out" / "requests.csv").rfind(RunMonitor::csv_header(), 0) == 0);
}

TEST_CASE("sim: bad QoS and sfc keys are refused before the run, naming the key, the allowed and the found",
          "[sim][sfc][config]") {
  TempDir dir("sfc-errors");
  const fs::path scenario = dir / "s.toml";
  auto error_of = [&](const std::string& policy, const std::string& workload,
                      const std::vector<std::string>& firmware = {}) {
    write_text(scenario, synthetic_scenario(policy, workload, "requests = 10\n"));
    try {
      load_scenario(scenario.string(), firmware);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of("fcfs", "qos_dims = 17\n"),
             ContainsSubstring("workload.qos_dims: expected an integer in [0, 16], found 17"));
  CHECK_THAT(error_of("fcfs", "qos_dims = 2\nqos_levels = 1\n"),
             ContainsSubstring("workload.qos_levels: expected an integer in [2, 256], found 1"));
  CHECK_THAT(error_of("fcfs", "qos_dims = 2\nqos_levels = 512\n"),
             ContainsSubstring("workload.qos_levels: expected an integer in [2, 256], found 512"));
  // The widest vector, 16 dimensions of 256 levels (128 bits), is accepted with every curve.
  for (const char* curve : {"sweep", "cscan", "peano", "hilbert", "gray", "spiral", "diagonal"})
    CHECK(error_of("sfc", "qos_dims = 16\nqos_levels = 256\n", {std::string("firmware.curve=\"") + curve + "\""})
              .empty());
  CHECK_THAT(error_of("sfc", "qos_dims = 16\nqos_levels = 256\n", {"firmware.qos_dims=17"}),
             ContainsSubstring("firmware.qos_dims: expected an integer in [0, 16], found 17"));
  CHECK_THAT(error_of("sfc", ""), ContainsSubstring("policy 'sfc': expected 1 to 16 dimensions"));
  CHECK_THAT(error_of("sfc", "qos_dims = 2\n", {"firmware.qos_dims=3"}),
             ContainsSubstring("firmware.qos_dims: expected at most workload.qos_dims (2), found 3"));
  CHECK_THAT(error_of("sfc", "qos_dims = 2\n", {"firmware.levels=8"}),
             ContainsSubstring("firmware.levels: expected workload.qos_levels (16)"));
  CHECK_THAT(error_of("sfc", "qos_dims = 2\n", {"firmware.curve=\"zorder\""}),
             ContainsSubstring("firmware.curve: expected one of sweep, cscan, peano, hilbert, gray, spiral, diagonal, "
                               "found 'zorder'"));
  CHECK_THAT(error_of("sfc", "qos_dims = 2\n", {"firmware.window=1.5"}),
             ContainsSubstring("firmware.window: expected a number in [0, 1], found 1.5"));
  CHECK_THAT(error_of("sfc", "qos_dims = 2\nqos_levels = 12\n"), ContainsSubstring("not a power of two"));
  CHECK(error_of("sfc", "qos_dims = 2\nqos_levels = 12\n", {"firmware.curve=\"diagonal\""}).empty());
  CHECK(error_of("sfc", "", {"firmware.cylinder_dim=true"}).empty());
}

TEST_CASE("sim: 16 QoS dimensions of 256 levels cross the bus whole; a queue is served in sorted 128-bit key order",
          "[sim][sfc]") {
  // A burst: 80 requests within about 0.8 ms while the first one is served (tens of ms), so the
  // rest wait together; fully preemptive, so each decision takes the lowest curve position.
  TempDir dir("sfc-wide");
  const RunResult r = run_platform(
      dir, synthetic_scenario("sfc", "rate_per_s = 100000\nqos_dims = 16\nqos_levels = 256\n", "requests = 80\n"),
      {"firmware.curve=\"hilbert\"", "firmware.preemption=\"full\"", "firmware.queue_depth=128"});
  REQUIRE(r.checks_passed);
  CHECK(r.summary["sfc"]["dims"] == 16);
  CHECK(r.summary["sfc"]["levels"] == 256);
  CHECK(r.summary["scenario"]["qos_rule"] == "16 dimensions x 256 levels, uniform");
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 80);
  const sfc::Curve curve(sfc::CurveKind::Hilbert, 16, 256);
  struct Row {
    sfc::Key key;
    std::uint32_t major;
    std::uint64_t id;
    std::int64_t arrival, dispatch;
  };
  std::vector<Row> rows;
  bool above_64 = false;
  std::vector<std::uint64_t> level_sum(16, 0);
  for (std::size_t i = 0; i < csv.size(); ++i) {
    // The qos column holds the 16 levels the host drew; the position is the curve's encoding of
    // exactly those levels, so the whole 128-bit vector reached the firmware and the monitor.
    std::vector<std::uint32_t> point;
    std::istringstream levels(csv.at(i, "qos"));
    for (std::string v; std::getline(levels, v, ':');) point.push_back(static_cast<std::uint32_t>(std::stoul(v)));
    REQUIRE(point.size() == 16);
    for (unsigned k = 0; k < 16; ++k) {
      REQUIRE(point[k] < 256);
      level_sum[k] += point[k];
    }
    const sfc::Key key = key_of(csv.at(i, "sfc_position"));
    REQUIRE(key == curve.encode_checked(point));
    above_64 = above_64 || key > ~std::uint64_t{0};
    rows.push_back({key, point[15], csv.u64(i, "id"), csv.ps(i, "arrival_ms"), csv.ps(i, "dispatch_ms")});
  }
  CHECK(above_64);
  for (unsigned k = 0; k < 16; ++k) CHECK((level_sum[k] > 80 * 60 && level_sum[k] < 80 * 195));  // mean 127.5
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.dispatch != b.dispatch ? a.dispatch < b.dispatch : a.id < b.id;
  });
  std::int64_t last_arrival = 0;
  for (const Row& x : rows) last_arrival = std::max(last_arrival, x.arrival);
  // Every request dispatched after the last arrival was chosen from the same, full queue: their
  // service order is a brute-force sort of their keys (ties: the major level, then the id).
  std::vector<Row> after;
  for (const Row& x : rows)
    if (x.dispatch > last_arrival) after.push_back(x);
  REQUIRE(after.size() >= 75);
  std::vector<Row> sorted = after;
  std::sort(sorted.begin(), sorted.end(), [](const Row& a, const Row& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.major != b.major) return a.major < b.major;
    return a.id < b.id;
  });
  std::vector<std::uint64_t> served, want;
  for (const Row& x : after) served.push_back(x.id);
  for (const Row& x : sorted) want.push_back(x.id);
  CHECK(served == want);
}

TEST_CASE("sim: an sfc run gives the same requests.csv bytes every run", "[sim][sfc][determinism]") {
  TempDir dir("sfc-determinism");
  write_text(dir / "s.toml", synthetic_scenario("sfc", kQosWorkload, "requests = 500\nseed = 9\n"));
  std::string first;
  for (int i = 0; i < 2; ++i) {
    const fs::path out = dir / ("out" + std::to_string(i));
    const CommandResult c = run_drivevp(
        dir.path(), {"run", (dir / "s.toml").string(), "--out", out.string(), "--set", "firmware.inversion=\"ss\""});
    REQUIRE(c.status == 0);
    const std::string csv = read_text(out / "requests.csv");
    if (i == 0)
      first = csv;
    else
      CHECK(csv == first);
  }
}

}  // namespace drivevp
