// Sweeps on a Slurm cluster: the sbatch job-array script that `drivevp sweep --slurm` writes (one
// array task per K points of the plan already written in the sweep directory), its submission
// with sbatch, and the checks of the --partition and --time values. Cluster use:
// docs/experiments.md "Running on Slurm"; sbatch options: the sbatch(1) manual of Slurm 22.05.
//
// Not covered here: the array task's own work (`drivevp sweep --slurm-task I --array-chunk K DIR`
// runs the incomplete runs of points [I*K, (I+1)*K)) and collecting the results (--collect) are
// part of the sweep command (sweep.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace drivevp::experiment {

/// What the job-array script asks of Slurm and what each array task runs.
struct SbatchOptions {
  std::string job_name;         ///< --job-name; characters other than [A-Za-z0-9._+-] become '_'
  std::string partition;        ///< --partition; "" = the cluster's default partition
  std::string time_limit;       ///< --time per array task; "" = the partition's default. Slurm formats MM, MM:SS,
                                ///< HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED
  std::size_t array_chunk = 1;  ///< K >= 1: points per array task
  std::size_t tasks = 0;        ///< number of array tasks of the whole sweep (>= 1): ceil(points / K)
  std::vector<std::size_t> task_indices;  ///< only these array indices (each < tasks; resume); empty = all
  std::string drivevp;                    ///< absolute path of the drivevp binary (on storage every node sees)
  std::string sweep_dir;                  ///< absolute path of the sweep directory (on storage every node sees)
};

/// Checks a --time value against Slurm's time formats (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM,
/// D-HH:MM:SS with decimal numbers; or INFINITE / UNLIMITED, any case) and that it is at most
/// 2^31 - 1 seconds (Slurm's limit). Call it only when the option was given.
/// Throws ConfigError "--time: expected ..., found '<value>'".
void validate_time_limit(const std::string& value);

/// Checks a --partition value: a partition name, or a comma-separated list of names (the job may
/// run in any of them), each of letters, digits, '_', '-' and '.'. Call it only when the option
/// was given. Throws ConfigError "--partition: expected ..., found '<value>'".
void validate_partition(const std::string& value);

/// The number of array tasks for `points` points, K = `array_chunk` (>= 1) points each:
/// ceil(points / K). Throws std::invalid_argument when array_chunk is 0.
std::size_t array_task_count(std::size_t points, std::size_t array_chunk);

/// The array tasks holding the points in `point_indices` (any order, duplicates allowed), sorted
/// and unique: task of point p = p / K. Throws std::invalid_argument when array_chunk is 0.
std::vector<std::size_t> array_tasks_of_points(const std::vector<std::size_t>& point_indices, std::size_t array_chunk);

/// Slurm's compact form of a set of array indices: sorted, runs of consecutive indices as
/// "first-last", separated by commas; e.g. {0,1,2,3,7,9,10,11,12} -> "0-3,7,9-12". Duplicates are
/// ignored; an empty set gives "".
std::string compact_array_ranges(std::vector<std::size_t> indices);

/// The bash job-array script: #SBATCH lines (--job-name, --array, --partition and --time when
/// given, --ntasks=1, --cpus-per-task=1, --output=<sweep_dir>/slurm/task-%a.log,
/// --chdir=<sweep_dir>), then
///   exec '<drivevp>' sweep --slurm-task "$SLURM_ARRAY_TASK_ID" --array-chunk <K> '<sweep_dir>'
/// Paths are single-quoted for the shell and double-quoted in #SBATCH lines ('%' doubled in
/// --output, where Slurm reads it as a pattern). The <sweep_dir>/slurm directory must exist when
/// the job starts (Slurm does not create it): write_sbatch_script() creates it.
/// Throws ConfigError for a bad partition or time limit, a path that is not absolute or that
/// holds a character an #SBATCH line cannot carry ('"', '\', control characters), tasks == 0,
/// array_chunk == 0, or a task index >= tasks.
std::string sbatch_script(const SbatchOptions& options);

/// Writes sbatch_script(options) to <sweep_dir>/slurm/sweep.sbatch (mode 0755; written to a
/// temporary file and renamed, so a reader never sees half a script), creating <sweep_dir>/slurm.
/// Returns the script's path. Throws ConfigError as sbatch_script(), std::runtime_error on an I/O
/// error (naming the path).
std::string write_sbatch_script(const SbatchOptions& options);

/// Submits `script_path` with `sbatch --parsable` (found on PATH; run directly, no shell; stdin
/// /dev/null; the environment, SLURM_CONF included, passed on) and returns the job id it prints.
/// Throws std::runtime_error "sbatch not found: install slurm-wlm or use --slurm=script" when
/// sbatch is not on PATH, and "sbatch failed (exit status N): <sbatch's stderr>" when it fails or
/// prints no job id.
std::string submit_sbatch(const std::string& script_path);

}  // namespace drivevp::experiment
