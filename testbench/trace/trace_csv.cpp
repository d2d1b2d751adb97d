// Comma-separated formats: UMass SPC and MSR Cambridge (traces README, "Formats": "UMass SPC",
// "MSR Cambridge").
//
// Why not Debian's libfccp ("Fast C++ CSV Parser", io::CSVReader): it streams well, but it owns
// the file reading (so the shared line reader, its line numbers and its truncated-last-line
// check would be duplicated), fixes the column count at compile time (SPC allows any number of
// trailing columns), and reports problems through its own exception types and messages, which
// would have to be caught and rewritten per line into TraceError's "expected X, found 'Y'" form
// and into lenient skipping. These records have no quoting, so splitting the line at ',' into
// std::string_view fields (no allocation) and parsing with std::from_chars is all that is needed.
#include <memory>
#include <string_view>

#include "testbench/trace/trace_reader.h"

namespace drivevp::trace_detail {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

/// UMass SPC: `ASU,LBA,Size,Opcode,Timestamp[,...]`. ASU = device; LBA in 512-byte blocks;
/// Size in bytes (blocks = ceil(Size / 512)); Opcode r/R = read, w/W = write; Timestamp in
/// seconds (decimal) from the trace start. Later columns are ignored. A first line starting
/// with the column name "ASU" is taken as a header.
class SpcParser final : public LineParser {
 public:
  bool parse(std::string_view line, Record& out, Failure& failure) override {
    if (is_comment_or_blank(line)) {
      out.kind = Record::Kind::Blank;
      return true;
    }
    std::string_view f[6];
    const std::size_t n = split_commas(line, f, 5);  // 6 means "more than 5": extra columns
    if (n < 5) return fail(failure, "5 comma-separated fields 'ASU,LBA,Size,Opcode,Timestamp'", line);
    if (first_ && iequals(f[0], "ASU")) {
      first_ = false;
      out.kind = Record::Kind::Blank;
      return true;
    }
    first_ = false;
    if (!parse_u32(f[0], out.device)) return fail(failure, "an ASU number", f[0]);
    std::uint64_t lba = 0;
    if (!parse_u64(f[1], lba)) return fail(failure, "an LBA (a non-negative integer)", f[1]);
    std::int64_t size = 0;
    if (!parse_byte_size(f[2], size, failure)) return false;
    if (f[3] == "r" || f[3] == "R") {
      out.op = Op::Read;
    } else if (f[3] == "w" || f[3] == "W") {
      out.op = Op::Write;
    } else {
      return fail(failure, "an opcode r, R, w or W", f[3]);
    }
    if (!parse_decimal_time(f[4], 12, out.time)) {
      return fail(failure, "a timestamp in seconds (a non-negative decimal)", f[4]);
    }
    if (!bytes_to_blocks(0, size, f[2], out, failure)) return false;
    out.lbn = lba;
    out.kind = Record::Kind::Request;
    out.has_time = true;
    out.time_text = f[4];
    return true;
  }

 private:
  bool first_ = true;
};

/// MSR Cambridge: `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`. Timestamp in
/// Windows FILETIME (100 ns ticks since 1601; the first record is trace time 0); DiskNumber =
/// device (Hostname is not compared); Type Read / Write (any letter case); Offset and Size in
/// bytes; ResponseTime (100 ns ticks, measured on the traced system) is checked and ignored. A
/// first line starting with the column name "Timestamp" is taken as a header.
class MsrParser final : public LineParser {
 public:
  bool absolute_clock() const override { return true; }

  bool parse(std::string_view line, Record& out, Failure& failure) override {
    if (is_comment_or_blank(line)) {
      out.kind = Record::Kind::Blank;
      return true;
    }
    std::string_view f[7];
    const std::size_t n = split_commas(line, f, 7);
    if (n != 7) {
      return fail(failure,
                  "7 comma-separated fields "
                  "'Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime'",
                  line);
    }
    if (first_ && iequals(f[0], "Timestamp")) {
      first_ = false;
      out.kind = Record::Kind::Blank;
      return true;
    }
    first_ = false;
    if (!parse_tick_time(f[0], 100'000, out.time)) {
      return fail(failure, "a FILETIME timestamp (100 ns ticks, a non-negative integer)", f[0]);
    }
    if (!parse_u32(f[2], out.device)) return fail(failure, "a disk number", f[2]);
    if (iequals(f[3], "Read")) {
      out.op = Op::Read;
    } else if (iequals(f[3], "Write")) {
      out.op = Op::Write;
    } else {
      return fail(failure, "a type Read or Write", f[3]);
    }
    std::uint64_t offset = 0;
    if (!parse_u64(f[4], offset)) return fail(failure, "an offset in bytes (a non-negative integer)", f[4]);
    std::int64_t size = 0;
    if (!parse_byte_size(f[5], size, failure)) return false;
    std::uint64_t response = 0;
    if (!parse_u64(f[6], response)) {
      return fail(failure, "a response time in 100 ns ticks (a non-negative integer)", f[6]);
    }
    if (!bytes_to_blocks(offset, size, f[5], out, failure)) return false;
    out.kind = Record::Kind::Request;
    out.has_time = true;
    out.time_text = f[0];
    return true;
  }

 private:
  bool first_ = true;
};

}  // namespace

std::unique_ptr<LineParser> make_spc_parser() { return std::make_unique<SpcParser>(); }
std::unique_ptr<LineParser> make_msr_parser() { return std::make_unique<MsrParser>(); }

}  // namespace drivevp::trace_detail
