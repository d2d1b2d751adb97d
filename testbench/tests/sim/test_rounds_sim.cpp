// Round workloads through the whole platform (paper 003): every 003 algorithm is hiccup-free at
// the paper's load, the hiccup checker catches an injected overload and names the streams and
// rounds requests.csv shows late, a hiccup fails a run declared hiccup-free (exit status 1 and a
// message), rounds.csv is the same bytes on every run, and bad round keys stop before a run.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "sim_test_util.h"
#include "testbench/workload/rounds.h"

namespace drivevp {
namespace {

using namespace simtest;
using Catch::Matchers::ContainsSubstring;

/// 003 §3.1 on disk003: N streams of Gamma(200,000 B, 100,000 B) fragments, D Normal(70,000 B,
/// 20,000 B) at lambda_d per 1 s round.
std::string rounds_scenario(const std::string& policy, int streams, double lambda_d, int rounds,
                            const std::string& extra = "") {
  return fmt::format(
      "[device]\npreset = \"disk003\"\n\n[firmware]\npolicy = \"{}\"\nqueue_depth = 65536\n\n[workload]\n"
      "kind = \"rounds\"\nstreams = {}\nlambda_d = {}\nrounds = {}\n{}\n[run]\nseed = 5\nprogress = false\n"
      "expect_hiccup_free = true\n\n[output]\nplots = false\n",
      policy, streams, lambda_d, rounds, extra);
}

/// One run at N = 25 and lambda_D = 65 (the heaviest load of 003 Figs. 1-7), 4 rounds.
void check_hiccup_free(const std::string& policy) {
  TempDir dir("rounds-" + policy);
  const RunResult r = run_platform(dir, rounds_scenario(policy, 25, 65, 4));
  const nlohmann::json& rd = r.summary["rounds"];
  CHECK(rd["c_requests"] == 100);
  CHECK(rd["hiccups"] == 0);
  CHECK(r.checks_passed);
  CHECK(rd["d_requests"].get<std::uint64_t>() > 200);
  CHECK(rd["d_fairness_index"].get<double>() > 0);
  CHECK(rd["d_fairness_index"].get<double>() <= 1);
  // rounds.csv: a header and one row per round, every round's 25 C-requests within it.
  const std::string csv = read_text(dir / "out" / "rounds.csv");
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "round,start_ms,c_served,c_in_round,d_served,c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups");
  int rows = 0;
  while (std::getline(in, line)) {
    CHECK_THAT(line, ContainsSubstring(",25,25,"));
    CHECK(line.substr(line.size() - 2) == ",0");
    ++rows;
  }
  CHECK(rows == 4);
}

}  // namespace

TEST_CASE("sim: TPS:SCAN/SCAN is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("tps_scan_scan");
}
TEST_CASE("sim: TPS:SCAN/[SCAN/CI-OPT(6)] is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("tps_scan_scan_ci_opt");
}
TEST_CASE("sim: OPS:FAMISH is hiccup-free at 003's heaviest load", "[sim][rounds]") { check_hiccup_free("ops_famish"); }
TEST_CASE("sim: OPS:SCAN/CI-SPTF is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("ops_scan_ci_sptf");
}
TEST_CASE("sim: OPS:SCAN/CI-OPT(6) is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("ops_scan_ci_opt");
}
TEST_CASE("sim: OPS:SCAN/CLUST-REQ(6) is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("ops_scan_clust_req");
}
TEST_CASE("sim: OPS:SCAN/CLUST-CYL(6|1000) is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("ops_scan_clust_cyl");
}
TEST_CASE("sim: SPTF with the glitch guard is hiccup-free at 003's heaviest load", "[sim][rounds]") {
  check_hiccup_free("sptf_glitch_guard");
}

TEST_CASE(
    "sim: an overload's hiccups are reported with the stream and round requests.csv shows late, and fail "
    "the run",
    "[sim][rounds]") {
  TempDir dir("rounds-overload");
  // 60 streams of 300,000 B fragments: about 60 x (17.6 ms transfer + positioning) > 1 s a round.
  const std::string toml =
      rounds_scenario("tps_scan_scan", 60, 2, 2, "fragment_size = \"constant\"\nfragment_mean_bytes = 300000.0\n");
  write_text(dir / "scenario.toml", toml);
  const CommandResult run =
      run_drivevp(dir.path(), {"run", (dir / "scenario.toml").string(), "--out", (dir / "out").string()});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, ContainsSubstring("FAILED: run.expect_hiccup_free = true but"));
  const nlohmann::json s = nlohmann::json::parse(read_text(dir / "out" / "summary.json"));
  CHECK(s["checks"]["passed"] == false);
  // The streams of the requests, in submission (id) order, from the same workload.
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), {});
  RoundsSource source(sc.rounds);
  std::vector<std::uint32_t> stream_of;
  SourceRequest q;
  while (source.next(q)) stream_of.push_back(q.command.stream);
  // requests.csv's late C-requests, in completion order: id, deadline_ms, lateness_ms, met.
  std::istringstream in(read_text(dir / "out" / "requests.csv"));
  std::string line;
  std::getline(in, line);
  std::vector<nlohmann::json> late;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) f.push_back(cell);
    if (line.back() == ',') f.push_back("");
    if (f.back() != "0") continue;
    const auto id = std::stoull(f[0]);
    const std::int64_t deadline = ms_text_to_ps(f[f.size() - 3]);
    late.push_back({{"stream", stream_of.at(id)},
                    {"round", deadline / 1'000'000'000'000 - 1},
                    {"lateness_ps", ms_text_to_ps(f[f.size() - 2])},
                    {"id", id}});
  }
  const nlohmann::json& rd = s["rounds"];
  REQUIRE(!late.empty());
  CHECK(rd["hiccups"] == late.size());
  REQUIRE(rd["first_hiccups"].size() == std::min<std::size_t>(late.size(), 100));
  for (std::size_t i = 0; i < rd["first_hiccups"].size(); ++i) {
    const nlohmann::json& h = rd["first_hiccups"][i];
    CHECK(h["stream"] == late[i]["stream"]);
    CHECK(h["round"] == late[i]["round"]);
    CHECK(h["id"] == late[i]["id"]);
    // to_ms() of the exact picosecond lateness requests.csv prints.
    CHECK(h["lateness_ms"].get<double>() == static_cast<double>(late[i]["lateness_ps"].get<std::int64_t>()) * 1e-9);
  }
}

TEST_CASE("sim: rounds.csv is the same bytes on every run", "[sim][rounds]") {
  TempDir dir("rounds-determinism");
  write_text(dir / "scenario.toml", rounds_scenario("ops_scan_clust_cyl", 25, 30, 3));
  std::string first;
  for (int i = 0; i < 2; ++i) {
    const std::string out = (dir / fmt::format("out{}", i)).string();
    const CommandResult run = run_drivevp(dir.path(), {"run", (dir / "scenario.toml").string(), "--out", out});
    REQUIRE(run.status == 0);
    const std::string csv = read_text(fs::path(out) / "rounds.csv");
    if (i == 0)
      first = csv;
    else
      CHECK(csv == first);
  }
  CHECK(first.size() > 100);
}

TEST_CASE("sim: bad round keys are refused before anything runs, naming the key", "[sim][rounds]") {
  TempDir dir("rounds-keys");
  auto error_of = [&](const std::string& toml, std::vector<std::string> sets = {}) {
    write_text(dir / "scenario.toml", toml);
    try {
      (void)load_scenario((dir / "scenario.toml").string(), sets);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string ok = rounds_scenario("ops_famish", 25, 10, 2);
  CHECK(error_of(ok) == "no error");
  CHECK_THAT(error_of(ok, {"workload.streams=-1"}),
             ContainsSubstring("workload.streams: expected an integer in [0, 10000]"));
  CHECK_THAT(
      error_of(ok, {"workload.placement=\"diagonal\""}),
      ContainsSubstring("workload.placement: expected one of auto, contiguous, random, striped, found 'diagonal'"));
  // workload.placement is shared with rate_tasks; each kind takes only its own values.
  CHECK_THAT(error_of(ok, {"workload.placement=\"contiguous\""}),
             ContainsSubstring("workload.placement: expected one of random, striped for workload.kind = \"rounds\", "
                               "found 'contiguous'"));
  CHECK_THAT(error_of(ok, {"workload.round_ms=0"}),
             ContainsSubstring("workload.round_ms: expected a number in (0, 3600000] for workload.kind = \"rounds\", "
                               "found 0"));
  CHECK_THAT(error_of(ok, {"workload.rate_per_s=10"}),
             ContainsSubstring("workload.rate_per_s applies only to workload.kind = \"synthetic\""));
  CHECK_THAT(error_of(ok, {"run.requests=10"}), ContainsSubstring("run.requests does not apply"));
  CHECK_THAT(error_of(ok, {"workload.deadline=\"uniform\""}),
             ContainsSubstring("workload.deadline: expected \"none\" for workload.kind = \"rounds\""));
  CHECK_THAT(error_of(ok, {"workload.loop=\"closed\""}), ContainsSubstring("workload.loop: expected \"open\""));
  CHECK_THAT(error_of(ok, {"firmware.round_ms=500"}),
             ContainsSubstring("firmware.round_ms: expected workload.round_ms (1000), found 500"));
  CHECK_THAT(error_of(ok, {"firmware.cluster_max=6"}), ContainsSubstring("unknown key 'firmware.cluster_max'"));
  // A stream list (workload.streams_path) gives N; a different workload.streams is an error.
  write_text(dir / "streams.toml", "[[stream]]\nfragment_bytes = 65536\n\n[[stream]]\nstart_block = 1000\n");
  CHECK_THAT(error_of(ok, {"workload.streams_path=\"streams.toml\""}),
             ContainsSubstring("workload.streams: expected 2 (the streams listed in workload.streams_path) or unset, "
                               "found 25"));
  std::string listed = ok;
  listed.replace(listed.find("streams = 25\n"), 13, "streams_path = \"streams.toml\"\n");
  CHECK(error_of(listed) == "no error");
  CHECK_THAT(
      error_of(listed, {"workload.streams_path=\"missing.toml\""}),
      ContainsSubstring("missing.toml: expected an existing list file (TOML [[stream]] tables, or CSV), found none"));
  // The same list as CSV (chosen by the extension).
  write_text(dir / "streams.csv", "fragment_bytes,start_block\n65536,\n,1000\n");
  CHECK(error_of(listed, {"workload.streams_path=\"streams.csv\""}) == "no error");
  write_text(dir / "bad.toml", "[[stream]]\nfragment_bytes = 1\n");
  CHECK_THAT(error_of(listed, {"workload.streams_path=\"bad.toml\""}),
             ContainsSubstring("bad.toml:2:18: stream.fragment_bytes: expected an integer in [512, 4194304], found 1"));
  CHECK_THAT(error_of(synthetic_scenario("sptf", "", ""), {"workload.lambda_d=3"}),
             ContainsSubstring("workload.lambda_d applies only to workload.kind = \"rounds\""));
  CHECK_THAT(error_of(synthetic_scenario("sptf", "", ""), {"run.expect_hiccup_free=true"}),
             ContainsSubstring("run.expect_hiccup_free applies only"));
  CHECK_THAT(error_of(ok, {"workload.placement=\"striped\"", "workload.streams=10000"}),
             ContainsSubstring("striped placement needs at least 8192 blocks"));
}

}  // namespace drivevp
