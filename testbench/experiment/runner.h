// The process pool under `drivevp sweep` and `drivevp regress`: every run is a child process
// (SystemC allows one elaboration per process), at most N at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace drivevp::experiment {

/// One child process to run.
struct Job {
  std::vector<std::string> argv;  ///< argv[0] is the program's path (exec'd as is, no PATH search)
  std::string log_path;           ///< the child's stdout and stderr go here (created/truncated)
  double timeout_s = 0;           ///< wall-clock limit in seconds; 0 = none. On expiry the child
                                  ///< gets SIGTERM (it removes its partial outputs), then SIGKILL 10 s later
};

/// How one job ended.
struct JobResult {
  int exit_status = -1;                   ///< the child's exit status (0..255); 128 + N when killed by signal N;
                                          ///< -1 when it could not be started
  std::string error;                      ///< why it failed, for reports: "" when exit_status == 0; else the last
                                          ///< non-empty line of its log (or the start failure), at most 300 bytes
  std::chrono::duration<double> wall{0};  ///< wall-clock time, seconds
  bool timed_out = false;                 ///< stopped because it ran past Job::timeout_s
};

/// Runs `jobs`, at most `parallel` (>= 1) at a time, in index order of start. `on_done(i, r)` is
/// called in the calling thread as each job ends (in completion order). A job that fails does
/// not stop the others. Each child gets PR_SET_PDEATHSIG(SIGTERM): if the calling process dies
/// (even by SIGKILL) its children are told to stop and remove their partial outputs. Returns
/// the results in job order. Throws std::system_error only when fork() itself fails.
std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, std::size_t parallel,
                                const std::function<void(std::size_t, const JobResult&)>& on_done);

/// The path of the running executable (/proc/self/exe resolved), for children that run the same
/// drivevp binary.
std::string self_executable();

/// Runs `argv` (argv[0] looked up in PATH) with stdin from /dev/null and stderr discarded and
/// returns its stdout, or nothing when it cannot be started or exits non-zero.
std::optional<std::string> capture_output(const std::vector<std::string>& argv);

/// The last `max_lines` lines (at most `max_bytes` bytes) of a file; "" if unreadable.
std::string file_tail(const std::string& path, std::size_t max_lines, std::size_t max_bytes);

/// Default parallelism: the number of online cores (>= 1).
std::size_t default_jobs();

}  // namespace drivevp::experiment
