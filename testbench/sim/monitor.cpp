#include "testbench/sim/monitor.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <unistd.h>

namespace drivevp {

namespace {
/// "00" .. "99": two decimal digits per look-up.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// Writes v in decimal at p (the digits of fmt's "{}": no sign, no leading zeros); returns the
/// end. The digits are built right-aligned in a local buffer and moved with one fixed-size copy,
/// so up to 20 bytes past the end are overwritten (the row buffer has the room, kSlack).
inline char* put_u64(char* p, std::uint64_t v) {
  char buf[40] = {};
  char* e = buf + 20;
  char* d = e;
  while (v >= 100) {
    const auto two = static_cast<unsigned>(v % 100);
    v /= 100;
    d -= 2;
    std::memcpy(d, kDigitPairs + 2 * two, 2);
  }
  if (v >= 10) {
    d -= 2;
    std::memcpy(d, kDigitPairs + 2 * v, 2);
  } else {
    *--d = static_cast<char>('0' + v);
  }
  std::memcpy(p, d, 20);  // the digits and whatever follows them in buf; only e - d bytes count
  return p + (e - d);
}

/// Writes the 9 decimal digits of v < 10^9, zero-padded, at p; returns the end. Split into
/// 4 + 1 + 4 digits first, so that the divisions (multiplications by constants) form two short
/// independent chains instead of one chain of four.
inline char* put_9_digits(char* p, std::uint32_t v) {
  const std::uint32_t high = v / 100'000;   // digits 0..3
  const std::uint32_t low = v % 100'000;    // digits 4..8
  const std::uint32_t last = low % 10'000;  // digits 5..8
  std::memcpy(p, kDigitPairs + 2 * (high / 100), 2);
  std::memcpy(p + 2, kDigitPairs + 2 * (high % 100), 2);
  p[4] = static_cast<char>('0' + low / 10'000);
  std::memcpy(p + 5, kDigitPairs + 2 * (last / 100), 2);
  std::memcpy(p + 7, kDigitPairs + 2 * (last % 100), 2);
  return p + 9;
}

/// Writes t (ps) as milliseconds with exactly 9 decimals: the integer part |t| / 10^9 ps in
/// decimal (0 below 1 ms), the point, the remainder zero-padded to 9 digits; '-' first when
/// negative.
inline char* put_ms(char* p, Time t) {
  const std::int64_t ps = t.count();
  std::uint64_t u = static_cast<std::uint64_t>(ps);
  if (ps < 0) {
    *p++ = '-';
    u = 0 - u;
  }
  p = put_u64(p, u / 1'000'000'000u);
  *p++ = '.';
  return put_9_digits(p, static_cast<std::uint32_t>(u % 1'000'000'000u));
}

/// Upper bound on one CSV row: 7 integers, 17 times, separators, flags.
constexpr std::size_t kMaxRow = 7 * 21 + 17 * 32 + 12 + 41 + 65;  // + sfc_position (39 digits), qos (16 x 4)
/// Room after a row for put_u64's fixed-size copy.
constexpr std::size_t kSlack = 32;
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
                       bool progress, bool deadlines, const QosSpace* qos, bool measured)
    : csv_path_(csv_path),
      warmup_(warmup_requests),
      expected_(expected_requests),
      progress_enabled_(progress && isatty(STDERR_FILENO)),
      deadlines_(deadlines),
      measured_(measured),
      started_(std::chrono::steady_clock::now()),
      last_progress_(started_),
      ring_(kRingSize) {
  if (!csv_path_.empty()) {
    csv_ = std::fopen(csv_path_.c_str(), "wb");
    if (!csv_) throw std::runtime_error(fmt::format("cannot create {}: {}", csv_path_, std::strerror(errno)));
    std::string header = deadlines ? csv_header_with_deadlines() : csv_header();
    if (qos) header.insert(header.size() - 1, ",qos,sfc_position");
    if (measured) header.insert(header.size() - 1, ",measured_service_ms");
    std::fputs(header.c_str(), csv_);
  }
  if (qos) qos_.emplace(*qos);
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
  for (;;) {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_.load(std::memory_order_acquire)) {
      if (done_.load(std::memory_order_acquire) && head == tail_.load(std::memory_order_acquire)) return;
      // Empty: sleep, so that an idle writer does not hold a core (a yield loop costs a system
      // call per turn and competes with the simulation thread on a busy machine) and wakes
      // rarely (each wake-up is a context switch, on the simulation thread's core when the
      // machine leaves the process one). 1 ms holds about a thousand records at the fastest
      // rates, a quarter of the ring's kRingSize.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
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
    if (qos_) qos_->add(r);
    if (measured_ && r.measured_service >= Time{0}) {
      simulated_times_.add(r.response());
      measured_times_.add(r.measured_service);
    }
  }
  if (csv_ && !write_failed()) {
    if (buffer_.size() < kFlushAt + kMaxRow + kSlack) buffer_.resize(kFlushAt + kMaxRow + kSlack);
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
    if (qos_) {
      *p++ = ',';
      for (unsigned k = 0; k < qos_->space().vector_dims(); ++k) {
        if (k) *p++ = ':';
        p = put_u64(p, c.qos_level(k));
      }
      *p++ = ',';
      p = put_key(p, qos_->space().position(c));
    }
    if (measured_) {  // empty for a request without a measured time
      *p++ = ',';
      if (r.measured_service >= Time{0}) p = put_ms(p, r.measured_service);
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
