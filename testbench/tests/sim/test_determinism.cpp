// Determinism of the drivevp binary: the same scenario and seed give byte-identical outputs; a
// different seed gives different ones. Runs the binary (DRIVEVP_BINARY) as a child process, so
// this test case elaborates nothing itself.
#include <catch2/catch_test_macros.hpp>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

/// Runs `drivevp run scenario --out dir/out --set output.plots=false` plus `extra`; requires
/// exit 0 and an empty stderr.
void run_scenario(const TempDir& dir, const fs::path& scenario, const std::string& out,
                  const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"run",   scenario.string(),   "--out", (dir / out).string(),
                                   "--set", "output.plots=false"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CommandResult r = run_drivevp(dir.path(), args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
}

TEST_CASE("sim: Two runs with the same seed write identical requests.csv and summary.json", "[sim][determinism]") {
  TempDir dir("determinism");
  const fs::path scenario = dir / "scenario.toml";
  // Open-loop Poisson arrivals, Zipf addresses, mixed sizes and operations under SPTF: every
  // random stream of the generator is exercised.
  write_text(scenario,
             synthetic_scenario("sptf",
                                "arrival = \"poisson\"\nrate_per_s = 60\naddress = \"zipf\"\nsize = \"exponential\"\n"
                                "size_mean_blocks = 8\nread_fraction = 0.7\n",
                                "seed = 42\nrequests = 3000\n"));
  auto run = [&](const std::string& out, const std::vector<std::string>& extra) {
    run_scenario(dir, scenario, out, extra);
  };
  run("a", {});
  run("b", {});
  run("c", {"--set", "run.seed=43"});
  const std::string csv_a = read_text(dir / "a" / "requests.csv");
  const std::string csv_b = read_text(dir / "b" / "requests.csv");
  const std::string csv_c = read_text(dir / "c" / "requests.csv");
  const std::string sum_a = read_text(dir / "a" / "summary.json");
  const std::string sum_b = read_text(dir / "b" / "summary.json");
  const std::string sum_c = read_text(dir / "c" / "summary.json");
  REQUIRE(csv_a.size() > 3000 * 100);  // 3000 rows were written
  CHECK(csv_a == csv_b);
  CHECK(sum_a == sum_b);
  CHECK(read_text(dir / "a" / "response_histogram.csv") == read_text(dir / "b" / "response_histogram.csv"));
  CHECK(csv_a != csv_c);
  CHECK(sum_a != sum_c);
  // Same file set, and no temporary ".partial." file left behind.
  CHECK(list_dir(dir / "a") == list_dir(dir / "b"));
  CHECK(list_dir(dir / "a") == std::vector<std::string>{"requests.csv", "response_histogram.csv", "summary.json"});
  const nlohmann::json s = nlohmann::json::parse(sum_a);
  CHECK(s["scenario"]["seed"].get<std::uint64_t>() == 42);
  CHECK(nlohmann::json::parse(sum_c)["scenario"]["seed"].get<std::uint64_t>() == 43);
  CHECK(s["checks"]["passed"].get<bool>());
}

TEST_CASE("sim: Replaying the same trace twice writes identical outputs including the plots",
          "[sim][determinism][trace]") {
  TempDir dir("determinism-trace");
  // The default scenario: device 14 of the shipped DiskSim trace, first 3000 requests, with plots.
  auto run = [&](const std::string& out) {
    const CommandResult r =
        run_drivevp(dir.path(), {"run", "--out", (dir / out).string(), "--set", "run.requests=3000"});
    INFO(r.err);
    REQUIRE(r.status == 0);
  };
  run("a");
  run("b");
  const std::vector<std::string> files = list_dir(dir / "a");
  CHECK(files == list_dir(dir / "b"));
  CHECK(files == std::vector<std::string>{"requests.csv", "response_cdf.png", "response_histogram.csv",
                                          "response_histogram.png", "summary.json"});
  for (const std::string& f : files) {
    INFO(f);
    CHECK(read_text(dir / "a" / f) == read_text(dir / "b" / f));
  }
  const nlohmann::json s = nlohmann::json::parse(read_text(dir / "a" / "summary.json"));
  CHECK(s["requests"]["completed"].get<std::uint64_t>() == 3000);
  CHECK(s["trace"]["format"].get<std::string>() == "disksim");
  CHECK(s["files"]["response_cdf_png"].get<std::string>() == "response_cdf.png");
}

TEST_CASE("sim: A MEMS run writes the same requests.csv traced and untraced (doorbells served inline or as events)",
          "[sim][determinism][mems]") {
  // Untraced, the controller serves a doorbell inside the host's SQ_TAIL write when nothing else
  // can run first (Controller::ring); traced, always one timed event later. Untraced, it also
  // reaches the host's queues through DMI and the MEMS driver reads its done burst and the sled's
  // position as one burst (traced: bus transactions, two reads). The simulated times must not
  // depend on which: every row, open loop and closed loop (where doorbells ring from the host's
  // completion handler, next to other activity), reads and writes with their data checked.
  TempDir dir("mems-inline-doorbell");
  const fs::path scenario = dir / "scenario.toml";
  write_text(scenario,
             "[device]\npreset = \"mems_g1\"\n\n[firmware]\npolicy = \"fcfs\"\nqueue_depth = 16\n\n"
             "[workload]\nkind = \"synthetic\"\nloop = \"open\"\narrival = \"poisson\"\nrate_per_s = 400\n"
             "address = \"uniform\"\nsize = \"exponential\"\nsize_mean_blocks = 8\nread_fraction = 0.6667\n\n"
             "[run]\nseed = 7\nrequests = 2000\ncheck_data = true\n");
  auto run = [&](const std::string& out, const std::vector<std::string>& extra) {
    run_scenario(dir, scenario, out, extra);
    return read_text(dir / out / "requests.csv");
  };
  const std::vector<std::string> traced = {"--set", "trace.enabled=true"};
  const std::vector<std::string> closed = {"--set", "workload.loop=closed", "--set", "workload.outstanding=8"};
  std::vector<std::string> closed_traced = closed;
  closed_traced.insert(closed_traced.end(), traced.begin(), traced.end());
  const std::string open_inline = run("open", {"--set", "trace.enabled=false"});
  REQUIRE(open_inline.size() > 2000 * 100);  // 2000 rows were written
  CHECK(open_inline == run("open-traced", traced));
  std::vector<std::string> closed_untraced = closed;
  closed_untraced.insert(closed_untraced.end(), {"--set", "trace.enabled=false"});
  const std::string closed_inline = run("closed", closed_untraced);
  REQUIRE(closed_inline.size() > 2000 * 100);
  CHECK(closed_inline == run("closed-traced", closed_traced));
  CHECK(read_text(dir / "closed" / "response_histogram.csv") ==
        read_text(dir / "closed-traced" / "response_histogram.csv"));
}

TEST_CASE("sim: A disk run with the cache writes the same requests.csv traced and untraced (fast paths)",
          "[sim][determinism][cache]") {
  // Untraced, the disk driver reads a read's done burst and BLOCKS_DONE as one burst, skips
  // rewriting BUFFER_OFFSET and MARK with the values they hold, takes a read's TRANSFER_START_PS
  // from its predictor, does not read BLOCKS_DONE at an arrival that stops the read-ahead whatever
  // it has read (spending the bus time of each access it folds or skips) and runs the data phase's
  // end inline when nothing else can happen before it;
  // traced, every access is its own transaction and the data phase's end a timed event. The
  // simulated times must not depend on which: closed loop with one outstanding read (every request
  // arrives during the previous one's read-ahead and stops it), and open loop with reads and
  // writes, write-back and queued commands; the data checked.
  TempDir dir("disk-cache-fast-paths");
  const std::string device =
      "[device]\npreset = \"hp97560\"\ncache.hp97560_published = true\n"
      "cache.fast_write_level = 2\n\n[firmware]\npolicy = \"fcfs\"\nqueue_depth = 16\n\n";
  const std::string run_keys = "\n[run]\nseed = 5\nrequests = 2000\ncheck_data = true\n";
  const fs::path closed = dir / "closed.toml";
  write_text(closed, device +
                         "[workload]\nkind = \"synthetic\"\nloop = \"closed\"\noutstanding = 1\n"
                         "address = \"uniform\"\nsize = \"constant\"\nsize_blocks = 8\nread_fraction = 1.0\n" +
                         run_keys);
  const fs::path open = dir / "open.toml";
  write_text(open, device +
                       "[workload]\nkind = \"synthetic\"\nloop = \"open\"\narrival = \"poisson\"\nrate_per_s = 25\n"
                       "address = \"zipf\"\nsize = \"exponential\"\nsize_mean_blocks = 8\nread_fraction = 0.5\n" +
                       run_keys);
  for (const fs::path& scenario : {closed, open}) {
    const std::string name = scenario.stem().string();
    INFO(name);
    run_scenario(dir, scenario, name, {"--set", "trace.enabled=false"});
    run_scenario(dir, scenario, name + "-traced", {"--set", "trace.enabled=true"});
    const std::string untraced = read_text(dir / name / "requests.csv");
    REQUIRE(untraced.size() > 2000 * 100);  // 2000 rows were written
    CHECK(untraced == read_text(dir / (name + "-traced") / "requests.csv"));
  }
}

}  // namespace
}  // namespace drivevp
