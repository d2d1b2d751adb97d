#include "testbench/sim/monitor.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <unistd.h>

namespace drivevp {

namespace {
/// Writes v in decimal at p; returns the end (fmt::format_int: the digits of fmt's "{}").
inline char* put_u64(char* p, std::uint64_t v) {
  const fmt::format_int f(v);
  std::memcpy(p, f.data(), f.size());
  return p + f.size();
}

/// Writes t (ps) as milliseconds with exactly 9 decimals: the decimal digits of |t| in ps (one
/// fmt::format_int), zero-padded to at least 10 digits, with the point before the last 9.
inline char* put_ms(char* p, Time t) {
  const std::int64_t ps = t.count();
  std::uint64_t u = static_cast<std::uint64_t>(ps);
  if (ps < 0) {
    *p++ = '-';
    u = 0 - u;
  }
  const fmt::format_int f(u);
  const std::size_t n = f.size();
  if (n <= 9) {  // below 1 ms: "0." then the zero-padded fraction
    std::memcpy(p, "0.000000000", 11);
    std::memcpy(p + 11 - n, f.data(), n);
    return p + 11;
  }
  std::memcpy(p, f.data(), n - 9);
  p[n - 9] = '.';
  std::memcpy(p + n - 8, f.data() + n - 9, 9);
  return p + n + 1;
}

/// Upper bound on one CSV row: 7 integers, 16 times, separators, flags.
constexpr std::size_t kMaxRow = 7 * 21 + 16 * 32 + 12;
constexpr std::size_t kFlushAt = 1 << 16;
}  // namespace

const char* RunMonitor::csv_header() {
  return "id,op,lbn,blocks,cylinder,head,seek_distance,arrival_ms,dispatch_ms,seek_start_ms,seek_end_ms,"
         "transfer_start_ms,transfer_end_ms,completion_ms,queue_wait_ms,seek_ms,rotational_latency_ms,transfer_ms,"
         "service_ms,response_ms,predicted_positioning_ms,data_ok\n";
}

const char* RunMonitor::csv_header_with_deadlines() {
  return "id,op,lbn,blocks,cylinder,head,seek_distance,arrival_ms,dispatch_ms,seek_start_ms,seek_end_ms,"
         "transfer_start_ms,transfer_end_ms,completion_ms,queue_wait_ms,seek_ms,rotational_latency_ms,transfer_ms,"
         "service_ms,response_ms,predicted_positioning_ms,data_ok,deadline_ms,lateness_ms,deadline_met\n";
}

RunMonitor::RunMonitor(const std::string& csv_path, std::uint64_t warmup_requests, std::uint64_t expected_requests,
                       bool progress, bool deadlines)
    : csv_path_(csv_path),
      warmup_(warmup_requests),
      expected_(expected_requests),
      progress_enabled_(progress && isatty(STDERR_FILENO)),
      deadlines_(deadlines),
      started_(std::chrono::steady_clock::now()),
      last_progress_(started_),
      ring_(kRingSize) {
  if (!csv_path_.empty()) {
    csv_ = std::fopen(csv_path_.c_str(), "wb");
    if (!csv_) throw std::runtime_error(fmt::format("cannot create {}: {}", csv_path_, std::strerror(errno)));
    std::fputs(deadlines ? csv_header_with_deadlines() : csv_header(), csv_);
  }
  writer_ = std::thread([this] { drain(); });
}

RunMonitor::~RunMonitor() {
  stop_writer();
  if (csv_) std::fclose(csv_);
}

void RunMonitor::record(const RequestRecord& r) {
  ++recorded_;
  // Hand the record to the writer thread (single producer, single consumer ring, in order).
  const std::uint64_t tail = tail_.load(std::memory_order_relaxed);
  while (tail - head_.load(std::memory_order_acquire) == kRingSize) std::this_thread::yield();  // full
  ring_[tail % kRingSize] = r;
  tail_.store(tail + 1, std::memory_order_release);
  if (progress_enabled_ && (recorded_ & 1023) == 0) progress(r);
}

void RunMonitor::drain() {
  std::uint64_t processed = 0;
  unsigned idle = 0;
  for (;;) {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_.load(std::memory_order_acquire)) {
      if (done_.load(std::memory_order_acquire) && head == tail_.load(std::memory_order_acquire)) return;
      // Empty: spin briefly, then sleep, so an idle writer does not hold a core.
      if (++idle < 64)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      continue;
    }
    idle = 0;
    write_row(ring_[head % kRingSize], ++processed);
    head_.store(head + 1, std::memory_order_release);
  }
}

void RunMonitor::stop_writer() {
  if (!writer_.joinable()) return;
  done_.store(true, std::memory_order_release);
  writer_.join();
}

void RunMonitor::write_row(const RequestRecord& r, std::uint64_t index) {
  if (index > warmup_) {
    metrics_.add(r);
    saturation_.add(r);
    if (deadlines_) deadline_checker_.add(r);
  }
  if (csv_ && !write_failed()) {
    if (buffer_.size() < kFlushAt + kMaxRow) buffer_.resize(kFlushAt + kMaxRow);
    char* const start = buffer_.data() + used_;
    char* p = start;
    const Command& c = r.command;
    p = put_u64(p, c.id);
    *p++ = ',';
    *p++ = c.is_read() ? 'R' : 'W';
    *p++ = ',';
    p = put_u64(p, c.lbn);
    *p++ = ',';
    p = put_u64(p, c.blocks);
    *p++ = ',';
    p = put_u64(p, r.cylinder);
    *p++ = ',';
    p = put_u64(p, r.head);
    *p++ = ',';
    p = put_u64(p, r.seek_distance);
    *p++ = ',';
    const Time times[] = {c.arrival,      r.dispatch,   r.seek_start,   r.seek_end, r.transfer_start,
                          r.transfer_end, r.completion, r.queue_wait(), r.seek(),   r.rotational_latency(),
                          r.transfer(),   r.service(),  r.response()};
    for (Time t : times) {
      p = put_ms(p, t);
      *p++ = ',';
    }
    if (r.predicted_positioning >= Time{0}) p = put_ms(p, r.predicted_positioning);
    *p++ = ',';
    *p++ = r.data_ok ? '1' : '0';
    if (deadlines_) {  // empty deadline, lateness and met for a request without a deadline
      *p++ = ',';
      if (c.deadline != kNoDeadline) {
        p = put_ms(p, c.deadline);
        *p++ = ',';
        p = put_ms(p, lateness(r));
        *p++ = ',';
        *p++ = missed_deadline(r) ? '0' : '1';
      } else {
        *p++ = ',';
      }
    }
    *p++ = '\n';
    used_ += static_cast<std::size_t>(p - start);
    if (used_ > kFlushAt) {
      if (std::fwrite(buffer_.data(), 1, used_, csv_) != used_) write_errno_.store(errno ? errno : EIO);
      used_ = 0;
    }
  }
}

void RunMonitor::progress(const RequestRecord& r) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  if (elapsed < 2.0 || now - last_progress_ < std::chrono::milliseconds(250)) return;
  last_progress_ = now;
  const double rate = static_cast<double>(recorded_) / elapsed;
  std::string eta = "?";
  if (expected_ > recorded_ && rate > 0)
    eta = fmt::format("{:.0f} s", static_cast<double>(expected_ - recorded_) / rate);
  fmt::print(stderr, "\r  simulated {:.3f} s | {} requests done{} | {:.0f} req/s | ETA {}   ", to_s(r.completion),
             recorded_, expected_ ? fmt::format(" of {}", expected_) : std::string(), rate, eta);
  std::fflush(stderr);
  progress_shown_ = true;
}

void RunMonitor::finish() {
  stop_writer();
  if (progress_shown_) {
    fmt::print(stderr, "\n");
    progress_shown_ = false;
  }
  if (!csv_) return;
  int err = write_errno_.load();
  if (used_ && !err && std::fwrite(buffer_.data(), 1, used_, csv_) != used_) err = errno ? errno : EIO;
  used_ = 0;
  if (!err && std::fflush(csv_) != 0) err = errno ? errno : EIO;
  if (!err && std::ferror(csv_)) err = EIO;
  if (std::fclose(csv_) != 0 && !err) err = errno ? errno : EIO;
  csv_ = nullptr;
  write_errno_.store(err);
  if (err) throw std::runtime_error(fmt::format("cannot write {}: {}", csv_path_, std::strerror(err)));
}

}  // namespace drivevp
