#include "testbench/workload/rate_tasks.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "testbench/workload/list_file.h"

namespace drivevp {

const char* to_string(TaskPlacement p) { return p == TaskPlacement::Contiguous ? "contiguous" : "random"; }

namespace {

[[noreturn]] void bad(const std::string& member, const std::string& allowed, double found) {
  throw std::invalid_argument(fmt::format("rate_tasks: {}: expected {}, found {}", member, allowed, found));
}

/// Largest time the workload uses, ms: well inside kMaxArrival.
constexpr double kMaxMs = 1e12;
/// Most tasks a task list may hold (004 §4 admits at most about 90 on one disk).
constexpr std::size_t kMaxTasks = 100000;

/// Uniform double in [0, 1) from 53 bits of the engine.
double unit(std::mt19937_64& e) { return static_cast<double>(e() >> 11) * 0x1.0p-53; }
/// A standard normal variate (Box-Muller from two uniforms, self-contained per call).
double standard_normal(std::mt19937_64& e) {
  const double u1 = 1.0 - unit(e);  // (0, 1]
  const double u2 = unit(e);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

/// The number of jobs of `t` released in [0, duration): k with S_i + (k-1)·P_i < duration.
std::uint64_t jobs_within(const RateTaskSpec& t, double duration_ms) {
  if (t.release_ms >= duration_ms) return 0;
  return static_cast<std::uint64_t>(std::ceil((duration_ms - t.release_ms) / t.period_ms));
}

}  // namespace

void RateTasksOptions::validate() const {
  if (block_bytes == 0 || block_bytes % kBlockBytes != 0 || block_bytes > 65536u * kBlockBytes)
    bad("block_bytes", "a multiple of 512 in [512, 33554432]", block_bytes);
  if (!(duration_s > 0) || duration_s * 1e3 > kMaxMs) bad("duration_s", "a duration in (0, 1e9] s", duration_s);
  if (!(aperiodic_mean_ms >= 0) || aperiodic_mean_ms > kMaxMs)
    bad("aperiodic_mean_ms", "a mean in [0, 1e12] ms (0: no aperiodic requests)", aperiodic_mean_ms);
  if (aperiodic_blocks == 0 || std::uint64_t{aperiodic_blocks} * (block_bytes / kBlockBytes) > 65536)
    bad("aperiodic_blocks", "an integer >= 1 whose bytes fit one command (32 MiB)", aperiodic_blocks);
  if (!(align_round_ms >= 0) || align_round_ms > kMaxMs)
    bad("align_round_ms", "a round length >= 0 ms", align_round_ms);
  if (tasks.empty() && aperiodic_mean_ms == 0) bad("tasks", "at least one task or aperiodic requests", 0);
  const std::uint64_t sectors = block_bytes / kBlockBytes;
  std::set<std::uint32_t> ids;
  for (const RateTaskSpec& t : tasks) {
    const std::string who = fmt::format("task {}", t.id);
    if (t.id == 0) bad("task id", "an id >= 1 (stream 0 is the aperiodic requests')", 0);
    if (!ids.insert(t.id).second) bad(who, "a unique id", t.id);
    if (!(t.period_ms > 0) || t.period_ms > kMaxMs) bad(who + " period_ms", "a period in (0, 1e12] ms", t.period_ms);
    if (!(t.release_ms >= 0) || t.release_ms > kMaxMs) bad(who + " release_ms", "a time in [0, 1e12] ms", t.release_ms);
    if (t.buffer_blocks == 0) bad(who + " buffer_blocks", "b_i >= 1", 0);
    if (!per_block && std::uint64_t{t.buffer_blocks} * sectors > 65536)
      bad(who + " buffer_blocks", "a job that fits one command (32 MiB) when jobs are one command each",
          t.buffer_blocks);
    const std::uint64_t need = jobs_within(t, duration_s * 1e3) * t.buffer_blocks * sectors;
    if (placement == TaskPlacement::Contiguous && need > capacity_blocks)
      bad(who, fmt::format("a file of at most the capacity, {} sectors", capacity_blocks), static_cast<double>(need));
  }
  if (capacity_blocks < sectors * std::max<std::uint64_t>(aperiodic_blocks, 1))
    bad("capacity_blocks", "room for one request", static_cast<double>(capacity_blocks));
}

std::vector<RateTaskSpec> generate_rate_tasks(const RateTaskGeneration& g) {
  if (g.block_bytes == 0 || g.block_bytes % kBlockBytes != 0) bad("block_bytes", "a multiple of 512", g.block_bytes);
  if (!(g.period_mean_ms > 0)) bad("period_mean_ms", "a mean > 0 ms", g.period_mean_ms);
  if (!(g.period_stddev_ms >= 0)) bad("period_stddev_ms", "a standard deviation >= 0 ms", g.period_stddev_ms);
  if (!(g.buffer_mean_bytes > 0)) bad("buffer_mean_bytes", "a mean > 0 B", g.buffer_mean_bytes);
  if (!(g.buffer_stddev_bytes >= 0)) bad("buffer_stddev_bytes", "a standard deviation >= 0 B", g.buffer_stddev_bytes);
  std::mt19937_64 e(g.seed);
  std::vector<RateTaskSpec> tasks;
  for (std::uint32_t i = 0; i < g.count; ++i) {
    RateTaskSpec t;
    t.id = i + 1;
    do {
      t.period_ms = g.period_mean_ms + g.period_stddev_ms * standard_normal(e);
    } while (!(t.period_ms >= 1.0));
    const double bytes = g.buffer_mean_bytes + g.buffer_stddev_bytes * standard_normal(e);
    t.buffer_blocks = static_cast<std::uint32_t>(std::max(1.0, std::round(bytes / g.block_bytes)));
    t.release_ms = unit(e) * t.period_ms;
    tasks.push_back(t);
  }
  return tasks;
}

std::vector<RateTaskSpec> read_rate_tasks(const std::string& path, std::uint32_t block_bytes) {
  const std::vector<ListEntry> entries =
      read_list_file(path, "task", {"id", "release_ms", "period_ms", "rate_bytes_per_s", "buffer_bytes"}, kMaxTasks);
  std::vector<RateTaskSpec> tasks;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ListEntry& e = entries[i];
    auto number = [&](const char* key, double min, bool open) -> std::optional<double> {
      const ListValue* v = e.get(key);
      if (!v) return std::nullopt;
      if (!v->number || (open ? !(*v->number > min) : !(*v->number >= min)) || *v->number > kMaxMs)
        throw_list_value_error(path, "task", key, *v, fmt::format("a number {} {}", open ? ">" : ">=", min));
      return v->number;
    };
    RateTaskSpec s;
    s.id = static_cast<std::uint32_t>(number("id", 1, false).value_or(static_cast<double>(i + 1)));
    s.release_ms = number("release_ms", 0, false).value_or(0);
    const auto bytes = number("buffer_bytes", 0, true);
    if (!bytes)
      throw std::invalid_argument(
          fmt::format("{}:{}:{}: task: expected buffer_bytes, found none", path, e.line, e.column));
    if (std::fmod(*bytes, block_bytes) != 0)
      throw_list_value_error(path, "task", "buffer_bytes", *e.get("buffer_bytes"),
                             fmt::format("a multiple of C = {} B", block_bytes));
    s.buffer_blocks = static_cast<std::uint32_t>(*bytes / block_bytes);
    const auto period = number("period_ms", 0, true);
    const auto rate = number("rate_bytes_per_s", 0, true);
    if (period.has_value() == rate.has_value())
      throw std::invalid_argument(
          fmt::format("{}:{}:{}: task: expected exactly one of period_ms or rate_bytes_per_s, found {}", path, e.line,
                      e.column, period ? "both" : "neither"));
    s.period_ms = period ? *period : *bytes / *rate * 1e3;  // P_i = B_i / L_i (004 §2)
    tasks.push_back(s);
  }
  return tasks;
}

std::uint64_t RateTasksOptions::expected_requests() const {
  std::uint64_t n = 0;
  for (const RateTaskSpec& t : tasks) n += jobs_within(t, duration_s * 1e3) * (per_block ? t.buffer_blocks : 1);
  if (aperiodic_mean_ms > 0) n += static_cast<std::uint64_t>(duration_s * 1e3 / aperiodic_mean_ms);
  return n;
}

RateJob rate_job(const RateTaskSpec& task, std::uint64_t k, Time align_round) {
  // S_{i,k} = S_i + (k-1)·P_i (004 §2), deadline S_{i,k} + P_i.
  const Time release = from_ms(task.release_ms + static_cast<double>(k - 1) * task.period_ms);
  RateJob j{release, from_ms(task.release_ms + static_cast<double>(k) * task.period_ms)};
  if (align_round > Time{0}) j.release = Time{release.count() / align_round.count() * align_round.count()};
  return j;
}

RateTasksSource::RateTasksSource(RateTasksOptions options)
    : o_(std::move(options)), block_sectors_(0), end_(0), align_(0), engine_(o_.seed) {
  o_.validate();
  block_sectors_ = o_.block_bytes / kBlockBytes;
  end_ = from_ms(o_.duration_s * 1e3);
  align_ = from_ms(o_.align_round_ms);
  next_job_.assign(o_.tasks.size(), 1);
  file_start_.assign(o_.tasks.size(), 0);
  for (std::size_t i = 0; i < o_.tasks.size(); ++i) {
    const RateTaskSpec& t = o_.tasks[i];
    if (o_.placement == TaskPlacement::Contiguous) {
      const std::uint64_t len = jobs_within(t, o_.duration_s * 1e3) * t.buffer_blocks * block_sectors_;
      const std::uint64_t slots = (o_.capacity_blocks - len) / block_sectors_ + 1;
      file_start_[i] = static_cast<std::uint64_t>(unit(engine_) * static_cast<double>(slots)) * block_sectors_;
    }
    if (from_ms(t.release_ms) < end_) events_.emplace(rate_job(t, 1, align_).release, 0, i);
  }
  if (o_.aperiodic_mean_ms > 0) {
    next_aperiodic_ = from_ms(-std::log(1.0 - unit(engine_)) * o_.aperiodic_mean_ms);
    if (next_aperiodic_ < end_) events_.emplace(next_aperiodic_, 1, 0);
  }
}

std::uint64_t RateTasksSource::random_block_lbn() {
  const std::uint64_t slots = o_.capacity_blocks / block_sectors_;
  return static_cast<std::uint64_t>(unit(engine_) * static_cast<double>(slots)) * block_sectors_;
}

void RateTasksSource::release_job(std::size_t i) {
  const RateTaskSpec& t = o_.tasks[i];
  const std::uint64_t k = next_job_[i]++;
  const RateJob job = rate_job(t, k, align_);
  Command c;
  c.op = Op::Read;
  c.cls = RequestClass::RealTime;
  c.stream = t.id;
  c.arrival = job.release;
  c.deadline = job.deadline;
  ready_.clear();
  ready_pos_ = 0;
  const std::uint64_t first = file_start_[i] + (k - 1) * t.buffer_blocks * block_sectors_;
  if (!o_.per_block) {
    c.blocks = t.buffer_blocks * block_sectors_;
    c.lbn = o_.placement == TaskPlacement::Contiguous ? first : random_block_lbn();
    ready_.push_back(c);
  } else {
    c.blocks = block_sectors_;
    for (std::uint32_t b = 0; b < t.buffer_blocks; ++b) {
      c.lbn =
          o_.placement == TaskPlacement::Contiguous ? first + std::uint64_t{b} * block_sectors_ : random_block_lbn();
      ready_.push_back(c);
    }
  }
  // The next job, if released before the end (S_{i,k+1} < duration).
  if (from_ms(t.release_ms + static_cast<double>(k) * t.period_ms) < end_)
    events_.emplace(rate_job(t, k + 1, align_).release, 0, i);
}

bool RateTasksSource::next(SourceRequest& out) {
  while (ready_pos_ >= ready_.size()) {
    if (events_.empty()) return false;
    const auto [at, kind, i] = events_.top();
    events_.pop();
    if (kind == 0) {
      release_job(i);
    } else {
      Command c;
      c.op = Op::Read;
      c.cls = RequestClass::Aperiodic;
      c.blocks = o_.aperiodic_blocks * block_sectors_;
      const std::uint64_t slots = (o_.capacity_blocks - c.blocks) / block_sectors_ + 1;
      c.lbn = static_cast<std::uint64_t>(unit(engine_) * static_cast<double>(slots)) * block_sectors_;
      c.arrival = at;
      ready_.assign(1, c);
      ready_pos_ = 0;
      next_aperiodic_ = at + from_ms(-std::log(1.0 - unit(engine_)) * o_.aperiodic_mean_ms);
      if (next_aperiodic_ < end_) events_.emplace(next_aperiodic_, 1, 0);
    }
  }
  out = SourceRequest{};
  out.command = ready_[ready_pos_++];
  return true;
}

std::string RateTasksSource::describe() const {
  return fmt::format(
      "rate_tasks: {} tasks, C = {} B, {} placement, {} per {}, {}aperiodic every {} ms (mean) x {} block(s), "
      "{} s",
      o_.tasks.size(), o_.block_bytes, to_string(o_.placement), "one command", o_.per_block ? "block" : "job",
      o_.align_round_ms > 0 ? fmt::format("releases aligned to R = {} ms, ", o_.align_round_ms) : std::string(),
      o_.aperiodic_mean_ms, o_.aperiodic_blocks, o_.duration_s);
}

}  // namespace drivevp
