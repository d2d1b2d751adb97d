// Rate-based real-time tasks and aperiodic requests (paper 004 §2, Table 1 notation). Plain C++.
//
// A task τ_i = (S_i, L_i) with buffer B_i = b_i·C bytes becomes periodic jobs τ_{i,k} =
// (S_{i,k}, P_i, B_i) with P_i = B_i/L_i and S_{i,k} = S_i + (k-1)·P_i; each job reads B_i bytes
// and must complete by its deadline S_{i,k} + P_i (004 §2). With release-time alignment (WRR-SCAN-
// CA, 004 §3.3) a job not released on a round boundary is released at the boundary before,
// floor(S_{i,k}/R)·R, keeping its absolute deadline (the period grows by R - T_h).
// Aperiodic requests arrive as a Poisson process (004 §4: exponential inter-arrival, mean 35 ms),
// each reading `aperiodic_blocks` blocks of C bytes at a uniform random block-aligned address.
//
// Commands: a job is either one command of b_i·C bytes (`per_block` false) or b_i commands of C
// bytes each, released together (`per_block` true: the unit WRR-SCAN serves per round, 004 §3).
// Periodic commands: RequestClass::RealTime, stream = the task's id (1, 2, ...), deadline set.
// Aperiodic commands: RequestClass::Aperiodic, stream 0, no deadline. All are reads.
// Placement of a task's data (004 §3.1-3.2): `contiguous` (data compaction: job k of task i reads
// the b_i blocks after job k-1's, from a random block-aligned file start) or `random` (every block
// at its own uniform random block-aligned address).
// Order: commands in non-decreasing arrival; at equal times periodic jobs by task id, then blocks
// in address order (contiguous) or draw order (random), then aperiodic requests.
#pragma once

#include <cstdint>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "testbench/source.h"
#include "tlm_bus/command.h"

namespace drivevp {

/// One rate-based task (004 §2). Times in ms; the buffer in blocks of the workload's C.
struct RateTaskSpec {
  std::uint32_t id = 1;              ///< Command::stream of its jobs, >= 1, unique
  double release_ms = 0;             ///< S_i >= 0
  double period_ms = 5000;           ///< P_i = B_i / L_i > 0
  std::uint32_t buffer_blocks = 14;  ///< b_i >= 1 (B_i = b_i·C)
};

/// Where a task's blocks lie on the device.
enum class TaskPlacement { Contiguous, Random };
/// "contiguous", "random".
const char* to_string(TaskPlacement p);

/// Options of the rate_tasks workload (scenario keys workload.*, testbench/scenario/scenario.cpp).
struct RateTasksOptions {
  std::vector<RateTaskSpec> tasks;   ///< the task set (from a file or generate_rate_tasks())
  std::uint32_t block_bytes = 4096;  ///< C: a multiple of 512 (004 Table 2: 4096)
  TaskPlacement placement = TaskPlacement::Contiguous;
  bool per_block = true;               ///< one command per block (else one per job)
  double align_round_ms = 0;           ///< R for release-time alignment (WRR-SCAN-CA); 0: none
  double aperiodic_mean_ms = 35;       ///< mean aperiodic inter-arrival (004 §4: 35 ms); 0: none
  std::uint32_t aperiodic_blocks = 1;  ///< blocks of C per aperiodic request (004 §4: one block)
  double duration_s = 60;              ///< jobs and requests released in [0, duration)
  std::uint64_t seed = 1;
  std::uint64_t capacity_blocks = 0;  ///< device capacity in 512 B sectors

  /// Throws std::invalid_argument naming the member, its allowed range and the value found.
  void validate() const;
  /// Commands the workload yields: exact for the jobs, the mean for the aperiodic requests.
  std::uint64_t expected_requests() const;
};

/// Parameters of a generated task set (004 §4: P_i normal, mean 5000 ms, B_i normal, mean 56 KB).
struct RateTaskGeneration {
  std::uint32_t count = 10;      ///< n tasks
  double period_mean_ms = 5000;  ///< 004 §4
  /// 004 §4: "a 1000-ms variance", read literally: variance 1000 ms², standard deviation
  /// sqrt(1000) = 31.623 ms (the reading that reproduces 004's admission counts, docs/models/wrr_scan.md)
  double period_stddev_ms = 31.622776601683793;
  double buffer_mean_bytes = 57344;  ///< 004 §4: 56 KB
  /// 004 §4: "a 28-KB variance", read literally: variance 28 KB², standard deviation sqrt(28) KB
  double buffer_stddev_bytes = 5418.578043;
  std::uint32_t block_bytes = 4096;  ///< C
  std::uint64_t seed = 1;
};

/// Draws a task set: P_i ~ Normal(mean, sd) redrawn until >= 1 ms; b_i = max(1, round(B_i/C)) with
/// B_i ~ Normal(mean, sd); S_i uniform on [0, P_i) (004 does not state the release times: tasks
/// start at independent random phases). Ids 1..count. Same parameters and seed => same set.
std::vector<RateTaskSpec> generate_rate_tasks(const RateTaskGeneration& g);

/// Reads a task list (testbench/workload/list_file.h): TOML `[[task]]` tables, or a CSV file
/// (".csv") with a header row of the same keys, with release_ms (default 0), buffer_bytes (a
/// multiple of `block_bytes`), and exactly one of period_ms or rate_bytes_per_s (P_i = B_i/L_i);
/// optional id (default: position, from 1); at most 100000 tasks. Throws std::invalid_argument
/// "<path>:<line>:<column>: ..." naming the key, what was expected and what was found.
std::vector<RateTaskSpec> read_rate_tasks(const std::string& path, std::uint32_t block_bytes);

/// The job of a task: τ_{i,k} (k from 1).
struct RateJob {
  Time release{0};   ///< S_{i,k} after alignment (the commands' arrival)
  Time deadline{0};  ///< S_{i,k} + P_i (absolute, before alignment)
};
/// Job k (k >= 1) of `task`; `align_round` > 0: release at floor(S_{i,k}/R)·R.
RateJob rate_job(const RateTaskSpec& task, std::uint64_t k, Time align_round);

/// The rate_tasks workload as a WorkloadSource.
class RateTasksSource final : public WorkloadSource {
 public:
  /// Throws std::invalid_argument when `options` do not validate.
  explicit RateTasksSource(RateTasksOptions options);
  bool next(SourceRequest& out) override;
  std::string describe() const override;

 private:
  void release_job(std::size_t task);
  std::uint64_t random_block_lbn();
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  RateTasksOptions o_;
  std::uint32_t block_sectors_;
  Time end_;
  Time align_;
  std::mt19937_64 engine_;
  std::vector<std::uint64_t> next_job_;    ///< per task: k of its next job
  std::vector<std::uint64_t> file_start_;  ///< per task: first LBN of its file (contiguous)
  /// (arrival, kind: 0 periodic / 1 aperiodic, task index) of each source's next release.
  using Event = std::tuple<Time, int, std::size_t>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::vector<Command> ready_;  ///< commands of the job being emitted, in order
  std::size_t ready_pos_ = 0;
  Time next_aperiodic_{0};
};

}  // namespace drivevp
