// Whitespace-separated five-column formats: DiskSim ASCII, SSDsim ASCII, MQSim ASCII
// (traces README, "Formats": "DiskSim ASCII", "SSDsim ASCII", "MQSim ASCII").
#include <memory>
#include <string_view>

#include "testbench/trace/trace_reader.h"

namespace drivevp::trace_detail {
namespace {

/// DiskSim ASCII: `arrival_ms devno blkno bcount flags`; arrival in milliseconds (decimal) from
/// the trace start; blkno and bcount in 512-byte blocks, bcount > 0; flags hexadecimal (DiskSim
/// 4.0 reads `%lf %d %d %d %x`), bit 0x1 set = read, clear = write; other bits ignored.
class DiskSimParser final : public LineParser {
 public:
  bool parse(std::string_view line, Record& out, Failure& failure) override {
    std::string_view f[5];
    const std::size_t n = split_blanks(line, f, 5);
    if (n == 0 || f[0].front() == '#') {
      out.kind = Record::Kind::Blank;
      return true;
    }
    if (n != 5) {
      return fail(failure, "5 blank-separated fields 'arrival_ms devno blkno bcount flags'", line);
    }
    if (!parse_decimal_time(f[0], 9, out.time)) {
      return fail(failure, "an arrival time in milliseconds (a non-negative decimal)", f[0]);
    }
    if (!parse_u32(f[1], out.device)) return fail(failure, "a device number (devno)", f[1]);
    if (!parse_u64(f[2], out.lbn)) return fail(failure, "a block number (blkno)", f[2]);
    if (!parse_block_count(f[3], out.blocks, failure)) return false;
    std::uint64_t flags = 0;
    if (!parse_hex(f[4], flags)) return fail(failure, "a hexadecimal flags field", f[4]);
    out.op = (flags & 0x1) != 0 ? Op::Read : Op::Write;
    out.kind = Record::Kind::Request;
    out.has_time = true;
    out.time_text = f[0];
    return true;
  }
};

/// SSDsim `time_ns device lsn size op` and MQSim `time devno blkno bcount type`: integer
/// nanoseconds from the trace start (MQSim: the unit the workload declares; nanoseconds for
/// the shipped file and assumed here), 512-byte sectors, op/type `1` = read, `0` = write.
class IntegerTimeParser final : public LineParser {
 public:
  explicit IntegerTimeParser(std::string_view columns) : columns_(columns) {}

  bool parse(std::string_view line, Record& out, Failure& failure) override {
    std::string_view f[5];
    const std::size_t n = split_blanks(line, f, 5);
    if (n == 0 || f[0].front() == '#') {
      out.kind = Record::Kind::Blank;
      return true;
    }
    if (n != 5) return fail(failure, columns_, line);
    if (!parse_tick_time(f[0], 1000, out.time)) {
      return fail(failure, "an arrival time in nanoseconds (a non-negative integer)", f[0]);
    }
    if (!parse_u32(f[1], out.device)) return fail(failure, "a device number", f[1]);
    if (!parse_u64(f[2], out.lbn)) return fail(failure, "a sector number", f[2]);
    if (!parse_block_count(f[3], out.blocks, failure)) return false;
    if (f[4] == "1") {
      out.op = Op::Read;
    } else if (f[4] == "0") {
      out.op = Op::Write;
    } else {
      return fail(failure, "an operation 1 (read) or 0 (write)", f[4]);
    }
    out.kind = Record::Kind::Request;
    out.has_time = true;
    out.time_text = f[0];
    return true;
  }

 private:
  std::string_view columns_;
};

/// DiskSim 4.0 `validate` traces (../shared/drives/README.md, "Files"): `R|W ACTION LBN SECTORS
/// SERVICE_US GAP_US`. ACTION (the drive's buffer action: Hit, Miss, Doub, Trip) is
/// informational and must be a word; LBN and SECTORS in 512-byte blocks (SECTORS > 0);
/// SERVICE_US (measured service time) and GAP_US (idle time after the completion before the
/// next request) are non-negative decimal microseconds. No time column: every record is at
/// trace time 0, the host replays it closed loop (trace_reader.h, TraceFormat::Validate).
class ValidateParser final : public LineParser {
 public:
  bool parse(std::string_view line, Record& out, Failure& failure) override {
    std::string_view f[6];
    const std::size_t n = split_blanks(line, f, 6);
    if (n == 0 || f[0].front() == '#') {
      out.kind = Record::Kind::Blank;
      return true;
    }
    if (n != 6) return fail(failure, "6 blank-separated fields 'R|W ACTION LBN SECTORS SERVICE_US GAP_US'", line);
    if (f[0] == "R") {
      out.op = Op::Read;
    } else if (f[0] == "W") {
      out.op = Op::Write;
    } else {
      return fail(failure, "a direction R or W", f[0]);
    }
    for (const char ch : f[1]) {
      if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')))
        return fail(failure, "a buffer action word (Hit, Miss, Doub, Trip)", f[1]);
    }
    if (!parse_u64(f[2], out.lbn)) return fail(failure, "a block number (LBN)", f[2]);
    if (!parse_block_count(f[3], out.blocks, failure)) return false;
    TraceClock service;
    TraceClock gap;
    if (!parse_decimal_time(f[4], 6, service) || service.s > kMaxSeconds)
      return fail(failure, "a measured service time in microseconds (a non-negative decimal below 1000 s)", f[4]);
    if (!parse_decimal_time(f[5], 6, gap) || gap.s > kMaxSeconds)
      return fail(failure, "an idle gap in microseconds (a non-negative decimal below 1000 s)", f[5]);
    out.measured_ps = service.s * 1'000'000'000'000 + service.ps;
    out.gap_ps = gap.s * 1'000'000'000'000 + gap.ps;
    out.device = 0;
    out.kind = Record::Kind::Request;
    out.has_time = true;
    out.time = TraceClock{};
    out.time_text = "0";
    return true;
  }

 private:
  /// A measured service time or gap of 1000 s or more is a malformed line (real drives answer
  /// in milliseconds; the bound keeps picoseconds far from overflow).
  static constexpr std::int64_t kMaxSeconds = 999;
};

}  // namespace

std::unique_ptr<LineParser> make_validate_parser() { return std::make_unique<ValidateParser>(); }
std::unique_ptr<LineParser> make_disksim_parser() { return std::make_unique<DiskSimParser>(); }
std::unique_ptr<LineParser> make_ssdsim_parser() {
  return std::make_unique<IntegerTimeParser>("5 blank-separated fields 'time_ns device lsn size op'");
}
std::unique_ptr<LineParser> make_mqsim_parser() {
  return std::make_unique<IntegerTimeParser>("5 blank-separated fields 'time_ns devno blkno bcount type'");
}

}  // namespace drivevp::trace_detail
