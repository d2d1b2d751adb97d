// Request conservation and data integrity over a long mixed workload through the platform, and
// negative tests showing that the checkers (testbench/sim/checkers.h) do catch violations.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim_test_util.h"
#include "testbench/sim/checkers.h"

namespace drivevp {
namespace {

using namespace simtest;

TEST_CASE("sim: 100000 mixed reads and writes under SPTF conserve requests and data", "[sim][integrity]") {
  TempDir dir("integrity");
  // A small disk (20 cylinders x 19 heads x 72 sectors = 27,360 blocks) and Zipf addresses, so that
  // blocks are written, rewritten and read back many times; sizes 1-16 blocks cross track and
  // cylinder boundaries; 32 commands in flight reordered by SPTF.
  const RunResult r = run_platform(
      dir,
      synthetic_scenario("sptf",
                         "loop = \"closed\"\noutstanding = 32\naddress = \"zipf\"\nzipf_theta = 0.99\n"
                         "size = \"uniform\"\nsize_min_blocks = 1\nsize_max_blocks = 16\nread_fraction = 0.5\n",
                         "seed = 3\nrequests = 100000\ncheck_data = true\n"),
      {"device.cylinders=20"});  // firmware.queue_depth stays 64 (see the full-ring tests below)
  const nlohmann::json& s = r.summary;
  CHECK(r.checks_passed);
  CHECK(s["checks"]["passed"].get<bool>());
  CHECK(s["checks"]["data_checked"].get<bool>());
  CHECK(s["checks"]["conservation"]["violations"].get<std::uint64_t>() == 0);
  CHECK(s["checks"]["data_integrity"]["violations"].get<std::uint64_t>() == 0);
  CHECK(s["checks"]["media_errors"].get<std::uint64_t>() == 0);
  CHECK(s["requests"]["submitted"].get<std::uint64_t>() == 100000);
  CHECK(s["requests"]["completed"].get<std::uint64_t>() == 100000);
  CHECK(r.requests == 100000);
  // Memory bounded by the capacity (27,360 blocks = 7 pages of 4,096), the same as after 20,000
  // requests (test_media_store.cpp): one 4-byte id per block in the store and in the checker.
  CHECK(s["memory"]["media_store"]["mode"] == "compact");
  CHECK(s["memory"]["media_store"]["id_pages"].get<std::uint64_t>() == 7);
  CHECK(s["memory"]["media_store"]["raw_blocks"].get<std::uint64_t>() == 0);
  CHECK(s["memory"]["media_store"]["bytes"].get<std::uint64_t>() == 7 * 4096 * 4);
  CHECK(s["memory"]["integrity_checker"]["bytes"].get<std::uint64_t>() == 7 * 4096 * 4);

  // The workload really re-reads rewritten blocks: stream requests.csv (completion order = media
  // order), counting reads of blocks written earlier and blocks written more than once.
  std::ifstream csv(dir / "out" / "requests.csv");
  std::string line;
  REQUIRE(std::getline(csv, line));
  std::vector<std::uint32_t> writes(20 * 19 * 72, 0);
  std::uint64_t rows = 0, reads = 0, rereads = 0, rewrites = 0, bad = 0;
  std::set<std::uint64_t> ids;
  while (std::getline(csv, line) && !line.empty()) {
    std::istringstream ls(line);
    std::string id, op, lbn, blocks;
    std::getline(ls, id, ',');
    std::getline(ls, op, ',');
    std::getline(ls, lbn, ',');
    std::getline(ls, blocks, ',');
    ++rows;
    ids.insert(std::stoull(id));
    if (line.back() != '1') ++bad;  // data_ok is the last column
    const std::uint64_t first = std::stoull(lbn), n = std::stoull(blocks);
    REQUIRE(first + n <= writes.size());
    bool seen = false;
    for (std::uint64_t b = first; b < first + n; ++b) {
      if (op == "W") {
        if (writes[b]++ > 0) ++rewrites;
      } else {
        seen = seen || writes[b] > 0;
      }
    }
    if (op == "R") {
      ++reads;
      if (seen) ++rereads;
    }
  }
  CHECK(rows == 100000);
  REQUIRE(ids.size() == 100000);  // every id completed exactly once
  CHECK(*ids.rbegin() == 99999);
  CHECK(bad == 0);
  CHECK(reads > 45000);
  CHECK(reads < 55000);
  CHECK(rereads > 10000);
  CHECK(rewrites > 10000);
}

// Regression tests for a submission-queue ring that could not tell full from empty: with
// firmware.queue_depth entries and queue_depth commands submitted but not yet fetched, the SQ tail
// wrapped onto the firmware's SQ head and nothing was served. The rings now have queue_depth + 1
// entries (tlm_bus/sc/address_map.h, kRegQueueSize).
TEST_CASE("sim: Closed loop with outstanding equal to the queue depth completes every request",
          "[sim][integrity][queue]") {
  TempDir dir("full-closed");
  const RunResult r = run_platform(
      dir,
      synthetic_scenario("sptf",
                         "loop = \"closed\"\noutstanding = 32\naddress = \"uniform\"\nsize = \"constant\"\n"
                         "size_blocks = 1\nread_fraction = 0.5\n",
                         "seed = 3\nrequests = 2000\n"),
      {"firmware.queue_depth=32"});
  CHECK(r.summary["requests"]["submitted"].get<std::uint64_t>() == 2000);
  CHECK(r.summary["requests"]["completed"].get<std::uint64_t>() == 2000);
  CHECK(r.summary["checks"]["conservation"]["violations"].get<std::uint64_t>() == 0);
  CHECK(r.checks_passed);
}

TEST_CASE("sim: A burst of queue-depth requests arriving together is served", "[sim][integrity][queue]") {
  TempDir dir("full-burst");
  // 64 single-block reads at time 0 with the default queue depth 64 (open loop).
  std::string trace;
  for (int i = 0; i < 64; ++i) trace += disksim_line(0.0, static_cast<std::uint64_t>(i) * 5000, 1, true);
  write_text(dir / "burst.trace", trace);
  const RunResult r = run_platform(dir, trace_scenario(dir / "burst.trace", "fcfs"));
  CHECK(r.summary["scenario"]["firmware"]["queue_depth"].get<std::uint64_t>() == 64);
  CHECK(r.summary["requests"]["submitted"].get<std::uint64_t>() == 64);
  CHECK(r.summary["requests"]["completed"].get<std::uint64_t>() == 64);
  CHECK(r.checks_passed);
}

TEST_CASE("sim: The data-integrity checker reports a corrupted read", "[sim][integrity][checker]") {
  DataIntegrityChecker checker;
  Command w;
  w.id = 5;
  w.lbn = 100;
  w.blocks = 2;
  w.op = Op::Write;
  std::vector<std::uint8_t> buffer(2 * kBlockBytes);
  DataIntegrityChecker::fill_write(w, buffer.data());
  checker.write_completed(w);

  Command rd = w;
  rd.id = 6;
  rd.op = Op::Read;
  CHECK(checker.read_completed(rd, buffer.data()));  // intact
  CHECK(checker.violations().count() == 0);

  buffer[kBlockBytes + 17] ^= 0x40;  // one bit of block 101, word 2
  CHECK_FALSE(checker.read_completed(rd, buffer.data()));
  REQUIRE(checker.violations().count() == 1);
  const std::string& m = checker.violations().messages().at(0);
  CHECK(m.rfind("read 6 block 101: word 2 is ", 0) == 0);
  CHECK(m.find("(written by 5)") != std::string::npos);

  // An unwritten block must hold its own LBN in every word; a zeroed buffer does not.
  Command fresh;
  fresh.id = 7;
  fresh.lbn = 4000;
  fresh.blocks = 1;
  std::vector<std::uint8_t> zeros(kBlockBytes, 0);
  CHECK_FALSE(checker.read_completed(fresh, zeros.data()));
  CHECK(checker.violations().count() == 2);
  CHECK(checker.violations().messages().at(1).find("(never written)") != std::string::npos);
  // Stale data: a read after a second write must not return the first write's data.
  std::vector<std::uint8_t> old(2 * kBlockBytes);
  DataIntegrityChecker::fill_write(w, old.data());
  Command w2 = w;
  w2.id = 8;
  checker.write_completed(w2);
  Command rd2 = rd;
  rd2.id = 9;
  CHECK_FALSE(checker.read_completed(rd2, old.data()));
  CHECK(checker.violations().count() == 3);
}

TEST_CASE("sim: The conservation checker reports lost, duplicated and unknown completions",
          "[sim][integrity][checker]") {
  ConservationChecker checker(4);
  Command a;
  a.id = 0;
  a.tag = 0;
  Command b;
  b.id = 1;
  b.tag = 1;
  checker.submitted(a);
  checker.submitted(b);
  checker.completed(0, 0);
  CHECK(checker.violations().count() == 0);
  checker.completed(0, 0);  // completed twice
  CHECK(checker.violations().count() == 1);
  checker.completed(42, 2);  // never submitted
  CHECK(checker.violations().count() == 2);
  checker.finish();  // command 1 never completed; 2 submitted, 3 completions
  CHECK(checker.violations().count() == 4);
  CHECK(checker.violations().messages().at(2) == "command 1 (tag 1) never completed");
  CHECK(checker.violations().messages().at(3) == "2 commands submitted but 3 completions");
}

}  // namespace
}  // namespace drivevp
