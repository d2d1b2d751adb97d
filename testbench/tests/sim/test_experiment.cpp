// Experiment files and sweeps (testbench/experiment/, docs/experiments.md): validation errors
// with their exact messages, crossing and zipping of axes, ranges, seed derivation, confidence
// intervals, and the drivevp sweep command end to end (results independent of --jobs, a failing
// point does not stop the others, resume, dry run).
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <set>
#include <string>
#include <vector>

#include "sim_test_util.h"
#include "source_paths.h"  // generated: DRIVEVP_SOURCE_DIR
#include "testbench/experiment/experiment.h"
#include "testbench/experiment/results.h"

namespace drivevp {
namespace {

using namespace simtest;
using experiment::Experiment;
using experiment::load_experiment;

/// A valid synthetic base for experiment files (lines 1-9).
const char* kBase =
    "[device]\n"                                 // 1
    "preset = \"hp97560\"\n"                     // 2
    "[workload]\n"                               // 3
    "kind = \"synthetic\"\n"                     // 4
    "rate_per_s = 20.0\n"                        // 5
    "[run]\n"                                    // 6
    "requests = 200\n"                           // 7
    "[metrics]\n"                                // 8
    "mean_ms = \"metrics.response_mean_ms\"\n";  // 9

fs::path write_experiment(const TempDir& dir, const std::string& text, const std::string& name = "exp.toml") {
  const fs::path p = dir / name;
  write_text(p, text);
  return p;
}

/// The ConfigError message of loading `text` (its path replaced by FILE), or "<no error>".
std::string experiment_error(const std::string& text, const std::vector<std::string>& sets = {}) {
  static TempDir dir("experiment-errors");
  static int n = 0;
  const fs::path p = write_experiment(dir, text, "e" + std::to_string(n++) + ".toml");
  try {
    (void)load_experiment(p.string(), sets);
  } catch (const ConfigError& e) {
    std::string m = e.what();
    for (auto at = m.find(p.string()); at != std::string::npos; at = m.find(p.string()))
      m.replace(at, p.string().size(), "FILE");
    return m;
  }
  return "<no error>";
}

std::vector<std::string> texts(const Experiment& ex, const experiment::Point& p) {
  std::vector<std::string> out;
  for (std::size_t a = 0; a < ex.axes.size(); ++a) out.push_back(ex.axes[a].values[p.value_of[a]].text);
  return out;
}

TEST_CASE("experiment: axes are crossed in file order, the first varying slowest") {
  TempDir dir("experiment-cross");
  const auto p = write_experiment(dir, std::string(kBase) +
                                           "[axes]\n"
                                           "\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n"
                                           "\"workload.rate_per_s\" = [10, 20.5, 30]\n");
  const Experiment ex = load_experiment(p.string(), {});
  REQUIRE(ex.axes.size() == 2);
  CHECK(ex.axes[0].key == "firmware.policy");
  CHECK(ex.axes[1].key == "workload.rate_per_s");
  REQUIRE(ex.points.size() == 6);
  const std::vector<std::vector<std::string>> expected = {{"fcfs", "10"}, {"fcfs", "20.5"}, {"fcfs", "30"},
                                                          {"sptf", "10"}, {"sptf", "20.5"}, {"sptf", "30"}};
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(ex.points[i].id == fmt::format("p000{}", i));
    CHECK(texts(ex, ex.points[i]) == expected[i]);
  }
  // The resolved scenario holds the point's values; different points hash differently.
  CHECK(ex.points[4].resolved_toml.find("policy = 'sptf'") != std::string::npos);
  CHECK(ex.points[4].resolved_toml.find("rate_per_s = 20.5") != std::string::npos);
  std::set<std::string> hashes;
  for (const auto& pt : ex.points) hashes.insert(pt.scenario_sha256);
  CHECK(hashes.size() == 6);
}

TEST_CASE("experiment: a zip group advances together and is crossed with the other axes as one axis") {
  TempDir dir("experiment-zip");
  const auto p = write_experiment(dir, std::string(kBase) +
                                           "[axes]\n"
                                           "\"firmware.policy\" = [\"fcfs\", \"clook\", \"sptf\"]\n"
                                           "[[zip]]\n"
                                           "\"device.preset\" = [\"hp97560\", \"disk003\"]\n"
                                           "\"workload.rate_per_s\" = [40, 80]\n");
  const Experiment ex = load_experiment(p.string(), {});
  REQUIRE(ex.axes.size() == 3);
  CHECK(ex.axes[1].zip == 0);
  CHECK(ex.axes[2].zip == 0);
  REQUIRE(ex.points.size() == 6);
  const std::vector<std::vector<std::string>> expected = {{"fcfs", "hp97560", "40"},  {"fcfs", "disk003", "80"},
                                                          {"clook", "hp97560", "40"}, {"clook", "disk003", "80"},
                                                          {"sptf", "hp97560", "40"},  {"sptf", "disk003", "80"}};
  for (std::size_t i = 0; i < 6; ++i) CHECK(texts(ex, ex.points[i]) == expected[i]);
}

TEST_CASE("experiment: ranges expand to exact values") {
  TempDir dir("experiment-range");
  const auto p = write_experiment(dir, std::string(kBase) +
                                           "[axes]\n"
                                           "\"workload.rate_per_s\" = { from = 10, to = 60, step = 10 }\n"
                                           "\"workload.read_fraction\" = { from = 0.1, to = 0.3, step = 0.1 }\n"
                                           "\"run.requests\" = { from = 10, to = 1000, count = 3, scale = \"log\" }\n");
  const Experiment ex = load_experiment(p.string(), {});
  auto values = [&](std::size_t a) {
    std::vector<std::string> v;
    for (const auto& x : ex.axes[a].values) v.push_back(x.text);
    return v;
  };
  CHECK(values(0) == std::vector<std::string>{"10", "20", "30", "40", "50", "60"});
  CHECK(ex.axes[0].values[0].node->is_integer());
  CHECK(values(1) == std::vector<std::string>{"0.1", "0.2", "0.3"});  // not 0.30000000000000004
  CHECK(values(2) == std::vector<std::string>{"10", "100", "1000"});
  CHECK(ex.points.size() == 6 * 3 * 3);
}

TEST_CASE("experiment: seeds are derived from run.seed, the point and the replication, stably") {
  // The derivation is part of the file format (docs/experiments.md "Seeds"): these values must
  // never change, or old sweeps would no longer resume.
  CHECK(experiment::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(experiment::derive_seed(1, "", 0) == 0x399ed2e6783e80c1ULL);
  std::set<std::uint64_t> seeds;
  for (int k = 0; k < 50; ++k) {
    seeds.insert(experiment::derive_seed(7, "a=1", k));
    seeds.insert(experiment::derive_seed(7, "a=2", k));
  }
  CHECK(seeds.size() == 100);
  for (std::uint64_t s : seeds) CHECK(s <= 0x7fff'ffff'ffff'ffffULL);  // within run.seed's range
  CHECK(experiment::derive_seed(7, "a=1", 0) != experiment::derive_seed(8, "a=1", 0));

  TempDir dir("experiment-seeds");
  const std::string axes = "[axes]\n\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n";
  const auto indep = write_experiment(dir, "[experiment]\nreplications = 3\n" + std::string(kBase) + axes, "i.toml");
  const auto common = write_experiment(
      dir, "[experiment]\nreplications = 3\nseeds = \"common\"\n" + std::string(kBase) + axes, "c.toml");
  const auto pi = experiment::plan_of(load_experiment(indep.string(), {}));
  const auto pc = experiment::plan_of(load_experiment(common.string(), {}));
  CHECK(pi.points[0].seeds != pi.points[1].seeds);
  CHECK(pi.points[0].seeds[0] == experiment::derive_seed(1, "firmware.policy=fcfs", 0));
  CHECK(pc.points[0].seeds == pc.points[1].seeds);  // common random numbers
  CHECK(pc.points[0].seeds[2] == experiment::derive_seed(1, "", 2));
  CHECK(std::set<std::uint64_t>(pc.points[0].seeds.begin(), pc.points[0].seeds.end()).size() == 3);
}

TEST_CASE("experiment: mean, standard deviation and Student-t 95 % confidence half-width") {
  const auto s = experiment::summarize({1, 2, 3, 4, 5});
  CHECK(*s.mean == 3.0);
  CHECK(*s.sd == Catch::Approx(1.5811388300841898).epsilon(1e-15));
  // t(0.975, 4) = 2.7764451051977987; half-width = t * sd / sqrt(5).
  CHECK(*s.ci95 == Catch::Approx(2.7764451051977987 * 1.5811388300841898 / 2.23606797749979).epsilon(1e-12));
  const auto one = experiment::summarize({4.5});
  CHECK(*one.mean == 4.5);
  CHECK(!one.sd);
  CHECK(!one.ci95);
  CHECK(!experiment::summarize({}).mean);
}

TEST_CASE("experiment: bad files are errors naming the file, line, key, what is allowed and what was found") {
  const std::string b = kBase;
  CHECK(experiment_error(b + "[axes]\n\"firmware.policy\" = [\"fcfs\", \"fifo\"]\n") ==
        "FILE:11: firmware.policy: expected one of fcfs, sstf, scan, look, cscan, clook, sptf, aged_sptf, noop, "
        "deadline, anticipatory, cfq, bfq, nstep_scan, fscan, edf, scan_edf, parallel_deadline, sfc, psptf, pasptf, "
        "zsptf, zscan_psptf, zpsptf, wrr_scan_r, wrr_scan_c, wrr_scan_ca, tps_scan_scan, tps_scan_scan_ci_opt, "
        "ops_famish, ops_scan_ci_sptf, ops_scan_ci_opt, ops_scan_clust_req, ops_scan_clust_cyl, sptf_glitch_guard, "
        "found 'fifo'");
  CHECK(experiment_error(b + "[axes]\n\"firmware.polcy\" = [\"fcfs\"]\n") ==
        "FILE:11: unknown key 'firmware.polcy': policy 'sptf' accepts firmware.policy, firmware.queue_depth");
  CHECK(experiment_error(b + "[sweep]\nx = 1\n") ==
        "FILE:10: unknown section 'sweep'; allowed: experiment, axes, zip, metrics, figures, part, and the scenario "
        "sections device, firmware, workload, run, trace, output");
  CHECK(experiment_error(b + "[axes]\n\"firmware.policy\" = []\n") ==
        "FILE:11: firmware.policy: expected a non-empty array of values, found []");
  CHECK(experiment_error(b + "[axes]\n\"firmware.policy\" = \"fcfs\"\n") ==
        "FILE:11: firmware.policy: expected an array of values or a range table { from, to, step | count }, found "
        "'fcfs'");
  CHECK(experiment_error(b + "[axes]\n\"workload.rate_per_s\" = [10, 10]\n") ==
        "FILE:11: workload.rate_per_s: expected distinct values, found '10' twice");
  CHECK(experiment_error(b + "[axes]\n\"workload.rate_per_s\" = { from = 10, to = 5, step = 1 }\n") ==
        "FILE:11: workload.rate_per_s.to: expected a value >= from (10), found 5");
  CHECK(experiment_error(b + "[axes]\n\"workload.rate_per_s\" = { from = 1, to = 5 }\n") ==
        "FILE:11: workload.rate_per_s: expected a range with exactly one of 'step' and 'count', found neither");
  CHECK(experiment_error(b + "[axes]\n\"run.seed\" = [1, 2]\n") ==
        "FILE:11: run.seed: expected not an axis (replications derive the seeds; set experiment.replications), "
        "found an axis");
  CHECK(experiment_error(b + "[[zip]]\n\"device.preset\" = [\"hp97560\", \"disk003\"]\n"
                             "\"workload.rate_per_s\" = [40]\n") ==
        "FILE:12: zip.workload.rate_per_s: expected 2 values, as many as zip.device.preset, found 1");
  CHECK(experiment_error("[experiment]\nreplications = 0\n" + b) ==
        "FILE:2: experiment.replications: expected an integer in [1, 1000], found 0");
  CHECK(experiment_error("[experiment]\nseeds = \"same\"\n" + b) ==
        "FILE:2: experiment.seeds: expected 'independent' or 'common' (common random numbers), found 'same'");
  CHECK(experiment_error("[experiment]\nscenario = \"nowhere.toml\"\n" + b) ==
        "FILE:2: experiment.scenario: expected an existing scenario file (relative to the experiment file), found "
        "'nowhere.toml'");
  CHECK(experiment_error(b + "p99 = \"response_p99_ms\"\n") ==
        "FILE:10: metrics.p99: expected a path under one of metrics, requests, checks, saturation, trace, memory, "
        "simulated_time_ms, deadlines, energy, sfc, rate_tasks, rounds, "
        "validation (see summary.json), found 'response_p99_ms'");
  const std::string axes = "[axes]\n\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n\"workload.rate_per_s\" = [10, 20]\n";
  CHECK(experiment_error(b + axes + "[[figures]]\nname = \"f\"\nx = \"workload.rate_per_s\"\ny = \"mean_ms\"\n") ==
        "FILE:13: figures.f: expected every axis with several values to be the figure's x, series or panels, "
        "found axis firmware.policy with 2 values");
  CHECK(experiment_error(b + axes + "[[figures]]\nname = \"f\"\nx = \"workload.rate\"\ny = \"mean_ms\"\n") ==
        "FILE:15: figures.x: expected an axis key (firmware.policy, workload.rate_per_s), found 'workload.rate'");
  CHECK(experiment_error(b + axes +
                         "[[figures]]\nname = \"f\"\nx = \"workload.rate_per_s\"\ny = \"p99\"\n"
                         "series = \"firmware.policy\"\n") ==
        "FILE:16: figures.y: expected a metric name (mean_ms), found 'p99'");
  CHECK(experiment_error(b + axes, {"firmware.policy=clook"}) ==
        "--set firmware.policy=clook: firmware.policy is an axis of the experiment (FILE:11); remove it from the "
        "axes or from --set");
  // --set is validated like drivevp run's.
  CHECK(experiment_error(b + axes, {"firmware.queue_depth=0"}) ==
        "--set firmware.queue_depth=0: firmware.queue_depth: expected an integer in [1, 65536], found 0");
  // A value that is only wrong in combination is reported at the point that has it.
  CHECK(experiment_error(b + "[firmware]\nqueue_depth = 4\n[axes]\n\"workload.loop\" = [\"closed\"]\n"
                             "\"workload.outstanding\" = [2, 100]\n") ==
        "FILE:14: workload.outstanding: expected at most firmware.queue_depth (4), found 100");
}

TEST_CASE("experiment: bar figures, a selection of panels and own y axes are recorded for the plots") {
  const std::string b = kBase;
  const std::string axes =
      "[axes]\n\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n\"workload.time_scale\" = [1, 2.5, 10]\n";  // 10-12
  TempDir dir("experiment-bars");
  const auto p =
      write_experiment(dir, b + axes +
                                "[[figures]]\nname = \"bars\"\nx = \"firmware.policy\"\ny = \"mean_ms\"\n"
                                "panels = \"workload.time_scale\"\nkind = \"bar\"\npanel_values = [10, 2.5]\n"
                                "sharey = false\n"
                                "[[figures]]\nname = \"lines\"\nx = \"workload.time_scale\"\ny = \"mean_ms\"\n"
                                "series = \"firmware.policy\"\n");
  const Experiment ex = load_experiment(p.string(), {});
  REQUIRE(ex.figures.size() == 2);
  CHECK(ex.figures[0].kind == "bar");
  CHECK(ex.figures[0].panel_values == std::vector<std::size_t>{2, 1});
  CHECK(!ex.figures[0].sharey);
  CHECK(ex.figures[1].kind == "line");
  CHECK(ex.figures[1].panel_values.empty());
  CHECK(ex.figures[1].sharey);
  const nlohmann::json record = experiment::experiment_record(ex, experiment::plan_of(ex));
  CHECK(record["figures"][0]["kind"] == "bar");
  CHECK(record["figures"][0]["panel_values"].dump() == "[10,2.5]");  // typed as the axis' values
  CHECK(record["figures"][0]["sharey"] == false);
  CHECK(record["figures"][1]["kind"] == "line");
  CHECK(record["figures"][1]["panel_values"].is_null());
  CHECK(record["figures"][1]["sharey"] == true);

  const std::string fig = "[[figures]]\nname = \"f\"\nx = \"firmware.policy\"\ny = \"mean_ms\"\n";  // 13-16
  const std::string panels = "panels = \"workload.time_scale\"\n";                                  // 17
  CHECK(experiment_error(b + axes + fig + panels + "kind = \"pie\"\n") ==
        "FILE:18: figures.kind: expected 'line' or 'bar', found 'pie'");
  CHECK(experiment_error(b + axes + fig + panels + "sharey = 1\n") ==
        "FILE:18: figures.sharey: expected true or false, found 1");
  CHECK(experiment_error(b + axes + fig + panels + "panel_values = [3]\n") ==
        "FILE:18: figures.panel_values: expected values of the axis workload.time_scale (1, 2.5, 10), found 3");
  CHECK(experiment_error(b + axes + fig + panels + "panel_values = [\"10\"]\n") ==
        "FILE:18: figures.panel_values: expected values of the axis workload.time_scale (1, 2.5, 10), found '10'");
  CHECK(experiment_error(b + axes + fig + panels + "panel_values = [10, 10.0]\n") ==
        "FILE:18: figures.panel_values: expected distinct values, found '10' twice");
  CHECK(experiment_error(b + axes + fig + panels + "panel_values = []\n") ==
        "FILE:18: figures.panel_values: expected a non-empty array of values of the panels axis, found []");
  CHECK(experiment_error(b + axes +
                         "[[figures]]\nname = \"f\"\nx = \"workload.time_scale\"\ny = \"mean_ms\"\n"
                         "series = \"firmware.policy\"\npanel_values = [1]\n") ==
        "FILE:18: figures.panel_values: expected a figure with panels (figures.panels), found no panels");
  CHECK(experiment_error(b + axes + fig + panels + "colour = \"red\"\n") ==
        "FILE:18: unknown key 'figures.colour'; allowed: name, x, y, series, panels, title, xlabel, ylabel, logx, "
        "logy, kind, panel_values, sharey");
}

TEST_CASE("experiment: inline sections override the base scenario file; paths resolve against their file") {
  TempDir dir("experiment-base");
  fs::create_directories(dir / "configs");
  fs::create_directories(dir / "traces");
  write_text(dir / "traces/t.trace", disksim_line(0, 0, 8, true) + disksim_line(1, 100, 8, true));
  write_text(dir / "configs/base.toml",
             "[device]\npreset = \"hp97560\"\n[firmware]\npolicy = \"fcfs\"\n[workload]\nkind = \"trace\"\n"
             "path = \"../traces/t.trace\"\nformat = \"disksim\"\n[run]\nseed = 5\n");
  const auto p = write_experiment(dir,
                                  "[experiment]\nscenario = \"configs/base.toml\"\n[firmware]\npolicy = \"sptf\"\n"
                                  "[axes]\n\"firmware.queue_depth\" = [1, 8]\n");
  const Experiment ex = load_experiment(p.string(), {});
  CHECK(ex.base_seed == 5);
  const std::string& t = ex.points[1].resolved_toml;
  CHECK(t.find("policy = 'sptf'") != std::string::npos);
  CHECK(t.find("queue_depth = 8") != std::string::npos);
  CHECK(t.find("path = '" + fs::weakly_canonical(dir / "traces/t.trace").string() + "'") != std::string::npos);
}

/// Two parts over kBase (lines 1-9): "load" crosses policies with rates (lines 10-14), "depth"
/// sets the rate and sweeps the queue depth with its own figure (lines 15-24).
const std::string kParts = std::string(kBase) +
                           "[[part]]\n"                                                            // 10
                           "name = \"load\"\n"                                                     // 11
                           "[part.axes]\n"                                                         // 12
                           "\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n"                          // 13
                           "\"workload.rate_per_s\" = [20, 40]\n"                                  // 14
                           "[[part]]\n"                                                            // 15
                           "name = \"depth\"\n"                                                    // 16
                           "description = \"queue depth at 30/s\"\n"                               // 17
                           "set = { \"workload.rate_per_s\" = 30, firmware.policy = \"sptf\" }\n"  // 18
                           "[part.axes]\n"                                                         // 19
                           "\"firmware.queue_depth\" = [1, 4, 16]\n"                               // 20
                           "[[part.figures]]\n"                                                    // 21
                           "name = \"depth\"\n"                                                    // 22
                           "x = \"firmware.queue_depth\"\n"                                        // 23
                           "y = \"mean_ms\"\n";                                                    // 24

TEST_CASE("experiment: [[part]] tables are separate grids over the file's scenario and metrics") {
  TempDir dir("experiment-parts");
  const auto p = write_experiment(dir, "[experiment]\nname = \"two\"\nreplications = 2\n" + kParts);
  const std::vector<Experiment> parts = experiment::load_experiments(p.string(), {"run.requests=150"});
  REQUIRE(parts.size() == 2);
  const Experiment& load = parts[0];
  const Experiment& depth = parts[1];
  CHECK(load.part == "load");
  CHECK(load.name == "two.load");
  CHECK(depth.name == "two.depth");
  CHECK(depth.description == "queue depth at 30/s");
  CHECK(load.replications == 2);
  CHECK(depth.replications == 2);
  REQUIRE(load.metrics.size() == 1);
  CHECK(depth.metrics[0].path == "metrics.response_mean_ms");
  REQUIRE(load.axes.size() == 2);
  CHECK(load.points.size() == 4);
  CHECK(load.figures.empty());
  REQUIRE(depth.axes.size() == 1);
  CHECK(depth.axes[0].key == "firmware.queue_depth");
  REQUIRE(depth.points.size() == 3);
  REQUIRE(depth.figures.size() == 1);
  CHECK(depth.figures[0].x == "firmware.queue_depth");
  // The part's set sits above the file's sections (rate 20 -> 30) and below --set.
  const std::string& t = depth.points[2].resolved_toml;
  CHECK(t.find("rate_per_s = 30") != std::string::npos);
  CHECK(t.find("policy = 'sptf'") != std::string::npos);
  CHECK(t.find("queue_depth = 16") != std::string::npos);
  CHECK(t.find("requests = 150") != std::string::npos);
  CHECK(load.points[3].resolved_toml.find("rate_per_s = 40") != std::string::npos);
  CHECK(load.points[3].resolved_toml.find("requests = 150") != std::string::npos);
  // A part is the experiment its own file would be: the same points, scenarios and seeds.
  const auto alone = write_experiment(dir,
                                      "[experiment]\nname = \"two\"\nreplications = 2\n" + std::string(kBase) +
                                          "[axes]\n\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n"
                                          "\"workload.rate_per_s\" = [20, 40]\n",
                                      "alone.toml");
  const Experiment single = load_experiment(alone.string(), {"run.requests=150"});
  REQUIRE(single.points.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(single.points[i].scenario_sha256 == load.points[i].scenario_sha256);
  CHECK(experiment::plan_of(single).points[3].seeds == experiment::plan_of(load).points[3].seeds);
  // A file without parts is one experiment with no part name.
  const std::vector<Experiment> one = experiment::load_experiments(alone.string(), {});
  REQUIRE(one.size() == 1);
  CHECK(one[0].part.empty());
  CHECK(one[0].name == "two");
}

TEST_CASE("experiment: bad [[part]] tables are errors naming the line, the key, the allowed and the found") {
  const std::string b = kBase;
  CHECK(experiment_error(kParts + "[axes]\n\"run.requests\" = [100, 200]\n") ==
        "FILE:25: axes: expected no top-level axes, zip or figures beside [[part]] tables (each part has its own "
        "[part.axes], [[part.zip]], [[part.figures]]), found top-level 'axes'");
  CHECK(experiment_error(b + "[[part]]\n[part.axes]\n\"firmware.policy\" = [\"fcfs\"]\n") ==
        "FILE:10: part.name: expected a name for every [[part]] (it names the part's directory), found none");
  CHECK(experiment_error(b + "[[part]]\nname = \"a/b\"\n") ==
        "FILE:11: part.name: expected a name of letters, digits, '_', '-' (1..100; it names the part's directory), "
        "found 'a/b'");
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\n[[part]]\nname = \"a\"\n") ==
        "FILE:13: part.name: expected a name not used by another part, found 'a' again");
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\nrepeat = 2\n") ==
        "FILE:12: unknown key 'part.repeat'; allowed: part.name, part.description, part.set, part.axes, part.zip, "
        "part.figures");
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\nset = 3\n") ==
        "FILE:12: part.set: expected a table of scenario keys such as { \"firmware.policy\" = \"clook\" }, found 3");
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\nset = { \"firmware.policy\" = \"sptf\" }\n"
                             "[part.axes]\n\"firmware.policy\" = [\"fcfs\", \"clook\"]\n") ==
        "FILE:12: part.set.firmware.policy: expected a key that is not an axis of the part (a part's axis overrides "
        "its set), found the axis at FILE:14");
  // A part's set and axes are validated like the file's own.
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\nset = { \"firmware.queue_depth\" = 0 }\n") ==
        "FILE:12: firmware.queue_depth: expected an integer in [1, 65536], found 0");
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\n[part.axes]\n\"firmware.policy\" = [\"fifo\"]\n")
            .rfind("FILE:13: firmware.policy: expected one of fcfs, ", 0) == 0);
  CHECK(experiment_error(b + "[[part]]\nname = \"a\"\n[[part.figures]]\nname = \"f\"\nx = \"run.requests\"\n"
                             "y = \"mean_ms\"\n") ==
        "FILE:14: figures.x: expected an axis key (the experiment has no axes), found 'run.requests'");
  CHECK(experiment_error(kParts, {"firmware.policy=clook"}) ==
        "--set firmware.policy=clook: firmware.policy is an axis of the experiment (FILE:13); remove it from the "
        "axes or from --set");
  // load_experiment is for files without parts.
  TempDir dir("experiment-parts-one");
  const auto p = write_experiment(dir, kParts);
  try {
    (void)load_experiment(p.string(), {});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("has [[part]] tables; expected an experiment without parts here") !=
          std::string::npos);
  }
}

TEST_CASE("experiment: every shipped experiment file loads; paper 001's is one file of six parts") {
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(DRIVEVP_SOURCE_DIR) / "experiments")) {
    if (entry.path().extension() != ".toml") continue;
    INFO(entry.path().string());
    CHECK_NOTHROW(experiment::load_experiments(entry.path().string(), {}));
    ++files;
  }
  CHECK(files >= 7);
  const std::vector<Experiment> sfc =
      experiment::load_experiments(std::string(DRIVEVP_SOURCE_DIR) + "/experiments/sfc-qos-001.toml", {});
  std::vector<std::string> names;
  std::vector<std::size_t> points;
  for (const Experiment& e : sfc) {
    names.push_back(e.part);
    points.push_back(e.points.size());
    CHECK(e.replications >= 3);
    CHECK(!e.figures.empty());
  }
  CHECK(names == std::vector<std::string>{"fig8", "fig8-ae", "fig9", "fig9b", "fig10", "fig11"});
  CHECK(points == std::vector<std::size_t>{3 * 3 * 6, 3 * 6, 7 * 6, 7 * 7, 7 * 5, 3 * 3 * 6});
  // The AE part sets its starvation policy; Fig. 9 fixes w = 50 %.
  CHECK(sfc[1].points[0].resolved_toml.find("starvation = 'ae'") != std::string::npos);
  CHECK(sfc[0].points[0].resolved_toml.find("starvation = 'er'") != std::string::npos);
  CHECK(sfc[2].points[0].resolved_toml.find("window = 0.5") != std::string::npos);
}

// --- the command, end to end ------------------------------------------------------------------

/// A sweep of 2 policies x 2 rates x 2 replications on short synthetic runs.
const char* kSmallSweep =
    "[experiment]\nname = \"small\"\nreplications = 2\n"
    "[device]\npreset = \"hp97560\"\n[workload]\nkind = \"synthetic\"\nrate_per_s = 20.0\n"
    "[run]\nrequests = 200\n"
    "[axes]\n\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n\"workload.rate_per_s\" = [20, 40]\n"
    "[metrics]\nmean_ms = \"metrics.response_mean_ms\"\np99_ms = \"metrics.response_p99_ms\"\n"
    "completed = \"requests.completed\"\npassed = \"checks.passed\"\n";

TEST_CASE("sweep: results.csv and summary.csv are byte-identical whatever --jobs is") {
  TempDir dir("sweep-jobs");
  const auto exp = write_experiment(dir, kSmallSweep);
  const auto a = run_drivevp(dir.path(), {"sweep", exp.string(), "--jobs", "1", "--out", (dir / "a").string()});
  const auto b = run_drivevp(dir.path(), {"sweep", exp.string(), "--jobs", "3", "--out", (dir / "b").string()});
  INFO(a.err << b.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(read_text(dir / "a/results.csv") == read_text(dir / "b/results.csv"));
  CHECK(read_text(dir / "a/summary.csv") == read_text(dir / "b/summary.csv"));
  // One row per point x replication, every axis value, the seed and every metric.
  const std::string results = read_text(dir / "a/results.csv");
  CHECK(results.rfind("point,firmware.policy,workload.rate_per_s,replication,seed,status,mean_ms,p99_ms,completed,"
                      "passed\n",
                      0) == 0);
  CHECK(std::count(results.begin(), results.end(), '\n') == 1 + 4 * 2);
  const auto plan = experiment::read_plan((dir / "a").string());
  CHECK(results.find(fmt::format("\np0003,sptf,40,1,{},ok,", plan.points[3].seeds[1])) != std::string::npos);
  CHECK(results.find(",200,true\n") != std::string::npos);
  // The run's own summary.json agrees with the row.
  const auto summary = nlohmann::json::parse(read_text(dir / "a/points/p0003/rep-1/summary.json"));
  CHECK(summary["scenario"]["seed"] == plan.points[3].seeds[1]);
  CHECK(summary["scenario"]["firmware"]["policy"] == "sptf");
  CHECK(results.find(fmt::format(",{},{},200,true\n", summary["metrics"]["response_mean_ms"].get<double>(),
                                 summary["metrics"]["response_p99_ms"].get<double>())) != std::string::npos);
  // summary.csv: the header and n = 2 per point.
  const std::string s = read_text(dir / "a/summary.csv");
  CHECK(s.rfind("point,firmware.policy,workload.rate_per_s,n,mean_ms_mean,mean_ms_sd,mean_ms_ci95,p99_ms_mean,", 0) ==
        0);
  CHECK(s.find("\np0000,fcfs,20,2,") != std::string::npos);
  // experiment.json records the file, the version and the commit.
  const auto record = nlohmann::json::parse(read_text(dir / "a/experiment.json"));
  CHECK(record["experiment"]["text"] == kSmallSweep);
  CHECK(record["drivevp_version"] == DRIVEVP_VERSION);
  CHECK(record["git_commit"].is_string());
  CHECK(record["points"] == 4);
}

TEST_CASE("sweep: an experiment with parts writes one sweep directory per part, each as its own file would") {
  TempDir dir("sweep-parts");
  const std::string head = "[experiment]\nname = \"two\"\nreplications = 2\n";
  const auto exp = write_experiment(dir, head + kParts);
  const auto r = run_drivevp(dir.path(), {"sweep", exp.string(), "--jobs", "2", "--out", (dir / "out").string()});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("part load (1 of 2)") != std::string::npos);
  CHECK(r.out.find("part depth (2 of 2)") != std::string::npos);
  const std::string load = read_text(dir / "out/load/results.csv");
  CHECK(load.rfind("point,firmware.policy,workload.rate_per_s,replication,seed,status,mean_ms\n", 0) == 0);
  CHECK(std::count(load.begin(), load.end(), '\n') == 1 + 4 * 2);
  const std::string depth = read_text(dir / "out/depth/results.csv");
  CHECK(depth.rfind("point,firmware.queue_depth,replication,seed,status,mean_ms\n", 0) == 0);
  CHECK(std::count(depth.begin(), depth.end(), '\n') == 1 + 3 * 2);
  CHECK(fs::exists(dir / "out/depth/figures/depth.json"));
  CHECK(!fs::exists(dir / "out/load/figures"));
  const auto record = nlohmann::json::parse(read_text(dir / "out/depth/experiment.json"));
  CHECK(record["name"] == "two.depth");
  CHECK(record["part"] == "depth");
  const auto run = nlohmann::json::parse(read_text(dir / "out/depth/points/p0002/rep-0/summary.json"));
  CHECK(run["scenario"]["firmware"]["queue_depth"] == 16);
  // The part "load" alone, as a file of its own, gives byte-identical tables.
  const auto alone = write_experiment(dir,
                                      head + std::string(kBase) +
                                          "[axes]\n\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n"
                                          "\"workload.rate_per_s\" = [20, 40]\n",
                                      "alone.toml");
  const auto a = run_drivevp(dir.path(), {"sweep", alone.string(), "--out", (dir / "alone").string()});
  REQUIRE(a.status == 0);
  CHECK(read_text(dir / "alone/results.csv") == load);
  CHECK(read_text(dir / "alone/summary.csv") == read_text(dir / "out/load/summary.csv"));
  // A rerun finds every part's runs complete.
  const auto again = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", (dir / "out").string()});
  CHECK(again.status == 0);
  CHECK(again.out.find("8 done earlier, 0 to run") != std::string::npos);
  CHECK(again.out.find("6 done earlier, 0 to run") != std::string::npos);
}

TEST_CASE("sweep: a failing point is reported with its error; the others run; the sweep exits 1") {
  TempDir dir("sweep-fail");
  write_text(dir / "good.trace", disksim_line(0, 0, 8, true) + disksim_line(2, 5000, 8, true));
  write_text(dir / "bad.trace", disksim_line(0, 0, 8, true) + "this is not a trace line\n");
  const auto exp = write_experiment(dir,
                                    "[experiment]\nreplications = 2\n[workload]\nkind = \"trace\"\nformat = "
                                    "\"disksim\"\n[axes]\n\"workload.path\" = [\"good.trace\", \"bad.trace\"]\n"
                                    "\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n");
  const auto r = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", (dir / "out").string()});
  CHECK(r.status == 1);
  CHECK(r.err.find("drivevp sweep: p0002 rep 0 failed (exit 2): drivevp: trace error: ") != std::string::npos);
  CHECK(r.err.find("bad.trace:2") != std::string::npos);
  const std::string results = read_text(dir / "out/results.csv");
  CHECK(results.find("\np0000,good.trace,fcfs,0,") != std::string::npos);
  CHECK(std::count(results.begin(), results.end(), '\n') == 1 + 4 * 2);
  for (const char* ok : {"p0000,good.trace,fcfs,0", "p0001,good.trace,sptf,1"}) {
    const auto at = results.find(ok);
    REQUIRE(at != std::string::npos);
    CHECK(results.substr(at, results.find('\n', at) - at).find(",ok,") != std::string::npos);
  }
  CHECK(results.find("p0002,bad.trace,fcfs,0,") != std::string::npos);
  CHECK(results.find(",failed,") != std::string::npos);
  CHECK(r.out.find("(8 runs: 4 ok, 4 failed, 0 missing)") != std::string::npos);
  const auto rec = nlohmann::json::parse(read_text(dir / "out/points/p0003/rep-1.result.json"));
  CHECK(rec["exit_status"] == 2);
  CHECK(rec["status"] == "failed");
}

TEST_CASE("sweep: a rerun runs only missing or changed points; --dry-run writes nothing") {
  TempDir dir("sweep-resume");
  const auto exp = write_experiment(dir, kSmallSweep);
  const std::string out = (dir / "out").string();
  const auto dry = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out, "--dry-run"});
  CHECK(dry.status == 0);
  CHECK(dry.out.find("4 points x 2 replications = 8 runs") != std::string::npos);
  CHECK(!fs::exists(out));
  const auto first = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out});
  REQUIRE(first.status == 0);
  const std::string results = read_text(dir / "out/results.csv");
  const auto again = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out, "--resume"});
  CHECK(again.status == 0);
  CHECK(again.out.find("8 done earlier, 0 to run") != std::string::npos);
  CHECK(read_text(dir / "out/results.csv") == results);
  // A lost result and a corrupt one run again; the tables come out the same.
  fs::remove(dir / "out/points/p0001/rep-0.result.json");
  write_text(dir / "out/points/p0002/rep-1.result.json", "{\"point\": ");
  const auto repaired = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out});
  CHECK(repaired.out.find("6 done earlier, 2 to run") != std::string::npos);
  CHECK(read_text(dir / "out/results.csv") == results);
  // A changed scenario (here: every point's run.requests) invalidates every point.
  const auto changed = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out, "--set", "run.requests=150"});
  CHECK(changed.out.find("0 done earlier, 8 to run") != std::string::npos);
  CHECK(read_text(dir / "out/results.csv").find(",150,true\n") != std::string::npos);
  // --resume needs an earlier sweep.
  const auto none = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", (dir / "none").string(), "--resume"});
  CHECK(none.status == 2);
  CHECK(none.err.find("--resume: expected an earlier sweep in ") != std::string::npos);
}

TEST_CASE("sweep: a bad point stops the sweep before anything runs or is written") {
  TempDir dir("sweep-bad");
  const auto exp = write_experiment(
      dir, std::string(kSmallSweep) + "[[figures]]\nname = \"m\"\nx = \"run.requests\"\ny = \"mean_ms\"\n");
  const auto r = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", (dir / "out").string()});
  CHECK(r.status == 2);
  INFO(r.err);
  CHECK(r.err.find("exp.toml:21: figures.x: expected an axis key (firmware.policy, workload.rate_per_s), found "
                   "'run.requests'") != std::string::npos);
  CHECK(!fs::exists(dir / "out"));
}

}  // namespace
}  // namespace drivevp

namespace drivevp {
namespace {

TEST_CASE("sweep: --timeout stops a run past its limit, records it as failed, and the others finish") {
  TempDir dir("sweep-timeout");
  const auto exp =
      write_experiment(dir,
                       "[device]\npreset = \"hp97560\"\n[workload]\nkind = \"synthetic\"\nloop = "
                       "\"closed\"\n[run]\ncheck_data = false\n[axes]\n\"run.requests\" = [200, 50000000]\n"
                       "[metrics]\ncompleted = \"requests.completed\"\n");
  const auto r = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", (dir / "out").string(), "--timeout", "1"});
  CHECK(r.status == 1);
  CHECK(r.err.find("drivevp sweep: p0001 rep 0 failed (exit 143): timed out: still running after 1 s (stopped with "
                   "SIGTERM)") != std::string::npos);
  const std::string results = read_text(dir / "out/results.csv");
  CHECK(results.find("\np0000,200,0,") != std::string::npos);
  CHECK(results.find(",ok,200\n") != std::string::npos);
  CHECK(results.find(",failed,\n") != std::string::npos);
  // The stopped run removed its partial outputs (drivevp run's SIGTERM cleanup).
  CHECK(!fs::exists(dir / "out/points/p0001/rep-0/summary.json"));
}

}  // namespace
}  // namespace drivevp

namespace drivevp {
namespace {

TEST_CASE("sweep: an edited trace file makes the points that read it run again") {
  TempDir dir("sweep-trace-edit");
  write_text(dir / "a.trace", disksim_line(0, 0, 8, true) + disksim_line(2, 5000, 8, true));
  write_text(dir / "b.trace", disksim_line(0, 100, 8, true) + disksim_line(3, 9000, 8, true));
  const auto exp = write_experiment(dir,
                                    "[workload]\nkind = \"trace\"\nformat = \"disksim\"\n[axes]\n"
                                    "\"workload.path\" = [\"a.trace\", \"b.trace\"]\n"
                                    "\"firmware.policy\" = [\"fcfs\", \"sptf\"]\n"
                                    "[metrics]\ncompleted = \"requests.completed\"\n");
  const std::string out = (dir / "out").string();
  REQUIRE(run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out}).status == 0);
  CHECK(run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out}).out.find("4 done earlier, 0 to run") !=
        std::string::npos);
  write_text(dir / "b.trace",
             disksim_line(0, 100, 8, true) + disksim_line(3, 9000, 8, true) + disksim_line(4, 700, 8, true));
  const auto again = run_drivevp(dir.path(), {"sweep", exp.string(), "--out", out});
  CHECK(again.out.find("2 done earlier, 2 to run") != std::string::npos);
  const std::string results = read_text(dir / "out/results.csv");
  CHECK(results.find("\np0002,b.trace,fcfs,0,") != std::string::npos);
  CHECK(results.find(",ok,3\n") != std::string::npos);  // b.trace's three requests
  CHECK(results.find(",ok,2\n") != std::string::npos);  // a.trace's two
}

}  // namespace
}  // namespace drivevp
