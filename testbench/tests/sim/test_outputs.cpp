// The output directory of the drivevp binary: exactly one run's outputs after a commit, debris
// of killed runs removed, the lock that refuses a second run, JSON that survives non-UTF-8 input,
// the CDF legend's percentiles, and the saturation flag. Runs the binary (DRIVEVP_BINARY) as a
// child process. Signals, a full disk and a read-only directory: testbench/tests/faults/.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include <catch2/catch_test_macros.hpp>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

/// A small open-loop synthetic scenario (reads and writes, no warm-up) at `rate_per_s`.
std::string small_scenario(double rate_per_s, std::uint64_t requests, const std::string& extra_workload = "") {
  return synthetic_scenario(
      "sptf",
      fmt::format("arrival = \"poisson\"\nrate_per_s = {}\nread_fraction = 0.7\n{}", rate_per_s, extra_workload),
      fmt::format("seed = 7\nrequests = {}\nwarmup_requests = 0\n", requests));
}

/// The entries of `dir` with their contents, to compare a directory before and after.
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> m;
  for (const auto& e : fs::directory_iterator(dir))
    m[e.path().filename().string()] = e.is_regular_file() ? read_text(e.path()) : std::string("<dir>");
  return m;
}

/// The text of the tEXt chunk `keyword` of a PNG file ("" if absent).
std::string png_text(const fs::path& png, const std::string& keyword) {
  const std::string data = read_text(png);
  REQUIRE(data.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  std::size_t pos = 8;
  while (pos + 8 <= data.size()) {
    const auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])); };
    const std::uint32_t length = (b(pos) << 24) | (b(pos + 1) << 16) | (b(pos + 2) << 8) | b(pos + 3);
    const std::string type = data.substr(pos + 4, 4);
    const std::string body = data.substr(pos + 8, length);
    if (type == "tEXt" && body.compare(0, keyword.size() + 1, keyword + std::string(1, '\0')) == 0)
      return body.substr(keyword.size() + 1);
    pos += 12 + length;
  }
  return "";
}

TEST_CASE("sim: --lenient with a non-UTF-8 byte in a skipped line and in the paths writes valid JSON",
          "[sim][outputs]") {
  TempDir tmp("non-utf8");
  // A directory whose name is not UTF-8 holds the scenario, the trace and the outputs.
  const fs::path dir = tmp / "trace\xff\xfe-dir";
  fs::create_directory(dir);
  write_text(dir / "t.trace", disksim_line(1.0, 1000, 8, true) + "12.5 0 bad\xff\xc3 8 1\n" +
                                  disksim_line(20.0, 90000, 8, false) + disksim_line(30.0, 5000, 8, true));
  write_text(dir / "scenario.toml",
             "[workload]\nkind = \"trace\"\npath = \"t.trace\"\nformat = \"disksim\"\n\n[run]\nprogress = false\n\n"
             "[output]\nplots = false\n");
  const CommandResult r =
      run_drivevp(tmp.path(), {"run", (dir / "scenario.toml").string(), "--lenient", "--out", (dir / "out").string()});
  INFO(r.err);
  REQUIRE(r.status == 0);  // before: a JSON exception after the whole simulation, exit 3
  const nlohmann::json s = nlohmann::json::parse(read_text(dir / "out" / "summary.json"));
  const std::string replacement = "\xef\xbf\xbd";  // U+FFFD, one per invalid byte
  CHECK(s["requests"]["completed"].get<std::uint64_t>() == 3);
  CHECK(s["trace"]["skipped_malformed"].get<std::uint64_t>() == 1);
  REQUIRE(s["trace"]["first_malformed"].size() == 1);
  const std::string message = s["trace"]["first_malformed"][0].get<std::string>();
  // Trace messages escape untrusted bytes where they are made (printable_text); the JSON writer's
  // replacement is the second line of defence, for paths and any other text.
  CHECK(message.find("found 'bad\\xFF\\xC3'") != std::string::npos);
  CHECK(message.find("trace\\xFF\\xFE-dir/t.trace:2: ") != std::string::npos);
  CHECK(s["trace"]["paths"][0].get<std::string>().find("trace" + replacement + replacement + "-dir/t.trace") !=
        std::string::npos);
  CHECK(s["scenario"]["source"].get<std::string>().find(replacement + replacement + "-dir/scenario.toml") !=
        std::string::npos);
  CHECK(list_dir(dir / "out") == std::vector<std::string>{"requests.csv", "response_histogram.csv", "summary.json"});
}

TEST_CASE("sim: After a run the output directory holds exactly that run's outputs, and other files stay",
          "[sim][outputs]") {
  TempDir tmp("exact-outputs");
  const fs::path scenario = tmp / "scenario.toml";
  write_text(scenario, small_scenario(30, 200));
  const fs::path out = tmp / "out";
  // First run: everything (plots, VCD, GTKWave view and its filter file, FST).
  CommandResult r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", out.string(), "--trace", "--set",
                                             "output.plots=true", "--set", "trace.fst=true"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  REQUIRE(list_dir(out) == std::vector<std::string>{
                               "requests.csv", "response_cdf.png", "response_histogram.csv", "response_histogram.png",
                               "summary.json", "waves.firmware.state.txt", "waves.fst", "waves.gtkw", "waves.vcd"});
  // Files that are not drivevp outputs, even with similar names, are never touched.
  write_text(out / "notes.txt", "mine");
  write_text(out / "waves.vcd.orig", "mine too");
  // Second run: no plots, no tracing. Before: the PNGs and waves.* of the first run stayed.
  r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", out.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(list_dir(out) == std::vector<std::string>{"notes.txt", "requests.csv", "response_histogram.csv", "summary.json",
                                                  "waves.vcd.orig"});
  CHECK(read_text(out / "notes.txt") == "mine");
  CHECK(read_text(out / "waves.vcd.orig") == "mine too");
  const nlohmann::json s = nlohmann::json::parse(read_text(out / "summary.json"));
  CHECK(s["files"]["response_cdf_png"].is_null());
  CHECK(!s["files"].contains("waves_vcd"));
}

TEST_CASE("sim: output.requests_csv = false writes no requests.csv and changes no other output", "[sim][outputs]") {
  TempDir tmp("no-requests-csv");
  const fs::path scenario = tmp / "scenario.toml";
  write_text(scenario, small_scenario(30, 300));
  const fs::path with = tmp / "with", without = tmp / "without";
  CommandResult r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", with.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find(", requests.csv") != std::string::npos);
  // Into a directory that holds an earlier run's requests.csv: it is removed with the run's commit.
  fs::create_directories(without);
  write_text(without / "requests.csv", "stale");
  r = run_drivevp(tmp.path(),
                  {"run", scenario.string(), "--out", without.string(), "--set", "output.requests_csv=false"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("requests.csv") == std::string::npos);
  CHECK(list_dir(without) == std::vector<std::string>{"response_histogram.csv", "summary.json"});
  CHECK(read_text(without / "response_histogram.csv") == read_text(with / "response_histogram.csv"));
  nlohmann::json a = nlohmann::json::parse(read_text(with / "summary.json"));
  nlohmann::json b = nlohmann::json::parse(read_text(without / "summary.json"));
  CHECK(a["files"]["requests_csv"] == "requests.csv");
  CHECK(b["files"]["requests_csv"].is_null());
  // Everything measured is the same; only the file list, the scenario's echo and the wall-clock
  // figures may differ.
  for (const char* key : {"requests", "metrics", "checks", "saturation", "simulated_time_ms"}) {
    INFO(key);
    REQUIRE(a.contains(key));  // a missing key would compare null with null
    CHECK(a[key] == b[key]);
  }
}

TEST_CASE("sim: Debris of killed runs is removed when the next run takes the lock", "[sim][outputs]") {
  TempDir tmp("debris");
  const fs::path scenario = tmp / "scenario.toml";
  write_text(scenario, small_scenario(30, 50));
  const fs::path out = tmp / "out";
  fs::create_directories(out / ".partial.drivevp");
  fs::create_directories(out / ".partial.plots");
  write_text(out / ".partial.drivevp" / "requests.csv", "id,op\n0,R\n");  // a killed run's staging
  write_text(out / ".partial.plots" / ".tmp-x.png", "png");               // an older layout's debris
  write_text(out / ".partial.requests.csv", "id,op\n");
  write_text(out / ".drivevp.lock", "999999\n");  // a killed run's lock file: no lock held on it
  write_text(out / "keep.partial", "mine");
  const CommandResult r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", out.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(list_dir(out) ==
        std::vector<std::string>{"keep.partial", "requests.csv", "response_histogram.csv", "summary.json"});
}

TEST_CASE("sim: A run into an output directory another run holds is refused before simulating, status 2",
          "[sim][outputs]") {
  TempDir tmp("locked");
  const fs::path scenario = tmp / "scenario.toml";
  write_text(scenario, small_scenario(30, 50));
  const fs::path out = tmp / "out";
  CommandResult r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", out.string()});
  REQUIRE(r.status == 0);
  // This process plays the running run: it holds the lock and has partial files.
  fs::create_directories(out / ".partial.drivevp");
  write_text(out / ".partial.drivevp" / "requests.csv", "id,op\n");
  const int fd = ::open((out / ".drivevp.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  const std::string pid = std::to_string(::getpid()) + "\n";
  REQUIRE(::write(fd, pid.data(), pid.size()) == static_cast<ssize_t>(pid.size()));
  const auto before = contents(out);

  r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", out.string(), "--set", "run.requests=5"});
  ::close(fd);
  CHECK(r.status == 2);  // before: 0, both runs wrote into the directory
  CHECK(r.out.empty());
  CHECK(r.err == fmt::format("drivevp: output directory '{}' is in use by another drivevp run (pid {}, lock file "
                             "{}); nothing was simulated or written; wait for that run to end or choose another "
                             "--out\n",
                             out.string(), ::getpid(), (out / ".drivevp.lock").string()));
  CHECK(contents(out) == before);  // the holder's partial files and the earlier outputs untouched
}

TEST_CASE("sim: The CDF plot marks and labels summary.json's percentiles", "[sim][outputs][plots]") {
  TempDir tmp("cdf-percentiles");
  const fs::path scenario = tmp / "scenario.toml";
  write_text(scenario, small_scenario(40, 2000));
  const CommandResult r = run_drivevp(
      tmp.path(), {"run", scenario.string(), "--out", (tmp / "out").string(), "--set", "output.plots=true"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json m = nlohmann::json::parse(read_text(tmp / "out" / "summary.json"))["metrics"];
  // plot_responses.py records the values it drew (the legend shows them with 3 decimals) in the
  // PNG's Description chunk, as shortest round-trip decimals: they parse to summary.json's doubles.
  const std::string text = png_text(tmp / "out" / "response_cdf.png", "Description");
  INFO(text);
  double p50 = 0, p95 = 0, p99 = 0;
  REQUIRE(std::sscanf(text.c_str(), "p50_ms=%lf p95_ms=%lf p99_ms=%lf", &p50, &p95, &p99) == 3);
  CHECK(p50 == m["response_p50_ms"].get<double>());
  CHECK(p95 == m["response_p95_ms"].get<double>());
  CHECK(p99 == m["response_p99_ms"].get<double>());
  CHECK(text == fmt::format("p50_ms={} p95_ms={} p99_ms={}", m["response_p50_ms"].get<double>(),
                            m["response_p95_ms"].get<double>(), m["response_p99_ms"].get<double>()));
}

/// The saturation object's numbers recomputed exactly from requests.csv (no warm-up).
void check_saturation_numbers(const fs::path& out) {
  const nlohmann::json s = nlohmann::json::parse(read_text(out / "summary.json"));
  const Csv csv(out / "requests.csv");
  REQUIRE(csv.size() > 1);
  std::int64_t first_arrival = csv.ps(0, "arrival_ms"), last_arrival = first_arrival, last_completion = 0;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    first_arrival = std::min(first_arrival, csv.ps(i, "arrival_ms"));
    last_arrival = std::max(last_arrival, csv.ps(i, "arrival_ms"));
    last_completion = std::max(last_completion, csv.ps(i, "completion_ms"));
  }
  const nlohmann::json& sat = s["saturation"];
  CHECK(sat["arrival_window_ms"].get<double>() == to_ms(Time{last_arrival - first_arrival}));
  CHECK(sat["drain_ms"].get<double>() == to_ms(Time{last_completion - last_arrival}));
  CHECK(sat["drain_fraction"].get<double>() ==
        static_cast<double>(last_completion - last_arrival) / static_cast<double>(last_arrival - first_arrival));
  CHECK(sat["utilization"].get<double>() == s["metrics"]["utilization"].get<double>());
  CHECK(sat["thresholds"] == nlohmann::json{{"utilization", 0.95}, {"drain_fraction", 0.1}});
}

TEST_CASE("sim: A saturated open-loop run is flagged in summary.json and warned about; an unsaturated one is not",
          "[sim][outputs][saturation]") {
  TempDir tmp("saturation");
  const fs::path scenario = tmp / "scenario.toml";
  // The HP 97560 serves about 60 random 4 KB requests per second under SPTF with a deep queue:
  // 200 per second overload it, 20 per second do not.
  write_text(scenario, small_scenario(200, 3000));
  CommandResult r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", (tmp / "hot").string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  nlohmann::json s = nlohmann::json::parse(read_text(tmp / "hot" / "summary.json"));
  CHECK(s["saturation"]["assessed"].get<bool>());
  CHECK(s["saturation"]["saturated"].get<bool>());
  CHECK(s["saturation"]["utilization"].get<double>() >= 0.95);
  CHECK(s["saturation"]["drain_fraction"].get<double>() >= 0.10);
  check_saturation_numbers(tmp / "hot");
  CHECK(r.err.rfind("drivevp: warning: the drive is saturated: utilization ", 0) == 0);
  CHECK(r.err.find("lower workload.rate_per_s or use a faster device\n") != std::string::npos);

  write_text(scenario, small_scenario(20, 3000));
  r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", (tmp / "cool").string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  s = nlohmann::json::parse(read_text(tmp / "cool" / "summary.json"));
  CHECK(s["saturation"]["assessed"].get<bool>());
  CHECK(!s["saturation"]["saturated"].get<bool>());
  CHECK(s["saturation"]["utilization"].get<double>() < 0.95);
  CHECK(s["saturation"]["drain_fraction"].get<double>() < 0.10);
  check_saturation_numbers(tmp / "cool");

  // A closed loop keeps the drive busy (utilization near 1) but its queue cannot grow.
  write_text(scenario, synthetic_scenario("sptf", "loop = \"closed\"\noutstanding = 8\n",
                                          "seed = 7\nrequests = 3000\nwarmup_requests = 0\n"));
  r = run_drivevp(tmp.path(), {"run", scenario.string(), "--out", (tmp / "closed").string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  s = nlohmann::json::parse(read_text(tmp / "closed" / "summary.json"));
  CHECK(s["metrics"]["utilization"].get<double>() > 0.95);
  CHECK(!s["saturation"]["assessed"].get<bool>());
  CHECK(!s["saturation"]["saturated"].get<bool>());
  CHECK(s["saturation"]["note"].get<std::string>() ==
        "closed loop: a fixed number of requests is kept in flight, so the queue cannot grow");
}

}  // namespace
}  // namespace drivevp
