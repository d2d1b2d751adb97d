// Linux block-layer event traces: blkparse default text and the ftrace `blk` tracer text
// (traces README, "Formats": "blkparse default text", "ftrace blk text").
//
// One request per Q (queued) event, at the Q event's time, with the Q event's sector, size and
// RWBS. Why Q and not the merged requests: blktrace emits Q for every bio the submitter queues
// (blk_add_trace_bio_queue); a bio that is then merged into a pending request gets an M (back
// merge) or F (front merge) event *in addition to* its own Q, and a bio that is not merged gets
// G (get request). So the Q events are exactly the I/Os the host issued, each counted once, and
// M/F only describe what the kernel's own scheduler did with them afterwards (as do I and D).
// The drive model has its own scheduler, so merges are ignored: folding them into the request
// they joined would replay the host's elevator instead of the host's workload, and counting
// them would count those bios twice.
//
// Other actions (G, I, D, C, P, U, UT, A, X, B, S, R, m, ...) are ignored records; their times
// still define the trace start (the first timed line is time 0). A Q whose RWBS has no data
// direction (flush `FN`, `N`), or is an empty pre-flush without a sector range (`Q FWS
// [proc]`, or `+ 0`), or a discard (`D`, secure erase `DE`), is ignored too. RWBS: 'R' = read,
// 'W' = write (a leading/trailing 'F' is preflush/FUA, 'S' sync, 'M' metadata, 'A' readahead).
// Device = the minor number of `maj,min` (the major number is parsed and not compared).
// blkparse's closing summary (from the first line starting with "CPU" or "Total") is skipped.
#include <algorithm>
#include <memory>
#include <string_view>

#include "testbench/trace/trace_reader.h"

namespace drivevp::trace_detail {
namespace {

/// `maj,min` with decimal numbers.
bool parse_devno(std::string_view s, std::uint32_t& minor) {
  const std::size_t comma = s.find(',');
  if (comma == std::string_view::npos) return false;
  std::uint32_t major = 0;
  return parse_u32(s.substr(0, comma), major) && parse_u32(s.substr(comma + 1), minor);
}

/// Interprets the part of an event from the action on: `action rwbs [sector + nsectors] ...`.
/// `f` points at the action; `n` fields remain.
bool interpret(const std::string_view* f, std::size_t n, std::string_view line, Record& out, Failure& failure) {
  if (n == 0) return fail(failure, "an action after the device 'maj,min'", line);
  if (f[0] != "Q") {
    out.kind = Record::Kind::NonRequest;
    return true;
  }
  if (n < 2) return fail(failure, "an RWBS field after the Q action", line);
  const std::string_view rwbs = f[1];
  bool read = false;
  bool write = false;
  bool discard = false;
  bool flush = false;
  for (const char c : rwbs) {
    if (c < 'A' || c > 'Z') {
      return fail(failure, "an RWBS field of capital letters (R, W, D, F, S, M, A, N, ...)", rwbs);
    }
    read |= c == 'R';
    write |= c == 'W';
    discard |= c == 'D' || c == 'E';
    flush |= c == 'F';
  }
  const bool has_range = n >= 5 && f[3] == "+";
  if (discard || (!read && !write)) {
    out.kind = Record::Kind::NonRequest;
    return true;
  }
  if (!has_range) {
    if (flush) {  // an empty pre-flush bio: no data
      out.kind = Record::Kind::NonRequest;
      return true;
    }
    return fail(failure, "a sector range 'sector + nsectors' after the RWBS field", line);
  }
  if (!parse_u64(f[2], out.lbn)) return fail(failure, "a sector number (a non-negative integer)", f[2]);
  std::int64_t count = 0;
  if (flush && parse_i64(f[4], count) && count == 0) {
    out.kind = Record::Kind::NonRequest;
    return true;
  }
  if (!parse_block_count(f[4], out.blocks, failure)) return false;
  out.op = read ? Op::Read : Op::Write;
  out.kind = Record::Kind::Request;
  return true;
}

/// blkparse: `maj,min cpu seq timestamp_s pid action rwbs sector + nsectors [process]`.
class BlkparseParser final : public LineParser {
 public:
  bool absolute_clock() const override { return true; }

  bool parse(std::string_view line, Record& out, Failure& failure) override {
    std::string_view f[12];
    const std::size_t n = split_blanks(line, f, 11);
    if (trailer_ || n == 0 || f[0].front() == '#') {
      out.kind = Record::Kind::Blank;
      return true;
    }
    if (f[0].substr(0, 3) == "CPU" || f[0] == "Total") {  // blkparse's closing summary
      trailer_ = true;
      out.kind = Record::Kind::Blank;
      return true;
    }
    if (!parse_devno(f[0], out.device)) return fail(failure, "a device 'maj,min'", f[0]);
    if (n < 6) {
      return fail(failure, "'maj,min cpu seq timestamp pid action ...' (at least 6 fields)", line);
    }
    std::uint64_t v = 0;
    if (!parse_u64(f[1], v)) return fail(failure, "a CPU number", f[1]);
    if (!parse_u64(f[2], v)) return fail(failure, "a sequence number", f[2]);
    if (!parse_decimal_time(f[3], 12, out.time)) {
      return fail(failure, "a timestamp in seconds (a non-negative decimal)", f[3]);
    }
    if (!parse_u64(f[4], v)) return fail(failure, "a process id", f[4]);
    out.has_stream = true;
    out.stream = static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 0xffffffffu));
    out.has_time = true;
    out.time_text = f[3];
    return interpret(f + 5, (n > 11 ? 11 : n) - 5, line, out, failure);
  }

 private:
  bool trailer_ = false;
};

/// ftrace: `task-pid [cpu] flags timestamp_s: maj,min ACTION RWBS sector + nsectors [comm]`.
/// The task name may contain blanks and the flags column may be absent, so the event is found
/// as the first `timestamp:` field followed by a `maj,min` field.
class FtraceParser final : public LineParser {
 public:
  bool absolute_clock() const override { return true; }

  bool parse(std::string_view line, Record& out, Failure& failure) override {
    constexpr std::size_t kMax = 24;
    std::string_view f[kMax];
    const std::size_t n0 = split_blanks(line, f, kMax);
    if (n0 == 0 || f[0].front() == '#') {
      out.kind = Record::Kind::Blank;
      return true;
    }
    const std::size_t n = n0 > kMax ? kMax : n0;
    std::size_t at = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (f[i - 1].size() > 1 && f[i - 1].back() == ':' && parse_devno(f[i], out.device)) {
        at = i;
        break;
      }
    }
    if (at == 0) {
      return fail(failure, "a blk event 'task-pid [cpu] flags timestamp: maj,min action ...'", line);
    }
    // The pid: the digits after the last '-' of the field before "[cpu]" (task names may hold
    // blanks and dashes). A line without it keeps the device as its stream.
    for (std::size_t i = 1; i + 1 < at; ++i) {
      if (f[i].size() > 2 && f[i].front() == '[' && f[i].back() == ']') {
        const std::size_t dash = f[i - 1].rfind('-');
        std::uint64_t pid = 0;
        if (dash != std::string_view::npos && parse_u64(f[i - 1].substr(dash + 1), pid)) {
          out.has_stream = true;
          out.stream = static_cast<std::uint32_t>(std::min<std::uint64_t>(pid, 0xffffffffu));
        }
        break;
      }
    }
    const std::string_view ts = f[at - 1].substr(0, f[at - 1].size() - 1);
    if (!parse_decimal_time(ts, 12, out.time)) {
      return fail(failure, "a timestamp in seconds (a non-negative decimal)", ts);
    }
    out.has_time = true;
    out.time_text = ts;
    return interpret(f + at + 1, n - at - 1, line, out, failure);
  }
};

}  // namespace

std::unique_ptr<LineParser> make_blkparse_parser() { return std::make_unique<BlkparseParser>(); }
std::unique_ptr<LineParser> make_ftrace_parser() { return std::make_unique<FtraceParser>(); }

}  // namespace drivevp::trace_detail
