#include "testbench/experiment/slurm.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "testbench/scenario/scenario.h"
#include "testbench/trace/trace_reader.h"  // printable_text

extern char** environ;

namespace drivevp::experiment {
namespace {

namespace fs = std::filesystem;

bool is_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = s.find(sep, from);
    parts.push_back(s.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) return parts;
    from = at + 1;
  }
}

bool iequals(const std::string& a, const char* b) {
  const std::size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

/// Single-quoted for bash: every byte literal, a quote as '\''.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

/// Checks that `path` is absolute and can be written between double quotes in an #SBATCH line.
void check_sbatch_path(const std::string& what, const std::string& path) {
  if (path.empty() || path.front() != '/')
    throw ConfigError(fmt::format("{}: expected an absolute path, found '{}'", what, printable_text(path)));
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || u < 0x20 || u == 0x7f)
      throw ConfigError(fmt::format(
          "{}: expected a path without '\"', '\\' or control characters (an #SBATCH line cannot hold them), "
          "found '{}'",
          what, printable_text(path)));
  }
}

/// `text` with each line made printable (printable_text), lines kept apart.
std::string printable_lines(const std::string& text) {
  std::string out;
  for (const std::string& line : split(text, '\n')) {
    if (!out.empty()) out += '\n';
    out += printable_text(line, 1000);
  }
  return out;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && (s[b] == '\n' || s[b] == ' ' || s[b] == '\t')) ++b;
  return s.substr(b);
}

}  // namespace

void validate_time_limit(const std::string& value) {
  const auto bad = [&](const std::string& expected) {
    return ConfigError(fmt::format("--time: expected {}, found '{}'", expected, printable_text(value)));
  };
  const std::string formats =
      "a time limit as MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (decimal numbers) or UNLIMITED";
  if (iequals(value, "UNLIMITED") || iequals(value, "INFINITE")) return;
  // [D-]fields: without a day part the fields are MM | MM:SS | HH:MM:SS; after "D-" they are
  // HH | HH:MM | HH:MM:SS (Slurm's time_str2secs, src/common/parse_time.c).
  const std::vector<std::string> dash = split(value, '-');
  if (dash.size() > 2) throw bad(formats);
  const bool has_days = dash.size() == 2;
  const std::vector<std::string> fields = split(dash.back(), ':');
  if (fields.size() > 3 || (has_days && !is_digits(dash.front()))) throw bad(formats);
  for (const std::string& f : fields)
    if (!is_digits(f)) throw bad(formats);
  // Each number is capped before multiplying: 12 digits cannot overflow 64 bits below.
  const auto number = [&](const std::string& s) {
    if (s.size() > 12) throw bad("a time limit of at most 24855-03:14:07 (2^31 - 1 seconds)");
    return std::stoull(s);
  };
  std::uint64_t seconds = has_days ? number(dash.front()) * 86400 : 0;
  static constexpr std::uint64_t kHours[] = {3600, 60, 1};  // [D-]HH[:MM[:SS]] and HH:MM:SS
  static constexpr std::uint64_t kMinutes[] = {60, 1};      // MM[:SS]
  const std::uint64_t* unit = has_days || fields.size() == 3 ? kHours : kMinutes;
  for (std::size_t i = 0; i < fields.size(); ++i) seconds += number(fields[i]) * unit[i];
  if (seconds > 2147483647ull) throw bad("a time limit of at most 24855-03:14:07 (2^31 - 1 seconds)");
}

void validate_partition(const std::string& value) {
  for (const std::string& name : split(value, ',')) {
    const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
             c == '.';
    });
    if (!ok)
      throw ConfigError(fmt::format(
          "--partition: expected a partition name or comma-separated names (letters, digits, '_', '-', '.'), "
          "found '{}'",
          printable_text(value)));
  }
}

std::size_t array_task_count(std::size_t points, std::size_t array_chunk) {
  if (array_chunk == 0) throw std::invalid_argument("array_task_count: array_chunk must be >= 1");
  return points / array_chunk + (points % array_chunk != 0 ? 1 : 0);
}

std::vector<std::size_t> array_tasks_of_points(const std::vector<std::size_t>& point_indices, std::size_t array_chunk) {
  if (array_chunk == 0) throw std::invalid_argument("array_tasks_of_points: array_chunk must be >= 1");
  std::vector<std::size_t> tasks;
  tasks.reserve(point_indices.size());
  for (std::size_t p : point_indices) tasks.push_back(p / array_chunk);
  std::sort(tasks.begin(), tasks.end());
  tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
  return tasks;
}

std::string compact_array_ranges(std::vector<std::size_t> indices) {
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", indices[i]) : fmt::format("{}-{}", indices[i], indices[j]);
    i = j + 1;
  }
  return out;
}

std::string sbatch_script(const SbatchOptions& o) {
  if (!o.partition.empty()) validate_partition(o.partition);
  if (!o.time_limit.empty()) validate_time_limit(o.time_limit);
  if (o.array_chunk == 0) throw ConfigError("--array-chunk: expected an integer >= 1, found '0'");
  if (o.tasks == 0) throw ConfigError("sbatch script: expected at least one array task, found 0");
  check_sbatch_path("drivevp binary", o.drivevp);
  check_sbatch_path("sweep directory", o.sweep_dir);
  std::vector<std::size_t> indices = o.task_indices;
  if (indices.empty())
    for (std::size_t i = 0; i < o.tasks; ++i) indices.push_back(i);
  for (std::size_t i : indices)
    if (i >= o.tasks)
      throw ConfigError(fmt::format("sbatch script: expected array task indices below {}, found {}", o.tasks, i));

  std::string name = o.job_name.empty() ? "drivevp-sweep" : o.job_name;
  for (char& c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '+' || c == '-'))
      c = '_';
  std::string output_dir = o.sweep_dir;  // Slurm expands %-patterns in --output: a literal % is %%
  for (std::size_t at = output_dir.find('%'); at != std::string::npos; at = output_dir.find('%', at + 2))
    output_dir.insert(at, 1, '%');
  const std::string sep = o.sweep_dir.back() == '/' ? "" : "/";

  std::string s;
  s += "#!/bin/bash\n";
  s += "# A drivevp sweep as a Slurm job array, written by `drivevp sweep --slurm`: array task I runs\n";
  s += fmt::format("# the incomplete runs of points [I*{0}, (I+1)*{0}) of the plan in the sweep directory.\n",
                   o.array_chunk);
  s += "# Submit with: sbatch THIS_FILE (docs/experiments.md \"Running on Slurm\").\n";
  s += fmt::format("#SBATCH --job-name={}\n", name);
  s += fmt::format("#SBATCH --array={}\n", compact_array_ranges(indices));
  if (!o.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", o.partition);
  if (!o.time_limit.empty()) s += fmt::format("#SBATCH --time={}\n", o.time_limit);
  s += "#SBATCH --ntasks=1\n";
  s += "#SBATCH --cpus-per-task=1\n";
  s += fmt::format("#SBATCH --output=\"{}{}slurm/task-%a.log\"\n", output_dir, sep);
  s += fmt::format("#SBATCH --chdir=\"{}\"\n", o.sweep_dir);
  s += fmt::format("exec {} sweep --slurm-task \"$SLURM_ARRAY_TASK_ID\" --array-chunk {} {}\n", shell_quote(o.drivevp),
                   o.array_chunk, shell_quote(o.sweep_dir));
  return s;
}

std::string write_sbatch_script(const SbatchOptions& options) {
  const std::string text = sbatch_script(options);
  const fs::path dir = fs::path(options.sweep_dir) / "slurm";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  const fs::path path = dir / "sweep.sbatch";
  const fs::path tmp = dir / fmt::format(".sweep.sbatch.{}.tmp", ::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) {
      fs::remove(tmp, ec);
      throw std::runtime_error(fmt::format("cannot write {}", tmp.string()));
    }
  }
  if (::chmod(tmp.c_str(), 0755) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    fs::remove(tmp, ec);
    throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), std::strerror(err)));
  }
  return path.string();
}

std::string submit_sbatch(const std::string& script_path) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int err = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    throw std::runtime_error(fmt::format("pipe: {}", std::strerror(err)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  std::string a0 = "sbatch", a1 = "--parsable", a2 = script_path;
  char* argv[] = {a0.data(), a1.data(), a2.data(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, "sbatch", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    if (rc == ENOENT) throw std::runtime_error("sbatch not found: install slurm-wlm or use --slurm=script");
    throw std::runtime_error(fmt::format("cannot run sbatch: {}", std::strerror(rc)));
  }

  // Both pipes drained together, so that neither fills while the other is read.
  std::string out, err;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open_fds = 2;
  while (open_fds > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (const pollfd& p : fds)
    if (p.fd >= 0) ::close(p.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1);

  // --parsable prints "<job id>" or "<job id>;<cluster>".
  std::string id = trimmed(out);
  if (const auto semi = id.find(';'); semi != std::string::npos) id.resize(semi);
  if (exit_status != 0 || !is_digits(id)) {
    std::string why = trimmed(err);
    if (why.empty()) why = out.empty() ? "no output" : fmt::format("printed '{}', not a job id", trimmed(out));
    throw std::runtime_error(fmt::format("sbatch failed (exit status {}): {}", exit_status, printable_lines(why)));
  }
  return id;
}

}  // namespace drivevp::experiment
