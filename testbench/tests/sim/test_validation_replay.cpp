// Validation replay (issue 12): DiskSim validate traces replayed closed loop, one request
// outstanding, each issued its predecessor's recorded gap after the predecessor completed; the
// measured service times beside the simulated ones in requests.csv and the demerit in
// summary.json (../shared/drives/README.md).
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/tests/sim/sim_test_util.h"

using namespace drivevp;
using namespace drivevp::simtest;

namespace {
std::string validate_scenario(const fs::path& trace) {
  return fmt::format(
      "[device]\npreset = \"hp97560\"\n\n[firmware]\npolicy = \"fcfs\"\n\n[workload]\nkind = \"trace\"\npath = \"{}\"\n"
      "format = \"validate\"\nloop = \"closed\"\ncapacity = \"wrap\"\n\n[run]\nprogress = false\n\n[output]\nplots = "
      "false\n",
      trace.string());
}
}  // namespace

TEST_CASE("sim: a validate trace is issued each gap after the previous completion", "[sim][validation]") {
  TempDir dir("validate-gaps");
  // Gaps 13876.270 us, 0, 2.5 us; measured service times kept per request.
  write_text(dir / "v.trace",
             "R Miss  564347     2     14095.370     13876.270\n"
             "R Hit   564349     2      1414.270         0.000\n"
             "W Doub 1194877    15     17221.000         2.500\n"
             "R Miss     100     8      9000.000     50000.000\n");
  const RunResult r = run_platform(dir, validate_scenario(dir / "v.trace"));
  REQUIRE(r.requests == 4);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 4);
  CHECK(csv.ps(0, "arrival_ms") == 0);
  CHECK(csv.ps(1, "arrival_ms") == csv.ps(0, "completion_ms") + 13'876'270'000);
  CHECK(csv.ps(2, "arrival_ms") == csv.ps(1, "completion_ms"));
  CHECK(csv.ps(3, "arrival_ms") == csv.ps(2, "completion_ms") + 2'500'000);
  CHECK(csv.at(0, "measured_service_ms") == "14.095370000");
  CHECK(csv.at(1, "measured_service_ms") == "1.414270000");
  CHECK(csv.at(2, "measured_service_ms") == "17.221000000");
  CHECK(csv.at(3, "measured_service_ms") == "9.000000000");
  // One outstanding: no queueing, only the doorbell and SQ fetch on the bus (tens of ns).
  for (std::size_t i = 0; i < 4; ++i) CHECK(csv.ps(i, "queue_wait_ms") < 1'000'000);
  const auto j = nlohmann::json::parse(read_text(dir / "out" / "summary.json"));
  const auto& v = j.at("validation");
  CHECK(v.at("requests") == 4);
  CHECK(v.at("measured_mean_ms").get<double>() ==
        Catch::Approx((14.09537 + 1.41427 + 17.221 + 9.0) / 4).epsilon(1e-12));
  CHECK(v.at("demerit_ms").get<double>() > 0.0);
}

TEST_CASE("sim: the shipped HP C2247 validate trace replays to a demerit", "[sim][validation]") {
  TempDir dir("validate-c2247");
  const fs::path trace = fs::path(DRIVEVP_SOURCE_DIR) / "traces/disksim-valid/hp_c2247a.trace";
  REQUIRE(fs::exists(trace));
  const RunResult r = run_platform(dir, validate_scenario(trace));
  CHECK(r.requests == 9999);
  const auto j = nlohmann::json::parse(read_text(dir / "out" / "summary.json"));
  const auto& v = j.at("validation");
  CHECK(v.at("requests") == 9999);
  // The trace's own mean service time (sum of its column / 9,999).
  CHECK(v.at("measured_mean_ms").get<double>() == Catch::Approx(15.298224516).epsilon(1e-9));
  // The HP 97560 is not the HP C2247 (no cache, other mechanics): a demerit of milliseconds,
  // far above DiskSim's 0.090 ms with the drive's own description.
  CHECK(v.at("demerit_ms").get<double>() > 1.0);
}

TEST_CASE("sim: a validate trace needs a closed loop with one request outstanding", "[sim][validation][config]") {
  TempDir dir("validate-open");
  write_text(dir / "v.trace", "R Miss 10 2 1.0 1.0\n");
  std::string toml = validate_scenario(dir / "v.trace");
  toml.replace(toml.find("loop = \"closed\"\n"), 16, "");
  write_text(dir / "s.toml", toml);
  try {
    (void)load_scenario((dir / "s.toml").string(), {});
    FAIL("no ConfigError");
  } catch (const ConfigError& e) {
    CHECK_THAT(
        std::string(e.what()),
        Catch::Matchers::ContainsSubstring(
            "workload.format = \"validate\": expected workload.loop = \"closed\" with workload.outstanding = "
            "1 (the trace's gaps follow completions), found workload.loop = \"open\", workload.outstanding = 1"));
  }
}
