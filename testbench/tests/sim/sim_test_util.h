// Helpers of the platform-level (SystemC) test suite: unique temporary directories, small file
// I/O, a requests.csv reader, exact millisecond <-> picosecond conversion of the monitor's
// printed times, one platform run per process, and running the drivevp binary.
//
// SystemC allows one elaboration per process: a TEST_CASE may call run_platform() at most once
// (ctest runs every TEST_CASE in its own process).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "drivevp_binary.h"  // generated: DRIVEVP_BINARY
#include "testbench/scenario/scenario.h"
#include "testbench/sim/platform.h"

namespace drivevp::simtest {

namespace fs = std::filesystem;

/// Requests given in advance (open loop: each at its arrival time).
class ListSource final : public WorkloadSource {
 public:
  explicit ListSource(std::vector<Command> commands) : commands_(std::move(commands)) {}
  bool next(SourceRequest& out) override {
    if (next_ == commands_.size()) return false;
    out = SourceRequest{};
    out.command = commands_[next_++];
    return true;
  }
  std::string describe() const override { return "list"; }

 private:
  std::vector<Command> commands_;
  std::size_t next_ = 0;
};

/// A command for a ListSource: `blocks` blocks from `lbn`, arriving at `t` (the host numbers
/// commands in submission order; `id` is only the source's).
inline Command command_at(Time t, Op op, std::uint64_t lbn, std::uint32_t blocks, std::uint64_t id = 0) {
  Command c;
  c.id = id;
  c.arrival = t;
  c.op = op;
  c.lbn = lbn;
  c.blocks = blocks;
  return c;
}

/// A fresh directory under the system temporary directory, removed (recursively) on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static std::atomic<unsigned> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    for (unsigned attempt = 0;; ++attempt) {
      path_ = fs::temp_directory_path() /
              fmt::format("drivevp-simtest-{}-{}-{}-{}-{}", tag, ::getpid(), stamp, counter++, attempt);
      if (fs::create_directory(path_)) break;
      if (attempt > 100) throw std::runtime_error("cannot create a temporary directory");
    }
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

inline void write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

/// Writes the scenario text `toml` to `path` and loads it with `overrides` (--set); returns the
/// ConfigError's text with `path` replaced by "FILE", or "<no error>" when it loads.
inline std::string config_error_at(const fs::path& path, const std::string& toml,
                                   const std::vector<std::string>& overrides = {}) {
  write_text(path, toml);
  try {
    (void)load_scenario(path.string(), overrides);
  } catch (const ConfigError& e) {
    std::string m = e.what();
    for (auto at = m.find(path.string()); at != std::string::npos; at = m.find(path.string()))
      m.replace(at, path.string().size(), "FILE");
    return m;
  }
  return "<no error>";
}

inline std::string read_text(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

/// The sorted names of the entries of `dir` (empty if it does not exist).
inline std::vector<std::string> list_dir(const fs::path& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Monitor time text ("123.000000456", ms with 9 decimals) to integer picoseconds, exactly.
inline std::int64_t ms_text_to_ps(const std::string& s) {
  const auto dot = s.find('.');
  if (dot == std::string::npos || s.size() - dot - 1 != 9) throw std::invalid_argument("not a ms time: '" + s + "'");
  const bool negative = !s.empty() && s[0] == '-';
  const std::int64_t whole = std::stoll(s.substr(negative ? 1 : 0, dot - (negative ? 1 : 0)));
  const std::int64_t frac = std::stoll(s.substr(dot + 1));
  const std::int64_t ps = whole * 1'000'000'000 + frac;
  return negative ? -ps : ps;
}

/// Integer picoseconds as the monitor prints them (ms with 9 decimals).
inline std::string ps_to_ms_text(std::int64_t ps) {
  const bool negative = ps < 0;
  if (negative) ps = -ps;
  return fmt::format("{}{}.{:09}", negative ? "-" : "", ps / 1'000'000'000, ps % 1'000'000'000);
}

/// A CSV file with a header line; cells by row and column name.
class Csv {
 public:
  explicit Csv(const fs::path& path) {
    std::istringstream in(read_text(path));
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
      std::vector<std::string> cells;
      std::string cell;
      std::istringstream ls(line);
      while (std::getline(ls, cell, ',')) cells.push_back(cell);
      if (!line.empty() && line.back() == ',') cells.emplace_back();
      if (first) {
        for (std::size_t i = 0; i < cells.size(); ++i) columns_[cells[i]] = i;
        width_ = cells.size();
        first = false;
      } else {
        if (cells.size() != width_) throw std::runtime_error("CSV row with " + std::to_string(cells.size()) + " cells");
        rows_.push_back(std::move(cells));
      }
    }
  }
  std::size_t size() const { return rows_.size(); }
  const std::string& at(std::size_t row, const std::string& column) const {
    auto it = columns_.find(column);
    if (it == columns_.end()) throw std::out_of_range("no CSV column '" + column + "'");
    return rows_.at(row).at(it->second);
  }
  std::uint64_t u64(std::size_t row, const std::string& column) const { return std::stoull(at(row, column)); }
  /// A time column in integer picoseconds.
  std::int64_t ps(std::size_t row, const std::string& column) const { return ms_text_to_ps(at(row, column)); }

 private:
  std::map<std::string, std::size_t> columns_;
  std::size_t width_ = 0;
  std::vector<std::vector<std::string>> rows_;
};

/// One line of a DiskSim ASCII trace: `arrival_ms devno blkno bcount flags` (flags 1 = read).
inline std::string disksim_line(double arrival_ms, std::uint64_t lbn, std::uint32_t blocks, bool read) {
  return fmt::format("{:.6f} 0 {} {} {}\n", arrival_ms, lbn, blocks, read ? 1 : 0);
}

/// A scenario replaying the DiskSim trace `trace_path` on `preset` under `policy`.
inline std::string trace_scenario(const fs::path& trace_path, const std::string& policy,
                                  const std::string& preset = "hp97560") {
  return fmt::format(
      "[device]\npreset = \"{}\"\n\n[firmware]\npolicy = \"{}\"\n\n[workload]\nkind = \"trace\"\npath = \"{}\"\n"
      "format = \"disksim\"\n\n[run]\nprogress = false\n\n[output]\nplots = false\n",
      preset, policy, trace_path.string());
}

/// A synthetic scenario; `extra` is appended (more [section] tables).
inline std::string synthetic_scenario(const std::string& policy, const std::string& workload_keys,
                                      const std::string& run_keys, const std::string& extra = "") {
  return fmt::format(
      "[device]\npreset = \"hp97560\"\n\n[firmware]\npolicy = \"{}\"\n\n[workload]\nkind = \"synthetic\"\n{}\n"
      "[run]\nprogress = false\n{}\n[output]\nplots = false\n{}",
      policy, workload_keys, run_keys, extra);
}

/// Writes `toml` to dir/scenario.toml, loads it with `overrides` (output.dir = dir/out), and runs
/// the platform once. Returns the result; the outputs are in dir/out.
inline RunResult run_platform(const TempDir& dir, const std::string& toml, std::vector<std::string> overrides = {}) {
  const fs::path scenario = dir / "scenario.toml";
  write_text(scenario, toml);
  overrides.push_back("output.dir=" + nlohmann::json((dir / "out").string()).dump());
  const Scenario sc = load_scenario(scenario.string(), overrides);
  return run_scenario(sc);
}

/// Result of running a command: exit status and captured stdout / stderr.
struct CommandResult {
  int status = -1;  ///< exit status, or -1 if it did not exit normally
  std::string out;
  std::string err;
};

/// Runs the drivevp binary with `args` (each quoted for the shell), capturing stdout and stderr
/// into files of `scratch`.
inline CommandResult run_drivevp(const fs::path& scratch, const std::vector<std::string>& args) {
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  static std::atomic<unsigned> n{0};
  const unsigned k = n++;
  const fs::path out = scratch / fmt::format("cmd{}.stdout", k);
  const fs::path err = scratch / fmt::format("cmd{}.stderr", k);
  std::string cmd = "SC_COPYRIGHT_MESSAGE=DISABLE " + quote(DRIVEVP_BINARY);
  for (const std::string& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(out.string()) + " 2>" + quote(err.string()) + " </dev/null";
  const int raw = std::system(cmd.c_str());
  CommandResult r;
  r.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

}  // namespace drivevp::simtest
