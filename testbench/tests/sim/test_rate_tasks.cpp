// The rate_tasks workload and WRR-SCAN through the platform (paper 004): admission control before
// time zero with the failing inequality, bad keys refused, an admitted set meets every deadline
// with exact job counts, summary.json "rate_tasks", `drivevp admission`, and the same bytes twice.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "sim_test_util.h"
#include "source_paths.h"  // generated: DRIVEVP_SOURCE_DIR

namespace drivevp {
namespace {

using namespace simtest;
using Catch::Matchers::ContainsSubstring;

/// A rate_tasks scenario under `policy` reading the task list `tasks` (written beside it).
std::string rate_scenario(const TempDir& dir, const std::string& policy, const std::string& tasks,
                          const std::string& workload_keys = "") {
  write_text(dir / "tasks.toml", tasks);
  return fmt::format(
      "[device]\npreset = \"hp97560\"\n\n[firmware]\npolicy = \"{}\"\nqueue_depth = 1024\n\n[workload]\n"
      "kind = \"rate_tasks\"\ntasks_path = \"tasks.toml\"\n{}\n[run]\nprogress = false\ncheck_data = false\n\n"
      "[output]\nplots = false\n",
      policy, workload_keys);
}

// One task, P = 1000 ms, b blocks of 4 KB: R = 500 ms, q = 1; eq. (7) with x_a = 1 holds for
// b = 18 (480.5 ms) and fails for b = 19 (504.957 ms), test_wrr_scan.cpp derives the numbers.
const std::string kJustFails = "[[task]]\nbuffer_bytes = 77824\nperiod_ms = 1000\n";   // 19 blocks
const std::string kJustPasses = "[[task]]\nbuffer_bytes = 73728\nperiod_ms = 1000\n";  // 18 blocks

TEST_CASE("sim: admission control rejects a failing task set before time zero, naming the inequality", "[sim][wrr]") {
  TempDir dir("wrr-admission");
  CHECK(config_error_at(dir / "scenario.toml", rate_scenario(dir, "wrr_scan_r", kJustPasses,
                                                             "aperiodic_weight_blocks = 1\n")) == "<no error>");
  CHECK(config_error_at(dir / "scenario.toml",
                        rate_scenario(dir, "wrr_scan_r", kJustFails, "aperiodic_weight_blocks = 1\n")) ==
        "FILE: workload: admission control (WRR-SCAN-R) rejects the set of 1 tasks: eq. (7) lower bound fails: "
        "t_s + (t_r + C/V)·(Σ⌈b_i/q_i⌉ + x_a) = 15.7 + 24.4629·(19 + 1) = 504.957 ms exceeds R = 500 ms by "
        "4.95714 ms");
  // The same set passes eq. (8): 15.7 + 23·2 + 1.4629·20 = 90.96 ms <= 500 ms.
  CHECK(config_error_at(dir / "scenario.toml",
                        rate_scenario(dir, "wrr_scan_c", kJustFails, "aperiodic_weight_blocks = 1\n")) == "<no error>");
  // Online admission with nothing admissible is an error too.
  CHECK_THAT(
      config_error_at(dir / "scenario.toml", rate_scenario(dir, "wrr_scan_r", kJustFails,
                                                           "aperiodic_weight_blocks = 1\nadmission = \"online\"\n")),
      ContainsSubstring("admission control (WRR-SCAN-R) admits none of the 1 tasks; first: task 1: eq. (7)"));
}

TEST_CASE("sim: rate_tasks keys are validated and apply only to their workload", "[sim][wrr][config]") {
  TempDir dir("wrr-keys");
  const std::string ok = rate_scenario(dir, "wrr_scan_c", kJustPasses);
  CHECK(config_error_at(dir / "scenario.toml", ok) == "<no error>");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.placement=\"diagonal\""}) ==
        "--set workload.placement=\"diagonal\": workload.placement: expected one of auto, contiguous, random, striped, "
        "found "
        "'diagonal'");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.placement=\"striped\""}) ==
        "--set workload.placement=\"striped\": workload.placement: expected one of auto, contiguous, random for "
        "workload.kind = \"rate_tasks\", found 'striped'");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.block_bytes=1000"}) ==
        "--set workload.block_bytes=1000: workload.block_bytes: expected a multiple of 512 in [512, 1048576], found "
        "1000");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.rate_per_s=5"}) ==
        "--set workload.rate_per_s=5: workload.rate_per_s does not apply to workload.kind = \"rate_tasks\" (its jobs "
        "carry their own deadlines; its length is workload.duration_s)");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.job_commands=\"job\""}) ==
        "--set workload.job_commands=\"job\": workload.job_commands: expected \"block\" or \"auto\" for WRR-SCAN-C "
        "(it serves x_i blocks of a job per round, 004 §3), found \"job\"");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.loop=\"closed\""}) ==
        "--set workload.loop=\"closed\": workload.loop: expected \"open\" for workload.kind = \"rate_tasks\" (jobs "
        "are released at their release times), found \"closed\"");
  CHECK(config_error_at(dir / "scenario.toml", synthetic_scenario("sptf", "rate_per_s = 10.0\n", "requests = 10\n"),
                        {"workload.tasks=5"}) ==
        "--set workload.tasks=5: workload.tasks applies only to workload.kind = \"rate_tasks\"");
  write_text(dir / "bad.toml", "[[task]]\nbuffer_bytes = 4096\n");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.tasks_path=\"bad.toml\""}) ==
        "--set workload.tasks_path=\"bad.toml\": workload.tasks_path: " + (dir / "bad.toml").string() +
            ":1:1: task: expected exactly one of period_ms or rate_bytes_per_s, found neither");
  // The task list as CSV (chosen by the extension; header row of the TOML keys).
  write_text(dir / "tasks.csv", "buffer_bytes,period_ms\n4096,1000\n");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.tasks_path=\"tasks.csv\""}) == "<no error>");
  write_text(dir / "bad.csv", "buffer_bytes,period_ms\n4096,-1\n");
  CHECK(config_error_at(dir / "scenario.toml", ok, {"workload.tasks_path=\"bad.csv\""}) ==
        "--set workload.tasks_path=\"bad.csv\": workload.tasks_path: " + (dir / "bad.csv").string() +
            ":2:6: task.period_ms: expected a number > 0, found '-1'");
}

TEST_CASE("sim: an admitted WRR-SCAN-C set meets every job deadline; exact jobs and plan", "[sim][wrr]") {
  // Three tasks for 10 s: P = 1000, 2000, 2500 ms; b = 4, 8, 5 blocks; S = 0, 300, 700 ms.
  // Jobs released in [0, 10 s): ceil((10000 - S)/P) = 10, 5, 4 -> 19 jobs, 10·4 + 5·8 + 4·5 = 100
  // block commands. R = min P/2 = 500 ms; q = floor(P/R) - 1 = 1, 3, 4; x = 4, 3, 2 (eq. 3).
  // Eq. (8) with x_a = 2: 15.7 + 23·(3 + 2) + 1.4629·(9 + 2) = 146.8 ms <= 500 ms.
  TempDir dir("wrr-run");
  const std::string tasks =
      "[[task]]\nbuffer_bytes = 16384\nperiod_ms = 1000\n"
      "[[task]]\nbuffer_bytes = 32768\nperiod_ms = 2000\nrelease_ms = 300\n"
      "[[task]]\nbuffer_bytes = 20480\nrate_bytes_per_s = 8192\nrelease_ms = 700\n";  // P = 20480/8192 s
  const RunResult r =
      run_platform(dir, rate_scenario(dir, "wrr_scan_c", tasks, "duration_s = 10\naperiodic_interarrival_ms = 100\n"));
  REQUIRE(r.checks_passed);
  const nlohmann::json& rt = r.summary["rate_tasks"];
  CHECK(rt["jobs"] == 19);
  CHECK(rt["jobs_missed"] == 0);
  CHECK(rt["tasks"].size() == 3);
  CHECK(rt["tasks"][1]["jobs"] == 5);
  CHECK(rt["admission"]["round_ms"] == 500.0);
  CHECK(rt["admission"]["services"] == nlohmann::json({1, 3, 4}));
  CHECK(rt["admission"]["weight_blocks"] == nlohmann::json({4, 3, 2}));
  CHECK(rt["admission"]["test"] == "eq. (8)");
  CHECK(rt["aperiodic"]["requests"].get<std::uint64_t>() > 50);
  CHECK(r.summary["deadlines"]["by_class"]["real_time"]["requests"] == 100);
  CHECK(r.summary["deadlines"]["by_class"]["real_time"]["missed"] == 0);
  const double u = rt["utilization"].get<double>();
  CHECK((u > 0 && u < 1));
  CHECK(rt["normalized_idle"].get<double>() > 0.5);  // a light load
  // rounds.csv: one row per firmware round, numbered from 0 with starts that never go back; its
  // C-requests are the 100 block commands, its D-requests the aperiodic ones, no hiccups (no
  // missed deadline). summary.json lists the file but has no "rounds" section.
  const std::string csv = read_text(dir / "out" / "rounds.csv");
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "round,start_ms,c_served,c_in_round,d_served,c_period_ms,d_period_ms,idle_ms,slack_ms,hiccups");
  std::uint64_t rows = 0, c = 0, c_in = 0, d = 0, hiccups = 0;
  std::int64_t last_start = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    REQUIRE(f.size() == 10);
    CHECK(f[0] == std::to_string(rows));
    const std::int64_t start = ms_text_to_ps(f[1]);
    CHECK(start >= last_start);
    last_start = start;
    c += std::stoull(f[2]);
    c_in += std::stoull(f[3]);
    d += std::stoull(f[4]);
    CHECK(ms_text_to_ps(f[7]) >= 0);  // idle
    hiccups += std::stoull(f[9]);
    ++rows;
  }
  CHECK(rows > 10);  // 10 s of 500 ms rounds at most, with reclamation many more
  CHECK(c == 100);
  CHECK(c_in == 100);
  CHECK(d == rt["aperiodic"]["requests"].get<std::uint64_t>());
  CHECK(hiccups == 0);
  CHECK_FALSE(r.summary.contains("rounds"));
  CHECK(r.summary["files"]["rounds_csv"] == "rounds.csv");
}

TEST_CASE("sim: the 004 sweep writes rounds.csv for every WRR-SCAN run and none for SCAN-EDF", "[sim][wrr][rounds]") {
  // experiments/wrr-scan-004.toml as shipped (4 policies x 10 task counts), 2 s of workload.
  TempDir dir("wrr-sweep");
  const std::string out = (dir / "sweep").string();
  const CommandResult run =
      run_drivevp(dir.path(), {"sweep", std::string(DRIVEVP_SOURCE_DIR) + "/experiments/wrr-scan-004.toml", "--set",
                               "workload.duration_s=2", "-j", "1", "--out", out});
  REQUIRE(run.status == 0);
  int wrr = 0, edf = 0;
  for (const std::string& point : list_dir(fs::path(out) / "points")) {
    const fs::path p = fs::path(out) / "points" / point;
    if (!fs::is_directory(p)) continue;
    const bool is_edf = read_text(p / "scenario.toml").find("policy = 'scan_edf'") != std::string::npos;
    INFO(point);
    CHECK(fs::exists(p / "rep-0" / "requests.csv"));
    CHECK(fs::exists(p / "rep-0" / "rounds.csv") == !is_edf);
    ++(is_edf ? edf : wrr);
  }
  CHECK(wrr == 30);
  CHECK(edf == 10);
}

TEST_CASE("sim: drivevp admission reports the tasks each WRR-SCAN test admits; runs repeat byte for byte",
          "[sim][wrr]") {
  TempDir dir("wrr-cli");
  const CommandResult a = run_drivevp(dir.path(), {"admission", "--tasks", "100", "--seed", "3"});
  REQUIRE(a.status == 0);
  CHECK_THAT(a.out, ContainsSubstring("wrr_scan_r   eq. (7)"));
  CHECK_THAT(a.out, ContainsSubstring("wrr_scan_ca  eq. (10)"));
  CHECK_THAT(a.out, ContainsSubstring("lower bound fails"));
  const std::string scenario = rate_scenario(dir, "wrr_scan_ca", kJustPasses, "duration_s = 5\n");
  write_text(dir / "s.toml", scenario);
  for (const char* out : {"o1", "o2"})
    REQUIRE(run_drivevp(dir.path(), {"run", (dir / "s.toml").string(), "--out", (dir / out).string()}).status == 0);
  CHECK(read_text(dir / "o1" / "requests.csv") == read_text(dir / "o2" / "requests.csv"));
  const std::string rounds_csv = read_text(dir / "o1" / "rounds.csv");
  CHECK(rounds_csv.size() > 100);
  CHECK(rounds_csv == read_text(dir / "o2" / "rounds.csv"));
  const CommandResult bad = run_drivevp(dir.path(), {"run", (dir / "s.toml").string(), "--set",
                                                     "workload.admission=\"lenient\"", "--out", (dir / "o3").string()});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, ContainsSubstring("workload.admission: expected one of strict, online, found 'lenient'"));
}

}  // namespace
}  // namespace drivevp
