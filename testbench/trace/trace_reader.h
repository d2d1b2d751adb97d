// Streaming readers for real block-I/O traces (formats: docs/user-guide.md, "Trace formats";
// the shipped samples and their terms: traces/README.md).
// Plain C++: no SystemC.
//
// Rules common to every reader (the README's "Formats" section is the reference for columns and
// units; the rules below are how this reader maps them onto Command):
//  * Times. Each record's trace time is converted exactly (decimal fixed-point, no binary
//    floating point) to integer picoseconds, rounding to the nearest picosecond (half up).
//    Formats whose clock is relative to the trace start keep it (DiskSim ms, SSDsim/MQSim ns,
//    SPC s, fio µs). Formats with an absolute clock (MSR FILETIME 100 ns ticks, blkparse and
//    ftrace seconds) are made relative: the first timed record of the file is trace time 0.
//    The replay arrival is then (trace_time - start_s) / time_scale (paper 002 §4: the trace
//    scaling factor s divides inter-arrival times), rounded to the nearest picosecond.
//  * Byte addresses (MSR Offset/Size, SPC Size, fio offset/length) become 512-byte blocks
//    (kBlockBytes): first block = floor(offset / 512), block count =
//    ceil((offset + size) / 512) - first block, so a request covers every block it touches.
//    A size of zero or less is an error. A request's block count must fit 32 bits.
//  * Lines. Blank lines and lines whose first non-blank character is '#' (ftrace's header) are
//    skipped in every format; '\r' before '\n' is dropped. Request times must be
//    non-decreasing within a file. A last line without a newline is accepted when it is a
//    complete record and reported as a truncated file otherwise.
//  * Streams. Command::stream is what the trace says issued the request, for per-stream
//    policies (CFQ, BFQ, anticipatory) and per-stream deadlines: the process id for blkparse and
//    ftrace (pids above 2^32 - 1 are clamped), and otherwise the device as the device filter sees
//    it (DiskSim devno, SPC ASU, MSR DiskNumber, SSDsim / MQSim device, fio: the job log's index).
//    A pid ftrace does not show (a task field without "-pid") leaves the device as the stream.
//  * Only reads and writes become requests. Records that are not (fio add/open/close/sync/
//    datasync/trim/wait, blk events other than Q, flushes, discards) are counted in
//    TraceStats::ignored and are not errors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "testbench/source.h"

namespace drivevp {

/// Trace formats understood by the readers. Columns and units: traces README, "Formats".
enum class TraceFormat {
  Auto,
  DiskSim,   ///< `arrival_ms devno blkno bcount flags` (flags hex, bit 0x1 = read); device = devno
  Spc,       ///< UMass SPC CSV `ASU,LBA,Size,Opcode,Timestamp` (Size bytes, s); device = ASU
  Msr,       ///< MSR Cambridge CSV (FILETIME, bytes); device = DiskNumber, Hostname ignored
  Fio,       ///< fio iolog v2 (`wait` lines, µs) or v3 (`t` µs); device = index of the log in paths
  Blkparse,  ///< blkparse default text; one request per Q event; device = minor number
  Ftrace,    ///< ftrace blk tracer text; as blkparse
  SsdSim,    ///< `time_ns device lsn size op`, op 1 = read, 0 = write
  MqSim,     ///< DiskSim columns with integer nanosecond times, type 1 = read, 0 = write
  /// DiskSim 4.0's `validate` traces of real drives: `R|W ACTION LBN SECTORS SERVICE_US GAP_US`
  /// (../shared/drives/README.md). No arrival times: replayed closed loop, each request issued
  /// its predecessor's GAP_US after the predecessor completed (SourceRequest::think_time); the
  /// measured SERVICE_US is kept (SourceRequest::measured_service). Device 0. Never detected by
  /// `auto`: name it with workload.format = "validate".
  Validate,
};

/// Scenario spelling of a format ("disksim", "spc", "msr", "fio", "blkparse", "ftrace",
/// "ssdsim", "mqsim", "validate", "auto").
std::string to_string(TraceFormat f);
/// Parses the scenario spelling; std::nullopt if unknown.
std::optional<TraceFormat> parse_trace_format(const std::string& s);

/// What to do with a request whose blocks lie beyond the modelled capacity.
enum class CapacityPolicy {
  Error,  ///< stop with an error naming the line (default)
  Wrap,   ///< lbn' = lbn mod capacity (and the request shortened to fit if it still overruns)
  Scale,  ///< lbn' = floor(lbn * capacity / trace_extent), trace_extent = max end LBN in the trace
};

/// Scenario spelling of a capacity policy: "error", "wrap", "scale".
std::string to_string(CapacityPolicy p);
/// Parses "error", "wrap" or "scale"; std::nullopt if unknown.
std::optional<CapacityPolicy> parse_capacity_policy(const std::string& s);

/// A malformed trace: names the file, the line (1-based; 0 when not line-specific), what was
/// expected and what was found. The message reads
/// "<file>:<line>: expected <expected>, found '<found>'" ("<file>: expected ..." for line 0).
/// `found` is quoted through printable_text(): control bytes and bytes that are not UTF-8 appear
/// as \xNN, and long text is cut to 120 bytes on a character boundary, so a message is always
/// valid, printable UTF-8 (safe for a terminal and for summary.json).
class TraceError : public std::runtime_error {
 public:
  TraceError(std::string file, std::uint64_t line, std::string expected, std::string found);
  /// A binary (non-text) file: "<file>: binary file, not a supported text trace format (<why>;
  /// the readers take the text formats disksim, spc, msr, fio, blkparse, ftrace, ssdsim, mqsim)".
  static TraceError binary_file(const std::string& file, const std::string& why);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  const std::string& expected() const { return expected_; }
  const std::string& found() const { return found_; }

 private:
  TraceError(std::string file, std::uint64_t line, std::string expected, std::string found, std::string message);
  std::string file_;
  std::uint64_t line_;
  std::string expected_;
  std::string found_;
};

/// Text from an untrusted source (a trace line, a path, a scenario value) made safe to print
/// and to put into JSON: valid UTF-8 sequences other than control characters are kept, every
/// other byte becomes "\xNN" (tab stays a tab), and the result is cut to at most `max_bytes`
/// bytes of the input on a character boundary, with "..." appended when cut.
std::string printable_text(std::string_view s, std::size_t max_bytes = 120);

/// Largest block count of one command: 65,536 blocks of 512 B (32 MiB), the largest transfer
/// the firmware accepts (SCSI READ(10)/WRITE(10) carry at most 65,535 blocks; Linux splits
/// larger bios by max_sectors_kb, default 1,280 KiB). Trace requests above it are malformed
/// lines, which bounds every per-command buffer (host, firmware staging, channel).
inline constexpr std::uint32_t kMaxCommandBlocks = 65536;

/// Options of a trace replay (scenario keys under [workload]).
/// Invalid option values (no path, several paths for a format other than fio, time_scale <= 0,
/// capacity_blocks == 0, start_s < 0, 0 <= stop_s < start_s) make open_trace() throw
/// std::invalid_argument.
///
/// Selection order: device filter, then the time window [start_s, stop_s] (trace seconds, both
/// ends inclusive), then skip_requests, then max_requests, then the capacity policy. Arrival
/// times stay relative to start_s: skip_requests does not shift them.
struct TraceOptions {
  std::vector<std::string> paths;  ///< one file, or several fio job logs merged in time order
  TraceFormat format = TraceFormat::Auto;
  double time_scale = 1.0;  ///< inter-arrival times are divided by this (paper 002 §4), > 0
  /// Keep only this device: DiskSim devno, SSDsim/MQSim device, SPC ASU, MSR DiskNumber,
  /// blkparse/ftrace minor number (the major number is not compared), fio: the 0-based index of
  /// the job log in `paths`. All devices (in one LBN space) if unset.
  std::optional<std::uint32_t> device;  ///< unset: all devices (scenario: workload.device = "all")
  double start_s = 0;                   ///< window: drop requests arriving before (trace time, s)
  double stop_s = -1;                   ///< window: drop requests arriving after (trace time, s); <0: none
  std::uint64_t skip_requests = 0;      ///< window: drop the first N kept requests
  std::uint64_t max_requests = 0;       ///< window: stop after N requests; 0: no limit
  /// Applied to the requests the window keeps. Error: a request ending beyond capacity_blocks
  /// is a malformed line (strict: TraceError; lenient: skipped and counted). Scale uses the
  /// trace extent of the device-filtered requests of the whole trace (all times), so that the
  /// mapping does not depend on the window; it also spreads a trace smaller than the capacity.
  /// Block counts are never scaled, only shortened to end at the capacity.
  CapacityPolicy capacity = CapacityPolicy::Error;
  std::uint64_t capacity_blocks = 0;  ///< the modelled capacity in 512 B blocks, > 0
  bool lenient = false;               ///< skip malformed lines instead of stopping
};

/// Counters a replay reports in summary.json. Everything except `requests`, `wrapped`, `scaled`
/// and `truncated` is set by the validating pass in open_trace() and is final when it returns;
/// those four grow while the source streams.
///
/// Every well-formed read/write request of the trace is counted once in `trace_requests` and
/// ends up either selected or dropped by exactly one filter, in the selection order:
///     trace_requests = selected + dropped_device + dropped_before_start + dropped_after_stop
///                      + dropped_skip + dropped_limit,   filtered = trace_requests - selected.
struct TraceStats {
  std::uint64_t lines = 0;                   ///< lines read
  std::uint64_t requests = 0;                ///< requests yielded so far (== selected at the end)
  std::uint64_t selected = 0;                ///< requests the selection keeps (validating pass)
  std::uint64_t filtered = 0;                ///< dropped by the device filter or the window (sum below)
  std::uint64_t dropped_device = 0;          ///< workload.device filter
  std::uint64_t dropped_before_start = 0;    ///< arrival before workload.start_s
  std::uint64_t dropped_after_stop = 0;      ///< arrival after workload.stop_s
  std::uint64_t dropped_skip = 0;            ///< workload.skip_requests
  std::uint64_t dropped_limit = 0;           ///< beyond run.requests
  std::uint64_t skipped_malformed = 0;       ///< lenient mode only
  std::vector<std::string> first_malformed;  ///< up to 5 messages, lenient mode only
  std::uint64_t wrapped = 0;                 ///< requests moved by CapacityPolicy::Wrap
  std::uint64_t scaled = 0;                  ///< requests moved by CapacityPolicy::Scale
  std::uint64_t truncated = 0;               ///< requests shortened to fit the capacity
  std::uint64_t trace_extent_blocks = 0;     ///< max end LBN seen (for Scale)
  std::uint64_t trace_requests = 0;          ///< well-formed read/write requests in the trace (all devices)
  std::uint64_t ignored = 0;                 ///< well-formed records that are not read/write requests
  /// Requests per device number in the trace (all of it, before any filter), in increasing device
  /// order; at most 64 devices are listed, `more_devices` counts the others.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> devices;
  std::uint64_t more_devices = 0;
  /// Arrival of the last selected request, simulated time (after the window and time_scale;
  /// saturated at Time::max()), and the same before time_scale (trace time from start_s).
  Time last_arrival{0};
  Time last_trace_time{0};
};

/// Detects the format of `path` from its first non-comment lines (content only, except that the
/// file name breaks the one tie content cannot: SSDsim and MQSim files have the same five
/// integer columns with the same units, so a name containing "mqsim" gives MqSim and any other
/// gives SsdSim; a name containing "disksim" makes integer-time five-column files DiskSim).
/// Throws TraceError when no format matches or the file cannot be read.
TraceFormat detect_trace_format(const std::string& path);

/// Opens a streaming trace source. Validates the whole trace first (one streaming pass, flat
/// memory) so that a malformed line stops the run before anything is simulated or written;
/// throws TraceError then (strict mode), and for a binary file or a file with no record at all
/// (whatever the format, as detection does). Throws std::invalid_argument, naming the scenario
/// key and what each filter dropped, when the selection keeps no request, and when the last
/// selected request would arrive after kMaxArrival (time_scale too small for the window).
/// Memory stays flat in the trace length.
/// `stats` may be null; otherwise it must outlive the source.
std::unique_ptr<WorkloadSource> open_trace(const TraceOptions& options, TraceStats* stats);

// --- internal: shared by the readers in testbench/trace/*.cpp; not for use elsewhere ---------
namespace trace_detail {

/// A record's trace time: whole seconds plus picoseconds in [0, 1e12). Wide enough for
/// absolute clocks (FILETIME, seconds since boot) that overflow int64 picoseconds.
struct TraceClock {
  std::int64_t s = 0;
  std::int64_t ps = 0;
};

/// One parsed line.
struct Record {
  enum class Kind : std::uint8_t {
    Request,     ///< a read or write
    NonRequest,  ///< a well-formed record that is not a request (counted as ignored)
    Blank,       ///< blank line, comment, header
  };
  Kind kind = Kind::Blank;
  bool has_time = false;  ///< `time` is valid (NonRequest may carry a time)
  TraceClock time;
  std::string_view time_text;  ///< the time field as written, for messages
  std::uint64_t lbn = 0;
  std::uint32_t blocks = 0;
  Op op = Op::Read;
  std::uint32_t device = 0;
  /// The request's stream when the line names one (blkparse and ftrace: the process id); the
  /// reader resets has_stream before each line and otherwise uses the device as the stream.
  bool has_stream = false;
  std::uint32_t stream = 0;
  /// Validate traces only (the reader resets both to -1 before each line): the service time
  /// measured on the real drive and the idle gap after this request's completion before the
  /// next request was issued, picoseconds.
  std::int64_t measured_ps = -1;
  std::int64_t gap_ps = -1;
};

/// Why a line is malformed. `expected` is reused between lines (no allocation in steady state).
struct Failure {
  std::string expected;
  std::string_view found;
};

/// Parses one format, line by line. Stateful (fio v2 accumulates waits): one per file and pass.
class LineParser {
 public:
  virtual ~LineParser() = default;
  /// `line` has no newline. Returns false with `failure` set when the line is malformed.
  virtual bool parse(std::string_view line, Record& out, Failure& failure) = 0;
  /// The format's clock is absolute: the first timed record is trace time 0.
  virtual bool absolute_clock() const { return false; }
};

std::unique_ptr<LineParser> make_parser(TraceFormat f);  // trace_reader.cpp
std::unique_ptr<LineParser> make_disksim_parser();       // trace_ascii.cpp
std::unique_ptr<LineParser> make_ssdsim_parser();
std::unique_ptr<LineParser> make_mqsim_parser();
std::unique_ptr<LineParser> make_validate_parser();
std::unique_ptr<LineParser> make_spc_parser();  // trace_csv.cpp
std::unique_ptr<LineParser> make_msr_parser();
std::unique_ptr<LineParser> make_fio_parser();       // trace_fio.cpp
std::unique_ptr<LineParser> make_blkparse_parser();  // trace_blk.cpp
std::unique_ptr<LineParser> make_ftrace_parser();

// Helpers (trace_common.cpp). All are locale-free (std::from_chars).

/// Splits on blanks (space, tab) into `out`, at most `max` fields; returns the number of
/// fields, which is max + 1 when the line has more than `max`.
std::size_t split_blanks(std::string_view line, std::string_view* out, std::size_t max);
/// Splits on ',' into `out` (fields trimmed of blanks); same return convention.
std::size_t split_commas(std::string_view line, std::string_view* out, std::size_t max);
std::string_view trim(std::string_view s);
bool is_comment_or_blank(std::string_view line);
/// Whole-field unsigned / signed decimal and hexadecimal (optional 0x) integers.
bool parse_u64(std::string_view s, std::uint64_t& v);
bool parse_i64(std::string_view s, std::int64_t& v);
bool parse_u32(std::string_view s, std::uint32_t& v);
bool parse_hex(std::string_view s, std::uint64_t& v);
/// A non-negative decimal (digits, optional fraction, optional exponent) times
/// 10^`shift_to_ps` (9 for milliseconds, 12 for seconds), as a TraceClock, rounded to the
/// nearest picosecond. False when malformed or negative.
bool parse_decimal_time(std::string_view s, int shift_to_ps, TraceClock& t);
/// An integer count of `ps_per_tick` picoseconds as a TraceClock.
bool parse_tick_time(std::string_view s, std::int64_t ps_per_tick, TraceClock& t);
/// Converts a byte range to blocks (first = floor(offset/512), count = ceil((offset+size)/512) -
/// first). False with `failure` set when size <= 0 or the count overflows.
bool bytes_to_blocks(std::uint64_t offset, std::int64_t size, std::string_view found, Record& out, Failure& failure);
/// A byte size field: a positive integer (negative and zero are reported as such).
bool parse_byte_size(std::string_view s, std::int64_t& v, Failure& failure);
/// A block count field (> 0, fits 32 bits).
bool parse_block_count(std::string_view s, std::uint32_t& v, Failure& failure);
/// Sets `failure` and returns false (for one-line error returns).
bool fail(Failure& failure, std::string_view expected, std::string_view found);

}  // namespace trace_detail
}  // namespace drivevp
