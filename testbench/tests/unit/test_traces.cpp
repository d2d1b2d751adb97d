// Trace readers (testbench/trace): every format on the shipped samples or on small fixtures,
// every error path, lenient mode, window/time_scale arithmetic, capacity policies, detection,
// fio merging and replay determinism.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/trace/trace_reader.h"

using namespace drivevp;

namespace {

/// A real trace shipped in this repository's traces/ folder (with its licence beside it). The
/// data belongs to the repository: a missing file fails the test case, it does not skip it.
std::string shipped_trace(const std::string& relative) {
  const std::string path = std::string(DRIVEVP_SOURCE_DIR) + "/traces/" + relative;
  if (!std::filesystem::exists(path)) FAIL("traces/" + relative + " is missing from this checkout");
  return path;
}
const std::string kData = DRIVEVP_SOURCE_DIR "/testbench/tests/data/traces/";
/// 303 records of the MIT-licensed WebSearch slice (traces/umass-spc, LICENSE.MQSim): its lines
/// 1-300, 530, 531 (the first writes) and 3913 (the first time above 9,223,372,036 ns).
const std::string kSsdSim = kData + "websearch-head.ssdsim.ascii";

// Shipped in this repository too (traces/disksim-ascii, BSD-3), so always available.
const std::string kDiskSim = DRIVEVP_SOURCE_DIR "/traces/disksim-ascii/ascii.trace";

constexpr std::uint64_t kBigCapacity = std::uint64_t{1} << 40;

TraceOptions options(std::vector<std::string> paths, TraceFormat format = TraceFormat::Auto) {
  TraceOptions o;
  o.paths = std::move(paths);
  o.format = format;
  o.capacity_blocks = kBigCapacity;
  return o;
}

std::vector<SourceRequest> read_all(const TraceOptions& o, TraceStats* stats = nullptr) {
  auto src = open_trace(o, stats);
  std::vector<SourceRequest> out;
  SourceRequest r;
  while (src->next(r)) out.push_back(r);
  return out;
}

/// Writes `content` to a fresh file in a per-process temporary folder; returns its path.
std::string temp_file(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("drivevp_trace_tests_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

/// The TraceError message of opening and draining the trace; "" when there is none.
std::string error_of(const TraceOptions& o) {
  try {
    read_all(o);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

std::string error_of(const std::string& name, const std::string& content, TraceFormat format = TraceFormat::Auto) {
  return error_of(options({temp_file(name, content)}, format));
}

bool non_decreasing(const std::vector<SourceRequest>& v) {
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (v[i].command.arrival < v[i - 1].command.arrival) return false;
  }
  return true;
}

Time ps(std::int64_t v) { return Time{v}; }

}  // namespace

TEST_CASE("trace format and capacity policy names round-trip", "[trace]") {
  for (const auto f :
       {TraceFormat::Auto, TraceFormat::DiskSim, TraceFormat::Spc, TraceFormat::Msr, TraceFormat::Fio,
        TraceFormat::Blkparse, TraceFormat::Ftrace, TraceFormat::SsdSim, TraceFormat::MqSim, TraceFormat::Validate}) {
    REQUIRE(parse_trace_format(to_string(f)) == f);
  }
  CHECK(to_string(TraceFormat::Validate) == "validate");
  CHECK(to_string(TraceFormat::DiskSim) == "disksim");
  CHECK(to_string(TraceFormat::MqSim) == "mqsim");
  CHECK_FALSE(parse_trace_format("DiskSim").has_value());
  CHECK_FALSE(parse_trace_format("csv").has_value());
  CHECK(to_string(CapacityPolicy::Error) == "error");
  CHECK(to_string(CapacityPolicy::Wrap) == "wrap");
  CHECK(to_string(CapacityPolicy::Scale) == "scale");
  CHECK(parse_capacity_policy("wrap") == CapacityPolicy::Wrap);
  CHECK(parse_capacity_policy("scale") == CapacityPolicy::Scale);
  CHECK(parse_capacity_policy("error") == CapacityPolicy::Error);
  CHECK_FALSE(parse_capacity_policy("clip").has_value());
}

TEST_CASE("DiskSim ASCII: the shipped ascii.trace", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({kDiskSim}), &stats);
  REQUIRE(v.size() == 100000);
  // 13.191135	30	0	5	1
  CHECK(v[0].command.arrival == ps(13'191'135'000));
  CHECK(v[0].command.lbn == 0);
  CHECK(v[0].command.blocks == 5);
  CHECK(v[0].command.op == Op::Read);
  CHECK(v[0].origin_line == 1);
  // 17.829285	20	576560	6	1
  CHECK(v[1].command.arrival == ps(17'829'285'000));
  CHECK(v[1].command.lbn == 576560);
  CHECK(v[1].command.blocks == 6);
  // 25.911729	18	28601	12	0
  CHECK(v[3].command.op == Op::Write);
  CHECK(v[3].command.lbn == 28601);
  // last: 1532949.045363	11	323157	1	1
  CHECK(v.back().command.arrival == ps(1'532'949'045'363'000));
  CHECK(v.back().origin_line == 100000);
  CHECK(std::count_if(v.begin(), v.end(), [](const auto& r) { return r.command.is_read(); }) == 79634);
  CHECK(non_decreasing(v));
  CHECK(stats.lines == 100000);
  CHECK(stats.requests == 100000);
  CHECK(stats.trace_requests == 100000);
  CHECK(stats.filtered == 0);
  CHECK(stats.ignored == 0);
  CHECK(stats.trace_extent_blocks == 2376020);

  // 14 device numbers occur (the README's "7 devices" notwithstanding); device 20 has 11109.
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> per_device{
      {0, 8062},   {3, 75},     {4, 1},     {5, 377},   {6, 116},    {7, 200},    {10, 14625},
      {11, 14052}, {14, 19968}, {16, 7271}, {17, 3323}, {18, 17609}, {20, 11109}, {30, 3212}};
  CHECK(stats.devices == per_device);
  CHECK(stats.more_devices == 0);
  std::set<std::uint32_t> devices;
  for (std::uint32_t d = 0; d <= 31; ++d) {
    auto o = options({kDiskSim});
    o.device = d;
    TraceStats s;
    std::size_t n = 0;
    try {
      n = read_all(o, &s).size();
    } catch (const std::invalid_argument& e) {
      // A device with no request selects nothing: an error naming the filter, not an empty run.
      CHECK(std::string(e.what()).find("dropped 100000 by workload.device = " + std::to_string(d)) !=
            std::string::npos);
    }
    if (n > 0) devices.insert(d);
    if (d == 20) {
      CHECK(n == 11109);
      CHECK(s.filtered == 100000 - 11109);
      CHECK(s.dropped_device == 100000 - 11109);
      CHECK(s.selected == 11109);
    }
    if (d == 4) CHECK(n == 1);
  }
  CHECK(devices.size() == 14);
}

TEST_CASE("SSDsim ASCII: the WebSearch fixture", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({kSsdSim}), &stats);
  REQUIRE(v.size() == 303);
  // 11413000 0 657728 16 1
  CHECK(v[0].command.arrival == ps(11'413'000'000));
  CHECK(v[0].command.lbn == 657728);
  CHECK(v[0].command.blocks == 16);
  CHECK(v[0].command.op == Op::Read);
  // 11721000 1 21868784 16 1
  CHECK(v[2].command.arrival == ps(11'721'000'000));
  CHECK(v[2].command.lbn == 21868784);
  // 1448553000 2 6112 16 0
  CHECK(v[300].command.arrival == ps(1'448'553'000'000));
  CHECK(v[300].command.op == Op::Write);
  CHECK(v[300].origin_line == 301);
  CHECK(std::count_if(v.begin(), v.end(), [](const auto& r) { return r.command.is_read(); }) == 301);
  CHECK(stats.trace_extent_blocks == 34834400);
  auto o = options({kSsdSim});
  o.device = 2;
  CHECK(read_all(o).size() == 80);
}

TEST_CASE("MQSim ASCII: the shipped WebSearch slice (last line without newline)", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({shipped_trace("umass-spc/websearch-slice.mqsim.trace")}), &stats);
  REQUIRE(v.size() == 24783);
  // 11413000 0 657728 16 1
  CHECK(v[0].command.arrival == ps(11'413'000'000));
  CHECK(v[0].command.lbn == 657728);
  CHECK(v[0].command.blocks == 16);
  CHECK(v[0].command.op == Op::Read);
  CHECK(std::count_if(v.begin(), v.end(), [](const auto& r) { return r.command.is_read(); }) == 24779);
  CHECK(stats.lines == 24783);
  CHECK(stats.trace_extent_blocks == 34966256);
  const std::map<std::uint32_t, std::size_t> per_device{{0, 8340}, {1, 8231}, {2, 8187}, {3, 8}, {4, 7}, {5, 10}};
  for (const auto& [d, n] : per_device) {
    auto o = options({shipped_trace("umass-spc/websearch-slice.mqsim.trace")});
    o.device = d;
    CHECK(read_all(o).size() == n);
  }
}

TEST_CASE("fio iolog v3: the shipped randread-4k log", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({shipped_trace("fio/randread-4k.iolog")}), &stats);
  REQUIRE(v.size() == 7648);
  // 350 fio-target.dat read 1874083840 4096
  CHECK(v[0].command.arrival == ps(350'000'000));
  CHECK(v[0].command.lbn == 1874083840 / 512);
  CHECK(v[0].command.blocks == 8);
  CHECK(v[0].command.op == Op::Read);
  CHECK(v[0].origin_line == 4);
  CHECK(stats.lines == 7652);
  CHECK(stats.ignored == 3);  // add, open, close
  CHECK(non_decreasing(v));
}

TEST_CASE("fio iolog v3: merging the shipped OLTP data and WAL logs", "[trace]") {
  TraceStats stats;
  const auto o = options({shipped_trace("fio/oltp-data.iolog"), shipped_trace("fio/oltp-wal.iolog")});
  const auto v = read_all(o, &stats);
  REQUIRE(v.size() == 8536 + 3496 + 1871);
  CHECK(non_decreasing(v));
  CHECK(stats.ignored == 3 + 153 + 3 + 1870);  // add/open/close and datasync of both logs
  // First: WAL "144 fio-target.dat.wal write 0 4096" precedes data's "4268 ... read".
  CHECK(v[0].command.arrival == ps(144'000'000));
  CHECK(v[0].command.op == Op::Write);
  CHECK(v[0].command.lbn == 0);
  auto wal = o;
  wal.device = 1;  // the second log
  const auto w = read_all(wal);
  CHECK(w.size() == 1871);
  CHECK(std::all_of(w.begin(), w.end(), [](const auto& r) { return r.command.op == Op::Write; }));
}

TEST_CASE("fio iolog v3: two job logs merged in time order (fixture)", "[trace]") {
  const auto v = read_all(options({kData + "fio_job_a.iolog", kData + "fio_job_b.iolog"}));
  REQUIRE(v.size() == 7);
  struct Expect {
    std::int64_t us;
    std::uint64_t lbn;
    std::uint32_t blocks;
    Op op;
    std::uint64_t line;
  };
  // Ties (300 µs) go to the earlier path; within a log, file order.
  const Expect e[] = {{50, 1048576 / 512, 128, Op::Write, 4},
                      {100, 0, 8, Op::Read, 4},
                      {300, 8, 8, Op::Read, 5},
                      {300, 16, 8, Op::Write, 6},
                      {300, 1114112 / 512, 128, Op::Write, 5},
                      {900, 24, 8, Op::Read, 7},
                      {1200, 1179648 / 512, 128, Op::Write, 7}};
  for (std::size_t i = 0; i < 7; ++i) {
    INFO("request " << i);
    CHECK(v[i].command.arrival == ps(e[i].us * 1'000'000));
    CHECK(v[i].command.lbn == e[i].lbn);
    CHECK(v[i].command.blocks == e[i].blocks);
    CHECK(v[i].command.op == e[i].op);
    CHECK(v[i].origin_line == e[i].line);
  }
}

TEST_CASE("fio iolog v2: wait lines accumulate, byte ranges round outwards (fixture)", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({kData + "fio_v2.iolog"}), &stats);
  REQUIRE(v.size() == 3);
  CHECK(v[0].command.arrival == ps(0));
  CHECK(v[0].command.lbn == 0);
  CHECK(v[0].command.blocks == 8);
  // "write 1000 512": bytes 1000..1511 touch blocks 1 and 2.
  CHECK(v[1].command.arrival == ps(1'000'000'000));
  CHECK(v[1].command.op == Op::Write);
  CHECK(v[1].command.lbn == 1);
  CHECK(v[1].command.blocks == 2);
  CHECK(v[2].command.arrival == ps(1'250'000'000));
  CHECK(v[2].command.lbn == 2048);
  CHECK(v[2].command.blocks == 16);
  CHECK(stats.ignored == 6);  // add, open, 2 waits, trim, close
}

TEST_CASE("ftrace blk text: the shipped sqlite TPC-B trace", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({shipped_trace("linux-ftrace-blk/sqlite-tpcb.blk.txt")}), &stats);
  // 20,326 Q events, of which 1,981 are empty pre-flushes "Q FWS [comm]" without a sector.
  REQUIRE(v.size() == 18345);
  // "1301.917886:   7,0    Q  RA 270336 + 16" is the first record: time 0.
  CHECK(v[0].command.arrival == ps(0));
  CHECK(v[0].command.lbn == 270336);
  CHECK(v[0].command.blocks == 16);
  CHECK(v[0].command.op == Op::Read);
  CHECK(v[0].origin_line == 3);
  // "1301.917895:   7,0    Q  RA 270368 + 8" (line 6)
  CHECK(v[1].command.arrival == ps(9'000'000));
  CHECK(v[1].command.lbn == 270368);
  CHECK(v[1].origin_line == 6);
  CHECK(std::count_if(v.begin(), v.end(), [](const auto& r) { return r.command.is_read(); }) == 2108);
  CHECK(non_decreasing(v));
  CHECK(stats.lines == 100743);
  CHECK(stats.ignored == 100741 - 18345);
  auto o = options({shipped_trace("linux-ftrace-blk/sqlite-tpcb.blk.txt")});
  o.device = 0;  // minor of 7,0
  CHECK(read_all(o).size() == 18345);
  o.device = 7;
  CHECK_THROWS_WITH(read_all(o), Catch::Matchers::ContainsSubstring(
                                     "the trace has 18345 read/write requests; dropped 18345 by workload.device = 7. "
                                     "Requests per device in the trace: 0: 18345;"));
}

TEST_CASE("blkparse text: Q events only, merges and flushes ignored (fixture)", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({kData + "blkparse_small.txt"}), &stats);
  REQUIRE(v.size() == 5);
  CHECK(v[0].command.arrival == ps(1'000'000));
  CHECK(v[0].command.lbn == 223490);
  CHECK(v[0].command.blocks == 8);
  CHECK(v[0].command.op == Op::Write);
  CHECK(v[1].command.lbn == 223498);  // its M event is not a second request
  CHECK(v[2].command.lbn == 1000);
  CHECK(v[2].command.op == Op::Read);
  CHECK(v[2].command.blocks == 32);
  CHECK(v[3].command.arrival == ps(2'100'000'000));
  CHECK(v[3].command.op == Op::Read);  // RA
  CHECK(v[4].command.lbn == 2000);     // WFSM
  CHECK(v[4].command.op == Op::Write);
  CHECK(stats.ignored == 15 - 5);  // A G M P I U D C, Q FWS, Q D
  auto o = options({kData + "blkparse_small.txt"});
  o.device = 16;  // minor of 8,16
  const auto d16 = read_all(o);
  REQUIRE(d16.size() == 2);
  CHECK(d16[0].command.lbn == 1000);
  CHECK(d16[1].command.arrival == ps(4'000'000'000));
}

TEST_CASE("MSR Cambridge CSV: FILETIME made relative, bytes to blocks (fixture)", "[trace]") {
  TraceStats stats;
  const auto v = read_all(options({kData + "msr_small.csv"}), &stats);
  REQUIRE(v.size() == 4);
  CHECK(v[0].command.arrival == ps(0));
  CHECK(v[0].command.lbn == 3154132992 / 512);
  CHECK(v[0].command.blocks == 8);
  CHECK(v[0].command.op == Op::Read);
  // 128166372016382155 - 128166372003061629 = 13,320,526 ticks of 100 ns
  CHECK(v[1].command.arrival == ps(13'320'526LL * 100'000));
  CHECK(v[1].command.op == Op::Write);
  // offset 1000, size 1000: bytes 1000..1999 touch blocks 1..3
  CHECK(v[2].command.lbn == 1);
  CHECK(v[2].command.blocks == 3);
  CHECK(v[3].command.lbn == 0);
  CHECK(v[3].command.blocks == 1);
  auto o = options({kData + "msr_small.csv"});
  o.device = 1;
  CHECK(read_all(o).size() == 3);
}

TEST_CASE("UMass SPC CSV: size in bytes, seconds, extra columns (fixture)", "[trace]") {
  const auto v = read_all(options({kData + "spc_small.csv"}));
  REQUIRE(v.size() == 4);
  CHECK(v[0].command.lbn == 303567);
  CHECK(v[0].command.blocks == 7);
  CHECK(v[0].command.op == Op::Write);
  CHECK(v[2].command.arrival == ps(26'214'000'000));
  CHECK(v[2].command.op == Op::Read);
  CHECK(v[3].command.arrival == ps(500'000'000'000));
  CHECK(v[3].command.blocks == 2);  // 1000 bytes
  auto o = options({kData + "spc_small.csv"});
  o.device = 0;
  CHECK(read_all(o).size() == 2);
}

TEST_CASE("format detection from the content", "[trace]") {
  const std::string ssdsim = kSsdSim;
  const std::string mqsim = shipped_trace("umass-spc/websearch-slice.mqsim.trace");
  const std::string ftrace = shipped_trace("linux-ftrace-blk/sqlite-tpcb.blk.txt");
  const std::string fio = shipped_trace("fio/closed-qd32.iolog");
  CHECK(detect_trace_format(kDiskSim) == TraceFormat::DiskSim);
  CHECK(detect_trace_format(ssdsim) == TraceFormat::SsdSim);
  CHECK(detect_trace_format(mqsim) == TraceFormat::MqSim);
  CHECK(detect_trace_format(ftrace) == TraceFormat::Ftrace);
  CHECK(detect_trace_format(fio) == TraceFormat::Fio);
  CHECK(detect_trace_format(kData + "fio_v2.iolog") == TraceFormat::Fio);
  CHECK(detect_trace_format(kData + "blkparse_small.txt") == TraceFormat::Blkparse);
  CHECK(detect_trace_format(kData + "msr_small.csv") == TraceFormat::Msr);
  CHECK(detect_trace_format(kData + "spc_small.csv") == TraceFormat::Spc);
  CHECK(detect_trace_format(temp_file("hdr.csv",
                                      "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                                      "1,h,0,Read,0,512,1\n")) == TraceFormat::Msr);
  // Five integer columns: DiskSim when a flag exceeds 1 or a time has a fraction.
  CHECK(detect_trace_format(temp_file("a.txt", "0 0 10 8 0\n5 0 10 8 80\n")) == TraceFormat::DiskSim);
  CHECK(detect_trace_format(temp_file("b.txt", "0 0 10 8 0\n5 0 10 8 1\n")) == TraceFormat::SsdSim);
  CHECK(detect_trace_format(temp_file("b.mqsim", "0 0 10 8 0\n5 0 10 8 1\n")) == TraceFormat::MqSim);

  const auto unknown = temp_file("unknown.txt", "# comment\nhello world\n");
  try {
    detect_trace_format(unknown);
    FAIL("expected a TraceError");
  } catch (const TraceError& e) {
    CHECK(e.line() == 2);
    CHECK(e.found() == "hello world");
    CHECK(std::string(e.what()).find("unknown.txt:2: expected a record of a known trace format") != std::string::npos);
  }
  CHECK_THROWS_AS(detect_trace_format(temp_file("empty.txt", "")), TraceError);

  // An explicit format overrides detection: the SSDsim file read as MQSim is the same replay.
  const auto as_mqsim = read_all(options({kSsdSim}, TraceFormat::MqSim));
  CHECK(as_mqsim.size() == 303);
  // ... and DiskSim reads the same integer times as milliseconds.
  const auto ints = temp_file("ints.ssdsim", "0 0 303567 7 0\n26214000 0 303574 7 0\n");
  CHECK(read_all(options({ints}))[1].command.arrival == ps(26'214'000'000));
  CHECK(read_all(options({ints}, TraceFormat::DiskSim))[1].command.arrival == ps(26'214'000LL * 1'000'000'000));
  // A time that does not fit Time (int64 ps, about 106 days) is an error.
  CHECK(error_of(options({ssdsim}, TraceFormat::DiskSim))
            .find("websearch-head.ssdsim.ascii:303: expected a time within 106 days of the trace start, found "
                  "'9287933000'") != std::string::npos);
}

TEST_CASE("malformed lines: file, line, expected and found", "[trace]") {
  SECTION("a non-hexadecimal DiskSim flags field (fixture)") {
    try {
      read_all(options({kData + "disksim_bad_flags.trace"}, TraceFormat::DiskSim));
      FAIL("expected a TraceError");
    } catch (const TraceError& e) {
      CHECK(e.file() == kData + "disksim_bad_flags.trace");
      CHECK(e.line() == 2);
      CHECK(e.expected() == "a hexadecimal flags field");
      CHECK(e.found() == "zz");
      CHECK(std::string(e.what()) ==
            kData + "disksim_bad_flags.trace:2: expected a hexadecimal flags field, found 'zz'");
    }
  }
  SECTION("wrong field count") {
    const auto m = error_of("fields.trace", "1.0 0 10 8 1\n2.0 0 10 8\n", TraceFormat::DiskSim);
    CHECK(m.find("fields.trace:2: expected 5 blank-separated fields 'arrival_ms devno blkno bcount flags', "
                 "found '2.0 0 10 8'") != std::string::npos);
  }
  SECTION("non-numeric fields") {
    CHECK(error_of("nan.trace", "1.0 0 10 8 1\nabc 0 10 8 1\n", TraceFormat::DiskSim)
              .find("nan.trace:2: expected an arrival time in milliseconds (a non-negative decimal), found 'abc'") !=
          std::string::npos);
    CHECK(error_of("blk.trace", "1.0 0 1x 8 1\n", TraceFormat::DiskSim)
              .find("blk.trace:1: expected a block number (blkno), found '1x'") != std::string::npos);
    CHECK(error_of("msr_bad.csv", "128166372003061629,hm,1,Read,12a,4096,1\n")
              .find("msr_bad.csv:1: expected an offset in bytes (a non-negative integer), found '12a'") !=
          std::string::npos);
  }
  SECTION("time going backwards") {
    const auto m = error_of("back.trace", "1.0 0 10 8 1\n17.829285 0 10 8 1\n10.5 0 10 8 1\n", TraceFormat::DiskSim);
    CHECK(m == temp_file("back.trace", "1.0 0 10 8 1\n17.829285 0 10 8 1\n10.5 0 10 8 1\n") +
                   ":3: expected a request time not before the previous request's (0.017829285 s from the trace "
                   "start), found '10.5'");
    CHECK(error_of("back.csv", "128166372003061629,hm,1,Read,0,4096,1\n128166372003061628,hm,1,Read,0,4096,1\n")
              .find("back.csv:2: expected a request time not before the trace start") != std::string::npos);
  }
  SECTION("zero or negative size") {
    CHECK(error_of("zero.trace", "1.0 0 10 0 1\n", TraceFormat::DiskSim)
              .find("zero.trace:1: expected a positive block count, found '0'") != std::string::npos);
    CHECK(error_of("neg.trace", "1 0 10 -8 1\n", TraceFormat::SsdSim)
              .find("neg.trace:1: expected a positive block count, found '-8'") != std::string::npos);
    CHECK(error_of("zero.csv", "128166372003061629,hm,1,Read,0,0,1\n")
              .find("zero.csv:1: expected a positive size in bytes, found '0'") != std::string::npos);
    CHECK(error_of("neg.csv", "0,10,-512,r,0.5\n", TraceFormat::Spc)
              .find("neg.csv:1: expected a positive size in bytes, found '-512'") != std::string::npos);
    CHECK(error_of("zero.iolog", "fio version 3 iolog\n10 f read 0 0\n")
              .find("zero.iolog:2: expected a positive size in bytes, found '0'") != std::string::npos);
    CHECK(error_of("zero.blk", "8,0 0 1 0.5 1 Q R 100 + 0 [x]\n", TraceFormat::Blkparse)
              .find("zero.blk:1: expected a positive block count, found '0'") != std::string::npos);
  }
  SECTION("unknown opcode") {
    CHECK(error_of("op.ascii", "1 0 10 8 2\n", TraceFormat::SsdSim)
              .find("op.ascii:1: expected an operation 1 (read) or 0 (write), found '2'") != std::string::npos);
    CHECK(error_of("op.mqsim", "1 0 10 8 R\n", TraceFormat::MqSim)
              .find("op.mqsim:1: expected an operation 1 (read) or 0 (write), found 'R'") != std::string::npos);
    CHECK(error_of("op.csv", "0,10,512,x,0.5\n", TraceFormat::Spc)
              .find("op.csv:1: expected an opcode r, R, w or W, found 'x'") != std::string::npos);
    CHECK(error_of("op2.csv", "1,hm,1,Trim,0,512,1\n", TraceFormat::Msr)
              .find("op2.csv:1: expected a type Read or Write, found 'Trim'") != std::string::npos);
    CHECK(error_of("op.iolog", "fio version 3 iolog\n10 f frobnicate 0 512\n")
              .find("op.iolog:2: expected an fio action (add, open, close, read, write, sync, datasync, trim), "
                    "found 'frobnicate'") != std::string::npos);
    CHECK(error_of("op.blk", "8,0 0 1 0.5 1 Q r1 100 + 8 [x]\n", TraceFormat::Blkparse)
              .find("op.blk:1: expected an RWBS field of capital letters") != std::string::npos);
  }
  SECTION("truncated file: an incomplete last line without newline (fixture)") {
    try {
      read_all(options({kData + "disksim_truncated.trace"}));
      FAIL("expected a TraceError");
    } catch (const TraceError& e) {
      CHECK(e.line() == 3);
      CHECK(e.found() == "24.314779\t17\t0");
      CHECK(e.expected().find("a complete last record (the file ends without a newline; 5 blank-separated") == 0);
    }
    // A complete last line without newline is fine.
    CHECK(read_all(options({temp_file("complete.trace", "1.0 0 10 8 1\n2.0 0 10 8 1")})).size() == 2);
  }
  SECTION("LBN beyond capacity under CapacityPolicy::Error") {
    auto o = options({kDiskSim});
    o.capacity_blocks = 2'000'000;
    const auto m = error_of(o);
    // The first line whose request ends beyond 2,000,000 blocks.
    std::ifstream in(kDiskSim);
    std::string line;
    std::uint64_t n = 0;
    std::uint64_t bad = 0;
    while (std::getline(in, line)) {
      ++n;
      double t = 0;
      unsigned dev = 0;
      unsigned long long lbn = 0;
      unsigned cnt = 0;
      if (std::sscanf(line.c_str(), "%lf %u %llu %u", &t, &dev, &lbn, &cnt) == 4 && lbn + cnt > 2'000'000) {
        bad = n;
        break;
      }
    }
    REQUIRE(bad > 0);
    CHECK(m.find(kDiskSim + ":" + std::to_string(bad) +
                 ": expected a request ending at or below the capacity of 2000000 blocks (capacity policy 'error'), "
                 "found 'blocks ") == 0);
  }
  SECTION("file not found or unreadable") {
    const auto m = error_of(options({"/nonexistent/x.trace"}, TraceFormat::DiskSim));
    CHECK(m == "/nonexistent/x.trace: expected a readable trace file, found 'No such file or directory'");
    CHECK(error_of(options({"/nonexistent/x.trace"})).find("/nonexistent/x.trace: expected a readable trace file") ==
          0);
    CHECK(error_of(options({"/tmp"}, TraceFormat::DiskSim)).find("/tmp:1: expected a readable trace file") == 0);
  }
  SECTION("fio header, ftrace and blkparse lines") {
    CHECK(error_of("nohdr.iolog", "10 f read 0 512\n", TraceFormat::Fio)
              .find("nohdr.iolog:1: expected the header 'fio version 2 iolog' or 'fio version 3 iolog', found '10 f "
                    "read 0 512'") != std::string::npos);
    CHECK(error_of("v3.iolog", "fio version 3 iolog\nx f read 0 512\n")
              .find("v3.iolog:2: expected a time in microseconds (a non-negative integer), found 'x'") !=
          std::string::npos);
    CHECK(error_of("ft.txt", "# tracer: blk\n  a-1 [000] d..1. 5.0: 7,0 Q R 8 + 8 [a]\n  garbage line here\n",
                   TraceFormat::Ftrace)
              .find("ft.txt:3: expected a blk event 'task-pid [cpu] flags timestamp: maj,min action ...', found "
                    "'  garbage line here'") != std::string::npos);
    CHECK(error_of("bp.txt", "8,0 0 1 0.5 1 Q W 100 [x]\n", TraceFormat::Blkparse)
              .find("bp.txt:1: expected a sector range 'sector + nsectors' after the RWBS field") != std::string::npos);
    CHECK(error_of("bp2.txt", "8,0 0 1 0.5s 1 Q W 100 + 8 [x]\n", TraceFormat::Blkparse)
              .find("bp2.txt:1: expected a timestamp in seconds (a non-negative decimal), found '0.5s'") !=
          std::string::npos);
  }
}

TEST_CASE("lenient mode skips and counts malformed lines", "[trace]") {
  const std::string content =
      "1.0 0 10 8 1\n"
      "2.0 0 10 8 zz\n"  // 2: flags
      "3.0 0 10 0 1\n"   // 3: size
      "4.0 0 10 8 1\n"
      "x 0 10 8 1\n"    // 5: time
      "3.5 0 10 8 1\n"  // 6: backwards
      "5.0 0 10\n"      // 7: fields
      "6.0 0 10 8 0\n"
      "7.0 0 9999 8 1\n"  // 9: capacity
      "8.0 0 10 8 g\n"    // 10: flags
      "9.0 0 10 8";       // 11: truncated
  auto o = options({temp_file("lenient.trace", content)}, TraceFormat::DiskSim);
  o.capacity_blocks = 1000;
  CHECK_THROWS_AS(read_all(o), TraceError);
  o.lenient = true;
  TraceStats stats;
  const auto v = read_all(o, &stats);
  REQUIRE(v.size() == 3);
  CHECK(v[0].origin_line == 1);
  CHECK(v[1].origin_line == 4);
  CHECK(v[2].origin_line == 8);
  CHECK(stats.skipped_malformed == 8);
  REQUIRE(stats.first_malformed.size() == 5);
  CHECK(stats.first_malformed[0].find("lenient.trace:2: expected a hexadecimal flags field, found 'zz'") !=
        std::string::npos);
  CHECK(stats.first_malformed[3].find("lenient.trace:6: expected a request time not before") != std::string::npos);
  CHECK(stats.trace_requests == 3);
  CHECK(stats.requests == 3);
  CHECK(stats.filtered == 0);
  CHECK(stats.lines == 11);
}

TEST_CASE("window and time_scale arithmetic", "[trace]") {
  // Arrivals (ms): 0, 100, 250.5, 400, 1000.000001, 2000
  const auto path = temp_file(
      "window.trace", "0 0 0 1 1\n100 0 1 1 1\n250.5 0 2 1 1\n400 1 3 1 1\n1000.000001 0 4 1 1\n2000 0 5 1 1\n");
  SECTION("start and stop are inclusive; arrivals relative to start") {
    auto o = options({path});
    o.start_s = 0.1;
    o.stop_s = 1.0;
    TraceStats stats;
    const auto v = read_all(o, &stats);
    REQUIRE(v.size() == 3);  // 100, 250.5, 400 (1000.000001 is after stop)
    CHECK(v[0].command.arrival == ps(0));
    CHECK(v[1].command.arrival == ps(150'500'000'000));
    CHECK(v[2].command.arrival == ps(300'000'000'000));
    CHECK(stats.requests == 3);
    CHECK(stats.filtered == 3);
    CHECK(stats.dropped_before_start == 1);  // 0 ms
    CHECK(stats.dropped_after_stop == 2);    // 1000.000001 and 2000 ms
    CHECK(stats.dropped_device + stats.dropped_skip + stats.dropped_limit == 0);
    CHECK(stats.last_arrival == ps(300'000'000'000));
  }
  SECTION("time_scale divides the times, rounding to the nearest picosecond") {
    auto o = options({path});
    o.time_scale = 3.0;
    const auto v = read_all(o);
    REQUIRE(v.size() == 6);
    CHECK(v[1].command.arrival == ps(33'333'333'333));   // 100 ms / 3
    CHECK(v[2].command.arrival == ps(83'500'000'000));   // 250.5 ms / 3
    CHECK(v[4].command.arrival == ps(333'333'333'667));  // 1000.000001 ms / 3 = ...666.67
    o.time_scale = 0.5;
    o.start_s = 0.25;
    const auto w = read_all(o);
    REQUIRE(w.size() == 4);
    CHECK(w[0].command.arrival == ps(1'000'000'000));      // (250.5 - 250) ms * 2
    CHECK(w[3].command.arrival == ps(3'500'000'000'000));  // (2000 - 250) ms * 2
  }
  SECTION("skip and max count kept requests, after the device filter") {
    auto o = options({path});
    o.device = 0;
    o.skip_requests = 1;
    o.max_requests = 3;
    TraceStats stats;
    const auto v = read_all(o, &stats);
    REQUIRE(v.size() == 3);
    CHECK(v[0].command.lbn == 1);
    CHECK(v[1].command.lbn == 2);
    CHECK(v[2].command.lbn == 4);                        // lbn 3 is device 1
    CHECK(v[0].command.arrival == ps(100'000'000'000));  // skipping does not shift times
    CHECK(stats.filtered == 3);
    CHECK(stats.dropped_device == 1);  // lbn 3
    CHECK(stats.dropped_skip == 1);    // lbn 0
    CHECK(stats.dropped_limit == 1);   // lbn 5
    CHECK(stats.selected == 3);
  }
}

TEST_CASE("capacity policies wrap and scale", "[trace]") {
  // Requests: [0,8) [90,100) [150,154) [195,205) ; extent 205.
  const auto path = temp_file("cap.trace", "1 0 0 8 1\n2 0 90 10 1\n3 0 150 4 1\n4 0 195 10 0\n");
  const auto options = [](std::vector<std::string> paths) { return ::options(std::move(paths), TraceFormat::DiskSim); };
  SECTION("wrap") {
    auto o = options({path});
    o.capacity = CapacityPolicy::Wrap;
    o.capacity_blocks = 100;
    TraceStats stats;
    const auto v = read_all(o, &stats);
    REQUIRE(v.size() == 4);
    CHECK(v[0].command.lbn == 0);
    CHECK(v[1].command.lbn == 90);
    CHECK(v[1].command.blocks == 10);
    CHECK(v[2].command.lbn == 50);
    CHECK(v[2].command.blocks == 4);
    CHECK(v[3].command.lbn == 95);
    CHECK(v[3].command.blocks == 5);  // shortened to end at 100
    CHECK(stats.wrapped == 2);
    CHECK(stats.truncated == 1);
    CHECK(stats.trace_extent_blocks == 205);
  }
  SECTION("scale") {
    auto o = options({path});
    o.capacity = CapacityPolicy::Scale;
    o.capacity_blocks = 100;
    TraceStats stats;
    const auto v = read_all(o, &stats);
    REQUIRE(v.size() == 4);
    CHECK(v[0].command.lbn == 0);   // 0 * 100 / 205
    CHECK(v[1].command.lbn == 43);  // floor(9000 / 205) = 43
    CHECK(v[2].command.lbn == 73);  // floor(15000 / 205) = 73
    CHECK(v[3].command.lbn == 95);  // floor(19500 / 205) = 95
    CHECK(v[3].command.blocks == 5);
    CHECK(stats.scaled == 3);
    CHECK(stats.truncated == 1);
  }
  SECTION("error") {
    auto o = options({path});
    o.capacity_blocks = 205;
    CHECK(read_all(o).size() == 4);
    o.capacity_blocks = 204;
    CHECK(error_of(o).find(":4: expected a request ending at or below the capacity of 204 blocks") !=
          std::string::npos);
    o.stop_s = 0.0035;  // the window excludes the request: no error
    CHECK(read_all(o).size() == 3);
  }
}

TEST_CASE("replaying a trace twice yields identical sequences", "[trace]") {
  for (const auto& p : {kDiskSim, shipped_trace("linux-ftrace-blk/sqlite-tpcb.blk.txt")}) {
    auto o = options({p});
    o.time_scale = 1.7;
    auto src = open_trace(o, nullptr);
    const auto a = read_all(o);
    SourceRequest r;
    std::size_t i = 0;
    bool same = true;
    while (src->next(r)) {
      same = same && i < a.size() && r.command.arrival == a[i].command.arrival && r.command.lbn == a[i].command.lbn &&
             r.command.blocks == a[i].command.blocks && r.command.op == a[i].command.op &&
             r.origin_line == a[i].origin_line;
      ++i;
    }
    CHECK(same);
    CHECK(i == a.size());
    CHECK_FALSE(src->next(r));  // stays at the end
    CHECK_FALSE(src->describe().empty());
  }
}

TEST_CASE("invalid options are rejected", "[trace]") {
  auto o = options({kDiskSim});
  o.time_scale = 0;
  CHECK_THROWS_AS(open_trace(o, nullptr), std::invalid_argument);
  o = options({kDiskSim});
  o.capacity_blocks = 0;
  CHECK_THROWS_AS(open_trace(o, nullptr), std::invalid_argument);
  o = options({kDiskSim});
  o.start_s = 2;
  o.stop_s = 1;
  CHECK_THROWS_AS(open_trace(o, nullptr), std::invalid_argument);
  CHECK_THROWS_AS(open_trace(options({}), nullptr), std::invalid_argument);
  CHECK_THROWS_AS(open_trace(options({kDiskSim, kData + "msr_small.csv"}), nullptr), std::invalid_argument);
}

TEST_CASE("a selection that keeps no request is an error naming every filter", "[trace][hardening]") {
  const auto path = temp_file("sel.trace", "0 3 0 1 1\n100 3 1 1 1\n200 5 2 1 1\n");
  auto o = options({path}, TraceFormat::DiskSim);  // times in ms
  o.device = 4;
  CHECK_THROWS_WITH(read_all(o), "no request selected from " + path +
                                     ": the trace has 3 read/write requests; dropped 3 by workload.device = 4. "
                                     "Requests per device in the trace: 3: 2, 5: 1; workload.device = \"all\" keeps "
                                     "every device");
  o.device = 3;
  o.start_s = 0.05;
  o.stop_s = 0.06;
  CHECK_THROWS_WITH(read_all(o), "no request selected from " + path +
                                     ": the trace has 3 read/write requests; dropped 1 by workload.device = 3, 1 by "
                                     "workload.start_s = 0.05, 1 by workload.stop_s = 0.06. Requests per device in "
                                     "the trace: 3: 2, 5: 1; workload.device = \"all\" keeps every device");
  o.start_s = 0;
  o.stop_s = -1;
  o.skip_requests = 2;
  CHECK_THROWS_WITH(read_all(o), Catch::Matchers::ContainsSubstring("2 by workload.skip_requests = 2"));
  // Every line malformed and skipped (lenient): nothing to simulate.
  auto bad = options({temp_file("allbad.trace", "0 0 0 0 1\n1 0 0 0 1\n")}, TraceFormat::DiskSim);
  bad.lenient = true;
  CHECK_THROWS_WITH(read_all(bad), Catch::Matchers::ContainsSubstring(
                                       "the trace has 0 read/write requests (and 2 malformed lines skipped)"));
}

TEST_CASE("an empty trace fails alike with an explicit format and with auto", "[trace][hardening]") {
  for (const auto* content : {"", "\n\n", "# only a comment\n"}) {
    const auto path = temp_file("empty.trace", content);
    const std::string expected = path + ": expected a trace record, found 'end of file'";
    CHECK(error_of(options({path})) == expected);
    for (const auto f : {TraceFormat::DiskSim, TraceFormat::Spc, TraceFormat::Msr, TraceFormat::Fio,
                         TraceFormat::Blkparse, TraceFormat::Ftrace, TraceFormat::SsdSim, TraceFormat::MqSim}) {
      INFO(to_string(f) << " on '" << content << "'");
      CHECK(error_of(options({path}, f)) == expected);
    }
  }
  // A fio header alone has no record either.
  const auto header = temp_file("header.iolog", "fio version 3 iolog\n");
  CHECK(error_of(options({header}, TraceFormat::Fio)) == header + ": expected a trace record, found 'end of file'");
}

TEST_CASE("a binary file is named as such, in every format", "[trace][hardening]") {
  // The start of a VMware vscsi trace: binary records full of NUL bytes.
  std::string vscsi("\x01\x00\x00\x00\x2a\x00\x00\x00\xff\xfe\x12\x34rest", 16);
  const auto path = temp_file("trace.vscsi", vscsi);
  const std::string expected = path +
                               ": binary file, not a supported text trace format (a NUL byte at offset 1; a text trace "
                               "in one of the formats disksim, spc, msr, fio, blkparse, ftrace, ssdsim, mqsim)";
  CHECK_THROWS_WITH(detect_trace_format(path), expected);
  for (const auto f : {TraceFormat::Auto, TraceFormat::DiskSim, TraceFormat::Spc, TraceFormat::Fio,
                       TraceFormat::Blkparse, TraceFormat::MqSim}) {
    CHECK(error_of(options({path}, f)) == expected);
  }
  // Control bytes without NUL: more than 1 in 8 is binary.
  const auto ctl = temp_file("ctl.bin", std::string(100, '\x01') + "0 0 0 1 1\n");
  CHECK(error_of(options({ctl}))
            .find("binary file, not a supported text trace format (100 control bytes in the "
                  "first 110") != std::string::npos);
}

TEST_CASE("messages quote untrusted bytes printably and cut on a character boundary", "[trace][hardening]") {
  CHECK(printable_text("plain") == "plain");
  CHECK(printable_text("tab\there") == "tab\there");
  CHECK(printable_text(std::string("a\x00"
                                   "b\x1b[31m\x7f",
                                   9)) == "a\\x00b\\x1B[31m\\x7F");
  CHECK(printable_text("caf\xc3\xa9") == "caf\xc3\xa9");       // valid UTF-8 kept
  CHECK(printable_text("caf\xe9 \xc3") == "caf\\xE9 \\xC3");   // Latin-1 byte, cut sequence
  CHECK(printable_text("\xed\xa0\x80") == "\\xED\\xA0\\x80");  // a UTF-16 surrogate is not UTF-8
  CHECK(printable_text("\xc0\xaf") == "\\xC0\\xAF");           // overlong
  CHECK(printable_text("abcdef", 4) == "abcd...");
  CHECK(printable_text("ab\xc3\xa9", 3) == "ab...");  // never half a character
  // A malformed line with a non-UTF-8 byte: the message is valid UTF-8.
  const auto err = error_of("latin1.trace", "0 0 0 1 1\n1 0 0 1 \xe9t\xe9\n", TraceFormat::DiskSim);
  CHECK(err.find(":2: expected a hexadecimal flags field, found '\\xE9t\\xE9'") != std::string::npos);
}

TEST_CASE("times that would leave the int64 picosecond range are rejected", "[trace][hardening]") {
  const auto path = temp_file("times.trace", "0 0 0 1 1\n1000 0 1 1 1\n1532949.045 0 2 1 1\n");
  auto o = options({path});
  o.time_scale = 1e-9;  // 1532.949 s of trace becomes 1.5e12 s
  CHECK_THROWS_WITH(read_all(o), Catch::Matchers::StartsWith(
                                     "workload.time_scale: the last selected request would arrive at 1.53295e+12 s of "
                                     "simulated time (time_scale 1e-09), beyond the limit of 4611686 s"));
  o.time_scale = 1532.949045 / 4'611'686.0 * 1.001;  // just inside the limit
  CHECK(read_all(o).size() == 3);
  o = options({path});
  o.start_s = 1e9;
  CHECK_THROWS_WITH(read_all(o), "trace: start_s must be in [0, 9223371] s (106 days), got 1000000000");
  o.start_s = 0;
  o.stop_s = 1e300;
  CHECK_THROWS_WITH(read_all(o), "trace: stop_s must be at most 9223371 s (106 days), got 1e+300");
  // fio v2: the sum of waits would pass 2^64 microseconds.
  const auto fio = temp_file("waits.iolog",
                             "fio version 2 iolog\nwait 9000000000000000000\n"
                             "f read 0 512\n");
  CHECK(error_of(options({fio}))
            .find("waits.iolog:2: expected a wait that keeps the sum of waits within 106 days (9,223,371,000,000 us), "
                  "found '9000000000000000000'") != std::string::npos);
}

TEST_CASE("a command longer than the firmware's largest transfer is a malformed line", "[trace][hardening]") {
  // 2^32 - 1 blocks with capacity = wrap used to allocate gigabytes of buffers.
  auto o = options({temp_file("huge.trace", "0 0 0 4294967295 1\n")});
  o.capacity = CapacityPolicy::Wrap;
  o.capacity_blocks = 1000;
  CHECK(error_of(o).find(":1: expected a block count of at most 65536 (32 MiB, the firmware's largest transfer), "
                         "found '4294967295'") != std::string::npos);
  CHECK(read_all(options({temp_file("max.trace", "0 0 0 65536 1\n")}))[0].command.blocks == kMaxCommandBlocks);
  // Byte-sized formats: 32 MiB + 1 byte spans 65,537 blocks.
  CHECK(error_of("big.csv", "0,0,33554433,r,0.0\n", TraceFormat::Spc)
            .find("expected a request of at most 65536 blocks") != std::string::npos);
}

TEST_CASE("a line longer than 1 MiB is malformed, not an unbounded buffer", "[trace][hardening]") {
  const auto path = temp_file("longline.trace", "0 0 0 1 1\n" + std::string(3 << 20, '7') + " 0 0 1 1\n");
  CHECK(error_of(options({path}, TraceFormat::DiskSim))
            .find("longline.trace:2: expected a line of at most 1 MiB (no trace format has longer records), found "
                  "'7777777777777777777777777777777777777777'") != std::string::npos);
}

TEST_CASE("DiskSim validate: the shipped HP C2247 trace keeps measured times and gaps", "[trace]") {
  // traces/disksim-valid/hp_c2247a.trace (DiskSim 4.0 valid/, COPYING.DiskSim beside it).
  TraceStats stats;
  const auto v = read_all(options({shipped_trace("disksim-valid/hp_c2247a.trace")}, TraceFormat::Validate), &stats);
  REQUIRE(v.size() == 9999);
  CHECK(stats.selected == 9999);
  // R Miss  564347     2     14095.370     13876.270
  CHECK(v[0].command.op == Op::Read);
  CHECK(v[0].command.lbn == 564347);
  CHECK(v[0].command.blocks == 2);
  CHECK(v[0].command.arrival == ps(0));
  CHECK(v[0].measured_service == ps(14'095'370'000));
  CHECK(v[0].think_time == ps(0));  // the first request: no predecessor
  // R Hit   564349     2      1414.270     18746.770: issued line 1's gap after line 1 completed
  CHECK(v[1].measured_service == ps(1'414'270'000));
  CHECK(v[1].think_time == ps(13'876'270'000));
  CHECK(v[2].think_time == ps(18'746'770'000));
  // W Doub 1194877    15     17221.000     21894.380
  CHECK(v[3].command.op == Op::Write);
  CHECK(v[3].command.lbn == 1194877);
  CHECK(v[3].command.blocks == 15);
  CHECK(v[3].measured_service == ps(17'221'000'000));
  for (const auto& r : v) CHECK(r.command.arrival == ps(0));
  // Other formats carry neither.
  const auto d = read_all(options({kDiskSim}));
  CHECK(d[1].think_time == ps(0));
  CHECK(d[1].measured_service == ps(-1));
}

TEST_CASE("DiskSim validate: malformed lines name the field", "[trace]") {
  CHECK_THAT(error_of("v1.trace", "R Miss 10 2 1.5\n", TraceFormat::Validate),
             Catch::Matchers::EndsWith(":1: expected 6 blank-separated fields 'R|W ACTION LBN SECTORS SERVICE_US "
                                       "GAP_US', found 'R Miss 10 2 1.5'"));
  CHECK_THAT(error_of("v2.trace", "X Miss 10 2 1.5 3\n", TraceFormat::Validate),
             Catch::Matchers::EndsWith(":1: expected a direction R or W, found 'X'"));
  CHECK_THAT(error_of("v3.trace", "R 7 10 2 1.5 3\n", TraceFormat::Validate),
             Catch::Matchers::EndsWith(":1: expected a buffer action word (Hit, Miss, Doub, Trip), found '7'"));
  CHECK_THAT(error_of("v4.trace", "R Hit 10 0 1.5 3\n", TraceFormat::Validate),
             Catch::Matchers::ContainsSubstring(":1: expected"));
  CHECK_THAT(error_of("v5.trace", "R Hit 10 2 -1.5 3\n", TraceFormat::Validate),
             Catch::Matchers::EndsWith(
                 ":1: expected a measured service time in microseconds (a non-negative decimal below 1000 s), found "
                 "'-1.5'"));
  CHECK_THAT(error_of("v6.trace", "R Hit 10 2 1.5 1000000000\n", TraceFormat::Validate),
             Catch::Matchers::EndsWith(
                 ":1: expected an idle gap in microseconds (a non-negative decimal below 1000 s), found '1000000000'"));
  CHECK(error_of("v7.trace", "R Hit 10 2 1.5 999999999.999999\n", TraceFormat::Validate).empty());
}
