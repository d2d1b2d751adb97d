#include "testbench/sim/output_dir.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "waveforms/gtkw.h"

namespace drivevp {

namespace fs = std::filesystem;

const std::vector<std::string>& output_file_names() {
  static const std::vector<std::string> names = {"summary.json",
                                                 "requests.csv",
                                                 "response_histogram.csv",
                                                 "rounds.csv",
                                                 "response_histogram.png",
                                                 "response_cdf.png",
                                                 "validation_cdf.csv",
                                                 "validation_cdf.png",
                                                 "waves.vcd",
                                                 "waves.gtkw",
                                                 "waves.fst",
                                                 "waves.firmware.state.txt",
                                                 "waves.mems.sled.power_state.txt",
                                                 "waves.rounds.period.txt",
                                                 "waves.rounds.serving.txt"};
  return names;
}

namespace {

// What the interrupt cleanup thread needs of the open output directory. Guarded by g_mutex, which
// commit() also holds, so a signal never interrupts a commit half-way.
struct ActiveOutput {
  std::string staging;
  std::string lock_path;
  std::string dir;
};
std::mutex g_mutex;
ActiveOutput* g_active = nullptr;
bool g_finished = false;

std::string errno_text(int err) { return std::strerror(err); }

/// Removes `path` recursively, retrying while entries appear (a writer that still runs, e.g. a
/// plot child, can create a file between the scan and the rmdir); once the directory itself is
/// gone nothing can be created inside it. Returns false if it could not be removed.
bool remove_tree(const fs::path& path) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::error_code ec;
    fs::remove_all(path, ec);
    if (!fs::exists(fs::symlink_status(path, ec))) return true;
  }
  return false;
}

/// The pid written into a lock file by its holder, or "" if unreadable.
std::string read_holder_pid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return "";
  std::string s(buf, static_cast<std::size_t>(n));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s.find_first_not_of("0123456789") == std::string::npos ? s : "";
}

}  // namespace

OutputDirectory::OutputDirectory(const std::string& dir)
    : dir_(dir), staging_(dir_ / kStagingName), lock_path_(dir_ / kLockName) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw OutputError(fmt::format("output directory '{}' cannot be created: {}", dir_.string(), ec.message()));
  if (!fs::is_directory(dir_, ec))
    throw OutputError(fmt::format("output directory '{}' is not a directory", dir_.string()));

  // Lock. The holder removes the lock file when it ends, so after taking the lock check that the
  // file is still the one at lock_path_ (else another run removed it and a third may have
  // created a new one: retry).
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      const int err = errno;
      throw OutputError(fmt::format("output directory '{}' is not writable: cannot create the lock file {}: {}",
                                    dir_.string(), kLockName, errno_text(err)));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      if (err == EWOULDBLOCK) {
        const std::string pid = read_holder_pid(fd);
        ::close(fd);
        throw OutputBusyError(
            fmt::format("output directory '{}' is in use by another drivevp run ({}lock file {}); nothing was "
                        "simulated or written; wait for that run to end or choose another --out",
                        dir_.string(), pid.empty() ? "" : "pid " + pid + ", ", (dir_ / kLockName).string()));
      }
      ::close(fd);
      throw OutputError(
          fmt::format("output directory '{}': cannot lock {}: {}", dir_.string(), kLockName, errno_text(err)));
    }
    struct stat held {};
    struct stat named {};
    if (::fstat(fd, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      lock_fd_ = fd;
      break;
    }
    ::close(fd);
    if (attempt > 100)
      throw OutputError(
          fmt::format("output directory '{}': the lock file {} keeps being replaced", dir_.string(), kLockName));
  }
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::ftruncate(lock_fd_, 0) != 0 ||
      ::pwrite(lock_fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    const int err = errno;
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
    throw OutputError(fmt::format("output directory '{}' is not writable: cannot write the lock file {}: {}",
                                  dir_.string(), kLockName, errno_text(err)));
  }

  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    // Debris of killed runs: only entries named ".partial.*"; we hold the lock, so none is live.
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(kPartialPrefix, 0) != 0) continue;
      if (!remove_tree(entry.path()))
        throw OutputError(
            fmt::format("output directory '{}': cannot remove '{}', left by an earlier run", dir_.string(), name));
      removed_debris_.push_back(name);
    }
    std::sort(removed_debris_.begin(), removed_debris_.end());
    if (!fs::create_directory(staging_, ec) || ec)
      throw OutputError(fmt::format("output directory '{}' is not writable: cannot create {}: {}", dir_.string(),
                                    kStagingName, ec ? ec.message() : std::string("it exists")));
    g_active = new ActiveOutput{staging_.string(), lock_path_.string(), dir_.string()};
  } catch (...) {
    ::unlink(lock_path_.c_str());
    ::close(lock_fd_);
    throw;
  }
}

OutputDirectory::~OutputDirectory() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!committed_) remove_tree(staging_);
  delete g_active;
  g_active = nullptr;
  ::unlink(lock_path_.c_str());  // before the lock is released: see the retry in the constructor
  ::close(lock_fd_);
}

fs::path OutputDirectory::stage(const std::string& name) {
  const auto& names = output_file_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw std::invalid_argument("OutputDirectory::stage: '" + name + "' is not a drivevp output name");
  if (std::find(staged_.begin(), staged_.end(), name) == staged_.end()) staged_.push_back(name);
  return staging_ / name;
}

void OutputDirectory::commit() {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto fail = [&](const std::string& what, const std::error_code& ec) {
    throw OutputError(fmt::format("output directory '{}': {}: {}", dir_.string(), what, ec.message()));
  };
  std::error_code ec;
  std::vector<std::string> written;
  for (const std::string& name : staged_)
    if (fs::exists(staging_ / name, ec)) written.push_back(name);
  const bool has_summary = std::find(written.begin(), written.end(), "summary.json") != written.end();
  // The old summary.json goes first and the new one comes last: a directory without summary.json
  // holds no complete run.
  if (has_summary) {
    fs::remove(dir_ / "summary.json", ec);
    if (ec) fail("cannot remove the old summary.json", ec);
  }
  for (const std::string& name : written) {
    if (name == "summary.json") continue;
    fs::rename(staging_ / name, dir_ / name, ec);
    if (ec) fail("cannot move " + name + " into place", ec);
  }
  for (const std::string& name : output_file_names()) {
    if (std::find(written.begin(), written.end(), name) != written.end()) continue;
    fs::remove(dir_ / name, ec);
    if (ec) fail("cannot remove " + name + " of an earlier run", ec);
  }
  if (has_summary) {
    fs::rename(staging_ / "summary.json", dir_ / "summary.json", ec);
    if (ec) fail("cannot move summary.json into place", ec);
  }
  committed_ = true;
  remove_tree(staging_);
}

namespace {

void cleanup_thread(sigset_t set) {
  int sig = 0;
  if (::sigwait(&set, &sig) != 0) return;
  std::unique_lock<std::mutex> lock(g_mutex);  // waits for a commit in progress
  if (g_finished) return;                      // the run's outcome is final; main() exits
  const pid_t child = gtkw::running_child();
  if (child > 0) ::kill(child, SIGKILL);
  std::string msg = fmt::format("drivevp: interrupted by {}", sig == SIGINT    ? "SIGINT"
                                                              : sig == SIGTERM ? "SIGTERM"
                                                                               : "SIGHUP");
  if (g_active) {
    const bool removed = remove_tree(g_active->staging);
    ::unlink(g_active->lock_path.c_str());
    msg += removed ? fmt::format("; removed this run's partial outputs; earlier outputs in '{}' are unchanged",
                                 g_active->dir)
                   : fmt::format("; could not remove {}", g_active->staging);
  }
  msg += "\n";
  const ssize_t ignored = ::write(STDERR_FILENO, msg.data(), msg.size());
  (void)ignored;
  ::_exit(128 + sig);  // no destructors: the main thread is still running the simulation
}

}  // namespace

void install_interrupt_cleanup() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal ignored by whoever started us stays ignored (nohup; a shell's background job).
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaddset(&set, sig);
  }
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(cleanup_thread, set).detach();
}

void finish_interrupt_cleanup() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_finished = true;
}

}  // namespace drivevp
