// Input hardening (issue "Hardening"): the README's "replay your own trace" command means the
// user's trace, not the default scenario's device and format; "all devices" has a value; a run
// that would simulate nothing is an error; numbers that would take simulated time out of its
// int64 picosecond range are rejected naming the key and the limit; the scenario loader bounds
// table nesting, takes one TOML value per --set and clips what it quotes.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <string>
#include <vector>

#include "sim_test_util.h"
#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR

namespace drivevp {
namespace {

using namespace simtest;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

const std::string kData = DRIVEVP_SOURCE_DIR "/testbench/tests/data/traces/";

/// The ConfigError message of loading `path` ("" = the embedded default) with `overrides`.
std::string load_error(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    (void)load_scenario(path, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST_CASE("sim: --set workload.path on the default scenario replays the user's trace, all devices",
          "[sim][config][hardening]") {
  const std::string own = kData + "spc_small.csv";
  const Scenario sc = load_scenario("", {"workload.path=" + own, "workload.format=spc"});
  CHECK(sc.workload_kind == Scenario::WorkloadKind::Trace);
  CHECK(sc.trace.paths == std::vector<std::string>{own});
  CHECK(sc.trace.format == TraceFormat::Spc);
  CHECK_FALSE(sc.trace.device.has_value());  // not the default's device 14
  CHECK(sc.trace.capacity == CapacityPolicy::Error);
  // Without a format, detection (not the default's "disksim").
  CHECK(load_scenario("", {"workload.path=" + own}).trace.format == TraceFormat::Auto);
  // The user's own device filter applies.
  CHECK(load_scenario("", {"workload.path=" + own, "workload.device=3"}).trace.device == 3u);
  // The default itself still replays device 14 in DiskSim format.
  const Scenario def = load_scenario("", {});
  CHECK(def.trace.device == 14u);
  CHECK(def.trace.format == TraceFormat::DiskSim);
  // Other sections of the default stay.
  CHECK(sc.policy == "sptf");
}

TEST_CASE("sim: --set workload.kind=synthetic on the default scenario is a synthetic run", "[sim][config][hardening]") {
  const Scenario sc = load_scenario("", {"workload.kind=synthetic", "run.requests=50"});
  CHECK(sc.workload_kind == Scenario::WorkloadKind::Synthetic);
  CHECK(sc.synthetic.requests == 50);
  CHECK(load_error("", {"workload.kind=synthetic", "workload.rate_per_s=40"}) == "<no error>");
}

TEST_CASE("sim: workload.device = \"all\" keeps every device; a path alone makes a trace workload",
          "[sim][config][hardening]") {
  TempDir dir("device-all");
  const fs::path file = dir / "s.toml";
  write_text(file, "[workload]\npath = \"t.trace\"\ndevice = \"all\"\n");
  const Scenario sc = load_scenario(file.string(), {});
  CHECK(sc.workload_kind == Scenario::WorkloadKind::Trace);
  CHECK_FALSE(sc.trace.device.has_value());
  CHECK(load_scenario(file.string(), {"workload.device=7"}).trace.device == 7u);
  CHECK_FALSE(load_scenario("", {"workload.device=all"}).trace.device.has_value());
  CHECK(load_error(file.string(), {"workload.device=-1"}) ==
        "--set workload.device=-1: workload.device: expected an integer in [0, 4294967295], found -1");
  CHECK(load_error(file.string(), {"workload.device=alle"}) ==
        "--set workload.device=alle: workload.device: expected an integer in [0, 4294967295] or \"all\", found "
        "'alle'");
}

TEST_CASE("sim: a --set value is one TOML value on one line", "[sim][config][hardening]") {
  CHECK(load_error("", {"run.seed=1\nrun.requests=5"}) ==
        "--set run.seed=1\\x0Arun.requests=5: run.seed: expected one TOML value on one line, found a line break");
  CHECK_THAT(load_error("", {"firmware.policy=\"fcfs\"\r\n[device]\nrpm = 60"}),
             ContainsSubstring("firmware.policy: expected one TOML value on one line, found a line break"));
  // A value that is not TOML is taken as a string, as before.
  CHECK(load_scenario("", {"output.dir=out dir/x"}).output_dir == "out dir/x");
}

TEST_CASE("sim: deeply nested table headers and keys are rejected before parsing", "[sim][config][hardening]") {
  TempDir dir("nesting");
  const fs::path deep = dir / "deep.toml";
  std::string header = "[a";
  for (int i = 0; i < 200'000; ++i) header += ".a";
  write_text(deep, "# comment\n" + header + "]\nx = 1\n");
  CHECK(load_error(deep.string(), {}) ==
        deep.string() + ":2: expected a table header or key at most 16 levels deep, found 200001 levels");
  const fs::path dotted = dir / "dotted.toml";
  write_text(dotted, "[run]\na.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q = 1\n");
  CHECK(load_error(dotted.string(), {}) ==
        dotted.string() + ":2: expected a table header or key at most 16 levels deep, found 17 levels");
  // Dots inside quoted keys and values do not count.
  const fs::path quoted = dir / "quoted.toml";
  write_text(quoted, "[output]\ndir = \"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r\"\n");
  CHECK(load_error(quoted.string(), {}) == "<no error>");
}

TEST_CASE("sim: long and non-UTF-8 keys and values are clipped and escaped in messages", "[sim][config][hardening]") {
  const std::string long_key = "run." + std::string(10'000, 'k');
  const std::string m = load_error("", {long_key + "=1"});
  CHECK(m.size() < 600);
  CHECK_THAT(m, StartsWith("--set run.kkkk"));
  CHECK_THAT(m, ContainsSubstring("...: unknown key 'run.kkkk"));
  const std::string v = load_error("", {"firmware.policy=\xff\xfe" + std::string(5'000, 'x')});
  CHECK(v.size() < 600);
  CHECK_THAT(v, ContainsSubstring("found '\\xFF\\xFExxx"));
  // An oversized file (not a scenario) is refused without reading it whole.
  TempDir dir("big");
  const fs::path big = dir / "big.toml";
  write_text(big, std::string((1 << 20) + 10, '#'));
  CHECK(load_error(big.string(), {}) ==
        big.string() + ": expected a scenario file of at most 1 MiB, found a larger file");
}

TEST_CASE("sim: inputs that would overflow simulated time are rejected with the key and the limit",
          "[sim][config][hardening]") {
  CHECK(load_error("", {"workload.start_s=1e9"}) ==
        "--set workload.start_s=1e9: workload.start_s: expected a number in [0, 9223371], found 1e+09");
  CHECK(load_error("", {"workload.stop_s=1e9"}) ==
        "--set workload.stop_s=1e9: workload.stop_s: expected a number in [0, 9223371], found 1e+09");
  CHECK_THAT(load_error("", {"workload.kind=synthetic", "workload.rate_per_s=1e-300"}),
             StartsWith("--set workload.kind=synthetic: workload.rate_per_s: expected at least run.requests / "
                        "2305843 s = 0.00433681 requests per second, so that the last arrival stays within the "
                        "simulated-time limit of 4611686 s") ||
                 StartsWith("--set workload.rate_per_s=1e-300: workload.rate_per_s: expected at least run.requests / "
                            "2305843 s = 0.00433681 requests per second"));
  // Closed loop: arrival times are not used, so any rate is accepted.
  CHECK(load_error("", {"workload.kind=synthetic", "workload.rate_per_s=1e-300", "workload.loop=closed"}) ==
        "<no error>");
}

TEST_CASE("sim: the README's replay command on a blkparse trace replays every request", "[sim][cli][hardening]") {
  TempDir dir("own-trace");
  const fs::path out = dir / "out";
  const CommandResult r =
      run_drivevp(dir.path(), {"run", "--set", "workload.path=" + kData + "blkparse_small.txt", "--set",
                               "workload.format=blkparse", "--set", "workload.capacity=wrap", "--set",
                               "output.plots=false", "--set", "run.progress=false", "--out", out.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  // blkparse_small.txt: 5 read/write Q events on minors 0 and 16 (a flush and a discard are
  // ignored) — none on the default scenario's device 14.
  CHECK(summary["requests"]["completed"] == 5);
  CHECK(summary["trace"]["selected"] == 5);
  CHECK(summary["trace"]["device_filter"] == "all");
  CHECK(summary["trace"]["dropped"]["device"] == 0);
  CHECK(summary["trace"]["requests_per_device"] == nlohmann::json::parse("[[0, 3], [16, 2]]"));
  CHECK_THAT(r.out, ContainsSubstring("  trace        5 requests in the trace, 5 selected | dropped: device 0, "
                                      "window 0, skip 0, limit 0 | 0 malformed lines skipped\n"));
}

TEST_CASE("sim: a run that would simulate no request is an error, and nothing is written", "[sim][cli][hardening]") {
  TempDir dir("zero");
  const fs::path out = dir / "out";
  const CommandResult r = run_drivevp(dir.path(), {"run", "--set", "workload.path=" + kData + "blkparse_small.txt",
                                                   "--set", "workload.device=14", "--out", out.string()});
  CHECK(r.status == 2);
  CHECK(r.err == "drivevp: configuration error: <default scenario>: workload: no request selected from " + kData +
                     "blkparse_small.txt: the trace has 5 read/write requests; dropped 5 by workload.device = 14. "
                     "Requests per device in the trace: 0: 3, 16: 2; workload.device = \"all\" keeps every device\n");
  CHECK_FALSE(fs::exists(out));
  // An empty trace with an explicit format fails as it does under auto.
  const fs::path empty = dir / "empty.csv";
  write_text(empty, "");
  for (const char* format : {"auto", "spc", "msr", "mqsim"}) {
    const CommandResult e = run_drivevp(dir.path(), {"run", "--set", "workload.path=" + empty.string(), "--set",
                                                     std::string("workload.format=") + format, "--out", out.string()});
    CHECK(e.status == 2);
    CHECK(e.err == "drivevp: trace error: " + empty.string() + ": expected a trace record, found 'end of file'\n");
  }
  // A binary file.
  const fs::path bin = dir / "trace.vscsi";
  write_text(bin, std::string("\x01\x00\x00\x00\x2a\x00\x00\x00", 8));
  const CommandResult b =
      run_drivevp(dir.path(), {"run", "--set", "workload.path=" + bin.string(), "--out", out.string()});
  CHECK(b.status == 2);
  CHECK_THAT(b.err, StartsWith("drivevp: trace error: " + bin.string() +
                               ": binary file, not a supported text trace format (a NUL byte at offset 1;"));
  // time_scale so small that the default trace's last request would arrive after the limit.
  const CommandResult t = run_drivevp(dir.path(), {"run", "--set", "workload.time_scale=1e-9", "--out", out.string()});
  CHECK(t.status == 2);
  CHECK_THAT(t.err, StartsWith("drivevp: configuration error: <default scenario>: workload: workload.time_scale: the "
                               "last selected request would arrive at 1.53294e+12 s of simulated time"));
  CHECK_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace drivevp
