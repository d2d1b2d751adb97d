// The drive firmware's timing features through the whole platform (docs/models/cache.md): host
// interface pacing, cache hits, read-ahead (finished, stopped by an arriving request, with a
// minimum), write-back with its later flush, and the 8 selected command overheads. Every expected
// time is derived here from the HP 97560's published parameters (../shared/reference/
// parameters.md), the scenario's feature keys and the bus accesses each step makes (10 ns each,
// RouterParams), not from the model under test.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

constexpr std::int64_t kSectors = 72;
/// 60 s / 4002 rpm, rounded to the nearest picosecond.
constexpr std::int64_t kPeriodPs = (60'000'000'000'000LL + 2001) / 4002;
constexpr std::int64_t kOverheadPs = 2'200'000'000;  // device.command_overhead_ms of the preset
constexpr std::int64_t kBus = 10'000;                // one bus access, ps
constexpr std::int64_t kMs = 1'000'000'000;

/// Cylinder 700, head 7, sector 0: LBN (700 * 19 + 7) * 72. Skew offset 700 * (18 * 8 + 18) +
/// 7 * 8 = 113456, so its slot is 113456 mod 72 = 56. Seek from cylinder 0: 8.00 + 0.008 * 700 =
/// 13.6 ms (the head switch to head 7, 1.6 ms, overlaps it). The track holds 72 blocks from here.
constexpr std::uint64_t kLbn = (700 * 19 + 7) * 72;
constexpr std::int64_t kSlot = 56;
constexpr std::int64_t kSeek700 = 13'600'000'000;

/// Start of angular slot s (s may pass 72: the next revolution's slots), floor(s * T / 72).
std::int64_t slot_start(std::int64_t s) { return s * kPeriodPs / kSectors; }
/// First time >= t at which slot `slot` starts under the head (spindle at phase 0 at time 0).
std::int64_t next_slot(std::int64_t t, std::int64_t slot) {
  const std::int64_t w = ((slot_start(slot) - t % kPeriodPs) % kPeriodPs + kPeriodPs) % kPeriodPs;
  return t + w;
}
/// When block j of a pass whose first sector (slot kSlot) is under the head at ts has passed.
std::int64_t block_end(std::int64_t ts, std::int64_t j) { return ts + slot_start(kSlot + j + 1) - slot_start(kSlot); }

/// A one-request-at-a-time read miss to kLbn from cylinder 0 on an idle drive, dispatched at
/// `dispatch` with overhead `overhead`: the feature path writes BUFFER_OFFSET/MARK (1 access) and
/// the seek burst (1); after the seek the IRQ_ACK burst and the transfer burst (2).
struct Miss {
  std::int64_t seek_start, seek_end, transfer_start;
};
Miss miss_to_klbn(std::int64_t dispatch, std::int64_t overhead) {
  Miss m{};
  m.seek_start = dispatch + overhead + 2 * kBus;
  m.seek_end = m.seek_start + kSeek700;
  m.transfer_start = next_slot(m.seek_end + 2 * kBus, kSlot);
  return m;
}

std::string line_ms(std::int64_t ps, std::uint64_t lbn, std::uint32_t blocks, bool read) {
  REQUIRE(ps % 1'000 == 0);  // the trace has nanosecond resolution
  return fmt::format("{}.{:09} 0 {} {} {}\n", ps / kMs, ps % kMs, lbn, blocks, read ? 1 : 0);
}

/// The timer's completion of a media read: BLOCKS_DONE (1), IRQ_ACK when the media read has ended
/// (1), the DMA to the host (DMI latency + one transaction: 2), the completion overhead, the
/// completion entry (1).
std::int64_t read_completion(std::int64_t data_end, bool media_ended, std::int64_t completion_overhead = 0) {
  return data_end + kBus + (media_ended ? kBus : 0) + 2 * kBus + completion_overhead + kBus;
}

RunResult run(const TempDir& dir, const std::string& trace, std::vector<std::string> keys) {
  write_text(dir / "t.trace", trace);
  return run_platform(dir, trace_scenario(dir / "t.trace", "fcfs"), std::move(keys));
}

// ---- Host interface ---------------------------------------------------------------------------

TEST_CASE("cache: an interface slower than the media paces a read from its first sector", "[sim][cache][interface]") {
  // 5 blocks, 0.5 ms a sector across the interface (the media passes one in 0.208 ms): the data
  // phase starts once block 0 is in the buffer plus the first reselect, then 5 x 0.5 ms.
  TempDir dir("if-slow");
  const RunResult r = run(dir, line_ms(0, kLbn, 5, true),
                          {"device.interface.read_sector_ms=0.5", "device.interface.first_reselect_ms=0.05",
                           "device.interface.read_completion_ms=0.081"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 1);
  const std::int64_t dispatch = 2 * kBus;
  const Miss m = miss_to_klbn(dispatch, kOverheadPs);
  const std::int64_t data_end = block_end(m.transfer_start, 0) + 50'000'000 + 5 * std::int64_t{500'000'000};
  CHECK(data_end > block_end(m.transfer_start, 4) + 500'000'000);  // paced by the interface
  CHECK(csv.ps(0, "dispatch_ms") == dispatch);
  CHECK(csv.ps(0, "seek_start_ms") == m.seek_start);
  CHECK(csv.ps(0, "seek_end_ms") == m.seek_end);
  CHECK(csv.ps(0, "transfer_start_ms") == m.transfer_start);
  CHECK(csv.ps(0, "transfer_end_ms") == block_end(m.transfer_start, 4));
  CHECK(csv.ps(0, "completion_ms") == read_completion(data_end, true, 81'000'000));
}

TEST_CASE("cache: an interface faster than the media is paced by the media (held bus)", "[sim][cache][interface]") {
  // 0.1 ms a sector: each block crosses as soon as it is in the buffer; the last one ends the
  // data phase 0.1 ms after it has passed under the head. The drive holds the bus meanwhile.
  TempDir dir("if-fast-hold");
  const RunResult r = run(dir, line_ms(0, kLbn, 5, true),
                          {"device.interface.read_sector_ms=0.1", "device.interface.hold_bus_read=true",
                           "device.interface.other_reselect_ms=0.02"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  CHECK(csv.ps(0, "transfer_start_ms") == m.transfer_start);
  CHECK(csv.ps(0, "completion_ms") == read_completion(block_end(m.transfer_start, 4) + 100'000'000, true));
}

TEST_CASE("cache: without holding the bus a media-paced read pays a reselect per sector", "[sim][cache][interface]") {
  // As above, but the drive disconnects whenever the next sector is not yet in the buffer and
  // pays the other reselect overhead (0.02 ms) before each of blocks 1..4 crosses.
  TempDir dir("if-fast-disconnect");
  const RunResult r = run(dir, line_ms(0, kLbn, 5, true),
                          {"device.interface.read_sector_ms=0.1", "device.interface.other_reselect_ms=0.02"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  CHECK(csv.ps(0, "completion_ms") == read_completion(block_end(m.transfer_start, 4) + 20'000'000 + 100'000'000, true));
}

TEST_CASE("cache: a read miss's data phase waits for the high water mark", "[sim][cache][interface][watermark]") {
  // As "an interface slower than the media ...", with a watermark of half the request (8 blocks:
  // 4): the drive reconnects once block 3 is in the buffer, not block 0. The media (0.208 ms a
  // sector) stays ahead of the 0.5 ms interface from there on.
  TempDir dir("if-watermark");
  const RunResult r = run(dir, line_ms(0, kLbn, 8, true),
                          {"device.interface.read_sector_ms=0.5", "device.interface.first_reselect_ms=0.05",
                           "device.cache.read_water_mark=0.5", "device.cache.watermark_by_request_size=true"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const std::int64_t connect = block_end(m.transfer_start, 3) + 50'000'000;
  for (std::int64_t j = 4; j < 8; ++j) CHECK(block_end(m.transfer_start, j) <= connect + j * 500'000'000);
  CHECK(csv.ps(0, "transfer_end_ms") == block_end(m.transfer_start, 7));
  CHECK(csv.ps(0, "completion_ms") == read_completion(connect + 8 * std::int64_t{500'000'000}, true));
}

TEST_CASE("cache: a data phase that ran dry reconnects at the watermark of a segment",
          "[sim][cache][interface][watermark]") {
  // 8 blocks, a 0.1 ms interface (faster than the media) without holding the bus, a watermark of
  // a quarter of an 8-block segment (2 blocks). Connect once blocks 0-1 are in (+ first reselect
  // 0.05): 0-2 cross; block 3 is not in yet: disconnect, reconnect once 3-4 are in (+ other
  // reselect 0.02): 3-5 cross; block 6 is not in: reconnect once 6-7 are in, both cross.
  TempDir dir("if-watermark-dry");
  const RunResult r = run(dir, line_ms(0, kLbn, 8, true),
                          {"device.interface.read_sector_ms=0.1", "device.interface.first_reselect_ms=0.05",
                           "device.interface.other_reselect_ms=0.02", "device.cache.segment_blocks=8",
                           "device.cache.read_water_mark=0.25"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const auto ready = [&](std::int64_t j) { return block_end(m.transfer_start, j); };
  const std::int64_t first = ready(1) + 50'000'000;  // blocks 0..2 cross from here
  CHECK(ready(2) <= first + 200'000'000);
  CHECK(ready(3) > first + 300'000'000);
  const std::int64_t second = ready(4) + 20'000'000;  // blocks 3..5
  CHECK(ready(5) <= second + 200'000'000);
  CHECK(ready(6) > second + 300'000'000);
  const std::int64_t third = ready(7) + 20'000'000;  // blocks 6..7
  CHECK(csv.ps(0, "completion_ms") == read_completion(third + 200'000'000, true));
}

TEST_CASE("cache: the data preparation overhead precedes each data phase", "[sim][cache][interface]") {
  // The read of "an interface slower than the media ..." with 0.03 ms of data preparation after
  // the first reselect; then the same 5 blocks 100 ms later as a full hit (one segment): the
  // preparation follows the command overhead, then 5 x 0.5 ms. No read-ahead (continuous_read
  // 0): the media read ends with block 4.
  TempDir dir("if-prep");
  const std::int64_t arrival = 100 * kMs;
  const RunResult r = run(dir, line_ms(0, kLbn, 5, true) + line_ms(arrival, kLbn, 5, true),
                          {"device.interface.read_sector_ms=0.5", "device.interface.first_reselect_ms=0.05",
                           "device.interface.data_prep_ms=0.03", "device.cache.enabled=true", "device.cache.segments=1",
                           "device.cache.continuous_read=0"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const std::int64_t data_end =
      block_end(m.transfer_start, 0) + 50'000'000 + 30'000'000 + 5 * std::int64_t{500'000'000};
  CHECK(csv.ps(0, "completion_ms") == read_completion(data_end, true));
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "completion_ms") == command + 30'000'000 + 5 * std::int64_t{500'000'000} + 2 * kBus + kBus);
}

/// A write-through write of `blocks` at kLbn from cylinder 0 on an idle drive, its command at
/// `command`: BUFFER_OFFSET, COUNT and the data DMA (4 accesses) and the seek burst (1); after the
/// seek the IRQ_ACK and transfer bursts (2) when the data is in by then.
Miss write_to_klbn(std::int64_t command) {
  Miss m{};
  m.seek_start = command + 5 * kBus;
  m.seek_end = m.seek_start + kSeek700;
  m.transfer_start = next_slot(m.seek_end + 2 * kBus, kSlot);
  return m;
}

TEST_CASE("cache: a write-through write reconnects after its media write", "[sim][cache][interface][write]") {
  // 4 blocks, 0.1 ms a sector across the interface (in long before the seek ends), then the media
  // write; the transfer-done handler's IRQ_ACK (1), the first reselect (0.05 ms) to reconnect,
  // the write completion overhead (0.03 ms), the completion entry (1). The disconnect after the
  // data (0.02 ms) ended long before.
  TempDir dir("write-reconnect");
  const RunResult r = run(dir, line_ms(0, kLbn, 4, false),
                          {"device.interface.write_sector_ms=0.1", "device.interface.first_reselect_ms=0.05",
                           "device.interface.write_completion_ms=0.03", "device.interface.write_reconnect=true",
                           "device.interface.write_disconnect_ms=0.02"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  const std::int64_t command = 2 * kBus + kOverheadPs;
  const Miss m = write_to_klbn(command);
  CHECK(csv.ps(0, "seek_start_ms") == m.seek_start);
  CHECK(csv.ps(0, "transfer_start_ms") == m.transfer_start);
  CHECK(csv.ps(0, "transfer_end_ms") == block_end(m.transfer_start, 3));
  CHECK(command + 4 * 100'000'000 + 20'000'000 < block_end(m.transfer_start, 3));
  CHECK(csv.ps(0, "completion_ms") == block_end(m.transfer_start, 3) + kBus + 50'000'000 + 30'000'000 + kBus);
}

/// device.write_settle_ms (DiskSim's "Add. write settling delay") on the feature path: a
/// write-through write of 4 blocks at kLbn from cylinder 0 seeks 13.6 ms + `settle_ps`, then
/// waits for kLbn's slot.
void check_write_settle(std::int64_t settle_ps, const std::string& key) {
  TempDir dir("write-settle");
  const RunResult w = run(dir, line_ms(0, kLbn, 4, false), {"device.interface.write_sector_ms=0.1", key});
  REQUIRE(w.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  const Miss m = write_to_klbn(2 * kBus + kOverheadPs);
  CHECK(csv.ps(0, "seek_start_ms") == m.seek_start);
  CHECK(csv.ps(0, "seek_end_ms") == m.seek_end + settle_ps);
  CHECK(csv.ps(0, "transfer_start_ms") == next_slot(m.seek_end + settle_ps + 2 * kBus, kSlot));
}

TEST_CASE("cache: a media write's seek adds a positive write settle", "[sim][cache][write]") {
  check_write_settle(500'000'000, "device.write_settle_ms=0.5");
}

TEST_CASE("cache: a media write's seek adds a negative write settle", "[sim][cache][write]") {
  check_write_settle(-500'000'000, "device.write_settle_ms=-0.5");
}

TEST_CASE("cache: a read's seek does not add the write settle", "[sim][cache][write]") {
  TempDir dir("read-settle");
  const RunResult r =
      run(dir, line_ms(0, kLbn, 4, true), {"device.interface.write_sector_ms=0.1", "device.write_settle_ms=0.5"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  CHECK(csv.ps(0, "seek_end_ms") == miss_to_klbn(2 * kBus, kOverheadPs).seek_end);
}

/// A write of 8 blocks at kLbn at 3.15 ms a sector across the interface (data in at command +
/// 25.2 ms, after the first pass of the first sector following the seek): where its media write
/// starts without the overlap (once all the data is in, the next pass) and with it (the first pass
/// on which each block's data is in when the block before it has passed; block i is in at command
/// + (i + 1) x 3.15 ms). A run with one or the other must start there and complete two accesses
/// (IRQ_ACK, completion entry) after the last block.
struct OverlapCase {
  std::int64_t waited = 0, pass = 0;
};
OverlapCase overlap_case() {
  const std::int64_t command = 2 * kBus + kOverheadPs;
  const std::int64_t sector = 3'150'000'000;
  const auto in = [&](std::int64_t i) { return command + (i + 1) * sector; };
  const Miss m = write_to_klbn(command);
  REQUIRE(in(7) > m.transfer_start);
  const auto ahead = [&](std::int64_t p) {
    bool ok = p >= in(0);
    for (std::int64_t i = 1; i < 8; ++i) ok = ok && block_end(p, i - 1) >= in(i);
    return ok;
  };
  OverlapCase c;
  c.pass = m.transfer_start;  // the first pass after the seek
  while (!ahead(c.pass)) c.pass += kPeriodPs;
  c.waited = next_slot(in(7) + kBus, kSlot);  // the timer's transfer burst (1)
  CHECK(c.pass < c.waited);                   // the overlap gains on this write
  return c;
}

void check_overlap_run(bool overlap) {
  const OverlapCase c = overlap_case();
  TempDir dir(overlap ? "write-overlap" : "write-no-overlap");
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, false),
          {"device.interface.write_sector_ms=3.15", fmt::format("device.interface.write_media_overlap={}", overlap)});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  CHECK(csv.ps(0, "seek_end_ms") == write_to_klbn(2 * kBus + kOverheadPs).seek_end);
  const std::int64_t start = overlap ? c.pass : c.waited;
  CHECK(csv.ps(0, "transfer_start_ms") == start);
  CHECK(csv.ps(0, "completion_ms") == block_end(start, 7) + kBus + kBus);
}

TEST_CASE("cache: a write-through write starts on the media while its data still crosses",
          "[sim][cache][interface][write]") {
  check_overlap_run(true);
}

TEST_CASE("cache: without the overlap a write-through write waits for all its data", "[sim][cache][interface][write]") {
  check_overlap_run(false);
}

/// InterfaceParams::write_fill_blocks (DiskSim 4.0 disk_buffer_block_available with "Extra write
/// disconnect"): a read of kLbn leaves the heads on its track; a write of `blocks` blocks at
/// kLbn + 10 on the same track follows (after a read: no extra disconnect of its own), no seek, at
/// 0.15 ms a block across the interface (faster than the media's 0.208 ms a sector, so each
/// block's own data is in by its sector once the first block's is). Its arrival puts the first
/// pass of its first sector 1 ms after its command time: block 0's data is in (0.15 ms), so
/// without the drive's fill the media write starts on that pass; with it, it starts there only if
/// min(blocks, 10) (below 45 blocks) or 15 blocks are in by then, else a revolution later.
void check_write_fill(std::uint32_t blocks, std::int64_t fill, bool extra) {
  const std::int64_t b = 150'000'000;
  const std::int64_t slot = kSlot + 10;
  // The command time is the arrival + 2 accesses + the preset's overhead; the seek (none) is done
  // after BUFFER_OFFSET, COUNT, the data DMA (2) and the seek burst (5 accesses), its IRQ_ACK burst
  // (1) and the transfer burst (1) follow: the first pass at or after command + 7 accesses.
  const std::int64_t want = slot_start(slot) - kMs - 7 * kBus + 7 * kPeriodPs;  // command + 7 kBus
  const std::int64_t arrival = (want - 2 * kBus - kOverheadPs) / 1'000 * 1'000;
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  const std::int64_t first = next_slot(command + 7 * kBus, slot);
  REQUIRE(first >= command + b);        // block 0's data is in on the first pass
  REQUIRE(first < command + fill * b);  // the fill is not
  REQUIRE(first + kPeriodPs >= command + fill * b);
  TempDir dir(fmt::format("write-fill-{}-{}", blocks, extra));
  std::vector<std::string> keys = {"device.interface.write_sector_ms=0.15",
                                   "device.interface.write_media_overlap=true"};
  if (extra) keys.push_back("device.interface.extra_write_disconnect=true");
  const RunResult r = run(dir, line_ms(0, kLbn, 1, true) + line_ms(arrival, kLbn + 10, blocks, false), keys);
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  CHECK(csv.u64(1, "seek_distance") == 0);
  CHECK(csv.ps(1, "seek_end_ms") == command + 5 * kBus);
  const std::int64_t start = extra ? first + kPeriodPs : first;
  const std::int64_t end = start + slot_start(slot + blocks) - slot_start(slot);
  CHECK(csv.ps(1, "transfer_start_ms") == start);
  CHECK(csv.ps(1, "transfer_end_ms") == end);
  CHECK(csv.ps(1, "completion_ms") == end + kBus + kBus);  // IRQ_ACK, completion entry
}

TEST_CASE("cache: without the extra write disconnect a write's media write needs only its own data",
          "[sim][cache][interface][write]") {
  check_write_fill(12, 10, false);  // on the first pass
}

TEST_CASE("cache: with the extra write disconnect a write's media write waits for 10 blocks",
          "[sim][cache][interface][write]") {
  check_write_fill(12, 10, true);  // 10 blocks are in 1.5 ms after the command: a revolution later
}

TEST_CASE("cache: with the extra write disconnect a write of 45 blocks or more waits for 15",
          "[sim][cache][interface][write]") {
  check_write_fill(50, 15, true);  // 15 blocks: 2.25 ms
}

TEST_CASE("cache: a write's seek lasts at least the minimum seek delay", "[sim][cache][write]") {
  // A read of kLbn leaves the heads on its track; a write to the same track 100 ms later needs no
  // seek, so its seek burst (after BUFFER_OFFSET, COUNT and the data DMA: 4 accesses) is issued
  // 0.6 ms later: the seek starts and ends then. A read's seek is not delayed.
  TempDir dir("min-seek");
  const std::int64_t arrival = 100 * kMs;
  const RunResult r = run(dir, line_ms(0, kLbn, 1, true) + line_ms(arrival, kLbn + 10, 1, false),
                          {"device.interface.write_sector_ms=0.1", "device.overheads.minimum_seek_delay_ms=0.6"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  CHECK(csv.ps(0, "seek_start_ms") == miss_to_klbn(2 * kBus, kOverheadPs).seek_start);
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  const std::int64_t seek = command + 5 * kBus + 600'000'000;
  CHECK(csv.u64(1, "seek_distance") == 0);
  CHECK(csv.ps(1, "seek_start_ms") == seek);
  CHECK(csv.ps(1, "seek_end_ms") == seek);
  CHECK(csv.ps(1, "transfer_start_ms") == next_slot(seek + 2 * kBus, kSlot + 10));
}

TEST_CASE("cache: a write after a write it does not continue makes the extra disconnect", "[sim][cache][write]") {
  // Three 4-block writes on kLbn's track: the first after no write (the preset's 2.2 ms overhead),
  // the second 20 blocks further (not where the first ended: the extra disconnect), the third
  // where the second ended (no extra disconnect). The second's media side waits command 0.6 +
  // seek delta 0.2 ms; its data crosses after disconnect 0.05 + inter-disconnect 0.4 + first
  // reselect 0.15 ms from the arrival's command part, i.e. 0.4 ms after its command time, 4 x 0.1
  // ms; its seek (none: same track) waits for it; after the media write it reconnects with the
  // other reselect (0.02 ms; its 2nd disconnect, 0.03 ms after the data, has ended).
  TempDir dir("extra-disconnect");
  const std::int64_t a2 = 100 * kMs, a3 = 200 * kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 4, false) + line_ms(a2, kLbn + 20, 4, false) + line_ms(a3, kLbn + 24, 4, false),
          {"device.interface.write_sector_ms=0.1", "device.interface.write_reconnect=true",
           "device.interface.first_reselect_ms=0.15", "device.interface.other_reselect_ms=0.02",
           "device.interface.extra_write_disconnect=true", "device.interface.extra_disconnect_command_ms=0.6",
           "device.interface.extra_disconnect_seek_delta_ms=0.2", "device.interface.extra_disconnect_overhead_ms=0.05",
           "device.interface.extra_disconnect_inter_delay_ms=0.4", "device.interface.extra_disconnect_second_ms=0.03"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  CHECK(csv.ps(0, "seek_start_ms") == write_to_klbn(2 * kBus + kOverheadPs).seek_start);
  const std::int64_t command2 = a2 + 2 * kBus + 800'000'000;
  const std::int64_t data_in2 = command2 + 400'000'000 + 4 * 100'000'000;
  CHECK(csv.ps(1, "seek_start_ms") == command2 + 5 * kBus);
  CHECK(csv.ps(1, "seek_end_ms") == command2 + 5 * kBus);
  const std::int64_t start2 = next_slot(data_in2 + kBus, kSlot + 20);  // the timer's transfer burst (1)
  const std::int64_t end2 = start2 + slot_start(kSlot + 24) - slot_start(kSlot + 20);
  CHECK(csv.ps(1, "transfer_start_ms") == start2);
  CHECK(csv.ps(1, "completion_ms") == end2 + kBus + 20'000'000 + kBus);
  CHECK(csv.ps(2, "seek_start_ms") == a3 + 2 * kBus + kOverheadPs + 5 * kBus);
}

// ---- Cache hits and read-ahead ------------------------------------------------------------------

TEST_CASE("cache: a full read hit is served from the buffer at the interface's rate", "[sim][cache][hit]") {
  // A miss reads the 5 blocks into the one segment (no read-ahead: continuous_read 0); the same
  // read 100 ms later is a full hit: overhead, 5 x 0.1 ms across the interface, DMA (2),
  // completion entry (1).
  TempDir dir("hit");
  const std::int64_t arrival = 100 * kMs;
  const RunResult r = run(dir, line_ms(0, kLbn, 5, true) + line_ms(arrival, kLbn, 5, true),
                          {"device.cache.enabled=true", "device.cache.segments=1", "device.cache.segment_blocks=256",
                           "device.cache.continuous_read=0", "device.interface.read_sector_ms=0.1"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  CHECK(csv.ps(0, "completion_ms") == read_completion(block_end(m.transfer_start, 4) + 100'000'000, true));
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "dispatch_ms") == arrival + 2 * kBus);
  CHECK(csv.ps(1, "seek_start_ms") == command);  // no media: the log's times are the command's
  CHECK(csv.ps(1, "transfer_end_ms") == command);
  CHECK(csv.u64(1, "seek_distance") == 0);
  CHECK(csv.ps(1, "completion_ms") == command + 5 * 100'000'000 + 2 * kBus + kBus);
  CHECK(csv.at(1, "data_ok") == "1");
}

/// The cache of the read-ahead tests: one 256-block segment, 64 blocks read ahead past the
/// request, no interface time.
std::vector<std::string> read_ahead_keys(std::vector<std::string> more = {}) {
  std::vector<std::string> k = {"device.cache.enabled=true", "device.cache.segments=1",
                                "device.cache.segment_blocks=256", "device.cache.max_read_ahead=64",
                                "device.cache.read_ahead_over_requested=true"};
  k.insert(k.end(), more.begin(), more.end());
  return k;
}

TEST_CASE("cache: a sequential read after a finished read-ahead is a hit", "[sim][cache][read-ahead]") {
  // 8 blocks at sector 0 of the track: the media read goes on to block 72 (8 + 64 read ahead,
  // exactly the track) after the command completes at block 7's end (BLOCKS_DONE (1), DMA (2),
  // entry (1); the read-ahead goes on, so no IRQ_ACK). The next 8 blocks, 100 ms later, are in
  // the buffer: a full hit, no media.
  TempDir dir("ra-finished");
  const std::int64_t arrival = 100 * kMs;
  const RunResult r = run(dir, line_ms(0, kLbn, 8, true) + line_ms(arrival, kLbn + 8, 8, true), read_ahead_keys());
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  CHECK(csv.ps(0, "transfer_end_ms") == block_end(m.transfer_start, 7));
  CHECK(csv.ps(0, "completion_ms") == read_completion(block_end(m.transfer_start, 7), false));
  CHECK(block_end(m.transfer_start, 71) < arrival);  // the read-ahead had time to finish
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command);
  CHECK(csv.ps(1, "completion_ms") == command + 2 * kBus + kBus);
}

/// The command time of a read that arrived while a read-ahead ran (its doorbell handler fetched it:
/// 2 accesses, then dispatched it: not a full hit, it stops the read-ahead) once the read-ahead has
/// stopped and its interrupt handler has run (`stopped`): its overhead ran from the dispatch
/// (DiskSim's overhead_done counts from the arrival), so it starts at the later of the two.
std::int64_t command_after_stop(std::int64_t arrival, std::int64_t stopped) {
  return std::max(stopped, arrival + 2 * kBus + kOverheadPs);
}

TEST_CASE("cache: a read of blocks the read-ahead has read is a hit while the read-ahead goes on",
          "[sim][cache][read-ahead]") {
  // DiskSim's access swap (disk_buffer_stopable_access, disk_buffer_attempt_access_swap): the
  // second read (blocks 8..15) arrives 5 ms after the first one's media read began, its blocks
  // passed, the read-ahead not finished. Doorbell and submission fetch (2); the controller
  // dispatches it at once; the firmware reads BLOCKS_DONE (within the overhead): a full hit,
  // served after its overhead while the read-ahead goes on. It raises the segment's read-ahead
  // target to its end + 64 = block 80, past the pass's end (72): the firmware extends the pass
  // (EXTEND (1)), then DMA (2), entry (1). The third read (blocks 64..71), after the read-ahead's
  // end, is a hit too: the read-ahead was not stopped.
  TempDir dir("ra-swap");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const std::int64_t arrival = (m.transfer_start / 1'000 + 1) * 1'000 + 5 * kMs;
  const std::int64_t third = arrival + 20 * kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(arrival, kLbn + 8, 8, true) + line_ms(third, kLbn + 64, 8, true),
          read_ahead_keys());
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  REQUIRE(block_end(m.transfer_start, 15) < arrival);     // its blocks have passed
  REQUIRE(block_end(m.transfer_start, 71) > arrival);     // the read-ahead runs
  REQUIRE(block_end(m.transfer_start, 71) < third);       // and has ended when the third read arrives
  CHECK(csv.ps(1, "dispatch_ms") == arrival + 2 * kBus);  // not kept waiting
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command);  // a hit, at its exact time
  CHECK(csv.ps(1, "completion_ms") == command + 4 * kBus);
  const std::int64_t command3 = third + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(2, "seek_start_ms") == command3);  // a hit on the read-ahead's last blocks
  CHECK(csv.ps(2, "completion_ms") == command3 + 3 * kBus);
  for (std::size_t i = 0; i < csv.size(); ++i) CHECK(csv.at(i, "data_ok") == "1");
}

TEST_CASE("cache: the minimum read-ahead is read before an arriving request stops it", "[sim][cache][read-ahead]") {
  // With device.cache.min_read_ahead = 40, a read of blocks 20..39 arriving 2 ms into the pass
  // (block 20 not yet read: neither a full hit nor a read joining the pass) stops the read-ahead
  // no earlier than block 8 + 40 - 1 = 47 has passed (a firmware timer then writes STOP in sector,
  // 10 ns later, inside block 48). The read is dispatched at once, its overhead running meanwhile;
  // after the stop it is a full hit.
  TempDir dir("ra-minimum");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const std::int64_t arrival = (m.transfer_start / 1'000 + 1) * 1'000 + 2 * kMs;
  const RunResult r = run(dir, line_ms(0, kLbn, 8, true) + line_ms(arrival, kLbn + 20, 20, true),
                          read_ahead_keys({"device.cache.min_read_ahead=40"}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  REQUIRE(block_end(m.transfer_start, 20) > arrival + 3 * kBus);  // block 20 not read when it arrives
  CHECK(csv.ps(1, "dispatch_ms") == arrival + 2 * kBus);
  // The STOP (in sector: at once, DiskSim's prefetch swap at block 47's end) takes effect 10 ns
  // into block 48, which is not read; then the transfer burst and BLOCKS_DONE.
  const std::int64_t stopped = block_end(m.transfer_start, 47) + kBus + 2 * kBus;
  // Its overhead (2.2 ms) ran out while the minimum read-ahead was read: the hit starts at once.
  CHECK(command_after_stop(arrival, stopped) == stopped);
  CHECK(csv.ps(1, "seek_start_ms") == stopped);
  CHECK(csv.ps(1, "completion_ms") == stopped + 3 * kBus);
}

/// DiskSim 4.0 disk_buffer_stopable_access / disk_check_hda ("Disconnect in seek" 0): a read-ahead
/// stopped while its heads switch to the next track completes the switch (disk_seek_stoptime), and
/// the command's seek waits for the rest of its overhead *plus* the rest of the switch, both from
/// its arrival; stopped in a block, it stops at once with "Stop prefetch in sector", else at the
/// block's end, the wait added the same way. Blocks 60..67 of the track at kLbn (slots 116..): the
/// read-ahead (64 blocks) passes block 71, the track's last, at E, then switches to head 8 (1.6 ms,
/// shorter than the 8-sector skew). A one-block miss to cylinder 600 arrives `after` ps past block
/// 60 + `block`'s end; returns its seek start and that block's end time, 0: E (block 71's).
struct StopCase {
  std::int64_t dispatch, seek_start;
};
std::int64_t stop_block_end(std::int64_t j) {
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const std::int64_t ts = next_slot(m.seek_end + 2 * kBus, kSlot + 60);  // block 60's slot
  return ts + slot_start(kSlot + 60 + j + 1) - slot_start(kSlot + 60);
}
StopCase stop_case(const char* name, bool in_sector, std::int64_t j, std::int64_t after) {
  TempDir dir(name);
  const std::int64_t arrival = (stop_block_end(j) / 1'000 + 1) * 1'000 + after;
  const std::uint64_t other = kLbn - 100 * 19 * 72;  // cylinder 600, head 7, sector 0
  const RunResult r = run(dir, line_ms(0, kLbn + 60, 8, true) + line_ms(arrival, other, 1, true),
                          read_ahead_keys({fmt::format("device.cache.stop_prefetch_in_sector={}", in_sector)}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  REQUIRE(csv.ps(0, "completion_ms") < arrival);
  CHECK(csv.ps(1, "dispatch_ms") == arrival + 2 * kBus);  // the stop is asked for here
  return {arrival + 2 * kBus, csv.ps(1, "seek_start_ms")};
}

TEST_CASE("cache: a read-ahead stopped in a head switch delays the command's seek by the switch's rest",
          "[sim][cache][read-ahead][stop]") {
  constexpr std::int64_t kSwitch = 1'600'000'000;
  const std::int64_t e = stop_block_end(11);  // block 71's end: the switch to head 8 starts
  const StopCase c = stop_case("ra-stop-switch", true, 11, 500'000'000);
  REQUIRE(c.dispatch < e + kSwitch);
  // Overhead's end + (the switch's end - the stop's time: the STOP write, one bus access after the
  // dispatch), then BUFFER_OFFSET/MARK and the seek burst.
  CHECK(c.seek_start == c.dispatch + kOverheadPs + (e + kSwitch - (c.dispatch + kBus)) + 2 * kBus);
}

TEST_CASE("cache: a read-ahead stopped in a block stops at once with stop prefetch in sector",
          "[sim][cache][read-ahead][stop]") {
  const StopCase c = stop_case("ra-stop-block-1", true, 9, 50'000'000);  // inside block 70
  REQUIRE(c.dispatch < stop_block_end(10));
  CHECK(c.seek_start == c.dispatch + kOverheadPs + 2 * kBus);
}

TEST_CASE("cache: a read-ahead stopped in a block goes on to its end without stop prefetch in sector",
          "[sim][cache][read-ahead][stop]") {
  const StopCase c = stop_case("ra-stop-block-0", false, 9, 50'000'000);  // inside block 70, not read
  REQUIRE(c.dispatch < stop_block_end(10));
  CHECK(c.seek_start == c.dispatch + kOverheadPs + (stop_block_end(10) - (c.dispatch + kBus)) + 2 * kBus);
}

TEST_CASE("cache: a read starting in the running read-ahead's blocks joins it", "[sim][cache][read-ahead][join]") {
  // DiskSim 4.0 merges a read whose first block the read-ahead's segment holds with the running
  // access (disk_buffer_stopable_access; disk_read_arrive serves it with the read hit overhead).
  // The second read (blocks 8..39) arrives 2 ms into the first one's media read: blocks 0..k-1
  // (k > 8) are read, block 39 is not; the pass (to block 71) reads the rest. Overheads selected:
  // read miss 2.2 ms (the first read, as the preset's), read hit 1 ms. The second read is
  // dispatched at once; its command starts after the hit overhead (its log's times are the
  // command's: no media access of its own); its data crosses once block 39 has passed (no
  // interface time; BLOCKS_DONE (1), DMA (2), entry (1)); the read-ahead goes on. Joining, the
  // second read raises the segment's read-ahead target to its end + 64 = block 104 (the region:
  // 256 + 64 blocks): the firmware extends the pass there (EXTEND, at the command's start, before
  // the data phase's timer). The third read (blocks 96..103, past the first pass's end, block 72),
  // after the extended pass's end, is a full hit: the pass read them.
  TempDir dir("ra-join");
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  const std::int64_t arrival = (m.transfer_start / 1'000 + 1) * 1'000 + 2 * kMs;
  const std::int64_t third = arrival + 60 * kMs;
  const std::int64_t hit_overhead = kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(arrival, kLbn + 8, 32, true) + line_ms(third, kLbn + 96, 8, true),
          read_ahead_keys({"device.overheads.enabled=true", "device.overheads.read_miss_after_read_ms=2.2",
                           "device.overheads.read_hit_after_read_ms=1", "run.check_data=true"}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  REQUIRE(block_end(m.transfer_start, 8) < arrival);                    // its first block is read
  REQUIRE(block_end(m.transfer_start, 39) > arrival + 2 * kBus + kMs);  // its last is not, at its command
  // Blocks 72..103 on the next track (head 8), after a head switch: 2 revolutions bound the pass.
  REQUIRE(m.transfer_start + 2 * kPeriodPs + 2 * kMs < third);  // the extended pass has ended
  CHECK(csv.ps(0, "transfer_start_ms") == m.transfer_start);
  CHECK(csv.ps(1, "dispatch_ms") == arrival + 2 * kBus);
  const std::int64_t command = arrival + 2 * kBus + hit_overhead;
  CHECK(csv.ps(1, "seek_start_ms") == command);
  CHECK(csv.ps(1, "transfer_end_ms") == command);
  CHECK(csv.ps(1, "completion_ms") == read_completion(block_end(m.transfer_start, 39), false));
  const std::int64_t command3 = third + 2 * kBus + hit_overhead;
  CHECK(csv.ps(2, "seek_start_ms") == command3);  // a hit on the extended pass's last blocks
  CHECK(csv.ps(2, "transfer_end_ms") == command3);
  CHECK(csv.ps(2, "completion_ms") == command3 + 3 * kBus);
  for (std::size_t i = 0; i < csv.size(); ++i) CHECK(csv.at(i, "data_ok") == "1");
}

TEST_CASE("cache: hits during and after a read-ahead return the media's bytes", "[sim][cache][read-ahead][data]") {
  // The channel fills a read's requested blocks (MARK) when they have passed, the read-ahead's
  // blocks when the firmware reads BLOCKS_DONE and when the pass ends: the hits must return the
  // written data (run.check_data: every write carries its pattern, every read is checked). A write
  // puts blocks 8..15 and 72..79 of the area on the media (write-through, heads left on kLbn's
  // track); a read of blocks 0..7 at 100 ms misses and reads ahead 64 blocks; blocks 8..15 arrive
  // 5 ms into its pass and hit while the read-ahead goes on (their bytes put in the buffer by the
  // BLOCKS_DONE read at their arrival); that hit raises the read-ahead's target to block 80 (its
  // end + 64): the pass is extended (EXTEND (1), then DMA (2), entry (1)) over blocks 72..79 on the
  // next track. Blocks 64..71 at 300 ms hit the finished read-ahead; blocks 72..79 at 500 ms hit
  // too, their bytes read by the extended pass.
  TempDir dir("ra-data");
  const std::int64_t read_at = 100 * kMs;
  // Heads on the track already: the seek burst's seek is 0 (as in the partial-hit case above).
  const std::int64_t dispatch = read_at + 2 * kBus;
  const std::int64_t ts = next_slot(dispatch + kOverheadPs + 4 * kBus, kSlot);
  const std::int64_t arrival = (ts / 1'000 + 1) * 1'000 + 5 * kMs;
  const RunResult r = run(dir,
                          line_ms(0, kLbn + 8, 8, false) + line_ms(20 * kMs, kLbn + 72, 8, false) +
                              line_ms(read_at, kLbn, 8, true) + line_ms(arrival, kLbn + 8, 8, true) +
                              line_ms(300 * kMs, kLbn + 64, 8, true) + line_ms(500 * kMs, kLbn + 72, 8, true),
                          read_ahead_keys({"run.check_data=true"}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 6);
  CHECK(csv.ps(2, "transfer_start_ms") == ts);
  REQUIRE(block_end(ts, 15) < arrival);
  REQUIRE(block_end(ts, 71) > arrival + 3 * kBus);
  const std::int64_t command = arrival + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(3, "seek_start_ms") == command);  // a hit during the read-ahead
  CHECK(csv.ps(3, "completion_ms") == command + 4 * kBus);
  const std::int64_t command4 = 300 * kMs + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(4, "seek_start_ms") == command4);  // a hit on the finished read-ahead
  CHECK(csv.ps(4, "completion_ms") == command4 + 3 * kBus);
  const std::int64_t command5 = 500 * kMs + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(5, "seek_start_ms") == command5);  // a hit on the extended pass's blocks
  CHECK(csv.ps(5, "completion_ms") == command5 + 3 * kBus);
  for (std::size_t i = 0; i < csv.size(); ++i) CHECK(csv.at(i, "data_ok") == "1");
}

TEST_CASE("cache: a segment's read-ahead wraps around its buffer ring and hits return the media's bytes",
          "[sim][cache][read-ahead][ring][data]") {
  // Segments of 16 blocks with 16 of read-ahead: each segment's buffer region is a ring of 32
  // blocks (DiskSim 4.0's segments wrap in the buffer). A read of blocks 0..7 misses and reads
  // ahead to block 24. A read of 20..27 at 100 ms is a partial hit (20..23): its media read, 24..27
  // and read-ahead to 28 + 16 = 44, passes the region's end (block 32 from the segment's start)
  // and wraps to its start (blocks 32..43 at the ring's blocks 0..11). A read of 28..39 at 300 ms
  // is then a full hit whose blocks wrap around the ring: two DMA transfers (DMI latency + one
  // transaction each: 4), the entry (1). run.check_data checks every read's bytes.
  TempDir dir("ra-ring");
  const std::int64_t third = 300 * kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(100 * kMs, kLbn + 20, 8, true) + line_ms(third, kLbn + 28, 12, true),
          {"device.cache.enabled=true", "device.cache.segments=1", "device.cache.segment_blocks=16",
           "device.cache.max_read_ahead=16", "device.cache.read_ahead_over_requested=true", "run.check_data=true"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  CHECK(csv.ps(1, "transfer_start_ms") > 100 * kMs);  // a media read for 24..27
  const std::int64_t command3 = third + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(2, "seek_start_ms") == command3);  // a full hit: no media
  CHECK(csv.ps(2, "transfer_end_ms") == command3);
  CHECK(csv.ps(2, "completion_ms") == command3 + 5 * kBus);
  for (std::size_t i = 0; i < csv.size(); ++i) CHECK(csv.at(i, "data_ok") == "1");
}

TEST_CASE("cache: the DEC read-ahead reads to the track's end and keeps the segment's last blocks",
          "[sim][cache][read-ahead]") {
  // device.cache.continuous_read = 4 (DiskSim's BUFFER_DEC_PREFETCH_SCHEME), one 16-block
  // segment. Read 1: 8 blocks from sector 20 of kLbn's 72-block track; the media read goes on to
  // the track's end (sector 71), the segment keeps sectors 56..71. Read 2 (sectors 28..31, right
  // after read 1) is no longer in the segment: a miss on the same track (no seek), waiting for
  // sector 28's slot. Read 3 (sectors 68..71) is in the segment read 2 refilled: a full hit.
  TempDir dir("ra-dec");
  const std::int64_t second = 100 * kMs;
  const std::int64_t third = 200 * kMs;
  const RunResult r = run(
      dir, line_ms(0, kLbn + 20, 8, true) + line_ms(second, kLbn + 28, 4, true) + line_ms(third, kLbn + 68, 4, true),
      {"device.cache.enabled=true", "device.cache.segments=1", "device.cache.segment_blocks=16",
       "device.cache.max_read_ahead=64", "device.cache.continuous_read=4"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  // Read 1: the miss's seek, then sector 20's slot; its 8 blocks have passed at sector 27's end.
  const Miss m = miss_to_klbn(2 * kBus, kOverheadPs);
  CHECK(csv.ps(0, "seek_end_ms") == m.seek_end);
  const std::int64_t ts1 = next_slot(m.seek_end + 2 * kBus, kSlot + 20);
  CHECK(csv.ps(0, "transfer_start_ms") == ts1);
  const std::int64_t end1 = ts1 + slot_start(kSlot + 28) - slot_start(kSlot + 20);
  CHECK(csv.ps(0, "transfer_end_ms") == end1);
  CHECK(csv.ps(0, "completion_ms") == read_completion(end1, false));      // the read-ahead goes on
  CHECK(ts1 + slot_start(kSlot + 72) - slot_start(kSlot + 20) < second);  // and reached the track's end
  // Read 2: a miss (BUFFER_OFFSET/MARK and the seek burst, 2 accesses), no arm movement.
  const std::int64_t seek2 = second + 2 * kBus + kOverheadPs + 2 * kBus;
  CHECK(csv.ps(1, "seek_start_ms") == seek2);
  CHECK(csv.ps(1, "seek_end_ms") == seek2);
  CHECK(csv.u64(1, "seek_distance") == 0);
  const std::int64_t ts2 = next_slot(seek2 + 2 * kBus, kSlot + 28);
  CHECK(csv.ps(1, "transfer_start_ms") == ts2);
  const std::int64_t end2 = ts2 + slot_start(kSlot + 32) - slot_start(kSlot + 28);
  CHECK(csv.ps(1, "transfer_end_ms") == end2);
  CHECK(csv.ps(1, "completion_ms") == read_completion(end2, false));
  // Read 3: a full hit, no media (the log's times are the command's).
  const std::int64_t command3 = third + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(2, "seek_start_ms") == command3);
  CHECK(csv.ps(2, "transfer_end_ms") == command3);
  CHECK(csv.ps(2, "completion_ms") == command3 + 3 * kBus);
  CHECK(csv.at(0, "data_ok") == "1");
  CHECK(csv.at(1, "data_ok") == "1");
  CHECK(csv.at(2, "data_ok") == "1");
}

TEST_CASE("cache: without the DEC read-ahead the same sequential read is a hit", "[sim][cache][read-ahead]") {
  // The sequence of the test above with continuous_read left at 3 and 4 blocks of read-ahead past
  // the request (sectors 20..31 fill 12 of the 16-block segment): read 2 (sectors 28..31) is in
  // the segment.
  TempDir dir("ra-count");
  const std::int64_t second = 100 * kMs;
  const RunResult r = run(dir, line_ms(0, kLbn + 20, 8, true) + line_ms(second, kLbn + 28, 4, true),
                          {"device.cache.enabled=true", "device.cache.segments=1", "device.cache.segment_blocks=16",
                           "device.cache.max_read_ahead=4"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t command2 = second + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command2);
  CHECK(csv.ps(1, "completion_ms") == command2 + 3 * kBus);
}

/// A write-through write of 4 blocks at kLbn, then, 100 ms later, a read of the same blocks.
std::string write_then_read() { return line_ms(0, kLbn, 4, false) + line_ms(100 * kMs, kLbn, 4, true); }
std::vector<std::string> write_data_keys(std::vector<std::string> more = {}) {
  std::vector<std::string> k = {"device.cache.enabled=true", "device.cache.segments=1",
                                "device.cache.segment_blocks=64"};
  k.insert(k.end(), more.begin(), more.end());
  return k;
}

TEST_CASE("cache: without read hits on write data a read of just-written blocks goes to the media",
          "[sim][cache][hit]") {
  // With device.cache.read_hits_on_write_data = false (DiskSim "Allow read hits on write data" =
  // 0) the read is a miss: BUFFER_OFFSET/MARK and the seek burst (2 accesses); the arm is on the
  // track (no seek), the channel waits for kLbn's slot and reads the 4 blocks (no read-ahead);
  // the data phase ends when block 3 has passed (no read-ahead: continuous_read 0).
  TempDir dir("write-data-off");
  const RunResult r =
      run(dir, write_then_read(),
          write_data_keys({"device.cache.read_hits_on_write_data=false", "device.cache.continuous_read=0"}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t seek = 100 * kMs + 2 * kBus + kOverheadPs + 2 * kBus;
  CHECK(csv.ps(1, "seek_start_ms") == seek);
  CHECK(csv.ps(1, "seek_end_ms") == seek);
  const std::int64_t ts = next_slot(seek + 2 * kBus, kSlot);
  CHECK(csv.ps(1, "transfer_start_ms") == ts);
  CHECK(csv.ps(1, "transfer_end_ms") == block_end(ts, 3));
  CHECK(csv.ps(1, "completion_ms") == read_completion(block_end(ts, 3), true));
  CHECK(csv.at(1, "data_ok") == "1");
}

TEST_CASE("cache: with read hits on write data a read of just-written blocks is a hit", "[sim][cache][hit]") {
  // The same sequence with the default: the read is served from the segment the write filled.
  TempDir dir("write-data-on");
  const RunResult r = run(dir, write_then_read(), write_data_keys());
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t command = 100 * kMs + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command);
  CHECK(csv.ps(1, "completion_ms") == command + 3 * kBus);
}

// ---- Write-back -----------------------------------------------------------------------------

TEST_CASE("cache: a write-back write completes from the buffer and is flushed when the drive is idle",
          "[sim][cache][write-back]") {
  // Write 4 blocks at kLbn (fast write level 2, 0.1 ms a sector across the interface, write
  // completion overhead 0.05 ms): BUFFER_OFFSET, COUNT, the data DMA (4 accesses) while the data
  // crosses in 0.4 ms; completion 0.05 ms later (+ the entry). Then, idle, the firmware flushes:
  // BUFFER_OFFSET, COUNT, seek burst (3), seek 13.6 ms, IRQ_ACK and transfer bursts (2), the
  // write of the 4 blocks. A read of the same blocks arriving at 5 ms waits for the flush (the
  // flush's interrupt handler reads the transfer burst (1) and dispatches) and is a hit on the
  // write data; its overhead ran from its arrival, during the flush (DiskSim's overhead_done).
  TempDir dir("write-back");
  const std::int64_t read_arrival = 5 * kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 4, false) + line_ms(read_arrival, kLbn, 4, true),
          {"device.cache.enabled=true", "device.cache.separate_write_segment=true", "device.cache.fast_write_level=2",
           "device.interface.write_sector_ms=0.1", "device.interface.write_completion_ms=0.05"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t command = 2 * kBus + kOverheadPs;
  const std::int64_t completion = command + 4 * 100'000'000 + 50'000'000 + kBus;
  CHECK(csv.ps(0, "seek_start_ms") == command);
  CHECK(csv.ps(0, "completion_ms") == completion);
  const std::int64_t flush_seek_start = completion + 3 * kBus;
  const std::int64_t flush_start = next_slot(flush_seek_start + kSeek700 + 2 * kBus, kSlot);
  const std::int64_t flush_end = block_end(flush_start, 3);
  REQUIRE(flush_end > read_arrival);
  CHECK(csv.ps(1, "dispatch_ms") == flush_end + kBus);
  REQUIRE(read_arrival + 2 * kBus + kOverheadPs < flush_end);
  const std::int64_t read_command = flush_end + kBus;
  CHECK(csv.ps(1, "seek_start_ms") == read_command);  // a hit on the write data
  CHECK(csv.ps(1, "completion_ms") == read_command + 3 * kBus);
  CHECK(csv.at(1, "data_ok") == "1");
}

/// The write-back write of the test above (4 blocks at kLbn, fast write level 2), then a read miss of
/// blocks 8..15 of the same track (not in the cache) arriving at `arrival`, during the idle flush.
/// The flush is not interrupted, but the read's overhead (2.2 ms) runs from its arrival, as
/// DiskSim's overhead_done (disk_read_arrive; disk_check_hda delays the seek by what is left of it
/// once the flush has released the heads): its media access starts at the later of the flush's end
/// (its interrupt handler reads the transfer burst (1) and dispatches the read) and the overhead's
/// end, then BUFFER_OFFSET/MARK and seek bursts (2), a seek of 0. Returns the read's seek start.
struct FlushTimes {
  std::int64_t completion, flush_end;
};
FlushTimes flush_times() {
  const std::int64_t completion = 2 * kBus + kOverheadPs + 4 * 100'000'000 + 50'000'000 + kBus;
  const std::int64_t flush_start = next_slot(completion + 3 * kBus + kSeek700 + 2 * kBus, kSlot);
  return {completion, block_end(flush_start, 3)};
}
std::int64_t read_seek_after_flush(const char* name, std::int64_t arrival) {
  TempDir dir(name);
  const RunResult r =
      run(dir, line_ms(0, kLbn, 4, false) + line_ms(arrival, kLbn + 8, 8, true),
          {"device.cache.enabled=true", "device.cache.separate_write_segment=true", "device.cache.fast_write_level=2",
           "device.interface.write_sector_ms=0.1", "device.interface.write_completion_ms=0.05"});
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const FlushTimes f = flush_times();
  CHECK(csv.ps(0, "completion_ms") == f.completion);
  CHECK(csv.ps(1, "dispatch_ms") == f.flush_end + kBus);  // dispatched once the flush has ended
  CHECK(csv.ps(1, "seek_end_ms") == csv.ps(1, "seek_start_ms"));
  CHECK(csv.at(1, "data_ok") == "1");
  return csv.ps(1, "seek_start_ms");
}

TEST_CASE("cache: a command arriving early in a write-back flush has spent its overhead when it ends",
          "[sim][cache][write-back][overheads]") {
  // Arriving 5 ms in, its overhead ends before the flush does: the seek follows the flush's
  // handler. Before this rule the whole overhead followed the flush.
  const FlushTimes f = flush_times();
  const std::int64_t arrival = 5 * kMs;
  REQUIRE(arrival + 2 * kBus + kOverheadPs < f.flush_end);
  CHECK(read_seek_after_flush("flush-overhead-early", arrival) == f.flush_end + kBus + 2 * kBus);
}

TEST_CASE("cache: a command arriving late in a write-back flush spends the rest of its overhead after it",
          "[sim][cache][write-back][overheads]") {
  // Arriving 1 ms before the flush's end, 1.2 ms of its overhead is left then: the seek starts at
  // its arrival (+ fetch (2)) + 2.2 ms + the bursts (2).
  const FlushTimes f = flush_times();
  const std::int64_t arrival = (f.flush_end - kMs) / 1'000 * 1'000;
  REQUIRE(arrival > f.completion);
  REQUIRE(arrival + 2 * kBus + kOverheadPs > f.flush_end + kBus);
  CHECK(read_seek_after_flush("flush-overhead-late", arrival) == arrival + 2 * kBus + kOverheadPs + 2 * kBus);
}

// ---- Selected overheads ---------------------------------------------------------------------

TEST_CASE("cache: the command overhead is selected by read/write, hit/miss and the previous command",
          "[sim][cache][overheads]") {
  // Two 64-block read segments and a write segment, full write-back, no read-ahead; each case a
  // distinct overhead. Requests 300 ms apart (every flush has ended). A hit's log starts at its
  // command (dispatch + overhead); a read miss seeks 2 accesses later; a write miss (100 blocks,
  // larger than a segment: written through) 5 later (BUFFER_OFFSET, COUNT, data DMA, seek).
  TempDir dir("overheads");
  const std::uint64_t a = 1000, b = 500'000, b2 = 600'000, c = 900'000, d = 2'000'000;
  struct Case {
    std::uint64_t lbn;
    std::uint32_t blocks;
    bool read;
    const char* key;
    std::int64_t overhead_ps;
    std::int64_t path;  ///< bus accesses between the overhead and the logged seek start
  };
  const Case cases[] = {
      {a, 8, true, "read_miss_after_read_ms", 310'000'000, 2},
      {a, 8, true, "read_hit_after_read_ms", 110'000'000, 0},
      {b, 4, false, "write_hit_after_read_ms", 510'000'000, 0},
      {b2, 4, false, "write_hit_after_write_ms", 610'000'000, 0},
      {a, 8, true, "read_hit_after_write_ms", 210'000'000, 0},
      {c, 100, false, "write_miss_after_read_ms", 710'000'000, 5},
      {c, 100, false, "write_miss_after_write_ms", 810'000'000, 5},
      {d, 8, true, "read_miss_after_write_ms", 410'000'000, 2},
  };
  std::string trace;
  std::vector<std::string> keys = {"device.cache.enabled=true",       "device.cache.segments=2",
                                   "device.cache.segment_blocks=64",  "device.cache.separate_write_segment=true",
                                   "device.cache.fast_write_level=2", "device.overheads.enabled=true"};
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    trace += line_ms(static_cast<std::int64_t>(i) * 300 * kMs, cases[i].lbn, cases[i].blocks, cases[i].read);
    keys.push_back(fmt::format("device.overheads.{}={}", cases[i].key, to_ms(Time{cases[i].overhead_ps})));
  }
  const RunResult r = run(dir, trace, keys);
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == std::size(cases));
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    INFO("case " << i << ": " << cases[i].key);
    CHECK(csv.ps(i, "seek_start_ms") - csv.ps(i, "dispatch_ms") == cases[i].overhead_ps + cases[i].path * kBus);
  }
}

// ---- Read-ahead on idle hit (DiskSim "Read-ahead on idle hit") ---------------------------------

/// One 256-block segment, 8 blocks read ahead past a request; A (8 blocks at sector 0 of the
/// track) misses and reads blocks 0..15 (its read-ahead ends long before the next request); B,
/// blocks 8..15 at 100 ms, is a full hit. With device.cache.read_ahead_on_idle_hit its read-ahead
/// reads blocks 16..23 (8 past B's end), from the segment's end.
std::vector<std::string> idle_hit_keys(bool on) {
  return read_ahead_keys({"device.cache.max_read_ahead=8", on ? "device.cache.read_ahead_on_idle_hit=true"
                                                              : "device.cache.read_ahead_on_idle_hit=false"});
}

/// B's read-ahead: B's command starts `command` (its arrival + fetch (2) + the 2.2 ms overhead);
/// without device.overheads a read miss's overhead is the same, so its seek starts then: the
/// BUFFER_OFFSET/MARK burst (1) and the seek burst (1), a seek of 0 (the heads are on the track
/// since A's read-ahead), the IRQ_ACK burst (1); the firmware programs the channel (1) just before
/// block 16 (slot kSlot + 16) comes under the head: the pass starts there.
std::int64_t idle_ahead_pass(std::int64_t command) {
  const std::int64_t seek_end = command + 2 * kBus;
  return next_slot(seek_end + 2 * kBus, kSlot + 16);
}

TEST_CASE("cache: with read-ahead on idle hit a hit's read-ahead makes the next read a hit",
          "[sim][cache][read-ahead][idle-hit]") {
  // C, blocks 16..23 at 200 ms, was read ahead by B: a full hit (overhead, DMA (2), entry (1)).
  TempDir dir("idle-hit-on");
  const std::int64_t b = 100 * kMs;
  const std::int64_t c = 200 * kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(b, kLbn + 8, 8, true) + line_ms(c, kLbn + 16, 8, true),
          idle_hit_keys(true));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command_b);  // B: a hit, no media of its own
  CHECK(csv.ps(1, "completion_ms") == command_b + 3 * kBus);
  CHECK(block_end(idle_ahead_pass(command_b), 23) - slot_start(kSlot + 16) + slot_start(kSlot) < c);  // done by then
  const std::int64_t command_c = c + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(2, "dispatch_ms") == c + 2 * kBus);
  CHECK(csv.ps(2, "seek_start_ms") == command_c);  // a hit
  CHECK(csv.ps(2, "transfer_end_ms") == command_c);
  CHECK(csv.ps(2, "completion_ms") == command_c + 3 * kBus);
  CHECK(csv.at(2, "data_ok") == "1");  // the read-ahead put the media's bytes in the buffer
}

TEST_CASE("cache: without read-ahead on idle hit the read after a hit is a miss",
          "[sim][cache][read-ahead][idle-hit]") {
  // The sequence above with the key off: B starts no read-ahead; C goes to the media: BUFFER_OFFSET
  // and seek bursts (2), a seek of 0, IRQ_ACK and transfer bursts (2), its pass from block 16.
  TempDir dir("idle-hit-off");
  const std::int64_t b = 100 * kMs;
  const std::int64_t c = 200 * kMs;
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(b, kLbn + 8, 8, true) + line_ms(c, kLbn + 16, 8, true),
          idle_hit_keys(false));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "completion_ms") == command_b + 3 * kBus);
  const std::int64_t seek = c + 2 * kBus + kOverheadPs + 2 * kBus;
  CHECK(csv.ps(2, "seek_start_ms") == seek);
  CHECK(csv.ps(2, "seek_end_ms") == seek);
  const std::int64_t ts = next_slot(seek + 2 * kBus, kSlot + 16);
  CHECK(csv.ps(2, "transfer_start_ms") == ts);
  CHECK(csv.ps(2, "transfer_end_ms") == ts + slot_start(kSlot + 24) - slot_start(kSlot + 16));
  CHECK(csv.at(2, "data_ok") == "1");
}

TEST_CASE("cache: a read arriving before a hit's read-ahead reaches its first block drops it",
          "[sim][cache][read-ahead][idle-hit]") {
  // C arrives 10 us after B completes, while B's read-ahead waits for block 16 (the channel not
  // yet programmed): the read-ahead is dropped at once (DiskSim stops it, "Stop prefetch in
  // sector"), C is dispatched without waiting and served as the miss of the test above.
  TempDir dir("idle-hit-drop");
  const std::int64_t b = 100 * kMs;
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  const std::int64_t c = command_b + 3 * kBus + 10'000'000;
  REQUIRE(idle_ahead_pass(command_b) - 4 * kBus > c + 2 * kBus);  // not yet programmed then
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(b, kLbn + 8, 8, true) + line_ms(c, kLbn + 16, 8, true),
          idle_hit_keys(true));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  CHECK(csv.ps(1, "completion_ms") == command_b + 3 * kBus);
  CHECK(csv.ps(2, "dispatch_ms") == c + 2 * kBus);
  const std::int64_t seek = c + 2 * kBus + kOverheadPs + 2 * kBus;
  CHECK(csv.ps(2, "seek_start_ms") == seek);
  CHECK(csv.ps(2, "seek_end_ms") == seek);
  const std::int64_t ts = next_slot(seek + 2 * kBus, kSlot + 16);
  CHECK(csv.ps(2, "transfer_start_ms") == ts);
  CHECK(csv.ps(2, "transfer_end_ms") == ts + slot_start(kSlot + 24) - slot_start(kSlot + 16));
  CHECK(csv.at(2, "data_ok") == "1");
}

TEST_CASE("cache: a read arriving while a hit's read-ahead seeks waits for the rest of the seek too",
          "[sim][cache][read-ahead][idle-hit]") {
  // A reads blocks 56..63 of the track and reads ahead to its end (64..71). B, blocks 64..71 at
  // 100 ms, is a full hit: its read-ahead (72..79) is on the next track, so it starts with a head
  // switch (BUFFER_OFFSET/MARK and seek bursts (2) at B's command time, 1.6 ms). C, a miss back on
  // A's track, arrives 10 us after B completes, during that switch. DiskSim stops the read-ahead
  // at C's arrival, cancelling the switch, and delays C's seek by the rest of C's overhead plus
  // the rest of the switch from that arrival (disk_buffer_stopable_access's disk_seek_stoptime,
  // disk_check_hda): C's media access (BUFFER_OFFSET/MARK and seek bursts (2), as any miss)
  // starts 2.2 ms + (switch end - C's dispatch) after C's dispatch. Before this rule it started
  // at its overhead's end (the later of that and the switch's end).
  TempDir dir("idle-hit-seeking");
  const std::int64_t b = 100 * kMs;
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  const std::int64_t c = command_b + 3 * kBus + 10'000'000;
  const RunResult r =
      run(dir, line_ms(0, kLbn + 56, 8, true) + line_ms(b, kLbn + 64, 8, true) + line_ms(c, kLbn, 8, true),
          idle_hit_keys(true));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  CHECK(csv.ps(1, "seek_start_ms") == command_b);  // B: a hit
  CHECK(csv.ps(1, "completion_ms") == command_b + 3 * kBus);
  CHECK(csv.ps(2, "dispatch_ms") == c + 2 * kBus);
  const std::int64_t switch_end = command_b + 2 * kBus + 1'600'000'000;
  REQUIRE(switch_end > c + 2 * kBus);
  CHECK(csv.ps(2, "seek_start_ms") == c + 2 * kBus + kOverheadPs + (switch_end - (c + 2 * kBus)) + 2 * kBus);
  CHECK(csv.at(2, "data_ok") == "1");
}

TEST_CASE("cache: a read starting in a hit's running read-ahead joins it", "[sim][cache][read-ahead][idle-hit][join]") {
  // As above, with selected overheads: read miss 2.2 ms (A, and the start of B's read-ahead, as
  // without them), read hit 0.1 ms. C, blocks 16..22, arrives 0.5 ms into B's read-ahead pass
  // (blocks 16..23 from P): block 16 is read, block 22 is not at C's command. C joins the pass
  // (DiskSim merges it as it does with a miss's read-ahead): the read hit overhead, no media of its
  // own, its data once block 22 has passed (BLOCKS_DONE (1), DMA (2), entry (1)), before the pass
  // ends. Before this rule C waited for the pass (not counted as read) and stopped nothing.
  TempDir dir("idle-hit-join");
  const std::int64_t b = 100 * kMs;
  const std::int64_t hit_overhead = kMs / 10;
  const std::int64_t pass = idle_ahead_pass(b + 2 * kBus + kOverheadPs);  // the read miss overhead from B's dispatch
  const auto pass_end = [&](std::int64_t j) { return pass + slot_start(kSlot + j + 1) - slot_start(kSlot + 16); };
  const std::int64_t c = (pass / 1'000 + 1) * 1'000 + kMs / 2;
  const std::int64_t command_c = c + 2 * kBus + hit_overhead;
  REQUIRE(pass_end(16) < c);
  REQUIRE(pass_end(22) > command_c);
  const RunResult r =
      run(dir, line_ms(0, kLbn, 8, true) + line_ms(b, kLbn + 8, 8, true) + line_ms(c, kLbn + 16, 7, true),
          read_ahead_keys({"device.cache.max_read_ahead=8", "device.cache.read_ahead_on_idle_hit=true",
                           "device.overheads.enabled=true", "device.overheads.read_miss_after_read_ms=2.2",
                           "device.overheads.read_hit_after_read_ms=0.1"}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  const std::int64_t command_b = b + 2 * kBus + hit_overhead;
  CHECK(csv.ps(1, "completion_ms") == command_b + 3 * kBus);  // B: a hit
  CHECK(csv.ps(2, "dispatch_ms") == c + 2 * kBus);
  CHECK(csv.ps(2, "seek_start_ms") == command_c);
  CHECK(csv.ps(2, "transfer_end_ms") == command_c);
  CHECK(csv.ps(2, "completion_ms") == pass_end(22) + 4 * kBus);
  CHECK(csv.at(2, "data_ok") == "1");
}

TEST_CASE("cache: a hit during a hit's read-ahead seek raises its target", "[sim][cache][read-ahead][idle-hit]") {
  // Read miss overhead 2.2 ms, read hit 0.1 ms, 8 blocks read ahead. A reads blocks 56..63 and
  // reads ahead to the track's end (72). B, blocks 60..67 at 100 ms, is a full hit: its read-ahead
  // (72..75, to 68 + 8) is on head 8; its head switch starts a read miss's overhead after B's
  // dispatch (BUFFER_OFFSET/MARK and seek bursts (2)) and lasts 1.6 ms. C, blocks 64..71, arrives
  // 0.5 ms into that switch: a full hit on the segment, served 0.1 ms later while the read-ahead
  // still seeks. It raises the segment's read-ahead target to 72 + 8 = 80 (DiskSim raises
  // maxreadaheadblkno for every read the segment serves): the read-ahead, not yet programmed,
  // reads 72..79 (no EXTEND: C's completion is any hit's, DMA (2), entry (1)). D, blocks 76..79 at
  // 200 ms, is then a full hit; before this rule the read-ahead read only 72..75 and D missed.
  TempDir dir("idle-hit-raise-seeking");
  const std::int64_t b = 100 * kMs;
  const std::int64_t hit = kMs / 10;
  const std::int64_t ahead_seek = b + 2 * kBus + kOverheadPs + 2 * kBus;
  const std::int64_t c = (ahead_seek / 1'000 + 1) * 1'000 + kMs / 2;
  const std::int64_t command_c = c + 2 * kBus + hit;
  REQUIRE(command_c < ahead_seek + 1'600'000'000);  // still seeking when C is served
  const std::int64_t d = 200 * kMs;
  const RunResult r =
      run(dir,
          line_ms(0, kLbn + 56, 8, true) + line_ms(b, kLbn + 60, 8, true) + line_ms(c, kLbn + 64, 8, true) +
              line_ms(d, kLbn + 76, 4, true),
          read_ahead_keys({"device.cache.max_read_ahead=8", "device.cache.read_ahead_on_idle_hit=true",
                           "device.overheads.enabled=true", "device.overheads.read_miss_after_read_ms=2.2",
                           "device.overheads.read_hit_after_read_ms=0.1"}));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 4);
  CHECK(csv.ps(1, "seek_start_ms") == b + 2 * kBus + hit);  // B: a hit
  CHECK(csv.ps(2, "dispatch_ms") == c + 2 * kBus);
  CHECK(csv.ps(2, "seek_start_ms") == command_c);  // C: a hit
  CHECK(csv.ps(2, "completion_ms") == command_c + 3 * kBus);
  const std::int64_t command_d = d + 2 * kBus + hit;
  CHECK(csv.ps(3, "seek_start_ms") == command_d);  // D: a hit on the raised read-ahead's blocks
  CHECK(csv.ps(3, "transfer_end_ms") == command_d);
  CHECK(csv.ps(3, "completion_ms") == command_d + 3 * kBus);
  for (std::size_t i = 0; i < csv.size(); ++i) CHECK(csv.at(i, "data_ok") == "1");
}

TEST_CASE("cache: read-ahead on idle hit is a boolean key and off by default", "[sim][cache][config][idle-hit]") {
  CHECK_FALSE(load_scenario("", {}).device.features.cache.read_ahead_on_idle_hit);
  CHECK(load_scenario("", {"device.cache.read_ahead_on_idle_hit=true"}).device.features.cache.read_ahead_on_idle_hit);
  CHECK_THROWS_WITH(
      load_scenario("", {"device.cache.read_ahead_on_idle_hit=2"}),
      Catch::Matchers::ContainsSubstring("device.cache.read_ahead_on_idle_hit: expected true or false, found 2"));
  CHECK_THROWS_WITH(
      load_scenario("", {"device.cache.read_ahead_on_idle_hit=yes"}),
      Catch::Matchers::ContainsSubstring("device.cache.read_ahead_on_idle_hit: expected true or false, found 'yes'"));
}

// ---- Read any free blocks (DiskSim "Read any free blocks") ----------------------------------------

/// One 256-block segment, no read-ahead (continuous_read 0), 0.1 ms a sector across the interface
/// (faster than the media: each block crosses once it has passed), with or without the key.
std::vector<std::string> free_blocks_keys(bool on) {
  return {"device.cache.enabled=true",
          "device.cache.segments=1",
          "device.cache.segment_blocks=256",
          "device.cache.continuous_read=0",
          "device.interface.read_sector_ms=0.1",
          on ? "device.cache.read_any_free_blocks=true" : "device.cache.read_any_free_blocks=false"};
}

/// A read miss of track blocks [q, q + 4) of kLbn's track from cylinder 0 at time 0: dispatch
/// (2), overhead, the BUFFER_OFFSET/MARK burst (1), with the key the LEAD write (1), the seek burst
/// (1), the 13.6 ms seek, the IRQ_ACK burst (1) and the transfer burst (1): the channel starts
/// then (`begin`). Track block j is in slot kSlot + j.
std::int64_t free_blocks_begin(bool on) { return 2 * kBus + kOverheadPs + (on ? 3 : 2) * kBus + kSeek700 + 2 * kBus; }
/// The track block (0..71) whose sector is the first to come under the head from `t`.
std::int64_t first_under_head(std::int64_t t) {
  std::int64_t best = 0;
  for (std::int64_t j = 1; j < kSectors; ++j)
    if (next_slot(t, kSlot + j) < next_slot(t, kSlot + best)) best = j;
  return best;
}
/// When track block j has passed, on a pass whose first sector (track block j0) is under the
/// head at ts.
std::int64_t track_block_end(std::int64_t ts, std::int64_t j0, std::int64_t j) {
  return ts + slot_start(kSlot + j + 1) - slot_start(kSlot + j0);
}

TEST_CASE("cache: with read any free blocks a miss keeps the blocks that pass before it", "[sim][cache][free-blocks]") {
  // The heads land before the request's first block (track block land + 10): the read starts with
  // the first block under the head (track block land), so the 10 blocks before the request are in
  // the segment too; the request's own blocks pass at the same times as without the key (one bus
  // access later: the LEAD write). B, those 10 blocks at 100 ms, is then a full hit (overhead,
  // 10 x 0.1 ms across the interface, DMA (2), entry (1)), returning the media's bytes.
  const std::int64_t begin = free_blocks_begin(true);
  const std::int64_t land = first_under_head(begin);
  REQUIRE(land == 20);  // begin mod T = 0.8076 ms: slot 3.88 under the head, slot 4 = kSlot + 20 next
  const std::int64_t q = land + 10;
  const std::int64_t b = 100 * kMs;
  TempDir dir("free-blocks-on");
  const RunResult r =
      run(dir, line_ms(0, kLbn + q, 4, true) + line_ms(b, kLbn + land, 10, true), free_blocks_keys(true));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t ts = next_slot(begin, kSlot + land);
  CHECK(csv.ps(0, "seek_start_ms") == 2 * kBus + kOverheadPs + 3 * kBus);
  CHECK(csv.ps(0, "transfer_start_ms") == next_slot(ts, kSlot + q));  // the request's own first sector
  CHECK(next_slot(ts, kSlot + q) == ts + slot_start(kSlot + q) - slot_start(kSlot + land));  // on the same pass
  CHECK(csv.ps(0, "transfer_end_ms") == track_block_end(ts, land, q + 3));
  CHECK(csv.ps(0, "completion_ms") == read_completion(track_block_end(ts, land, q + 3) + 100'000'000, true));
  CHECK(csv.at(0, "data_ok") == "1");
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command_b);  // a hit: no media
  CHECK(csv.u64(1, "seek_distance") == 0);
  CHECK(csv.ps(1, "completion_ms") == command_b + 10 * 100'000'000 + 3 * kBus);
  CHECK(csv.at(1, "data_ok") == "1");  // the lead blocks are the media's
}

TEST_CASE("cache: without read any free blocks the blocks before a miss are not kept", "[sim][cache][free-blocks]") {
  // The sequence above with the key off: A starts at its own first block, one bus access earlier
  // (no LEAD write) and otherwise at the same times; B goes to the media (the heads are on the
  // track: seek 0).
  const std::int64_t begin = free_blocks_begin(false);
  const std::int64_t q = 30;
  const std::int64_t b = 100 * kMs;
  TempDir dir("free-blocks-off");
  const RunResult r =
      run(dir, line_ms(0, kLbn + q, 4, true) + line_ms(b, kLbn + 20, 10, true), free_blocks_keys(false));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t ts = next_slot(begin, kSlot + q);
  CHECK(csv.ps(0, "seek_start_ms") == 2 * kBus + kOverheadPs + 2 * kBus);
  CHECK(csv.ps(0, "transfer_start_ms") == ts);
  CHECK(csv.ps(0, "transfer_end_ms") == track_block_end(ts, q, q + 3));
  CHECK(track_block_end(ts, q, q + 3) == track_block_end(next_slot(free_blocks_begin(true), kSlot + 20), 20, q + 3));
  CHECK(csv.ps(0, "completion_ms") == read_completion(track_block_end(ts, q, q + 3) + 100'000'000, true));
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command_b + 2 * kBus);  // a miss: BUFFER_OFFSET/MARK, seek burst
  CHECK(csv.at(1, "data_ok") == "1");
}

TEST_CASE("cache: with read any free blocks heads landing past the request read from the track's first block",
          "[sim][cache][free-blocks]") {
  // The request is track blocks 15..18, the heads land at block 20: blocks 20..71 pass (not kept:
  // past the request), then the track's first block starts the read: blocks 0..14 go into the
  // segment ahead of the request, which waits for its blocks as without the key. B, blocks 0..18
  // at 100 ms, is a full hit.
  const std::int64_t begin = free_blocks_begin(true);
  REQUIRE(first_under_head(begin) == 20);
  const std::int64_t q = 15;
  const std::int64_t b = 100 * kMs;
  TempDir dir("free-blocks-wrap");
  const RunResult r = run(dir, line_ms(0, kLbn + q, 4, true) + line_ms(b, kLbn, 19, true), free_blocks_keys(true));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t ts = next_slot(begin, kSlot);
  CHECK(next_slot(begin, kSlot + q) == ts + slot_start(kSlot + q) - slot_start(kSlot));  // the same pass
  CHECK(csv.ps(0, "transfer_start_ms") == next_slot(begin, kSlot + q));  // the request's own first sector
  CHECK(csv.ps(0, "transfer_end_ms") == track_block_end(ts, 0, q + 3));
  CHECK(csv.ps(0, "completion_ms") == read_completion(track_block_end(ts, 0, q + 3) + 100'000'000, true));
  const std::int64_t command_b = b + 2 * kBus + kOverheadPs;
  CHECK(csv.ps(1, "seek_start_ms") == command_b);  // a hit
  CHECK(csv.ps(1, "completion_ms") == command_b + 19 * 100'000'000 + 3 * kBus);
  CHECK(csv.at(1, "data_ok") == "1");
}

TEST_CASE("cache: read any free blocks is a boolean key and off by default", "[sim][cache][config][free-blocks]") {
  CHECK_FALSE(load_scenario("", {}).device.features.cache.read_any_free_blocks);
  CHECK(load_scenario("", {"device.cache.read_any_free_blocks=true"}).device.features.cache.read_any_free_blocks);
  CHECK_THROWS_WITH(
      load_scenario("", {"device.cache.read_any_free_blocks=2"}),
      Catch::Matchers::ContainsSubstring("device.cache.read_any_free_blocks: expected true or false, found 2"));
}

TEST_CASE("cache: the HP 97560's published cache is an option of the preset", "[sim][cache][config]") {
  const Scenario plain = load_scenario("", {});
  CHECK_FALSE(plain.device.features.active());
  const Scenario hp = load_scenario("", {"device.cache.hp97560_published=true"});
  const CacheParams& c = hp.device.features.cache;
  CHECK(c.enabled);
  CHECK(c.segments == 1);
  CHECK(c.segment_blocks == 256);  // 128 KB
  CHECK(c.max_read_ahead == 128);  // 64 KB read fence
  CHECK(c.read_ahead_over_requested);
  const Scenario over = load_scenario("", {"device.cache.hp97560_published=true", "device.cache.max_read_ahead=16"});
  CHECK(over.device.features.cache.max_read_ahead == 16);
  CHECK_THROWS_WITH(load_scenario("", {"device.cache.fast_write_level=1"}),
                    Catch::Matchers::ContainsSubstring("device.cache.fast_write_level"));
  CHECK_THROWS_WITH(load_scenario("", {"device.cache.segments=0"}),
                    Catch::Matchers::ContainsSubstring("device.cache.segments: expected an integer in [1, 64]"));
}

}  // namespace
}  // namespace drivevp
