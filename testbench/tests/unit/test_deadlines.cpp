// Request deadlines (issue 9): the deadline rules (testbench/workload/deadline.h), the deadline
// checker (testbench/metrics/deadline_checker.h) and the streams the trace readers give requests.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/metrics/deadline_checker.h"
#include "testbench/trace/trace_reader.h"
#include "testbench/workload/deadline.h"

using namespace drivevp;
using Catch::Matchers::Equals;

namespace {

Command cmd(Op op, std::uint32_t stream = 0, Time arrival = Time{0}) {
  Command c;
  c.op = op;
  c.stream = stream;
  c.arrival = arrival;
  return c;
}

constexpr std::int64_t kMs = 1'000'000'000;  // picoseconds per millisecond

}  // namespace

TEST_CASE("deadline rule none leaves every request without a deadline", "[deadline]") {
  DeadlineAssigner a{DeadlineRule{}};
  Command c = cmd(Op::Read, 0, Time{5 * kMs});
  a.assign(c);
  CHECK(c.deadline == kNoDeadline);
}

TEST_CASE("relative deadlines: stream before direction before the default, added to the arrival", "[deadline]") {
  DeadlineRule r;
  r.kind = DeadlineKind::Relative;
  r.relative_ms = 100;
  r.write_ms = 500;
  r.streams = {{7, 20}, {9, 0.000001}};
  DeadlineAssigner a{r};
  const Time arrival{123'456'789};
  auto deadline_of = [&](Op op, std::uint32_t stream) {
    Command c = cmd(op, stream, arrival);
    a.assign(c);
    return (c.deadline - arrival).count();
  };
  CHECK(deadline_of(Op::Read, 0) == 100 * kMs);  // no read_ms: the default
  CHECK(deadline_of(Op::Write, 0) == 500 * kMs);
  CHECK(deadline_of(Op::Read, 7) == 20 * kMs);  // the stream's, whatever the direction
  CHECK(deadline_of(Op::Write, 7) == 20 * kMs);
  CHECK(deadline_of(Op::Write, 9) == 1'000);  // 1 ns, rounded to the picosecond
  CHECK(deadline_of(Op::Read, 8) == 100 * kMs);
}

TEST_CASE("uniform and exponential deadlines: in range, right mean, same seed same sequence", "[deadline]") {
  DeadlineRule u;
  u.kind = DeadlineKind::Uniform;
  u.min_ms = 10;
  u.max_ms = 30;
  u.seed = 42;
  DeadlineAssigner a{u}, b{u};
  u.seed = 43;
  DeadlineAssigner other{u};
  double sum = 0;
  int differ = 0;
  constexpr int kN = 100'000;
  for (int i = 0; i < kN; ++i) {
    const Command c = cmd(Op::Read);
    const Time x = a.relative(c);
    REQUIRE(x >= Time{10 * kMs});
    REQUIRE(x <= Time{30 * kMs});
    REQUIRE(x == b.relative(c));
    if (other.relative(c) != x) ++differ;
    sum += static_cast<double>(x.count()) / kMs;
  }
  CHECK(std::abs(sum / kN - 20.0) < 0.1);  // standard error 20/sqrt(12 n) = 0.018 ms
  CHECK(differ > kN - 10);

  DeadlineRule e;
  e.kind = DeadlineKind::Exponential;
  e.mean_ms = 50;
  DeadlineAssigner ex{e};
  double esum = 0, esq = 0;
  for (int i = 0; i < kN; ++i) {
    const double x = static_cast<double>(ex.relative(cmd(Op::Write)).count()) / kMs;
    REQUIRE(x >= 0);
    esum += x;
    esq += x * x;
  }
  const double mean = esum / kN;
  CHECK(std::abs(mean - 50.0) < 0.6);                               // standard error 50/sqrt(n) = 0.16 ms
  CHECK(std::abs(std::sqrt(esq / kN - mean * mean) - 50.0) < 1.5);  // exponential: stddev = mean
}

TEST_CASE("deadline rule validation names the member and the range", "[deadline]") {
  DeadlineRule r;
  r.kind = DeadlineKind::Relative;
  r.relative_ms = 0;
  CHECK_THROWS_WITH(r.validate(),
                    Equals("deadline rule: relative_ms = 0 is out of range; allowed: (0, 1000000000] ms"));
  r.relative_ms = 5;
  r.min_ms = 40;
  r.max_ms = 30;
  CHECK_THROWS_WITH(r.validate(), Equals("deadline rule: min_ms = 40 is above max_ms = 30"));
  r.min_ms = 0;
  r.streams = {{3, 1}, {3, 2}};
  CHECK_THROWS_WITH(r.validate(), Equals("deadline rule: stream 3 is listed twice"));
  CHECK(parse_deadline_kind("edf") == std::nullopt);
  CHECK(parse_deadline_kind("exponential") == DeadlineKind::Exponential);
}

TEST_CASE("deadline checker: met at the deadline, missed one picosecond after, counts by direction and class",
          "[deadline]") {
  DeadlineChecker k;
  auto record = [](Op op, RequestClass cls, std::int64_t deadline_ps, std::int64_t completion_ps) {
    RequestRecord r;
    r.command.op = op;
    r.command.cls = cls;
    r.command.deadline = deadline_ps < 0 ? kNoDeadline : Time{deadline_ps};
    r.completion = Time{completion_ps};
    return r;
  };
  k.add(record(Op::Read, RequestClass::Discrete, 10 * kMs, 10 * kMs));      // exactly at: met, lateness 0
  k.add(record(Op::Read, RequestClass::Discrete, 10 * kMs, 10 * kMs + 1));  // 1 ps late: missed
  k.add(record(Op::Write, RequestClass::RealTime, 10 * kMs, 4 * kMs));      // 6 ms early
  k.add(record(Op::Write, RequestClass::RealTime, 10 * kMs, 13 * kMs));     // 3 ms late
  k.add(record(Op::Read, RequestClass::Discrete, -1, 99 * kMs));            // no deadline
  CHECK(k.all().requests == 4);
  CHECK(k.all().missed == 2);
  CHECK(k.without_deadline() == 1);
  CHECK(k.reads().requests == 2);
  CHECK(k.reads().missed == 1);
  CHECK(k.writes().missed == 1);
  CHECK(k.of_class(RequestClass::RealTime).requests == 2);
  CHECK(k.of_class(RequestClass::Continuous).requests == 0);
  const nlohmann::json j = k.to_json();
  CHECK(j["met"] == 2);
  CHECK(j["miss_ratio"] == 0.5);
  CHECK(j["by_op"]["write"]["miss_ratio"] == 0.5);
  CHECK(j["by_class"].size() == 2);
  CHECK(j["by_class"]["real_time"]["missed"] == 1);
  CHECK(j["lateness_ms"]["min"] == -6.0);
  CHECK(j["lateness_ms"]["max"] == 3.0);
  CHECK(std::abs(j["lateness_ms"]["mean"].get<double>() - (0 + 1e-9 - 6 + 3) / 4.0) < 1e-12);
  CHECK(j["tardiness_ms"]["max"] == 3.0);
  CHECK(std::abs(j["tardiness_ms"]["mean"].get<double>() - (3 + 1e-9) / 2) < 1e-12);

  DeadlineChecker none;
  none.add(record(Op::Read, RequestClass::Discrete, 10 * kMs, 1 * kMs));
  CHECK(none.to_json()["tardiness_ms"].is_null());
  CHECK(none.to_json()["miss_ratio"] == 0.0);
}

namespace {

std::vector<Command> read_trace(const std::string& name, const std::string& content, TraceFormat format) {
  const auto dir = std::filesystem::temp_directory_path() / ("drivevp_deadline_tests_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << content;
  TraceOptions o;
  o.paths = {path};
  o.format = format;
  o.capacity_blocks = std::uint64_t{1} << 40;
  auto src = open_trace(o, nullptr);
  std::vector<Command> out;
  SourceRequest r;
  while (src->next(r)) out.push_back(r.command);
  std::filesystem::remove_all(dir);
  return out;
}

}  // namespace

TEST_CASE("trace readers give each request its stream: the pid of blkparse and ftrace, else the device",
          "[deadline][trace]") {
  SECTION("blkparse: the pid column") {
    const auto v = read_trace("b.txt",
                              "  8,0    3        2     0.000001000   697  Q   W 223490 + 8 [kjournald]\n"
                              "  8,16   1        1     0.000020000   712  Q   R 1000 + 32 [dd]\n",
                              TraceFormat::Blkparse);
    REQUIRE(v.size() == 2);
    CHECK(v[0].stream == 697);
    CHECK(v[1].stream == 712);
  }
  SECTION("ftrace: the digits after the task name's last dash, also with dashes and blanks in the name") {
    const auto v =
        read_trace("f.txt",
                   "         sqlite3-31585   [001] d..1.  1301.917886:   7,0    Q  RA 270336 + 16 [sqlite3]\n"
                   " jbd2/loop0-8-31562   [000] d..1.  1301.918000:   7,0    Q  WS 100 + 8 [jbd2/loop0-8]\n"
                   "  kworker u8:1-32   [001] ....  1301.919000:   7,0    Q   W 200 + 8 [kworker]\n",
                   TraceFormat::Ftrace);
    REQUIRE(v.size() == 3);
    CHECK(v[0].stream == 31585);
    CHECK(v[1].stream == 31562);
    CHECK(v[2].stream == 32);
  }
  SECTION("UMass SPC: the ASU") {
    const auto v = read_trace("s.csv", "0,20941264,8192,W,0.551706\n3,20939840,8192,R,0.554041\n", TraceFormat::Spc);
    REQUIRE(v.size() == 2);
    CHECK(v[0].stream == 0);
    CHECK(v[1].stream == 3);
  }
  SECTION("DiskSim: the device number") {
    const auto v = read_trace("d.trace", "0.0 4 100 8 1\n1.0 14 200 8 0\n", TraceFormat::DiskSim);
    REQUIRE(v.size() == 2);
    CHECK(v[0].stream == 4);
    CHECK(v[1].stream == 14);
  }
}

TEST_CASE("the shipped sqlite ftrace trace has the sqlite3 and jbd2 processes as its main streams",
          "[deadline][trace]") {
  TraceOptions o;
  o.paths = {DRIVEVP_SOURCE_DIR "/traces/linux-ftrace-blk/sqlite-tpcb.blk.txt"};
  o.capacity_blocks = std::uint64_t{1} << 40;
  auto src = open_trace(o, nullptr);
  std::map<std::uint32_t, std::uint64_t> by_stream;
  SourceRequest r;
  while (src->next(r)) ++by_stream[r.command.stream];
  // From the trace's text (grep ' Q ' | field 1): sqlite3-31585 and jbd2/loop0-8-31562 issue
  // nearly all requests.
  REQUIRE(by_stream.count(31585) == 1);
  REQUIRE(by_stream.count(31562) == 1);
  CHECK(by_stream[31585] > 10'000);
  CHECK(by_stream[31562] > 5'000);
}
