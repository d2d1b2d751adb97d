// A sweep's plan (what runs where, recorded in DIR/experiment.json), its runs' result records,
// and the tables made from them: results.csv and summary.csv (docs/experiments.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/experiment/experiment.h"
#include "testbench/experiment/runner.h"

namespace drivevp::experiment {

/// One point as the plan records it.
struct PlanPoint {
  std::string id;                      ///< "p0007"
  std::vector<std::string> axis_text;  ///< per axis, the value as a CSV cell shows it
  std::string scenario_sha256;
  std::vector<std::uint64_t> seeds;  ///< per replication
};

/// Everything runs, Slurm tasks and --collect need, read back from DIR/experiment.json.
struct Plan {
  std::string name;
  std::vector<std::string> axis_keys;
  std::vector<Metric> metrics;
  int replications = 1;
  bool has_figures = false;
  std::vector<PlanPoint> points;
};

/// One run: replication `rep` of point `point` (an index into Plan::points).
struct RunRef {
  std::size_t point = 0;
  int rep = 0;
};

Plan plan_of(const Experiment& ex);

/// The DIR/experiment.json record: the experiment file (path, SHA-256, text), drivevp version,
/// git commit of the source tree, axes, metrics, figures and the plan.
nlohmann::json experiment_record(const Experiment& ex, const Plan& plan);

/// Reads the plan from DIR/experiment.json. Throws ConfigError naming the file and what is wrong.
Plan read_plan(const std::string& dir);

/// The whole content of the file at `path`, or "" when it cannot be read.
std::string read_file_text(const std::string& path);

/// Writes `text` to `path` through a temporary file in the same directory, fsync(2) and rename(2):
/// a reader (or a later run after a crash) sees the old file or the whole new one. Creates the
/// parent directories. `durable` false skips the fsync (for a sweep's per-run records: a record
/// that a power cut leaves empty fails to parse, and the run is simply run again). Throws
/// std::runtime_error naming the path and the system's reason.
void write_file_atomic(const std::string& path, const std::string& text, bool durable = true);

/// DIR/points/<id>/rep-<k>/ (the run's output directory), .log and .result.json paths.
std::string run_dir(const std::string& dir, const PlanPoint& p, int rep);
std::string run_log(const std::string& dir, const PlanPoint& p, int rep);
std::string run_result(const std::string& dir, const PlanPoint& p, int rep);

/// True when the run's result record exists, parses, succeeded and matches the point's current
/// scenario hash and seed.
bool run_complete(const std::string& dir, const PlanPoint& p, int rep);

/// The incomplete runs of points [first, last) in (point, replication) order.
std::vector<RunRef> incomplete_runs(const Plan& plan, const std::string& dir, std::size_t first, std::size_t last);

/// Called as each run ends: the run, its result record (json), the job result.
using RunDone = std::function<void(const RunRef&, const nlohmann::json&, const JobResult&)>;

/// Runs `runs` as `drivevp run DIR/points/<id>/scenario.toml --set run.seed=S --out
/// DIR/points/<id>/rep-<k>` child processes of `drivevp_binary`, `parallel` at a time, and
/// writes each run's result record atomically as it ends (failures too, with exit status and
/// error). `timeout_s` > 0 limits each run's wall-clock time (a run past it is stopped and
/// recorded as failed, "timed out"). Returns the number of runs that failed.
std::size_t execute_runs(const Plan& plan, const std::string& dir, const std::vector<RunRef>& runs,
                         std::size_t parallel, const std::string& drivevp_binary, const RunDone& on_done,
                         double timeout_s = 0);

/// What collect() found.
struct Collected {
  std::vector<std::string> missing;  ///< "p0003 rep 2": no result record, or a stale one
  std::vector<std::string> failed;   ///< "p0003 rep 2: exit 3: <error>"
};

/// Reads every run's result record and writes DIR/results.csv and DIR/summary.csv (atomically).
/// Rows of missing or failed runs have status "missing" / "failed" and empty metric cells.
/// Throws std::runtime_error on an I/O error.
Collected collect(const Plan& plan, const std::string& dir);

/// Mean, sample standard deviation and 95 % CI half-width (Student t, n - 1 degrees of freedom,
/// Boost.Math) of `x`. sd and ci95 are empty when x has fewer than 2 values; all three are empty
/// when x is empty.
struct Stats {
  std::optional<double> mean, sd, ci95;
};
Stats summarize(const std::vector<double>& x);

}  // namespace drivevp::experiment
