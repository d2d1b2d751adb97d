#include "testbench/experiment/runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "testbench/trace/trace_reader.h"  // printable_text

namespace drivevp::experiment {

/// The last `max_lines` lines (at most `max_bytes` bytes) of a file; "" if unreadable.
std::string file_tail(const std::string& path, std::size_t max_lines, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff from =
      size > static_cast<std::streamoff>(max_bytes) ? size - static_cast<std::streamoff>(max_bytes) : 0;
  in.seekg(from);
  std::string tail(static_cast<std::size_t>(size - from), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  std::size_t lines = 0, at = tail.size();
  if (at > 0 && tail[at - 1] == '\n') --at;
  while (at > 0) {
    const std::size_t nl = tail.rfind('\n', at - 1);
    if (nl == std::string::npos) break;
    if (++lines == max_lines) return tail.substr(nl + 1);
    at = nl;
  }
  return tail;
}

namespace {

using Clock = std::chrono::steady_clock;

/// The last non-empty line of a log, printable and at most 300 bytes.
std::string last_log_line(const std::string& path) {
  std::string tail = file_tail(path, std::numeric_limits<std::size_t>::max(), 8192);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) tail.pop_back();
  const auto nl = tail.find_last_of('\n');
  std::string line = nl == std::string::npos ? tail : tail.substr(nl + 1);
  // A progress line ends in '\r'-separated updates: keep the last.
  if (const auto cr = line.find_last_of('\r'); cr != std::string::npos) line = line.substr(cr + 1);
  return printable_text(line, 300);
}

/// Starts one job; returns its pid. Exec failures surface as exit status 127 with a message in
/// the log.
pid_t start(const Job& job) {
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid > 0) return pid;
  // Child: only async-signal-safe calls until exec.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(128 + SIGTERM);  // the parent died before prctl took effect
  const int fd = open(job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) _exit(126);
  dup2(fd, STDOUT_FILENO);
  dup2(fd, STDERR_FILENO);
  const int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  std::vector<char*> argv;
  argv.reserve(job.argv.size() + 1);
  for (const std::string& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  const char msg[] = "drivevp sweep: cannot execute the run's program\n";
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
  _exit(127);
}

}  // namespace

std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, std::size_t parallel,
                                const std::function<void(std::size_t, const JobResult&)>& on_done) {
  if (parallel == 0) parallel = 1;
  std::vector<JobResult> results(jobs.size());
  struct Running {
    std::size_t index;
    Clock::time_point started;
    bool term_sent = false;
  };
  std::map<pid_t, Running> running;
  const bool any_timeout = std::any_of(jobs.begin(), jobs.end(), [](const Job& j) { return j.timeout_s > 0; });
  std::size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && running.size() < parallel) {
      running[start(jobs[next])] = {next, Clock::now()};
      ++next;
    }
    int status = 0;
    pid_t pid = 0;
    if (!any_timeout) {
      pid = waitpid(-1, &status, 0);
    } else {
      // With time limits: poll (1 ms), and stop the runs past their limit.
      pid = waitpid(-1, &status, WNOHANG);
      if (pid == 0) {
        const auto now = Clock::now();
        for (auto& [child, r] : running) {
          const double limit = jobs[r.index].timeout_s;
          if (limit <= 0) continue;
          const double age = std::chrono::duration<double>(now - r.started).count();
          if (!r.term_sent && age > limit) {
            kill(child, SIGTERM);
            r.term_sent = true;
          } else if (r.term_sent && age > limit + 10) {
            kill(child, SIGKILL);
          }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
    }
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;  // ECHILD: nothing left to wait for (cannot happen while `running` is non-empty)
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    const std::size_t index = it->second.index;
    const Clock::time_point started = it->second.started;
    const bool term_sent = it->second.term_sent;
    running.erase(it);
    JobResult& r = results[index];
    r.wall = Clock::now() - started;
    r.timed_out = term_sent;
    if (WIFEXITED(status))
      r.exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      r.exit_status = 128 + WTERMSIG(status);
    if (r.exit_status != 0) {
      r.error = last_log_line(jobs[index].log_path);
      if (r.exit_status == 126)
        r.error = fmt::format("cannot create the log {}", printable_text(jobs[index].log_path, 200));
      if (r.error.empty())
        r.error = WIFSIGNALED(status) ? fmt::format("killed by signal {}", WTERMSIG(status))
                                      : fmt::format("exit status {}", r.exit_status);
    }
    if (r.timed_out)
      r.error = fmt::format("timed out: still running after {} s (stopped with SIGTERM)", jobs[index].timeout_s);
    if (on_done) on_done(index, r);
  }
  return results;
}

std::string self_executable() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::system_error(errno, std::generic_category(), "readlink /proc/self/exe");
  return std::string(buf, static_cast<std::size_t>(n));
}

std::optional<std::string> capture_output(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  std::string out;
  if (rc == 0) {
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
      if (n < 0) {
        if (errno == EINTR) continue;
        break;
      }
      out.append(buf, static_cast<std::size_t>(n));
    }
  }
  close(fds[0]);
  if (rc != 0) return std::nullopt;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

std::size_t default_jobs() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<std::size_t>(n) : 1;
}

}  // namespace drivevp::experiment
