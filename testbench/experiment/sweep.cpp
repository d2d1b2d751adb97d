#include "testbench/experiment/sweep.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/experiment/experiment.h"
#include "testbench/experiment/results.h"
#include "testbench/experiment/runner.h"
#include "testbench/experiment/slurm.h"
#include "testbench/trace/trace_reader.h"  // printable_text

namespace drivevp::experiment {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

std::string hms(double s) {
  if (!(s >= 0) || s > 1e7) return "--:--";
  const long t = static_cast<long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{:02}:{:02}", t / 60, t % 60);
}

/// The sweep's lock on its output directory: an flock on DIR/.sweep.lock that the runs inherit,
/// so it is held until the sweep and every run it started have ended (a SIGKILLed sweep's runs
/// stop on their own: PR_SET_PDEATHSIG). A second sweep into DIR is refused while the first
/// runs; after a killed sweep it waits (up to 60 s) for the killed sweep's runs to clean up.
int lock_output(const std::string& dir) {
  const std::string path = dir + "/.sweep.lock";
  const int fd = open(path.c_str(), O_RDWR | O_CREAT, 0644);  // no O_CLOEXEC: runs inherit it
  if (fd < 0)
    throw std::runtime_error(fmt::format("cannot create {}: {}", printable_text(path, 200), std::strerror(errno)));
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string holder = read_file_text(path);
    const long pid = std::atol(holder.c_str());
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) == 0) {
      close(fd);
      throw ConfigError(fmt::format("{}: in use by another sweep (pid {}); wait for it or choose another --out",
                                    printable_text(dir, 200), pid));
    }
    fmt::print(stderr, "drivevp sweep: waiting for the runs of an interrupted sweep into {} to end\n",
               printable_text(dir, 200));
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (Clock::now() > deadline) {
        close(fd);
        throw ConfigError(
            fmt::format("{}: still locked by the runs of an earlier sweep after 60 s", printable_text(dir, 200)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const std::string pid = fmt::format("{}\n", getpid());
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
    throw std::runtime_error(fmt::format("cannot write {}: {}", printable_text(path, 200), std::strerror(errno)));
  return fd;
}

std::string plot_script() {
  const char* d = std::getenv("DRIVEVP_DATA_DIR");
  return std::string(d && *d ? d : DRIVEVP_DATA_DIR) + "/reports/plot_experiment.py";
}

/// Tables, then figures; prints what is missing or failed. Returns the exit status.
int finish(const Plan& plan, const std::string& dir) {
  const Collected c = collect(plan, dir);
  std::size_t total = plan.points.size() * static_cast<std::size_t>(plan.replications);
  fmt::print("  results      {}/results.csv, summary.csv ({} runs: {} ok, {} failed, {} missing)\n", dir, total,
             total - c.failed.size() - c.missing.size(), c.failed.size(), c.missing.size());
  int status = c.failed.empty() && c.missing.empty() ? 0 : 1;
  for (const std::string& f : c.failed) fmt::print(stderr, "drivevp sweep: failed: {}\n", f);
  if (!c.missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < c.missing.size() && i < 20; ++i) list += (i ? ", " : "") + c.missing[i];
    if (c.missing.size() > 20) list += fmt::format(", … ({} in all)", c.missing.size());
    fmt::print(stderr, "drivevp sweep: missing (not run yet, or made from another scenario): {}\n", list);
  }
  if (plan.has_figures) {
    const std::vector<JobResult> r =
        run_jobs({{{"/usr/bin/python3", plot_script(), dir}, dir + "/figures.log"}}, 1, nullptr);
    if (r[0].exit_status != 0) {
      fmt::print(stderr, "drivevp sweep: figures: {} (log: {}/figures.log)\n", r[0].error, dir);
      return 3;
    }
    fmt::print("  figures      {}/figures/ (PNG, SVG, and the plotted data as JSON)\n", dir);
  }
  return status;
}

/// One experiment (or one part of a file with parts) into `dir`: the plan, the runs (here or as
/// a Slurm array), the tables and figures. Returns the exit status as sweep_main.
int sweep_one(const Experiment& ex, const std::string& dir, const SweepOptions& o, const std::string& self) {
  const Plan plan = plan_of(ex);
  const std::size_t total = plan.points.size() * static_cast<std::size_t>(plan.replications);
  const std::size_t jobs = o.jobs ? o.jobs : default_jobs();
  const bool existing = fs::exists(dir + "/experiment.json");
  if (o.resume && !existing)
    throw ConfigError(fmt::format("--resume: expected an earlier sweep in {}, found no experiment.json there",
                                  printable_text(dir, 200)));

  if (o.dry_run) {
    fmt::print("drivevp sweep {} (dry run) | {} points x {} replications = {} runs | output {}\n", ex.name,
               plan.points.size(), plan.replications, total, dir);
    std::string header = fmt::format("  {:<8}", "point");
    for (const std::string& k : plan.axis_keys) header += fmt::format(" {:<22}", k);
    fmt::print("{} {}\n", header, "runs to do");
    for (const PlanPoint& p : plan.points) {
      std::string line = fmt::format("  {:<8}", p.id);
      for (const std::string& v : p.axis_text) line += fmt::format(" {:<22}", printable_text(v, 60));
      std::size_t runs_left = 0;
      for (int k = 0; k < plan.replications; ++k) runs_left += existing && run_complete(dir, p, k) ? 0 : 1;
      fmt::print("{} {}\n", line, runs_left);
    }
    fmt::print("  every point is valid; nothing was run or written\n");
    return 0;
  }

  std::error_code ec;
  fs::create_directories(dir + "/points", ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}/points: {}", printable_text(dir, 200), ec.message()));
  const int lock_fd = lock_output(dir);
  (void)lock_fd;  // held until exit (and by the runs)
  if (o.resume) {
    const Plan old = read_plan(dir);
    if (old.name != ex.name)
      throw ConfigError(fmt::format("--resume: {} holds a sweep of another experiment (not '{}')",
                                    printable_text(dir, 200), ex.name));
  }
  write_file_atomic(dir + "/experiment.json", experiment_record(ex, plan).dump(2) + "\n");
  for (std::size_t i = 0; i < ex.points.size(); ++i) {
    const Point& p = ex.points[i];
    const std::string pdir = dir + "/points/" + p.id;
    fs::create_directories(pdir, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", printable_text(pdir, 200), ec.message()));
    if (read_file_text(pdir + "/scenario.toml") != p.resolved_toml)
      write_file_atomic(pdir + "/scenario.toml", p.resolved_toml);
    nlohmann::json pj = {{"id", p.id}, {"index", p.index}, {"scenario_sha256", p.scenario_sha256}};
    pj["axes"] = nlohmann::json::object();
    for (std::size_t a = 0; a < plan.axis_keys.size(); ++a) pj["axes"][plan.axis_keys[a]] = plan.points[i].axis_text[a];
    pj["seeds"] = plan.points[i].seeds;
    const std::string pjt = pj.dump(2) + "\n";
    if (read_file_text(pdir + "/point.json") != pjt) write_file_atomic(pdir + "/point.json", pjt);
  }

  const std::vector<RunRef> runs = incomplete_runs(plan, dir, 0, plan.points.size());
  if (!o.slurm.empty()) {
    // A job array: one task per --array-chunk points, only the tasks that hold incomplete runs.
    SbatchOptions sb;
    sb.job_name = "drivevp-" + ex.name;
    sb.partition = o.partition;
    sb.time_limit = o.time_limit;
    sb.array_chunk = o.array_chunk == 0 ? 1 : o.array_chunk;
    sb.tasks = array_task_count(plan.points.size(), sb.array_chunk);
    std::vector<std::size_t> incomplete_points;
    for (const RunRef& r : runs) incomplete_points.push_back(r.point);
    sb.task_indices = array_tasks_of_points(incomplete_points, sb.array_chunk);
    sb.drivevp = self;
    sb.sweep_dir = fs::absolute(dir).lexically_normal().string();
    fmt::print("drivevp sweep {} | {} points x {} replications = {} runs | {} done earlier, {} to run | {}\n", ex.name,
               plan.points.size(), plan.replications, total, total - runs.size(), runs.size(), dir);
    if (runs.empty()) {
      fmt::print("  nothing to submit: every run is complete\n");
      return finish(plan, dir);
    }
    const std::string script = write_sbatch_script(sb);
    if (o.slurm == "script") {
      fmt::print("  slurm        wrote {} ({} array tasks of {} points); submit it with: sbatch {}\n", script,
                 sb.task_indices.size(), sb.array_chunk, script);
      return 0;
    }
    const std::string job = submit_sbatch(script);
    fmt::print("  slurm        submitted job array {} ({} tasks of {} points; script {})\n", job,
               sb.task_indices.size(), sb.array_chunk, script);
    fmt::print("  then         drivevp sweep --collect {}   (once squeue -j {} shows nothing)\n", dir, job);
    std::cout << job << std::endl;
    return 0;
  }
  fmt::print(
      "drivevp sweep {} | {} points x {} replications = {} runs | {} done earlier, {} to run, {} at a time | {}\n",
      ex.name, plan.points.size(), plan.replications, total, total - runs.size(), runs.size(), jobs, dir);
  std::fflush(stdout);

  // Progress: a rewritten line on a terminal, one line per finished run otherwise.
  const bool tty = isatty(STDERR_FILENO);
  const auto t0 = Clock::now();
  std::size_t done = 0, failed = 0;
  std::vector<int> left(plan.points.size(), 0);
  for (const RunRef& r : runs) ++left[r.point];
  std::size_t points_todo = 0, points_done = 0;
  for (int l : left) points_todo += l > 0;
  execute_runs(
      plan, dir, runs, jobs, self,
      [&](const RunRef& r, const nlohmann::json& rec, const JobResult& jr) {
        ++done;
        if (rec["status"] != "ok") ++failed;
        if (--left[r.point] == 0) ++points_done;
        const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
        const double eta = elapsed / static_cast<double>(done) * static_cast<double>(runs.size() - done);
        const std::string state = fmt::format("points {}/{}, runs {}/{}, {} failed, elapsed {}, ETA {}", points_done,
                                              points_todo, done, runs.size(), failed, hms(elapsed), hms(eta));
        if (rec["status"] != "ok")
          fmt::print(stderr, "{}drivevp sweep: {} rep {} failed (exit {}): {}\n", tty ? "\r\033[K" : "",
                     plan.points[r.point].id, r.rep, jr.exit_status, rec["error"].get<std::string>());
        if (tty)
          fmt::print(stderr, "\r\033[K{}", state);
        else
          fmt::print(stderr, "{} rep {} {} ({:.2f} s) | {}\n", plan.points[r.point].id, r.rep,
                     rec["status"].get<std::string>(), jr.wall.count(), state);
        std::fflush(stderr);
      },
      o.timeout_s);
  if (tty && !runs.empty()) fmt::print(stderr, "\n");
  return finish(plan, dir);
}

}  // namespace

int sweep_main(const SweepOptions& o) {
  const std::string self = self_executable();
  if (!o.collect.empty()) {
    const Plan plan = read_plan(o.collect);
    fmt::print("drivevp sweep --collect | {} | {} points x {} replications\n", plan.name, plan.points.size(),
               plan.replications);
    return finish(plan, o.collect);
  }
  if (o.slurm_task) {
    // An array task of a sweep submitted with --slurm: the positional argument is the sweep DIR.
    const std::string& dir = o.experiment;
    const Plan plan = read_plan(dir);
    const std::size_t k = o.array_chunk == 0 ? 1 : o.array_chunk;
    const std::size_t first = *o.slurm_task * k;
    const std::vector<RunRef> runs = incomplete_runs(plan, dir, first, first + k);
    fmt::print("drivevp sweep task {}: points {}..{}, {} runs to do\n", *o.slurm_task, first,
               std::min(first + k, plan.points.size()) - 1, runs.size());
    const std::size_t failed =
        execute_runs(plan, dir, runs, 1, self, [&](const RunRef& r, const nlohmann::json& rec, const JobResult&) {
          fmt::print("{} rep {}: {}{}\n", plan.points[r.point].id, r.rep, rec["status"].get<std::string>(),
                     rec["status"] == "ok" ? "" : ": " + rec["error"].get<std::string>());
          std::fflush(stdout);
        });
    return failed ? 1 : 0;
  }

  if (!o.slurm.empty() && o.slurm != "submit" && o.slurm != "script")
    throw ConfigError(
        fmt::format("--slurm: expected no value, 'submit' or 'script', found '{}'", printable_text(o.slurm, 80)));
  if (!o.partition.empty()) validate_partition(o.partition);
  if (!o.time_limit.empty()) validate_time_limit(o.time_limit);
  if (o.slurm.empty() && (!o.partition.empty() || !o.time_limit.empty()))
    throw ConfigError("--partition and --time apply only with --slurm");
  // Every part is validated before anything runs; then each runs as its own sweep into DIR/<part>.
  const std::vector<Experiment> parts = load_experiments(o.experiment, o.sets);
  if (parts.size() == 1 && parts[0].part.empty())
    return sweep_one(parts[0], o.out.empty() ? "out/sweeps/" + parts[0].name : o.out, o, self);
  // A part's name is "<experiment>.<part>": the default directory is the experiment's.
  const std::string name = parts[0].name.substr(0, parts[0].name.size() - parts[0].part.size() - 1);
  const std::string top = o.out.empty() ? "out/sweeps/" + name : o.out;
  int status = 0;
  for (const Experiment& ex : parts) {
    fmt::print("part {} ({} of {})\n", ex.part, &ex - parts.data() + 1, parts.size());
    std::fflush(stdout);
    status = std::max(status, sweep_one(ex, top + "/" + ex.part, o, self));
  }
  return status;
}

}  // namespace drivevp::experiment
