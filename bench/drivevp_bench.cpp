// Simulation-speed and memory benchmarks for drivevp (docs/performance.md).
//
// SystemC allows one elaboration per process, so every measured run is a child process running
// the drivevp binary: posix_spawn, wait4() for the child's peak RSS (ru_maxrss), steady_clock for
// its wall time. drivevp's own summary line ("N completed ... in X s wall (R req/s)") gives the
// simulation rate: its wall time covers trace validation, elaboration and simulation, not the
// plots (which are off anyway: output.plots=false).
//
// The drivevp binary: $DRIVEVP_BINARY, else "drivevp" next to this executable.
// Scratch files (scenarios, generated traces, outputs) go to a fresh directory under $TMPDIR
// (default /tmp), removed at exit unless DRIVEVP_BENCH_KEEP=1.
//
//   drivevp_bench                                  all benchmarks, 3 repetitions each
//   drivevp_bench --benchmark_filter=FCFS          one of them
//
// Counters (medians over the repetitions in the *_median rows):
//   req_per_s    completed requests / drivevp's reported wall seconds
//   peak_rss_MiB the child's peak resident set size
//   child_wall_s the child's whole wall time (spawn to exit, including output finalisation)
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

std::string drivevp_binary() {
  if (const char* e = std::getenv("DRIVEVP_BINARY"); e && *e) return e;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("./drivevp") : (self.parent_path() / "drivevp").string();
}

/// A scratch directory for the whole process.
const fs::path& scratch() {
  static const fs::path dir = [] {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/drivevp-bench-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    return fs::path(tmpl);
  }();
  return dir;
}

struct ScratchCleanup {
  ~ScratchCleanup() {
    const char* keep = std::getenv("DRIVEVP_BENCH_KEEP");
    if (keep && *keep == '1') return;
    std::error_code ec;
    fs::remove_all(scratch(), ec);
  }
};

struct RunStats {
  double child_wall_s = 0;     ///< spawn to exit
  double reported_wall_s = 0;  ///< drivevp's "in X s wall"
  double req_per_s = 0;        ///< completed / reported wall
  std::uint64_t completed = 0;
  double peak_rss_mib = 0;
};

/// Runs drivevp with `args`; throws if it fails or prints no summary line.
RunStats run_drivevp(const std::vector<std::string>& args) {
  const std::string bin = drivevp_binary();
  const fs::path log = scratch() / "child.log";
  std::vector<std::string> full{bin};
  full.insert(full.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : full) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  pid_t pid = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + bin + ": " + std::strerror(rc));
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid) throw std::runtime_error("wait4 failed");
  const auto t1 = std::chrono::steady_clock::now();
  std::ifstream in(log);
  const std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("drivevp failed (status " + std::to_string(status) + "):\n" + out);
  static const std::regex line(R"(requests\s+(\d+) completed .* in ([0-9.]+) s wall \(([0-9]+) req/s\))");
  std::smatch m;
  if (!std::regex_search(out, m, line)) throw std::runtime_error("no summary line in drivevp output:\n" + out);
  RunStats s;
  s.child_wall_s = std::chrono::duration<double>(t1 - t0).count();
  s.completed = std::stoull(m[1]);
  s.reported_wall_s = std::stod(m[2]);
  // The printed wall time has 2 decimals; recompute the rate from the printed rate instead.
  s.req_per_s = std::stod(m[3]);
  s.peak_rss_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
  return s;
}

std::vector<std::string> common_args(const std::string& out_name) {
  return {"--out", (scratch() / out_name).string(),
          "--set", "output.plots=false",
          "--set", "run.progress=false",
          "--set", "trace.enabled=false"};
}

/// A synthetic scenario file: reads of 8 blocks at uniform addresses, closed loop.
fs::path synthetic_scenario(const std::string& name, const std::string& policy, unsigned queue_depth,
                            unsigned outstanding, std::uint64_t requests) {
  const fs::path p = scratch() / (name + ".toml");
  std::ofstream f(p);
  f << "[device]\npreset = \"hp97560\"\n\n[firmware]\npolicy = \"" << policy << "\"\nqueue_depth = " << queue_depth
    << "\n\n[workload]\nkind = \"synthetic\"\nloop = \"closed\"\noutstanding = " << outstanding
    << "\naddress = \"uniform\"\nsize = \"constant\"\nsize_blocks = 8\nread_fraction = 1.0\n\n[run]\nseed = 1\n"
       "requests = "
    << requests << "\nwarmup_requests = 0\ncheck_data = false\n";
  if (!f) throw std::runtime_error("cannot write " + p.string());
  return p;
}

/// A synthetic scenario file that writes: FCFS on the HP 97560 (2,684,016 blocks), closed loop
/// with one outstanding command, uniform 8-block requests, half of them writes, data checked
/// (run.check_data = true: every write carries its pattern and every read is checked). After
/// about 1.5 million requests nearly every block has been written, so the media store and the
/// integrity checker have reached their full size: peak RSS at 10^7 and 10^8 requests shows
/// whether memory grows with the requests.
fs::path write_mix_scenario(std::uint64_t requests) {
  const fs::path p = scratch() / ("write-mix-" + std::to_string(requests) + ".toml");
  std::ofstream f(p);
  f << "[device]\npreset = \"hp97560\"\n\n[firmware]\npolicy = \"fcfs\"\nqueue_depth = 64\n\n[workload]\n"
       "kind = \"synthetic\"\nloop = \"closed\"\noutstanding = 1\naddress = \"uniform\"\nsize = \"constant\"\n"
       "size_blocks = 8\nread_fraction = 0.5\n\n[run]\nseed = 1\nrequests = "
    << requests << "\nwarmup_requests = 0\ncheck_data = true\n";
  if (!f) throw std::runtime_error("cannot write " + p.string());
  return p;
}

/// DiskSim 4.0's G1 speed workload (issue 8): MEMS G1 (DiskSim's layout), FCFS, open loop,
/// exponential inter-arrival times with a 50 ms mean, exponential sizes with a 4 KB mean, two
/// thirds reads, uniform placement; `requests` requests. No data check (DiskSim keeps no data).
fs::path mems_g1_scenario(std::uint64_t requests) {
  const fs::path p = scratch() / ("mems-g1-" + std::to_string(requests) + ".toml");
  std::ofstream f(p);
  f << "[device]\npreset = \"mems_g1\"\n\n[firmware]\npolicy = \"fcfs\"\nqueue_depth = 64\n\n[workload]\n"
       "kind = \"synthetic\"\nloop = \"open\"\narrival = \"poisson\"\nrate_per_s = 20\naddress = \"uniform\"\n"
       "size = \"exponential\"\nsize_mean_blocks = 8\nread_fraction = 0.6667\n\n[run]\nseed = 1\nrequests = "
    << requests << "\ncheck_data = false\n";
  if (!f) throw std::runtime_error("cannot write " + p.string());
  return p;
}

/// A DiskSim-format trace ("arrival_ms device block count flags", flags bit0 = read) of `n`
/// requests for device 0, fixed seed: Poisson arrivals at 40 requests/s, uniform 8-block reads
/// over the HP 97560 (2,684,016 blocks). Reads only, so the sparse media store stays empty and
/// memory measures the simulator, not the data written. Generated once per process.
fs::path generated_trace(std::uint64_t n) {
  const fs::path p = scratch() / ("synthetic-" + std::to_string(n) + ".trace");
  if (fs::exists(p)) return p;
  std::FILE* f = std::fopen(p.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + p.string());
  std::mt19937_64 rng(20240601);
  std::exponential_distribution<double> gap_ms(40.0 / 1000.0);
  std::uniform_int_distribution<std::uint64_t> block(0, 2'684'016 - 8);
  double t = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    t += gap_ms(rng);
    std::fprintf(f, "%.6f 0 %" PRIu64 " 8 1\n", t, block(rng));
  }
  if (std::fclose(f) != 0) throw std::runtime_error("write error on " + p.string());
  return p;
}

std::vector<std::string> trace_args(const fs::path& trace, const std::string& out_name) {
  std::vector<std::string> a{"run"};
  for (auto& x : common_args(out_name)) a.push_back(x);
  for (const char* kv : {"workload.kind=\"trace\"", "workload.format=\"disksim\"", "workload.device=0",
                         "firmware.policy=\"fcfs\"", "run.check_data=false"}) {
    a.push_back("--set");
    a.push_back(kv);
  }
  a.push_back("--set");
  a.push_back("workload.path=\"" + trace.string() + "\"");
  return a;
}

/// Runs fn, turning an exception into a skipped benchmark with the message.
template <typename F>
bool guarded(benchmark::State& state, F fn) {
  try {
    fn();
    return true;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return false;
  }
}

void report(benchmark::State& state, const RunStats& s, bool child_time = false) {
  state.SetIterationTime(child_time || s.reported_wall_s <= 0 ? s.child_wall_s : s.reported_wall_s);
  state.counters["req_per_s"] = s.req_per_s;
  state.counters["peak_rss_MiB"] = s.peak_rss_mib;
  state.counters["child_wall_s"] = s.child_wall_s;
  state.counters["requests"] = static_cast<double>(s.completed);
}

// (1a) 1,000,000 FCFS requests on the HP 97560, tracing off: closed loop, one outstanding.
void BM_FCFS_1M(benchmark::State& state) {
  for (auto _ : state) {
    if (!guarded(state, [&] {
          const auto scen = synthetic_scenario("fcfs-1m", "fcfs", 64, 1, 1'000'000);
          auto args = std::vector<std::string>{"run", scen.string()};
          for (auto& a : common_args("fcfs-1m")) args.push_back(a);
          report(state, run_drivevp(args));
        }))
      break;
  }
}

// (1c) The FCFS run of (1a) with the HP 97560's published cache on (device.cache.
// hp97560_published: one 256-block segment, 128 blocks of read-ahead, stopped by every arrival)
// and off, side by side (docs/performance.md "Cache"): range(1) = 1 with the cache.
void BM_FCFS_Cache(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const bool cache = state.range(1) != 0;
  for (auto _ : state) {
    if (!guarded(state, [&] {
          const auto scen = synthetic_scenario("fcfs-cache", "fcfs", 64, 1, n);
          auto args = std::vector<std::string>{"run", scen.string()};
          for (auto& a : common_args("fcfs-cache")) args.push_back(a);
          args.push_back("--set");
          args.push_back(std::string("device.cache.hp97560_published=") + (cache ? "true" : "false"));
          report(state, run_drivevp(args));
        }))
      break;
  }
}

// (1b) SPTF with 64 requests queued: closed loop, 64 outstanding, queue depth 64.
void BM_SPTF_QD64(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    if (!guarded(state, [&] {
          const auto scen = synthetic_scenario("sptf-qd64", "sptf", 64, 64, n);
          auto args = std::vector<std::string>{"run", scen.string()};
          for (auto& a : common_args("sptf-qd64")) args.push_back(a);
          report(state, run_drivevp(args));
        }))
      break;
  }
}

// (2a) Replay of a generated DiskSim trace, untraced: peak RSS at 1M and at 10M requests.
void BM_TraceReplay(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state)
    if (!guarded(state, [&] { report(state, run_drivevp(trace_args(generated_trace(n), "replay"))); })) break;
}

// (3) Memory with writes: closed-loop FCFS, 50 % writes of 8 blocks, data checked; peak RSS
// at 10^7 and 10^8 requests (docs/performance.md "Memory").
void BM_WriteMix(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    if (!guarded(state, [&] {
          auto args = std::vector<std::string>{"run", write_mix_scenario(n).string()};
          for (auto& a : common_args("write-mix")) args.push_back(a);
          report(state, run_drivevp(args));
        }))
      break;
  }
}

// (4) DiskSim 4.0's MEMS G1 speed workload: 250,000 requests (DiskSim: about 93,000 req/s on
// this machine), and 2,500,000 for flat memory.
void BM_MemsG1_FCFS(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    if (!guarded(state, [&] {
          auto args = std::vector<std::string>{"run", mems_g1_scenario(n).string()};
          for (auto& a : common_args("mems-g1")) args.push_back(a);
          report(state, run_drivevp(args));
        }))
      break;
  }
}

// (2b) The same replay with waveform tracing on (all groups, no window) and off; compare
// child_wall_s (the traced run's VCD is finished after drivevp's own wall clock stops).
void BM_TraceReplayTraced(benchmark::State& state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const bool traced = state.range(1) != 0;
  for (auto _ : state) {
    if (!guarded(state, [&] {
          auto args = trace_args(generated_trace(n), traced ? "traced" : "untraced");
          if (traced) {
            args.push_back("--set");
            args.push_back("trace.enabled=true");
          }
          const RunStats s = run_drivevp(args);
          report(state, s, /*child_time=*/true);
          fs::remove_all(scratch() / (traced ? "traced" : "untraced"));  // the VCD is large
        }))
      break;
  }
}

std::int64_t env_int(const char* name, std::int64_t fallback) {
  const char* e = std::getenv(name);
  return e && *e ? std::strtoll(e, nullptr, 10) : fallback;
}

const int kReps = static_cast<int>(env_int("DRIVEVP_BENCH_REPS", 3));

BENCHMARK(BM_MemsG1_FCFS)
    ->Arg(250'000)
    ->Arg(2'500'000)
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_FCFS_1M)
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_FCFS_Cache)
    ->Args({env_int("DRIVEVP_BENCH_CACHE_REQUESTS", 1'000'000), 0})
    ->Args({env_int("DRIVEVP_BENCH_CACHE_REQUESTS", 1'000'000), 1})
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_SPTF_QD64)
    ->Arg(env_int("DRIVEVP_BENCH_SPTF_REQUESTS", 200'000))
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_TraceReplay)
    ->Arg(1'000'000)
    ->Arg(env_int("DRIVEVP_BENCH_LONG_TRACE", 10'000'000))
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_TraceReplayTraced)
    ->Args({env_int("DRIVEVP_BENCH_TRACED_REQUESTS", 200'000), 0})
    ->Args({env_int("DRIVEVP_BENCH_TRACED_REQUESTS", 200'000), 1})
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_WriteMix)
    ->Arg(env_int("DRIVEVP_BENCH_WRITE_MIX", 10'000'000))
    ->Arg(env_int("DRIVEVP_BENCH_WRITE_MIX_LONG", 100'000'000))
    ->Iterations(1)
    ->Repetitions(kReps)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->ReportAggregatesOnly(true);

}  // namespace

int main(int argc, char** argv) {
  ScratchCleanup cleanup;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
