// Aged SPTF, ASPTF(W), through the drivevp binary against SPTF and FCFS on the workload of the
// issue that fixed its scale: the HP 97560 with Poisson arrivals of 40 random 4 KB reads per
// second. W is per mille (DiskSim 4.0, `ioqueue_get_request_from_opt_sptf_queue`): ASPTF(6)
// then behaves as in Worthington, Ganger & Patt (SIGMETRICS 1994): SPTF's mean response with a
// lower maximum. Applied unscaled, W = 6 made it FCFS-like (mean 363 ms against SPTF's 59 ms).
// Runs the binary as child processes, so these test cases elaborate nothing themselves.
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

/// 40 single 4 KB (8-block) reads per second at uniformly random LBNs, Poisson arrivals.
std::string workload_40_per_s(const std::string& policy, std::uint64_t seed, std::uint64_t requests) {
  return synthetic_scenario(policy,
                            "arrival = \"poisson\"\nrate_per_s = 40\naddress = \"uniform\"\nsize = \"constant\"\n"
                            "size_blocks = 8\nread_fraction = 1.0\n",
                            fmt::format("seed = {}\nrequests = {}\n", seed, requests));
}

/// Runs the binary on `toml` (written to dir/<name>.toml) with `sets` into dir/<name>; returns
/// the parsed summary.json.
nlohmann::json run_binary(const TempDir& dir, const std::string& name, const std::string& toml,
                          const std::vector<std::string>& sets = {}) {
  const fs::path scenario = dir / (name + ".toml");
  write_text(scenario, toml);
  std::vector<std::string> args = {"run", scenario.string(), "--out", (dir / name).string()};
  for (const std::string& s : sets) {
    args.push_back("--set");
    args.push_back(s);
  }
  const CommandResult r = run_drivevp(dir.path(), args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json summary = nlohmann::json::parse(read_text(dir / name / "summary.json"));
  REQUIRE(summary["checks"]["passed"].get<bool>());
  return summary;
}

/// requests.csv without its predicted_positioning_ms column (FCFS predicts nothing).
std::string without_predictions(const fs::path& csv_path) {
  const Csv csv(csv_path);
  const std::vector<std::string> columns = {"id",
                                            "op",
                                            "lbn",
                                            "blocks",
                                            "cylinder",
                                            "head",
                                            "arrival_ms",
                                            "dispatch_ms",
                                            "seek_start_ms",
                                            "seek_end_ms",
                                            "transfer_start_ms",
                                            "transfer_end_ms",
                                            "completion_ms",
                                            "response_ms",
                                            "data_ok"};
  std::string out;
  for (std::size_t row = 0; row < csv.size(); ++row) {
    for (const std::string& c : columns) out += csv.at(row, c) + ",";
    out += "\n";
  }
  return out;
}

TEST_CASE("sim: ASPTF(6) keeps SPTF's mean response within 2 % and lowers the maximum", "[sim][policy][aged_sptf]") {
  // Three seeds, 20,000 requests each (about 500 s of arrivals; utilisation about 0.84).
  TempDir dir("asptf6");
  for (const std::uint64_t seed : {1, 2, 3}) {
    INFO("seed " << seed);
    const std::string s = std::to_string(seed);
    const nlohmann::json sptf = run_binary(dir, "sptf" + s, workload_40_per_s("sptf", seed, 20000))["metrics"];
    const nlohmann::json aged = run_binary(dir, "aged" + s, workload_40_per_s("aged_sptf", seed, 20000))["metrics"];
    REQUIRE(sptf["requests"].get<std::uint64_t>() == 20000);
    REQUIRE(aged["requests"].get<std::uint64_t>() == 20000);
    const double sptf_mean = sptf["response_mean_ms"].get<double>();
    const double aged_mean = aged["response_mean_ms"].get<double>();
    CHECK(sptf_mean < 70.0);  // SPTF's own level on this stream (about 56-58 ms)
    CHECK(aged_mean == Catch::Approx(sptf_mean).epsilon(0.02));
    CHECK(aged["response_max_ms"].get<double>() < sptf["response_max_ms"].get<double>());
    // The aging acted: the schedules differ.
    CHECK(read_text(dir / ("aged" + s) / "requests.csv") != read_text(dir / ("sptf" + s) / "requests.csv"));
  }
}

TEST_CASE("sim: ASPTF with a very large W serves exactly as FCFS", "[sim][policy][aged_sptf]") {
  // W = 1e9 per mille: one ps of waiting outweighs 1 us of access time, so any two arrivals more
  // than 40 ns apart (the largest access time spread on the HP 97560 is under 40 ms) are served in
  // arrival order: the same schedule, to the picosecond, as FCFS on the same arrivals.
  TempDir dir("asptf-fcfs");
  run_binary(dir, "fcfs", workload_40_per_s("fcfs", 1, 5000));
  run_binary(dir, "aged", workload_40_per_s("aged_sptf", 1, 5000), {"firmware.age_weight=1e9"});
  const Csv fcfs(dir / "fcfs" / "requests.csv");
  REQUIRE(fcfs.size() == 5000);
  std::int64_t min_gap = INT64_MAX;
  for (std::size_t row = 1; row < fcfs.size(); ++row)
    min_gap = std::min(min_gap, fcfs.ps(row, "arrival_ms") - fcfs.ps(row - 1, "arrival_ms"));
  REQUIRE(min_gap > 40'000);  // the premise: arrivals more than 40 ns apart
  CHECK(without_predictions(dir / "aged" / "requests.csv") == without_predictions(dir / "fcfs" / "requests.csv"));
  // ... whereas SPTF reorders them.
  run_binary(dir, "sptf", workload_40_per_s("sptf", 1, 5000));
  CHECK(without_predictions(dir / "sptf" / "requests.csv") != without_predictions(dir / "fcfs" / "requests.csv"));
}

}  // namespace
}  // namespace drivevp
