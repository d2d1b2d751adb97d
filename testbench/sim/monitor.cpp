#include "testbench/sim/monitor.h"

#include <stdexcept>

#include <unistd.h>

namespace drivevp {

namespace {
/// Appends t (ps) as milliseconds with 9 decimals, exactly.
void put_ms(fmt::memory_buffer& b, Time t) {
  std::int64_t ps = t.count();
  if (ps < 0) {
    b.push_back('-');
    ps = -ps;
  }
  fmt::format_to(std::back_inserter(b), "{}.{:09}", ps / 1'000'000'000, ps % 1'000'000'000);
}
}  // namespace

const char* RunMonitor::csv_header() {
  return "id,op,lbn,blocks,cylinder,head,seek_distance,arrival_ms,dispatch_ms,seek_start_ms,seek_end_ms,"
         "transfer_start_ms,transfer_end_ms,completion_ms,queue_wait_ms,seek_ms,rotational_latency_ms,transfer_ms,"
         "service_ms,response_ms,predicted_positioning_ms,data_ok\n";
}

RunMonitor::RunMonitor(const std::string& csv_path, std::uint64_t warmup_requests, std::uint64_t expected_requests,
                       bool progress)
    : csv_path_(csv_path),
      warmup_(warmup_requests),
      expected_(expected_requests),
      progress_enabled_(progress && isatty(STDERR_FILENO)),
      started_(std::chrono::steady_clock::now()),
      last_progress_(started_) {
  if (!csv_path_.empty()) {
    csv_ = std::fopen(csv_path_.c_str(), "wb");
    if (!csv_) throw std::runtime_error("cannot create " + csv_path_);
    std::fputs(csv_header(), csv_);
  }
}

RunMonitor::~RunMonitor() {
  if (csv_) std::fclose(csv_);
}

void RunMonitor::record(const RequestRecord& r) {
  ++recorded_;
  if (recorded_ > warmup_) metrics_.add(r);
  if (csv_) {
    auto& b = buffer_;
    const Command& c = r.command;
    fmt::format_to(std::back_inserter(b), "{},{},{},{},{},{},{},", c.id, c.is_read() ? 'R' : 'W', c.lbn, c.blocks,
                   r.cylinder, r.head, r.seek_distance);
    for (Time t : {c.arrival, r.dispatch, r.seek_start, r.seek_end, r.transfer_start, r.transfer_end, r.completion,
                   r.queue_wait(), r.seek(), r.rotational_latency(), r.transfer(), r.service(), r.response()}) {
      put_ms(b, t);
      b.push_back(',');
    }
    if (r.predicted_positioning >= Time{0}) put_ms(b, r.predicted_positioning);
    b.push_back(',');
    b.push_back(r.data_ok ? '1' : '0');
    b.push_back('\n');
    if (b.size() > (1 << 16)) {
      std::fwrite(b.data(), 1, b.size(), csv_);
      b.clear();
    }
  }
  if (progress_enabled_ && (recorded_ & 1023) == 0) progress(r);
}

void RunMonitor::progress(const RequestRecord& r) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  if (elapsed < 2.0 || now - last_progress_ < std::chrono::milliseconds(250)) return;
  last_progress_ = now;
  const double rate = static_cast<double>(recorded_) / elapsed;
  std::string eta = "?";
  if (expected_ > recorded_ && rate > 0) eta = fmt::format("{:.0f} s", static_cast<double>(expected_ - recorded_) / rate);
  fmt::print(stderr, "\r  simulated {:.3f} s | {} requests done{} | {:.0f} req/s | ETA {}   ", to_s(r.completion),
             recorded_, expected_ ? fmt::format(" of {}", expected_) : std::string(), rate, eta);
  std::fflush(stderr);
  progress_shown_ = true;
}

void RunMonitor::finish() {
  if (progress_shown_) {
    fmt::print(stderr, "\n");
    progress_shown_ = false;
  }
  if (!csv_) return;
  if (buffer_.size()) std::fwrite(buffer_.data(), 1, buffer_.size(), csv_);
  buffer_.clear();
  const bool bad = std::ferror(csv_) != 0;
  const bool close_failed = std::fclose(csv_) != 0;
  csv_ = nullptr;
  if (bad || close_failed) throw std::runtime_error("write error on " + csv_path_);
}

}  // namespace drivevp
