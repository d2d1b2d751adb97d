// The output directory of one run: an advisory lock held for the whole run, a staging directory
// for the files being written, and a commit after which the directory holds exactly this run's
// outputs. Also the command line's handling of SIGINT / SIGTERM / SIGHUP, which removes the
// run's partial files before the process exits.
//
// Layout of an output directory DIR while a run writes into it:
//   DIR/.drivevp.lock        the lock file: flock(LOCK_EX) held by the running process, which
//                            wrote its pid into it; removed when the run ends
//   DIR/.partial.drivevp/    the staging directory: every output is written here under its final
//                            name and renamed into DIR by commit()
// Anything in DIR whose name starts with ".partial." is debris of an earlier run that was killed
// (SIGKILL, power loss) and is removed when the next run takes the lock. Files in DIR that are
// neither drivevp outputs (output_file_names()) nor ".partial.*" are never touched.
//
// What this does not cover: NFS and other file systems where flock() is not a real lock (two
// hosts writing into one directory on such a file system are not kept apart); a commit is a
// sequence of renames, not one atomic step (a SIGKILL during the commit can leave a mix, which
// the missing summary.json, renamed last, makes recognisable).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace drivevp {

/// Another process holds the output directory's lock. The command line exits with status 2;
/// nothing was simulated or written.
class OutputBusyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The output directory cannot be created, locked or written (read-only file system, permission,
/// disk full). The message names the path and the system's reason. The command line exits with
/// status 3; earlier outputs in the directory are unchanged.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Every file name a run may write into its output directory (summary.json, requests.csv,
/// response_histogram.csv, the PNGs, the waveform files). commit() removes those of them that the
/// committing run did not write, and only those.
const std::vector<std::string>& output_file_names();

/// An output directory locked for one run. Not copyable; one per run.
class OutputDirectory {
 public:
  static constexpr const char* kLockName = ".drivevp.lock";
  static constexpr const char* kStagingName = ".partial.drivevp";
  static constexpr const char* kPartialPrefix = ".partial.";

  /// Creates `dir` (and its parents) if missing, takes the lock (non-blocking), removes debris of
  /// killed runs (every entry named ".partial.*"), and creates an empty staging directory.
  /// Throws OutputBusyError if another process holds the lock (the message names the directory
  /// and the pid recorded in the lock file), OutputError if the directory cannot be created or
  /// written. Registers itself for the interrupt cleanup (install_interrupt_cleanup).
  explicit OutputDirectory(const std::string& dir);
  /// Without commit(): removes the staging directory. Always: removes the lock file and releases
  /// the lock. Never throws.
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  const std::filesystem::path& staging() const { return staging_; }
  /// The staging path for output `name` (one of output_file_names(); std::invalid_argument
  /// otherwise). The caller writes the file there; commit() moves it into dir() if it exists.
  std::filesystem::path stage(const std::string& name);
  /// The names of the debris entries the constructor removed (sorted).
  const std::vector<std::string>& removed_debris() const { return removed_debris_; }

  /// Moves every staged file that exists into dir() (summary.json last, after removing the old
  /// one first), removes the other output_file_names() from dir(), and removes the staging
  /// directory. A SIGINT/SIGTERM arriving during the commit takes effect after it. Throws
  /// OutputError naming the file and the reason if a rename or removal fails.
  void commit();

 private:
  std::filesystem::path dir_;
  std::filesystem::path staging_;
  std::filesystem::path lock_path_;
  int lock_fd_ = -1;
  bool committed_ = false;
  std::vector<std::string> staged_;
  std::vector<std::string> removed_debris_;
};

/// For the command line: blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and so in
/// every thread it creates later; call it first in main()) and starts a thread that waits for
/// them. On a signal that thread kills a running plot / vcd2fst child, removes the staging
/// directory and the lock file of the OutputDirectory that is open, prints
/// "drivevp: interrupted by SIGINT; ..." to stderr and ends the process with status 128 + the
/// signal number (SIGINT 130, SIGTERM 143, SIGHUP 129). Outputs being committed are committed
/// first. A signal that is ignored (SIG_IGN) when this is called stays ignored, as under nohup or
/// for a background job of a non-interactive shell. Call at most once.
void install_interrupt_cleanup();

/// For the command line, just before it exits normally: from here on a signal no longer ends the
/// process (the run's outcome is final). Waits for a cleanup already in progress.
void finish_interrupt_cleanup();

}  // namespace drivevp
