// Configuration errors: every error path of load_scenario() (testbench/scenario/scenario.cpp)
// with its exact message (file:line or --set origin, key, what was expected, what was found), and
// the command line's contract for bad input: exit status 2, the message on stderr, nothing
// written to the output directory (an earlier run's outputs are left byte-identical).
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <vector>

#include "firmware/policy.h"
#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

/// Writes `toml` to a scenario file and loads it; returns the ConfigError message with the
/// scenario's path replaced by "FILE", or "<no error>".
std::string config_error(const std::string& toml, const std::vector<std::string>& overrides = {}) {
  static TempDir dir("config");
  static int n = 0;
  return config_error_at(dir / ("scenario" + std::to_string(n++) + ".toml"), toml, overrides);
}

/// A valid synthetic scenario to build on (line 1 [device], line 2 preset, ...).
const char* kBase =
    "[device]\n"              // 1
    "preset = \"hp97560\"\n"  // 2
    "[firmware]\n"            // 3
    "policy = \"sptf\"\n"     // 4
    "[workload]\n"            // 5
    "kind = \"synthetic\"\n"  // 6
    "[run]\n"                 // 7
    "seed = 1\n"              // 8
    "[output]\n"              // 9
    "plots = false\n";        // 10

std::string policy_list() {
  std::string s = "one of ";
  bool first = true;
  for (const PolicyInfo& p : policy_registry()) {
    s += (first ? "" : ", ") + p.key;
    first = false;
  }
  return s;
}

/// Checks an unknown-[device]-key message: location, key, then the [device] keys (the list grows
/// as keys are added, so only its start and a few members are pinned).
void check_device_unknown(const std::string& m, const std::string& where_and_key) {
  CHECK(m.rfind(where_and_key + "; allowed: device.preset, device.drive, device.cylinders, device.heads, ", 0) == 0);
  for (const char* k : {"device.rpm", "device.seek_curve.short_max_distance", "device.seek_table"})
    CHECK(m.find(k) != std::string::npos);
  CHECK(m.find("firmware.") == std::string::npos);
}

const std::string kDurationExpected =
    "a duration: seconds as a number, or a string such as \"250 ms\" (ps, ns, us, ms, s)";

TEST_CASE("sim: The base scenario of the configuration tests is valid", "[sim][config]") {
  CHECK(config_error(kBase) == "<no error>");
}

TEST_CASE("sim: Unknown keys are errors in every section", "[sim][config]") {
  // [device] at line 3.
  check_device_unknown(config_error("[device]\npreset = \"hp97560\"\ncylinderz = 5\n"),
                       "FILE:3: unknown key 'device.cylinderz'");
  check_device_unknown(config_error("[device.seek_curve]\nshort_const = 1.0\n"),
                       "FILE:2: unknown key 'device.seek_curve.short_const'");
  // [firmware]: the message lists what the chosen policy accepts.
  CHECK(config_error("[firmware]\npolicy = \"sptf\"\nqueue_size = 8\n") ==
        "FILE:3: unknown key 'firmware.queue_size': policy 'sptf' accepts firmware.policy, firmware.queue_depth");
  CHECK(config_error("[firmware]\npolicy = \"aged_sptf\"\nage = 2\n") ==
        "FILE:3: unknown key 'firmware.age': policy 'aged_sptf' accepts firmware.policy, firmware.queue_depth, "
        "firmware.age_weight");
  // A policy parameter of another policy than the chosen one.
  CHECK(config_error("[firmware]\npolicy = \"clook\"\nage_weight = 2\n") ==
        "FILE:3: unknown key 'firmware.age_weight': policy 'clook' accepts firmware.policy, firmware.queue_depth");
  // The default policy is sptf when none is given.
  CHECK(config_error("[firmware]\nage_weight = 2\n") ==
        "FILE:2: unknown key 'firmware.age_weight': policy 'sptf' accepts firmware.policy, firmware.queue_depth");
  // [workload], [run], [trace], [output].
  {
    const std::string m = config_error("[workload]\nkind = \"synthetic\"\nrate = 5\n");
    CHECK(m.rfind("FILE:3: unknown key 'workload.rate'; allowed: workload.kind, workload.loop, ", 0) == 0);
    CHECK(m.find("workload.rate_per_s") != std::string::npos);
    CHECK(m.find("workload.lenient") != std::string::npos);
  }
  CHECK(config_error("[run]\nseeds = 1\n") ==
        "FILE:2: unknown key 'run.seeds'; allowed: run.seed, run.requests, run.warmup_requests, run.check_data, "
        "run.store_payload, run.progress, run.expect_hiccup_free");
  CHECK(config_error("[trace]\nenable = true\n") ==
        "FILE:2: unknown key 'trace.enable'; allowed: trace.enabled, trace.groups, trace.start, trace.stop, "
        "trace.fst");
  CHECK(config_error("[output]\ndirectory = \"x\"\n") ==
        "FILE:2: unknown key 'output.directory'; allowed: output.dir, output.plots, output.requests_csv");
  // Through --set.
  CHECK(config_error(kBase, {"output.plot=false"}) ==
        "--set output.plot=false: unknown key 'output.plot'; allowed: output.dir, output.plots, output.requests_csv");
}

TEST_CASE("sim: Unknown sections and top-level keys are errors", "[sim][config]") {
  const std::string sections = "sections device, firmware, workload, run, trace, output";
  CHECK(config_error("[drive]\nrpm = 5400\n") == "FILE:2: unknown key 'drive.rpm'; allowed: " + sections);
  CHECK(config_error("seed = 3\n") == "FILE:1: unknown key 'seed'; allowed: " + sections);
  CHECK(config_error(kBase, {"bogus.key=1"}) == "--set bogus.key=1: unknown key 'bogus.key'; allowed: " + sections);
}

TEST_CASE("sim: Wrong types are errors naming the expected type", "[sim][config]") {
  CHECK(config_error("[device]\ncylinders = \"many\"\n") ==
        "FILE:2: device.cylinders: expected an integer in [1, 10000000], found 'many'");
  CHECK(config_error("[device]\ncylinders = 1.5\n") ==
        "FILE:2: device.cylinders: expected an integer in [1, 10000000], found 1.5");
  CHECK(config_error("[device]\nrpm = \"fast\"\n") ==
        "FILE:2: device.rpm: expected a number in [60, 100000], found 'fast'");
  CHECK(config_error("[run]\ncheck_data = 1\n") == "FILE:2: run.check_data: expected true or false, found 1");
  CHECK(config_error("[output]\nrequests_csv = 1\n") == "FILE:2: output.requests_csv: expected true or false, found 1");
  CHECK(config_error("[output]\ndir = 3\n") == "FILE:2: output.dir: expected a non-empty string, found 3");
  CHECK(config_error("[output]\ndir = \"\"\n") == "FILE:2: output.dir: expected a non-empty string, found ''");
  CHECK(config_error("[firmware]\npolicy = 3\n") == "FILE:2: firmware.policy: expected " + policy_list() + ", found 3");
  // A --set value that is not TOML is read as a string.
  CHECK(config_error(kBase, {"run.seed=abc"}) ==
        "--set run.seed=abc: run.seed: expected an integer in [0, 9223372036854775807], found 'abc'");
}

TEST_CASE("sim: Values out of range are errors naming the range", "[sim][config]") {
  CHECK(config_error("[device]\ncylinders = 0\n") ==
        "FILE:2: device.cylinders: expected an integer in [1, 10000000], found 0");
  CHECK(config_error("[device]\nrpm = 59.5\n") == "FILE:2: device.rpm: expected a number in [60, 100000], found 59.5");
  CHECK(config_error("[firmware]\nqueue_depth = 65537\n") ==
        "FILE:2: firmware.queue_depth: expected an integer in [1, 65536], found 65537");
  CHECK(config_error("[workload]\nkind = \"synthetic\"\nrate_per_s = 0\n") ==
        "FILE:3: workload.rate_per_s: expected a number in (0, 1000000000], found 0");
  CHECK(config_error("[workload]\nkind = \"synthetic\"\nread_fraction = 1.5\n") ==
        "FILE:3: workload.read_fraction: expected a number in [0, 1], found 1.5");
  CHECK(config_error(kBase, {"firmware.queue_depth=0"}) ==
        "--set firmware.queue_depth=0: firmware.queue_depth: expected an integer in [1, 65536], found 0");
  // A policy parameter out of its range.
  CHECK(config_error("[firmware]\npolicy = \"aged_sptf\"\nage_weight = 2000000000\n") ==
        "FILE:3: firmware.age_weight: expected a number in [0, 1000000000], found 2000000000");
  // Device consistency, checked after every key is applied.
  CHECK(config_error("[device]\nsectors_per_track = 8\ntrack_skew = 8\n") ==
        "FILE: device.track_skew must be less than the sectors per track");
  // Synthetic workload consistency.
  CHECK(config_error("[workload]\nkind = \"synthetic\"\nsize = \"uniform\"\nsize_min_blocks = 9\nsize_max_blocks = 4\n",
                     {})
            .rfind("FILE: workload: ", 0) == 0);
  CHECK(config_error("[workload]\nkind = \"synthetic\"\n[run]\nrequests = 0\n") ==
        "FILE:4: run.requests: expected an integer >= 1 for a synthetic workload, found 0");
}

TEST_CASE("sim: Bad choices are errors listing the choices", "[sim][config]") {
  CHECK(config_error("[firmware]\npolicy = \"fifo\"\n") ==
        "FILE:2: firmware.policy: expected " + policy_list() + ", found 'fifo'");
  CHECK(config_error("[device]\npreset = \"hp97561\"\n") ==
        "FILE:2: device.preset: expected one of hp97560, disk003, disk003_projected, mems_g1, mems_g2, mems_g3, found "
        "'hp97561'");
  CHECK(config_error("[workload]\nkind = \"replay\"\n") ==
        "FILE:2: workload.kind: expected one of synthetic, trace, rate_tasks, rounds, found 'replay'");
  CHECK(config_error("[workload]\nloop = \"half\"\n") ==
        "FILE:2: workload.loop: expected one of open, closed, found 'half'");
  CHECK(config_error("[workload]\nkind = \"synthetic\"\naddress = \"normal\"\n") ==
        "FILE:3: workload.address: expected one of uniform, zipf, found 'normal'");
  CHECK(config_error("[trace]\nenabled = true\ngroups = [\"mechanics\", \"cache\"]\n") ==
        "FILE:3: trace.groups: expected one of mechanics, firmware, bus, host, sled, rounds, found 'cache'");
}

TEST_CASE("sim: Bad durations are errors", "[sim][config]") {
  CHECK(config_error("[trace]\nenabled = true\nstart = \"5 parsecs\"\n") ==
        "FILE:3: trace.start: expected " + kDurationExpected + ", found '5 parsecs'");
  CHECK(config_error("[trace]\nenabled = true\nstart = \"ms 5\"\n") ==
        "FILE:3: trace.start: expected " + kDurationExpected + ", found 'ms 5'");
  CHECK(config_error("[trace]\nenabled = true\nstop = \"5 ms extra\"\n") ==
        "FILE:3: trace.stop: expected " + kDurationExpected + ", found '5 ms extra'");
  CHECK(config_error("[trace]\nenabled = true\nstart = -1\n") ==
        "FILE:3: trace.start: expected " + kDurationExpected + ", >= 0, found -1");
  CHECK(config_error("[trace]\nenabled = true\nstart = \"-2 s\"\n") ==
        "FILE:3: trace.start: expected a duration: seconds as a number, or a string such as \"250 ms\" (ps, ns, us, "
        "ms, s), found '-2 s'");
  // Valid spellings pass.
  CHECK(config_error("[trace]\nenabled = true\nstart = \"250 ms\"\nstop = 0.5\n") == "<no error>");
  // trace.stop must come after trace.start (0 = until the end).
  CHECK(config_error("[trace]\nenabled = true\nstart = \"20 ms\"\nstop = \"10 ms\"\n") ==
        "FILE:4: trace.stop: expected a time after trace.start, or 0");
  CHECK(config_error("[trace]\nenabled = true\nstart = \"20 ms\"\nstop = \"20 ms\"\n") ==
        "FILE:4: trace.stop: expected a time after trace.start, or 0");
  CHECK(config_error("[trace]\nenabled = true\nstart = \"20 ms\"\nstop = 0\n") == "<no error>");
}

TEST_CASE("sim: Keys that do not apply to the chosen workload or tracing are errors", "[sim][config]") {
  CHECK(config_error("[workload]\nkind = \"trace\"\npath = \"t.trace\"\nrate_per_s = 10\n") ==
        "FILE:4: workload.rate_per_s applies only to workload.kind = \"synthetic\"");
  CHECK(config_error("[workload]\nkind = \"synthetic\"\nformat = \"disksim\"\n") ==
        "FILE:3: workload.format applies only to workload.kind = \"trace\"");
  CHECK(config_error("[workload]\nkind = \"synthetic\"\n", {"workload.path=x.trace"}) ==
        "--set workload.path=x.trace: workload.path applies only to workload.kind = \"trace\"");
  CHECK(config_error("[workload]\nloop = \"open\"\noutstanding = 4\n") ==
        "FILE:3: workload.outstanding applies only to workload.loop = \"closed\"");
  CHECK(config_error("[trace]\ngroups = [\"bus\"]\n") ==
        "FILE:2: trace.groups has no effect unless trace.enabled = true");
  CHECK(config_error("[trace]\nenabled = false\nstart = \"1 ms\"\n") ==
        "FILE:3: trace.start has no effect unless trace.enabled = true");
}

TEST_CASE("sim: Cross-key constraints are errors", "[sim][config]") {
  CHECK(config_error("[firmware]\nqueue_depth = 8\n[workload]\nloop = \"closed\"\noutstanding = 16\n") ==
        "FILE:5: workload.outstanding: expected at most firmware.queue_depth (8), found 16");
  CHECK(config_error("[workload]\nkind = \"trace\"\nformat = \"disksim\"\n") ==
        "FILE: workload.path: expected a trace file for workload.kind = \"trace\", found none");
  CHECK(config_error("[workload]\nkind = \"trace\"\npath = \"t.trace\"\nstart_s = 5\nstop_s = 2\n") ==
        "FILE:5: workload.stop_s: expected a time after workload.start_s (5), found 2");
}

TEST_CASE("sim: Malformed --set, TOML syntax errors and unreadable files are errors", "[sim][config]") {
  CHECK(config_error(kBase, {"run.seed"}) == "--set run.seed: expected KEY=VALUE, found no '='");
  CHECK(config_error(kBase, {"=3"}) == "--set =3: expected KEY=VALUE, found no '='");
  {
    const std::string m = config_error("[run]\nseed = 1\nrequests = = 5\n");
    CHECK(m.rfind("FILE:3: TOML syntax error: ", 0) == 0);
  }
  {
    const std::string m = config_error("[device]\npreset = \"hp97560\n");  // unterminated string
    CHECK(m.rfind("FILE:2: TOML syntax error: ", 0) == 0);
  }
  {
    const std::string missing = (fs::temp_directory_path() / "drivevp-simtest-no-such-dir" / "none.toml").string();
    std::string m;
    try {
      (void)load_scenario(missing, {});
    } catch (const ConfigError& e) {
      m = e.what();
    }
    CHECK(m.rfind(missing + ": cannot read the scenario: ", 0) == 0);
  }
}

/// A good synthetic scenario for the binary, and a bad one (unknown policy at line 4).
const char* kGoodScenario =
    "[firmware]\npolicy = \"clook\"\n[workload]\nkind = \"synthetic\"\n[run]\nseed = 5\nrequests = 200\n"
    "progress = false\n[output]\nplots = false\n";
const char* kBadScenario = "[firmware]\nqueue_depth = 16\n\npolicy = \"fifo\"\n";

TEST_CASE("sim: drivevp exits 2 on a bad scenario and writes nothing", "[sim][config][cli]") {
  TempDir dir("cli-config");
  const fs::path bad = dir / "bad.toml";
  write_text(bad, kBadScenario);
  const fs::path out = dir / "out";
  const CommandResult r = run_drivevp(dir.path(), {"run", bad.string(), "--out", out.string()});
  CHECK(r.status == 2);
  CHECK(r.err == "drivevp: configuration error: " + bad.string() + ":4: firmware.policy: expected " + policy_list() +
                     ", found 'fifo'\n");
  CHECK(r.out.empty());
  CHECK_FALSE(fs::exists(out));
  // A bad --set is reported the same way.
  const CommandResult s = run_drivevp(dir.path(), {"run", "--set", "run.seed", "--out", out.string()});
  CHECK(s.status == 2);
  CHECK(s.err == "drivevp: configuration error: --set run.seed: expected KEY=VALUE, found no '='\n");
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("sim: drivevp leaves an earlier run's outputs untouched on a bad scenario or trace", "[sim][config][cli]") {
  TempDir dir("cli-keep");
  const fs::path good = dir / "good.toml";
  write_text(good, kGoodScenario);
  const fs::path out = dir / "out";
  const CommandResult first = run_drivevp(dir.path(), {"run", good.string(), "--out", out.string()});
  REQUIRE(first.status == 0);
  const std::vector<std::string> files = list_dir(out);
  REQUIRE(files == std::vector<std::string>{"requests.csv", "response_histogram.csv", "summary.json"});
  const std::string summary = read_text(out / "summary.json");
  const std::string csv = read_text(out / "requests.csv");
  const auto mtime = fs::last_write_time(out / "summary.json");

  const fs::path bad = dir / "bad.toml";
  write_text(bad, kBadScenario);
  const CommandResult r = run_drivevp(dir.path(), {"run", bad.string(), "--out", out.string()});
  CHECK(r.status == 2);
  CHECK(r.err.find(bad.string() + ":4: firmware.policy: expected") != std::string::npos);

  // A malformed trace: line 3 has a non-numeric block count.
  const fs::path trace = dir / "bad.trace";
  write_text(trace, disksim_line(0.0, 100, 1, true) + disksim_line(1.0, 200, 1, false) + "2.000000 0 300 x 1\n" +
                        disksim_line(3.0, 400, 1, true));
  const fs::path scenario = dir / "trace.toml";
  write_text(scenario, trace_scenario(trace, "fcfs"));
  const CommandResult t = run_drivevp(dir.path(), {"run", scenario.string(), "--out", out.string()});
  CHECK(t.status == 2);
  CHECK(t.err.rfind("drivevp: trace error: " + trace.string() + ":3: expected ", 0) == 0);
  CHECK(t.err.find("found 'x'") != std::string::npos);

  CHECK(list_dir(out) == files);
  CHECK(read_text(out / "summary.json") == summary);
  CHECK(read_text(out / "requests.csv") == csv);
  CHECK(fs::last_write_time(out / "summary.json") == mtime);

  // The same malformed trace into a fresh directory creates nothing.
  const fs::path fresh = dir / "fresh";
  const CommandResult u = run_drivevp(dir.path(), {"run", scenario.string(), "--out", fresh.string()});
  CHECK(u.status == 2);
  CHECK_FALSE(fs::exists(fresh));
}

TEST_CASE("sim: workload.time_scale scales a synthetic open loop's arrivals (002 s) and is refused for a closed loop",
          "[sim][config]") {
  // Rate 10/s scaled by s = 2 is the same arrival process as rate 20/s: the same seed draws the
  // same exponential variates, divided by the same rate.
  TempDir dir("time-scale");
  write_text(dir / "s.toml", kBase);
  const auto scaled =
      run_drivevp(dir.path(), {"run", (dir / "s.toml").string(), "--set", "workload.rate_per_s=10", "--set",
                               "workload.time_scale=2", "--set", "run.requests=500", "--out", (dir / "a").string()});
  const auto plain = run_drivevp(dir.path(), {"run", (dir / "s.toml").string(), "--set", "workload.rate_per_s=20",
                                              "--set", "run.requests=500", "--out", (dir / "b").string()});
  REQUIRE(scaled.status == 0);
  REQUIRE(plain.status == 0);
  CHECK(read_text(dir / "a/requests.csv") == read_text(dir / "b/requests.csv"));
  CHECK(config_error(kBase, {"workload.loop=closed", "workload.time_scale=2"}) ==
        "--set workload.time_scale=2: workload.time_scale applies only to an open loop (or a trace): a closed loop "
        "has no arrival times");
  CHECK(config_error(kBase, {"workload.rate_per_s=1e9", "workload.time_scale=2"}) ==
        "--set workload.time_scale=2: workload.time_scale: expected workload.rate_per_s x workload.time_scale <= 1e9 "
        "requests per second, found 1000000000 x 2 = 2e+09");
}

}  // namespace
}  // namespace drivevp
