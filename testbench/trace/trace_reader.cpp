// Trace replay: format names, detection, the line reader, the per-file cursor (time origin,
// ordering, error reporting), the merge of several logs, the device filter, the window, the
// capacity policy, the validating pre-pass and the streaming source.
#include "testbench/trace/trace_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

namespace drivevp {

using trace_detail::Failure;
using trace_detail::LineParser;
using trace_detail::Record;

namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr std::int64_t kPsPerS = 1'000'000'000'000;
/// Largest trace time (relative to the trace start) that fits Time: 9,223,372 s (~106 days).
constexpr std::int64_t kMaxTraceSeconds = std::numeric_limits<std::int64_t>::max() / kPsPerS - 1;

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return r;
}

/// Seconds with up to 12 decimals, trailing zeros dropped ("0.017829285").
std::string format_seconds(std::int64_t ps) {
  std::string s = fmt::format("{}.{:012d}", ps / kPsPerS, ps % kPsPerS);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

/// What a message quotes: the field, or the start of an over-long line, made printable.
std::string quote(std::string_view found) { return printable_text(found, 120); }

/// Whether the first bytes of a file are binary rather than text: a NUL byte, or more than 1 in
/// 8 bytes being control characters other than tab, newline, carriage return and form feed.
/// Sets `why` to a description of the evidence.
bool looks_binary(const char* data, std::size_t n, std::string& why) {
  std::size_t control = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c == 0) {
      why = fmt::format("a NUL byte at offset {}", i);
      return true;
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7F) ++control;
  }
  if (n > 0 && control * 8 > n) {
    why = fmt::format("{} control bytes in the first {}", control, n);
    return true;
  }
  return false;
}

// --- line reader ---------------------------------------------------------------------------

/// Reads a file line by line through one reused buffer (grown only for a line longer than the
/// buffer), handing out std::string_view lines without '\n' (and without a '\r' before it).
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), buf_(kInitial) {
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) throw TraceError(path, 0, "a readable trace file", std::strerror(errno));
  }
  ~LineReader() {
    if (file_ != nullptr) std::fclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// The next line; false at the end of the file.
  bool next(std::string_view& line) {
    while (true) {
      const char* b = buf_.data() + begin_;
      const void* nl = begin_ < end_ ? std::memchr(b, '\n', end_ - begin_) : nullptr;
      if (nl != nullptr) {
        const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - b);
        line = std::string_view(b, len);
        begin_ += len + 1;
        ++line_no_;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        line = std::string_view(b, end_ - begin_);
        begin_ = end_;
        ++line_no_;
        unterminated_ = true;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        return true;
      }
      fill();
    }
  }
  /// The line last returned is the file's last and has no newline.
  bool unterminated() const { return unterminated_; }
  std::uint64_t line_no() const { return line_no_; }

 private:
  // 64 KiB: far longer than any real line; below ASan's largest size class (128 KiB), so that
  // the fuzzers (fuzz/) do not map fresh pages for every file they open.
  static constexpr std::size_t kInitial = 1 << 16;
  static constexpr std::size_t kMaxLine = 1 << 20;  ///< bounds the buffer whatever the input

  void fill() {
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buf_.size()) {  // a line longer than the buffer
      if (buf_.size() >= kMaxLine) {
        throw TraceError(path_, line_no_ + 1, "a line of at most 1 MiB (no trace format has longer records)",
                         std::string(buf_.data(), 40));
      }
      buf_.resize(buf_.size() * 2);
    }
    const std::size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - end_, file_);
    if (first_fill_) {
      // A binary file (e.g. a VMware vscsi trace) is named as such before any line is parsed.
      first_fill_ = false;
      std::string why;
      if (looks_binary(buf_.data(), std::min<std::size_t>(got, 4096), why)) throw TraceError::binary_file(path_, why);
    }
    end_ += got;
    if (got == 0) {
      if (std::ferror(file_) != 0) {
        throw TraceError(path_, line_no_ + 1, "a readable trace file", std::strerror(errno));
      }
      eof_ = true;
    }
  }

  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<char> buf_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  bool first_fill_ = true;
  bool unterminated_ = false;
  std::uint64_t line_no_ = 0;
};

// --- error reporting -------------------------------------------------------------------------

/// Strict: throws. Lenient: counts and keeps the first 5 messages (when `counting`, i.e. in the
/// validating pass, so that the streaming pass does not count the same lines again).
class Reporter {
 public:
  Reporter(bool lenient, bool counting) : lenient_(lenient), counting_(counting) {}

  void report(const std::string& file, std::uint64_t line, std::string_view expected, std::string_view found) {
    if (!lenient_) throw TraceError(file, line, std::string(expected), quote(found));
    if (!counting_) return;
    ++skipped_;
    if (first_.size() < 5) first_.push_back(TraceError(file, line, std::string(expected), quote(found)).what());
  }

  std::uint64_t skipped_ = 0;
  std::vector<std::string> first_;

 private:
  bool lenient_;
  bool counting_;
};

// --- one file ------------------------------------------------------------------------------

/// A well-formed request of one file, its time relative to the trace start.
struct Item {
  std::uint64_t lbn = 0;
  std::uint32_t blocks = 0;
  Op op = Op::Read;
  std::uint32_t device = 0;
  bool has_stream = false;  ///< the line names a stream (blkparse / ftrace pid); else the device is
  std::uint32_t stream = 0;
  std::int64_t t_ps = 0;
  std::int64_t measured_ps = -1;  ///< validate traces: measured service time
  std::int64_t gap_ps = -1;       ///< validate traces: gap before the next request
  std::uint64_t line = 0;
  std::size_t file = 0;
};

/// Parses one file: skips blank/ignored records, turns times into picoseconds from the trace
/// start, checks that request times do not go backwards, and reports malformed lines.
class FileCursor {
 public:
  FileCursor(const std::string& path, TraceFormat format, std::size_t index, Reporter* reporter)
      : path_(path),
        reader_(path),
        parser_(trace_detail::make_parser(format)),
        absolute_(parser_->absolute_clock()),
        index_(index),
        reporter_(reporter) {}

  bool next(Item& it) {
    std::string_view line;
    while (reader_.next(line)) {
      rec_.kind = Record::Kind::Blank;
      rec_.has_time = false;
      rec_.measured_ps = -1;
      rec_.gap_ps = -1;
      if (!parser_->parse(line, rec_, failure_)) {
        report(line, failure_.expected, failure_.found);
        continue;
      }
      if (rec_.kind == Record::Kind::Blank) continue;
      if (absolute_ && !origin_set_ && rec_.has_time) {
        origin_ = rec_.time;
        origin_set_ = true;
      }
      if (rec_.kind == Record::Kind::NonRequest) {
        ++ignored_;
        continue;
      }
      std::int64_t s = rec_.time.s;
      std::int64_t ps = rec_.time.ps;
      if (absolute_) {
        s -= origin_.s;
        ps -= origin_.ps;
        if (ps < 0) {
          ps += kPsPerS;
          --s;
        }
      }
      if (s < 0 || s > kMaxTraceSeconds) {
        if (s < 0) {
          failure_.expected =
              fmt::format("a request time not before the trace start (the first record, {})", origin_text());
        } else {
          failure_.expected = "a time within 106 days of the trace start";
        }
        report(line, failure_.expected, rec_.time_text);
        continue;
      }
      const std::int64_t t = s * kPsPerS + ps;
      if (t < prev_t_) {
        failure_.expected = fmt::format("a request time not before the previous request's ({} s from the trace start)",
                                        format_seconds(prev_t_));
        report(line, failure_.expected, rec_.time_text);
        continue;
      }
      if (rec_.lbn > std::numeric_limits<std::uint64_t>::max() - rec_.blocks) {
        report(line, "a request ending below block 2^64", line);
        continue;
      }
      prev_t_ = t;
      it.lbn = rec_.lbn;
      it.blocks = rec_.blocks;
      it.op = rec_.op;
      it.device = rec_.device;
      it.has_stream = rec_.has_stream;
      it.stream = rec_.stream;
      it.t_ps = t;
      it.measured_ps = rec_.measured_ps;
      it.gap_ps = rec_.gap_ps;
      it.line = reader_.line_no();
      it.file = index_;
      ++requests_;
      return true;
    }
    return false;
  }

  std::uint64_t lines() const { return reader_.line_no(); }
  std::uint64_t ignored() const { return ignored_; }
  /// Records seen (requests, non-requests and malformed lines): 0 for a file with no record.
  std::uint64_t records() const { return requests_ + ignored_ + malformed_; }
  const std::string& path() const { return path_; }

 private:
  void report(std::string_view line, std::string_view expected, std::string_view found) {
    ++malformed_;
    if (reader_.unterminated()) {
      // The last line has no newline and does not parse: most likely a truncated file.
      truncated_ = fmt::format("a complete last record (the file ends without a newline; {})", expected);
      reporter_->report(path_, reader_.line_no(), truncated_, line);
      return;
    }
    reporter_->report(path_, reader_.line_no(), expected, found);
  }

  std::string origin_text() const { return fmt::format("{}.{:012d} s", origin_.s, origin_.ps); }

  std::string path_;
  LineReader reader_;
  std::unique_ptr<LineParser> parser_;
  bool absolute_;
  std::size_t index_;
  Reporter* reporter_;
  Record rec_;
  Failure failure_;
  std::string truncated_;
  trace_detail::TraceClock origin_;
  bool origin_set_ = false;
  std::int64_t prev_t_ = 0;
  std::uint64_t ignored_ = 0;
  std::uint64_t requests_ = 0;
  std::uint64_t malformed_ = 0;
};

// --- the whole replay ------------------------------------------------------------------------

/// Merge, device filter, window, capacity. In Validate mode it reads everything (never stops
/// early), records the trace extent and counts; in Stream mode it stops at the end of the
/// window and applies the capacity mapping.
class Pipeline {
 public:
  enum class Mode { Validate, Stream };

  Pipeline(const TraceOptions& o, const std::vector<TraceFormat>& formats, Mode mode, std::uint64_t extent,
           TraceStats* live)
      : o_(o),
        mode_(mode),
        fio_(formats.front() == TraceFormat::Fio),
        reporter_(o.lenient, mode == Mode::Validate),
        extent_(extent),
        live_(live),
        start_ps_(from_s(o.start_s).count()),
        stop_ps_(o.stop_s < 0 ? -1 : from_s(o.stop_s).count()) {
    cursors_.reserve(o.paths.size());
    for (std::size_t i = 0; i < o.paths.size(); ++i) {
      cursors_.push_back(std::make_unique<FileCursor>(o.paths[i], formats[i], i, &reporter_));
    }
    heads_.resize(cursors_.size());
    has_head_.resize(cursors_.size());
    for (std::size_t i = 0; i < cursors_.size(); ++i) has_head_[i] = cursors_[i]->next(heads_[i]);
  }

  bool next(SourceRequest& out) {
    while (!done_) {
      // Merge: the earliest head; ties go to the earlier path (stable).
      std::size_t best = cursors_.size();
      for (std::size_t i = 0; i < cursors_.size(); ++i) {
        if (has_head_[i] && (best == cursors_.size() || heads_[i].t_ps < heads_[best].t_ps)) best = i;
      }
      if (best == cursors_.size()) break;
      const Item it = heads_[best];
      has_head_[best] = cursors_[best]->next(heads_[best]);

      ++trace_requests_;
      const std::uint32_t device = fio_ ? static_cast<std::uint32_t>(it.file) : it.device;
      if (mode_ == Mode::Validate) count_device(device);
      if (o_.device && device != *o_.device) {
        ++dropped_.device;
        continue;
      }
      const std::uint64_t end = it.lbn + it.blocks;
      if (mode_ == Mode::Validate && end > extent_) extent_ = end;
      if (it.t_ps < start_ps_) {
        ++dropped_.before_start;
        continue;
      }
      if (stop_ps_ >= 0 && it.t_ps > stop_ps_) {
        if (mode_ == Mode::Stream) break;  // times are non-decreasing: nothing later is kept
        ++dropped_.after_stop;
        continue;
      }
      if (skipped_ < o_.skip_requests) {
        ++skipped_;
        ++dropped_.skip;
        continue;
      }
      if (o_.max_requests != 0 && yielded_ >= o_.max_requests) {
        if (mode_ == Mode::Stream) break;
        ++dropped_.limit;
        continue;
      }
      SourceRequest r;
      Command& c = r.command;
      c.lbn = it.lbn;
      c.blocks = it.blocks;
      c.op = it.op;
      c.stream = it.has_stream ? it.stream : device;
      if (o_.capacity == CapacityPolicy::Error && end > o_.capacity_blocks) {
        reporter_.report(o_.paths[it.file], it.line,
                         fmt::format("a request ending at or below the capacity of {} blocks (capacity policy 'error')",
                                     o_.capacity_blocks),
                         fmt::format("blocks {} + {} (end {})", it.lbn, it.blocks, end));
        --trace_requests_;  // lenient: a skipped malformed line, not a request
        continue;
      }
      if (mode_ == Mode::Stream) map_capacity(c);
      c.arrival = Time{scale(it.t_ps - start_ps_)};
      last_arrival_ = c.arrival;
      last_trace_time_ = Time{it.t_ps - start_ps_};
      r.origin_line = it.line;
      // A validate trace's gap follows its request: it delays the next request the replay yields.
      r.think_time = Time{prev_gap_ps_ > 0 ? prev_gap_ps_ : 0};
      r.measured_service = Time{it.measured_ps};
      prev_gap_ps_ = it.gap_ps;
      ++yielded_;
      if (live_ != nullptr && mode_ == Mode::Stream) ++live_->requests;
      out = r;
      return true;
    }
    done_ = true;
    return false;
  }

  /// Validate mode, after next() returned false: the counters of the whole trace.
  void report_to(TraceStats& s) const {
    s.lines = 0;
    s.ignored = 0;
    for (const auto& c : cursors_) {
      s.lines += c->lines();
      s.ignored += c->ignored();
    }
    s.trace_requests = trace_requests_;
    s.selected = yielded_;
    s.dropped_device = dropped_.device;
    s.dropped_before_start = dropped_.before_start;
    s.dropped_after_stop = dropped_.after_stop;
    s.dropped_skip = dropped_.skip;
    s.dropped_limit = dropped_.limit;
    s.filtered = trace_requests_ - yielded_;
    s.devices.assign(devices_.begin(), devices_.end());
    s.more_devices = more_devices_;
    s.last_arrival = last_arrival_;
    s.last_trace_time = last_trace_time_;
    s.skipped_malformed = reporter_.skipped_;
    s.first_malformed = reporter_.first_;
    s.trace_extent_blocks = extent_;
  }

  /// Validate mode: every file has at least one record (TraceError otherwise, as detection).
  void require_records() const {
    for (const auto& c : cursors_)
      if (c->records() == 0) throw TraceError(c->path(), 0, "a trace record", "end of file");
  }

 private:
  /// Requests per device, for the "no request selected" message and summary.json.
  void count_device(std::uint32_t device) {
    auto it = devices_.find(device);
    if (it != devices_.end()) {
      ++it->second;
    } else if (devices_.size() < 64) {
      devices_.emplace(device, 1);
    } else {
      ++more_devices_;
    }
  }

  std::int64_t scale(std::int64_t delta_ps) const {
    if (o_.time_scale == 1.0) return delta_ps;
    // long double keeps the 64-bit integer exact; round to the nearest picosecond.
    const long double v = static_cast<long double>(delta_ps) / static_cast<long double>(o_.time_scale);
    if (v >= static_cast<long double>(std::numeric_limits<std::int64_t>::max())) {
      return std::numeric_limits<std::int64_t>::max();
    }
    return std::llroundl(v);
  }

  void map_capacity(Command& c) {
    const std::uint64_t cap = o_.capacity_blocks;
    if (o_.capacity == CapacityPolicy::Wrap) {
      if (c.lbn >= cap) {
        c.lbn %= cap;
        if (live_ != nullptr) ++live_->wrapped;
      }
    } else if (o_.capacity == CapacityPolicy::Scale && extent_ > 0) {
      const auto lbn = static_cast<std::uint64_t>(static_cast<u128>(c.lbn) * cap / extent_);
      if (lbn != c.lbn) {
        c.lbn = lbn;
        if (live_ != nullptr) ++live_->scaled;
      }
    }
    if (c.lbn < cap && c.lbn + c.blocks > cap) {
      c.blocks = static_cast<std::uint32_t>(cap - c.lbn);
      if (live_ != nullptr) ++live_->truncated;
    }
  }

  const TraceOptions& o_;
  Mode mode_;
  bool fio_;
  Reporter reporter_;
  std::vector<std::unique_ptr<FileCursor>> cursors_;
  std::vector<Item> heads_;
  std::vector<char> has_head_;
  std::uint64_t extent_;
  TraceStats* live_;
  std::int64_t start_ps_;
  std::int64_t stop_ps_;
  std::uint64_t trace_requests_ = 0;
  std::uint64_t skipped_ = 0;
  std::uint64_t yielded_ = 0;
  std::int64_t prev_gap_ps_ = -1;  ///< validate traces: the gap after the last yielded request
  struct {
    std::uint64_t device = 0, before_start = 0, after_stop = 0, skip = 0, limit = 0;
  } dropped_;
  std::map<std::uint32_t, std::uint64_t> devices_;
  std::uint64_t more_devices_ = 0;
  Time last_arrival_{0};
  Time last_trace_time_{0};
  bool done_ = false;
};

class TraceSource final : public WorkloadSource {
 public:
  TraceSource(TraceOptions o, std::vector<TraceFormat> formats, std::uint64_t extent, TraceStats* stats)
      : o_(std::move(o)),
        formats_(std::move(formats)),
        pipeline_(o_, formats_, Pipeline::Mode::Stream, extent, stats) {}

  bool next(SourceRequest& out) override { return pipeline_.next(out); }

  std::string describe() const override {
    std::string paths;
    for (const auto& p : o_.paths) {
      if (!paths.empty()) paths += ", ";
      paths += p;
    }
    return fmt::format(
        "{} trace {} (time_scale {}, device {}, window {}..{} s, skip {}, max {}, capacity {} over {} "
        "blocks{})",
        to_string(formats_.front()), paths, o_.time_scale, o_.device ? std::to_string(*o_.device) : "all", o_.start_s,
        o_.stop_s < 0 ? std::string("end") : fmt::format("{}", o_.stop_s), o_.skip_requests,
        o_.max_requests == 0 ? std::string("none") : std::to_string(o_.max_requests), to_string(o_.capacity),
        o_.capacity_blocks, o_.lenient ? ", lenient" : "");
  }

 private:
  TraceOptions o_;
  std::vector<TraceFormat> formats_;
  Pipeline pipeline_;
};

// --- detection -------------------------------------------------------------------------------

bool iequals(std::string_view a, std::string_view b) { return lower(a) == lower(b); }

/// The format a single line belongs to; Auto when unknown. `numeric5` is set for the five
/// numeric columns shared by DiskSim, SSDsim and MQSim (resolved by the caller).
TraceFormat classify(std::string_view line, bool& numeric5, bool& disksim_evidence) {
  using namespace trace_detail;
  numeric5 = false;
  const std::string_view t = trim(line);
  if (t.substr(0, 12) == "fio version ") return TraceFormat::Fio;
  if (t.find(',') != std::string_view::npos) {
    std::string_view f[8];
    const std::size_t n = split_commas(t, f, 7);
    std::uint64_t v = 0;
    if (n == 7 && (iequals(f[3], "read") || iequals(f[3], "write")) && parse_u64(f[0], v)) {
      return TraceFormat::Msr;
    }
    if (n == 7 && iequals(f[0], "timestamp") && iequals(f[1], "hostname")) return TraceFormat::Msr;
    if (n >= 5 && (f[3] == "r" || f[3] == "R" || f[3] == "w" || f[3] == "W") && parse_u64(f[0], v)) {
      return TraceFormat::Spc;
    }
    if (n >= 5 && iequals(f[0], "asu") && iequals(f[1], "lba")) return TraceFormat::Spc;
  }
  std::string_view f[24];
  const std::size_t n0 = split_blanks(t, f, 24);
  const std::size_t n = n0 > 24 ? 24 : n0;
  auto devno = [](std::string_view s) {
    const std::size_t comma = s.find(',');
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    return comma != std::string_view::npos && parse_u32(s.substr(0, comma), a) && parse_u32(s.substr(comma + 1), b);
  };
  TraceClock clock;
  if (n >= 6 && devno(f[0]) && parse_decimal_time(f[3], 12, clock)) return TraceFormat::Blkparse;
  for (std::size_t i = 1; i < n; ++i) {
    if (f[i - 1].size() > 1 && f[i - 1].back() == ':' && devno(f[i])) return TraceFormat::Ftrace;
  }
  if (n0 == 5) {
    std::uint64_t v = 0;
    std::uint64_t flags = 0;
    if (parse_decimal_time(f[0], 9, clock) && parse_u64(f[1], v) && parse_u64(f[2], v) && parse_u64(f[3], v) &&
        parse_hex(f[4], flags)) {
      numeric5 = true;
      if (f[0].find_first_of(".eE") != std::string_view::npos || flags > 1) disksim_evidence = true;
    }
  }
  return TraceFormat::Auto;
}

}  // namespace

// --- public functions ----------------------------------------------------------------------

TraceError::TraceError(std::string file, std::uint64_t line, std::string expected, std::string found,
                       std::string message)
    : std::runtime_error(message),
      file_(std::move(file)),
      line_(line),
      expected_(std::move(expected)),
      found_(std::move(found)) {}

TraceError::TraceError(std::string file, std::uint64_t line, std::string expected, std::string found)
    : TraceError(file, line, expected, printable_text(found, 160),
                 line == 0 ? fmt::format("{}: expected {}, found '{}'", printable_text(file, 4096), expected,
                                         printable_text(found, 160))
                           : fmt::format("{}:{}: expected {}, found '{}'", printable_text(file, 4096), line, expected,
                                         printable_text(found, 160))) {}

TraceError TraceError::binary_file(const std::string& file, const std::string& why) {
  const std::string expected =
      "a text trace in one of the formats disksim, spc, msr, fio, blkparse, ftrace, ssdsim, mqsim";
  return TraceError(file, 0, expected, "binary file",
                    fmt::format("{}: binary file, not a supported text trace format ({}; {})",
                                printable_text(file, 4096), why, expected));
}

std::string to_string(TraceFormat f) {
  switch (f) {
    case TraceFormat::Auto:
      return "auto";
    case TraceFormat::DiskSim:
      return "disksim";
    case TraceFormat::Spc:
      return "spc";
    case TraceFormat::Msr:
      return "msr";
    case TraceFormat::Fio:
      return "fio";
    case TraceFormat::Blkparse:
      return "blkparse";
    case TraceFormat::Ftrace:
      return "ftrace";
    case TraceFormat::SsdSim:
      return "ssdsim";
    case TraceFormat::MqSim:
      return "mqsim";
    case TraceFormat::Validate:
      return "validate";
  }
  return "auto";
}

std::optional<TraceFormat> parse_trace_format(const std::string& s) {
  for (const TraceFormat f :
       {TraceFormat::Auto, TraceFormat::DiskSim, TraceFormat::Spc, TraceFormat::Msr, TraceFormat::Fio,
        TraceFormat::Blkparse, TraceFormat::Ftrace, TraceFormat::SsdSim, TraceFormat::MqSim, TraceFormat::Validate}) {
    if (to_string(f) == s) return f;
  }
  return std::nullopt;
}

std::string to_string(CapacityPolicy p) {
  switch (p) {
    case CapacityPolicy::Error:
      return "error";
    case CapacityPolicy::Wrap:
      return "wrap";
    case CapacityPolicy::Scale:
      return "scale";
  }
  return "error";
}

std::optional<CapacityPolicy> parse_capacity_policy(const std::string& s) {
  for (const CapacityPolicy p : {CapacityPolicy::Error, CapacityPolicy::Wrap, CapacityPolicy::Scale}) {
    if (to_string(p) == s) return p;
  }
  return std::nullopt;
}

namespace trace_detail {
std::unique_ptr<LineParser> make_parser(TraceFormat f) {
  switch (f) {
    case TraceFormat::DiskSim:
      return make_disksim_parser();
    case TraceFormat::Spc:
      return make_spc_parser();
    case TraceFormat::Msr:
      return make_msr_parser();
    case TraceFormat::Fio:
      return make_fio_parser();
    case TraceFormat::Blkparse:
      return make_blkparse_parser();
    case TraceFormat::Ftrace:
      return make_ftrace_parser();
    case TraceFormat::SsdSim:
      return make_ssdsim_parser();
    case TraceFormat::MqSim:
      return make_mqsim_parser();
    case TraceFormat::Validate:
      return make_validate_parser();
    case TraceFormat::Auto:
      break;
  }
  throw std::invalid_argument("trace format 'auto' has no parser; detect the format first");
}
}  // namespace trace_detail

TraceFormat detect_trace_format(const std::string& path) {
  // The first data line decides, except for the five numeric columns shared by DiskSim, SSDsim
  // and MQSim: there up to 20 lines of that shape are searched for DiskSim evidence (a time
  // with a fraction or exponent, or a flags value above 1), then the file name breaks the tie.
  LineReader reader(path);
  std::string_view line;
  bool disksim_evidence = false;
  std::uint64_t numeric_lines = 0;
  while (numeric_lines < 20 && reader.next(line)) {
    if (trace_detail::is_comment_or_blank(line)) continue;
    bool numeric5 = false;
    const TraceFormat f = classify(line, numeric5, disksim_evidence);
    if (numeric_lines == 0 && f != TraceFormat::Auto) return f;
    if (!numeric5) {
      if (numeric_lines > 0) break;  // evidence only from lines of the same shape
      throw TraceError(path, reader.line_no(),
                       "a record of a known trace format (disksim, spc, msr, fio, blkparse, ftrace, ssdsim, mqsim)",
                       quote(line));
    }
    ++numeric_lines;
  }
  if (numeric_lines == 0) throw TraceError(path, 0, "a trace record", "end of file");
  if (disksim_evidence) return TraceFormat::DiskSim;
  const std::size_t slash = path.find_last_of('/');
  const std::string name = lower(slash == std::string::npos ? path : path.substr(slash + 1));
  if (name.find("disksim") != std::string::npos) return TraceFormat::DiskSim;
  if (name.find("mqsim") != std::string::npos) return TraceFormat::MqSim;
  return TraceFormat::SsdSim;
}

namespace {

/// The error for a selection that keeps nothing: what each filter dropped and which devices the
/// trace has, so that the user sees which key to change.
std::string no_request_selected(const TraceOptions& o, const TraceStats& s) {
  std::string paths;
  for (const auto& p : o.paths) paths += (paths.empty() ? "" : ", ") + printable_text(p, 4096);
  std::string msg =
      fmt::format("no request selected from {}: the trace has {} read/write requests", paths, s.trace_requests);
  if (s.skipped_malformed > 0) msg += fmt::format(" (and {} malformed lines skipped)", s.skipped_malformed);
  if (s.trace_requests == 0) return msg + "; nothing to simulate";
  std::string dropped;
  auto add = [&dropped](std::uint64_t n, const std::string& what) {
    if (n > 0) dropped += fmt::format("{}{} by {}", dropped.empty() ? "" : ", ", n, what);
  };
  add(s.dropped_device, fmt::format("workload.device = {}", o.device ? std::to_string(*o.device) : "all"));
  add(s.dropped_before_start, fmt::format("workload.start_s = {}", o.start_s));
  add(s.dropped_after_stop, fmt::format("workload.stop_s = {}", o.stop_s));
  add(s.dropped_skip, fmt::format("workload.skip_requests = {}", o.skip_requests));
  add(s.dropped_limit, fmt::format("run.requests = {}", o.max_requests));
  msg += "; dropped " + dropped;
  if (s.dropped_device > 0) {
    std::string devices;
    for (const auto& [d, n] : s.devices) devices += fmt::format("{}{}: {}", devices.empty() ? "" : ", ", d, n);
    if (s.more_devices > 0) devices += fmt::format(", further devices: {}", s.more_devices);
    msg += fmt::format(". Requests per device in the trace: {}; workload.device = \"all\" keeps every device", devices);
  }
  return msg;
}

}  // namespace

std::unique_ptr<WorkloadSource> open_trace(const TraceOptions& options, TraceStats* stats) {
  if (options.paths.empty()) throw std::invalid_argument("trace: no path given");
  if (!(options.time_scale > 0) || !std::isfinite(options.time_scale)) {
    throw std::invalid_argument(fmt::format("trace: time_scale must be > 0, got {}", options.time_scale));
  }
  if (options.capacity_blocks == 0) throw std::invalid_argument("trace: capacity_blocks must be > 0");
  if (!(options.start_s >= 0) || !(options.start_s <= static_cast<double>(kMaxTraceSeconds))) {
    throw std::invalid_argument(
        fmt::format("trace: start_s must be in [0, {}] s (106 days), got {}", kMaxTraceSeconds, options.start_s));
  }
  if (options.stop_s > static_cast<double>(kMaxTraceSeconds) || std::isnan(options.stop_s)) {
    throw std::invalid_argument(
        fmt::format("trace: stop_s must be at most {} s (106 days), got {}", kMaxTraceSeconds, options.stop_s));
  }
  if (options.stop_s >= 0 && options.stop_s < options.start_s) {
    throw std::invalid_argument(
        fmt::format("trace: stop_s ({}) must be >= start_s ({}) or negative", options.stop_s, options.start_s));
  }
  std::vector<TraceFormat> formats;
  for (const auto& p : options.paths) {
    formats.push_back(options.format == TraceFormat::Auto ? detect_trace_format(p) : options.format);
  }
  if (options.paths.size() > 1) {
    for (std::size_t i = 0; i < formats.size(); ++i) {
      if (formats[i] != TraceFormat::Fio) {
        throw std::invalid_argument(fmt::format("trace: several paths are merged only for fio job logs; '{}' is {}",
                                                options.paths[i], to_string(formats[i])));
      }
    }
  }

  TraceStats local;
  TraceStats& s = stats != nullptr ? *stats : local;
  s = TraceStats{};
  std::uint64_t extent = 0;
  {
    Pipeline validate(options, formats, Pipeline::Mode::Validate, 0, nullptr);
    SourceRequest r;
    while (validate.next(r)) {
    }
    validate.report_to(s);
    validate.require_records();
    extent = s.trace_extent_blocks;
  }
  if (s.selected == 0) throw std::invalid_argument(no_request_selected(options, s));
  if (s.last_arrival > kMaxArrival) {
    throw std::invalid_argument(fmt::format(
        "workload.time_scale: the last selected request would arrive at {:.6g} s of simulated time (time_scale {}), "
        "beyond the limit of {} s (53.4 days; simulated time is int64 picoseconds and needs room after the last "
        "arrival): use a larger workload.time_scale or a shorter window (workload.stop_s, run.requests)",
        to_s(s.last_trace_time) / options.time_scale, options.time_scale, kMaxArrival.count() / kPsPerS));
  }
  return std::make_unique<TraceSource>(options, std::move(formats), extent, stats);
}

}  // namespace drivevp
