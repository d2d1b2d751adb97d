// fio iolog versions 2 and 3 (traces README, "Formats": "fio iolog v3"; fio's HOWTO, "Trace
// file format").
//
// v3: header `fio version 3 iolog`, then `t filename add|open|close` or
//     `t filename read|write|sync|datasync|trim offset length`; t in microseconds since the
//     job's log start; offset and length in bytes.
// v2: header `fio version 2 iolog`, then the same lines without `t`; the time is the sum of the
//     `wait` lines so far, in microseconds: `filename wait <us> [length]` (fio's own spelling)
//     or `wait <us>` (the README's). fio's replay skips waits shorter than 100 µs as a
//     sleep-granularity optimisation; this reader keeps every wait exactly, since the log
//     records the intended spacing. A v2 log without waits arrives all at time 0.
// Only read and write are requests; sync, datasync, trim, add, open, close and wait are counted
// as ignored. Several filenames in one log share one LBN space (the offsets are not moved).
#include <memory>
#include <string_view>

#include "testbench/trace/trace_reader.h"

namespace drivevp::trace_detail {
namespace {

enum class Action { Read, Write, Other, Wait, Unknown };

Action classify(std::string_view a) {
  if (a == "read") return Action::Read;
  if (a == "write") return Action::Write;
  if (a == "sync" || a == "datasync" || a == "trim") return Action::Other;
  if (a == "wait") return Action::Wait;
  return Action::Unknown;
}

bool takes_range(std::string_view a) {
  return a == "read" || a == "write" || a == "sync" || a == "datasync" || a == "trim";
}

bool is_file_action(std::string_view a) { return a == "add" || a == "open" || a == "close"; }

constexpr std::string_view kActions = "an fio action (add, open, close, read, write, sync, datasync, trim)";

class FioParser final : public LineParser {
 public:
  bool parse(std::string_view line, Record& out, Failure& failure) override {
    std::string_view f[6];
    const std::size_t n = split_blanks(line, f, 5);
    if (n == 0 || f[0].front() == '#') {
      out.kind = Record::Kind::Blank;
      return true;
    }
    if (version_ == 0) {
      if (n == 4 && f[0] == "fio" && f[1] == "version" && f[3] == "iolog" && (f[2] == "2" || f[2] == "3")) {
        version_ = f[2] == "2" ? 2 : 3;
        out.kind = Record::Kind::Blank;
        return true;
      }
      return fail(failure, "the header 'fio version 2 iolog' or 'fio version 3 iolog'", line);
    }
    return version_ == 3 ? parse_v3(line, f, n, out, failure) : parse_v2(line, f, n, out, failure);
  }

 private:
  bool parse_v3(std::string_view line, const std::string_view* f, std::size_t n, Record& out, Failure& failure) {
    if (n != 3 && n != 5) {
      return fail(failure, "'t filename action' or 't filename action offset length'", line);
    }
    if (!parse_tick_time(f[0], 1'000'000, out.time)) {
      return fail(failure, "a time in microseconds (a non-negative integer)", f[0]);
    }
    out.has_time = true;
    out.time_text = f[0];
    const std::string_view act = f[2];
    if (n == 3) {
      if (!is_file_action(act)) {
        if (takes_range(act)) return fail(failure, "an offset and a length after the action", line);
        return fail(failure, kActions, act);
      }
      out.kind = Record::Kind::NonRequest;
      return true;
    }
    if (is_file_action(act)) return fail(failure, "no offset and length after add/open/close", line);
    return range(classify(act), act, f[3], f[4], out, failure);
  }

  bool parse_v2(std::string_view line, const std::string_view* f, std::size_t n, Record& out, Failure& failure) {
    // `wait <us>` (README spelling).
    if (n == 2 && f[0] == "wait") return wait(f[1], out, failure);
    if (n < 2) return fail(failure, "'filename action [offset length]' or 'wait <us>'", line);
    const std::string_view act = f[1];
    if (act == "wait") {
      if (n != 3 && n != 4) return fail(failure, "'filename wait <us> [length]'", line);
      return wait(f[2], out, failure);
    }
    if (n == 2) {
      if (!is_file_action(act)) {
        if (takes_range(act)) return fail(failure, "an offset and a length after the action", line);
        return fail(failure, kActions, act);
      }
      out.kind = Record::Kind::NonRequest;
      set_time(out);
      return true;
    }
    if (n != 4) return fail(failure, "'filename action offset length'", line);
    if (is_file_action(act)) return fail(failure, "no offset and length after add/open/close", line);
    if (!range(classify(act), act, f[2], f[3], out, failure)) return false;
    set_time(out);
    return true;
  }

  bool wait(std::string_view us, Record& out, Failure& failure) {
    std::uint64_t v = 0;
    if (!parse_u64(us, v)) return fail(failure, "a wait in microseconds (a non-negative integer)", us);
    // The sum of waits is the log's clock: keep it within Time's 106 days (and never wrap).
    if (v > kMaxElapsedUs - elapsed_us_) {
      return fail(failure, "a wait that keeps the sum of waits within 106 days (9,223,371,000,000 us)", us);
    }
    elapsed_us_ += v;
    out.kind = Record::Kind::NonRequest;
    set_time(out);
    return true;
  }

  void set_time(Record& out) {
    out.has_time = true;
    out.time.s = static_cast<std::int64_t>(elapsed_us_ / 1'000'000);
    out.time.ps = static_cast<std::int64_t>(elapsed_us_ % 1'000'000) * 1'000'000;
    out.time_text = "(sum of waits)";
  }

  static bool range(Action a, std::string_view act, std::string_view off, std::string_view len, Record& out,
                    Failure& failure) {
    if (a == Action::Unknown || a == Action::Wait) return fail(failure, kActions, act);
    std::uint64_t offset = 0;
    if (!parse_u64(off, offset)) return fail(failure, "an offset in bytes (a non-negative integer)", off);
    if (a == Action::Other) {  // sync/datasync carry "0 0" or the range they cover; not checked
      std::int64_t length = 0;
      if (!parse_i64(len, length) || length < 0) {
        return fail(failure, "a length in bytes (a non-negative integer)", len);
      }
      out.kind = Record::Kind::NonRequest;
      return true;
    }
    std::int64_t length = 0;
    if (!parse_byte_size(len, length, failure)) return false;
    if (!bytes_to_blocks(offset, length, len, out, failure)) return false;
    out.op = a == Action::Read ? Op::Read : Op::Write;
    out.device = 0;  // the reader sets the log's index
    out.kind = Record::Kind::Request;
    return true;
  }

  static constexpr std::uint64_t kMaxElapsedUs = 9'223'371'000'000;  ///< 9,223,371 s
  int version_ = 0;
  std::uint64_t elapsed_us_ = 0;
};

}  // namespace

std::unique_ptr<LineParser> make_fio_parser() { return std::make_unique<FioParser>(); }

}  // namespace drivevp::trace_detail
