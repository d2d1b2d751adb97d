// Timing of requests through the whole platform (host -> bus -> firmware -> bus -> drive):
// the exact simulated times of a single request, worked out independently from the HP 97560
// parameters, and the mean rotational latency of random reads (half a revolution).
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>

#include "hw_models/disk/disk_params.h"
#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

// HP 97560 parameters as published (parameters.md), restated here so that the expectations do
// not come from the model under test.
constexpr std::int64_t kHeads = 19;
constexpr std::int64_t kSectors = 72;
constexpr std::int64_t kTrackSkew = 8;
constexpr std::int64_t kCylinderSkew = 18;
/// 60 s / 4002 rpm = 14.992503748126 ms, rounded to the nearest picosecond.
constexpr std::int64_t kPeriodPs = (60'000'000'000'000LL + 2001) / 4002;
constexpr std::int64_t kOverheadPs = 2'200'000'000;  // controller overhead 2.2 ms
constexpr std::int64_t kBusPs = 10'000;              // router latency per access (RouterParams), 10 ns

/// Start of angular slot s: floor(s * T / 72) (the rotational_wait contract, param_page.h).
std::int64_t slot_start(std::int64_t s) { return s * kPeriodPs / kSectors; }

struct Expected {
  std::int64_t dispatch, seek_start, seek_end, transfer_start, transfer_end, completion;
  std::uint32_t cylinder, head, distance;
};

/// Expected times of one request of `blocks` blocks at LBN `lbn` arriving at time 0 on an idle
/// drive (arm on cylinder 0, head 0, spindle at phase 0 at time 0). Bus accesses, each adding the
/// router's 10 ns to the initiator's local time offset (firmware/controller/controller.cpp):
///  - submission: host SQ-tail doorbell write (1), firmware fetch of the submission entry by DMA
///    (1): dispatch at arrival + 20 ns;
///  - dispatch: command overhead 2.2 ms, then for a write the COUNT write (1) and the data DMA
///    host -> channel buffer (the buffer through DMI, whose granted latency is the router's 10 ns,
///    plus one transaction: 2), then one burst TARGET_CYLINDER, TARGET_HEAD, COMMAND=seek (1); the
///    actuator starts the seek at the annotated time of that burst, which includes its own bus
///    latency: seek_start = dispatch + 2.2 ms + 10 ns (read) or + 40 ns (write);
///  - seek done: one burst read from IRQ_ACK (status, acknowledge, SEEK_START, SEEK_END,
///    SEEK_DISTANCE), one burst write of LBN, COUNT, COMMAND=read/write (2): the channel starts
///    waiting for the sector 20 ns after the seek end;
///  - transfer done: one burst read from IRQ_ACK (status, acknowledge, TRANSFER_START,
///    TRANSFER_END) (1), for a read the DMA channel buffer -> host (2), the completion entry write
///    (1): completion at transfer_end + 40 ns (read) or + 20 ns (write).
Expected expect_single(std::uint64_t lbn, std::int64_t blocks, bool read) {
  Expected e{};
  const auto l = static_cast<std::int64_t>(lbn);
  e.cylinder = static_cast<std::uint32_t>(l / (kHeads * kSectors));
  e.head = static_cast<std::uint32_t>(l / kSectors % kHeads);
  const std::int64_t sector = l % kSectors;
  // Cumulative skew from (0, 0): track_skew per head switch, cylinder_skew per cylinder switch.
  const std::int64_t offset = e.cylinder * ((kHeads - 1) * kTrackSkew + kCylinderSkew) + e.head * kTrackSkew;
  const std::int64_t slot = (offset + sector) % kSectors;
  REQUIRE(slot + blocks <= kSectors);  // stays on the track, within one revolution
  e.distance = e.cylinder;
  e.dispatch = 2 * kBusPs;
  e.seek_start = e.dispatch + kOverheadPs + (read ? 1 : 4) * kBusPs;
  const double x = e.cylinder;
  const double seek_ms = e.cylinder == 0 ? 0.0 : e.cylinder < 383 ? 3.24 + 0.4 * std::sqrt(x) : 8.0 + 0.008 * x;
  std::int64_t seek = std::llround(seek_ms * 1e9);
  if (e.head != 0 && seek < 1'600'000'000) seek = 1'600'000'000;  // head switch 1.6 ms overlaps the move
  e.seek_end = e.seek_start + seek;
  const std::int64_t ready = e.seek_end + 2 * kBusPs;
  const std::int64_t phase = ready % kPeriodPs;  // phase origin 0
  const std::int64_t wait = ((slot_start(slot) - phase) % kPeriodPs + kPeriodPs) % kPeriodPs;
  e.transfer_start = ready + wait;
  e.transfer_end = e.transfer_start + slot_start(slot + blocks) - slot_start(slot);
  e.completion = e.transfer_end + (read ? 4 : 2) * kBusPs;
  return e;
}

void check_row(const Csv& csv, std::size_t row, const Expected& e) {
  CHECK(csv.u64(row, "cylinder") == e.cylinder);
  CHECK(csv.u64(row, "head") == e.head);
  CHECK(csv.u64(row, "seek_distance") == e.distance);
  CHECK(csv.at(row, "arrival_ms") == "0.000000000");
  CHECK(csv.at(row, "dispatch_ms") == ps_to_ms_text(e.dispatch));
  CHECK(csv.at(row, "seek_start_ms") == ps_to_ms_text(e.seek_start));
  CHECK(csv.at(row, "seek_end_ms") == ps_to_ms_text(e.seek_end));
  CHECK(csv.at(row, "transfer_start_ms") == ps_to_ms_text(e.transfer_start));
  CHECK(csv.at(row, "transfer_end_ms") == ps_to_ms_text(e.transfer_end));
  CHECK(csv.at(row, "completion_ms") == ps_to_ms_text(e.completion));
  CHECK(csv.at(row, "queue_wait_ms") == ps_to_ms_text(e.dispatch));
  CHECK(csv.at(row, "response_ms") == ps_to_ms_text(e.completion));
  CHECK(csv.at(row, "service_ms") == ps_to_ms_text(e.completion - e.dispatch));
  CHECK(csv.at(row, "predicted_positioning_ms").empty());  // FCFS predicts nothing
  CHECK(csv.at(row, "data_ok") == "1");
}

TEST_CASE("sim: HP 97560 rotation period is 60 s / 4002 to the picosecond", "[sim][timing]") {
  CHECK(kPeriodPs == 14'992'503'748);
  CHECK(hp97560().rotation_period() == Time{kPeriodPs});
}

TEST_CASE("sim: One read through the whole platform has the exact expected times", "[sim][timing][e2e]") {
  TempDir dir("one-read");
  // Cylinder 700, head 7, sector 30, 5 blocks: LBN = 700*19*72 + 7*72 + 30 = 958134. Skew offset
  // 700*(18*8+18) + 7*8 = 113456; slot (113456 + 30) mod 72 = 14. Seek 8.00 + 0.008*700 = 13.6 ms.
  const std::uint64_t lbn = 958134;
  write_text(dir / "one.trace", disksim_line(0.0, lbn, 5, true));
  const RunResult r = run_platform(dir, trace_scenario(dir / "one.trace", "fcfs"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 1);
  const Expected e = expect_single(lbn, 5, true);
  CHECK(e.seek_end - e.seek_start == 13'600'000'000);
  CHECK(e.transfer_end - e.transfer_start == slot_start(19) - slot_start(14));
  // The transfer takes blocks * period / 72 to within a picosecond of rounding.
  CHECK(std::llabs((e.transfer_end - e.transfer_start) - 5 * kPeriodPs / 72) <= 1);
  check_row(csv, 0, e);
  CHECK(csv.at(0, "op") == "R");
  CHECK(csv.at(0, "blocks") == "5");
  // Worked values (ms): dispatch 0.00002, seek 2.20003 -> 15.80003, sector ready at 15.80005.
  CHECK(csv.at(0, "seek_start_ms") == "2.200030000");
  CHECK(csv.at(0, "seek_end_ms") == "15.800030000");
  CHECK(r.summary["simulated_time_ms"].get<double>() == Catch::Approx(static_cast<double>(e.completion) * 1e-9));
}

TEST_CASE("sim: One write through the whole platform has the exact expected times", "[sim][timing][e2e]") {
  TempDir dir("one-write");
  // Cylinder 120 (short branch: 3.24 + 0.4 sqrt(120) ms), head 3, sector 60, 2 blocks.
  // Skew offset 120*162 + 3*8 = 19464; slot (19464 + 60) mod 72 = 12.
  const std::uint64_t lbn = 120 * 19 * 72 + 3 * 72 + 60;
  write_text(dir / "one.trace", disksim_line(0.0, lbn, 2, false));
  const RunResult r = run_platform(dir, trace_scenario(dir / "one.trace", "fcfs"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 1);
  const Expected e = expect_single(lbn, 2, false);
  check_row(csv, 0, e);
  CHECK(csv.at(0, "op") == "W");
  CHECK(csv.at(0, "seek_start_ms") == "2.200060000");  // three more: COUNT and the write-data DMA
}

TEST_CASE("sim: Mean rotational latency of random reads is half a revolution", "[sim][timing][rotation]") {
  TempDir dir("rotation");
  // 20,000 uniformly random single-block reads, FCFS, closed loop with one outstanding: the seek
  // ends at a phase unrelated to the target sector, so the wait is uniform on [0, T).
  const RunResult r = run_platform(
      dir, synthetic_scenario("fcfs",
                              "loop = \"closed\"\noutstanding = 1\naddress = \"uniform\"\nsize = \"constant\"\n"
                              "size_blocks = 1\nread_fraction = 1.0\n",
                              "seed = 11\nrequests = 20000\n"));
  REQUIRE(r.checks_passed);
  CHECK(r.summary["requests"]["completed"].get<std::uint64_t>() == 20000);
  const double half_revolution_ms = 60000.0 / 4002.0 / 2.0;  // 7.49625 ms
  CHECK(r.summary["metrics"]["rotational_latency_mean_ms"].get<double>() ==
        Catch::Approx(half_revolution_ms).epsilon(0.02));
  // One block is 1/72 of a revolution.
  CHECK(r.summary["metrics"]["transfer_mean_ms"].get<double>() == Catch::Approx(60000.0 / 4002.0 / 72.0).epsilon(1e-6));
}

// ---- Paths the presets never reach (non-preset parameters) ------------------------------------

namespace paths {

/// Earliest time >= t at which the leading edge of slot s passes under the head, for a spindle
/// of period `period` at phase 0 at time 0 and 72 slots: floor(s * T / 72) into a revolution.
std::int64_t next_slot(std::int64_t t, std::int64_t s, std::int64_t period = kPeriodPs) {
  const std::int64_t start = s * period / kSectors;
  const std::int64_t base = t / period * period;
  return base + start >= t ? base + start : base + period + start;
}

/// A trace scenario on the HP 97560 with `device_keys` appended to [device].
std::string device_scenario(const fs::path& trace, const std::string& policy, const std::string& device_keys) {
  return fmt::format(
      "[device]\npreset = \"hp97560\"\n{}\n[firmware]\npolicy = \"{}\"\n\n[workload]\nkind = \"trace\"\n"
      "path = \"{}\"\nformat = \"disksim\"\n\n[run]\nprogress = false\n\n[output]\nplots = false\n",
      device_keys, policy, trace.string());
}

}  // namespace paths

TEST_CASE("sim: A seek with settle > 0 takes the curve time plus the settle exactly", "[sim][timing][settle]") {
  // Both presets have settle 0 (their curves include it). With settle 0.5 ms, FCFS, three reads
  // far apart in time, each on an idle drive:
  //   1. (0, 0) -> cylinder 100 head 0: seek(100) + settle = 3.24 + 0.4 * 10 + 0.5 = 7.74 ms
  //   2. (100, 0) -> cylinder 101 head 3: max(seek(1) + settle, head switch) = max(4.14, 1.6) ms
  //   3. (101, 3) -> cylinder 101 head 5: head switch only, 1.6 ms (no arm move, no settle)
  TempDir dir("settle");
  const auto lbn = [](std::uint64_t c, std::uint64_t h, std::uint64_t s) { return (c * 19 + h) * 72 + s; };
  write_text(dir / "t.trace", disksim_line(0.0, lbn(100, 0, 0), 1, true) +
                                  disksim_line(100.0, lbn(101, 3, 0), 1, true) +
                                  disksim_line(200.0, lbn(101, 5, 0), 1, true));
  const RunResult r = run_platform(dir, paths::device_scenario(dir / "t.trace", "fcfs", "settle_ms = 0.5\n"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 3);
  const std::int64_t expected_seek[3] = {7'740'000'000, 4'140'000'000, 1'600'000'000};
  const std::int64_t arrival[3] = {0, 100'000'000'000, 200'000'000'000};
  for (std::size_t row = 0; row < 3; ++row) {
    INFO("row " << row);
    CHECK(csv.ps(row, "seek_end_ms") - csv.ps(row, "seek_start_ms") == expected_seek[row]);
    // The seek starts after the arrival's 20 ns, the 2.2 ms overhead and the seek burst's 10 ns.
    CHECK(csv.ps(row, "seek_start_ms") == arrival[row] + 2 * kBusPs + kOverheadPs + kBusPs);
  }
  CHECK(csv.u64(0, "seek_distance") == 100);
  CHECK(csv.u64(1, "seek_distance") == 1);
  CHECK(csv.u64(2, "seek_distance") == 0);
}

TEST_CASE("sim: A read across track boundaries without skew includes the head switch and the one-cylinder seek",
          "[sim][timing][track-switch]") {
  // Track and cylinder skew 0: sector s of every track sits in slot s, so the next track's
  // first sector passes under the head exactly when the previous track's last one ends; the
  // head switch (or the one-cylinder seek) makes the channel wait for it a whole revolution.
  // FCFS, two reads on an idle drive:
  //   1. at 0: cylinder 0 head 0 sectors 70-71 and head 1 sectors 0-1 (LBN 70, 4 blocks);
  //   2. at 100 ms: cylinder 0 head 18 sector 71 and cylinder 1 head 0 sector 0 (2 blocks).
  TempDir dir("track-switch");
  const std::uint64_t lbn2 = 18 * 72 + 71;
  write_text(dir / "t.trace", disksim_line(0.0, 70, 4, true) + disksim_line(100.0, lbn2, 2, true));
  const RunResult r =
      run_platform(dir, paths::device_scenario(dir / "t.trace", "fcfs", "track_skew = 0\ncylinder_skew = 0\n"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  using paths::next_slot;
  constexpr std::int64_t kHeadSwitchPs = 1'600'000'000;
  constexpr std::int64_t kSeek1Ps = 3'640'000'000;  // 3.24 + 0.4 sqrt(1) ms > head switch

  // 1. Seek of 0 (arm at cylinder 0 head 0); the channel starts 20 ns after it.
  const std::int64_t seek1 = 2 * kBusPs + kOverheadPs + kBusPs;
  const std::int64_t start1 = next_slot(seek1 + 2 * kBusPs, 70);
  const std::int64_t end_track1 = next_slot(start1, 72);  // = one revolution: slot 72 is slot 0
  CHECK(end_track1 == kPeriodPs);
  const std::int64_t end1 = next_slot(end_track1 + kHeadSwitchPs, 0) + slot_start(2);
  CHECK(end1 == 2 * kPeriodPs + slot_start(2));  // the switch costs a whole revolution here
  CHECK(csv.ps(0, "seek_start_ms") == seek1);
  CHECK(csv.ps(0, "seek_end_ms") == seek1);
  CHECK(csv.ps(0, "transfer_start_ms") == start1);
  CHECK(csv.ps(0, "transfer_end_ms") == end1);
  CHECK(csv.ps(0, "completion_ms") == end1 + 4 * kBusPs);

  // 2. From cylinder 0 head 1 (where request 1 ended) to head 18: head switch 1.6 ms.
  const std::int64_t arrival2 = 100'000'000'000;
  const std::int64_t seek2 = arrival2 + 2 * kBusPs + kOverheadPs + kBusPs;
  const std::int64_t start2 = next_slot(seek2 + kHeadSwitchPs + 2 * kBusPs, 71);
  const std::int64_t end_track2 = start2 + (kPeriodPs - slot_start(71));
  const std::int64_t end2 = next_slot(end_track2 + kSeek1Ps, 0) + slot_start(1);
  CHECK(csv.ps(1, "seek_end_ms") - csv.ps(1, "seek_start_ms") == kHeadSwitchPs);
  CHECK(csv.ps(1, "seek_start_ms") == seek2);
  CHECK(csv.ps(1, "transfer_start_ms") == start2);
  CHECK(csv.ps(1, "transfer_end_ms") == end2);
  CHECK(end2 - end_track2 == kPeriodPs + slot_start(1));  // a revolution lost to the cylinder switch
  CHECK(csv.ps(1, "completion_ms") == end2 + 4 * kBusPs);
}

TEST_CASE("sim: The rotation period is 60 s / rpm rounded, not truncated, to the picosecond",
          "[sim][timing][rotation]") {
  // 60 s / 4016 = 14.940239043824... ms: rounded 14,940,239,044 ps, truncated ...043. (4002 and
  // 10,000 RPM round and truncate alike.)
  constexpr std::int64_t kPeriod4016 = 14'940'239'044;
  DiskParams p = hp97560();
  p.rpm = 4016;
  CHECK(p.rotation_period() == Time{kPeriod4016});
  CHECK(p.parameter_page().rotation_period_ps == kPeriod4016);
  // Through the platform: the last sector of cylinder 0 head 0 (LBN 71, slot 71) ends exactly at
  // the end of the first revolution.
  TempDir dir("rpm4016");
  write_text(dir / "t.trace", disksim_line(0.0, 71, 1, true));
  const RunResult r = run_platform(dir, paths::device_scenario(dir / "t.trace", "fcfs", "rpm = 4016\n"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 1);
  CHECK(csv.ps(0, "transfer_start_ms") == 71 * kPeriod4016 / 72);
  CHECK(csv.at(0, "transfer_end_ms") == "14.940239044");
}

TEST_CASE("sim: SPTF counts the firmware's command path: a sector due 15 ns after the decision is a revolution away",
          "[sim][timing][sptf][path]") {
  // Two single-block reads arrive together at t = 1.964539 ms on an idle drive (arm at cylinder 0
  // head 0): A (id 0) at LBN 20, slot 20; B (id 1) at LBN 56, slot 56. The firmware decides at
  // t + 30 ns (doorbell and two submission fetches) + 2.2 ms = 4.164569 ms, 15.374 ns before
  // slot 20's edge (floor(20 T / 72) = 4,164,584,374 ps). A's seek (of 0) starts 10 ns after the
  // decision and the channel 20 ns after that: 14.626 ns too late, so A is a revolution away.
  // SPTF must take B first. (A predictor that ignores its command path predicts 15.374 ns for A
  // and takes it, losing a revolution.)
  TempDir dir("sptf-path");
  const std::int64_t t = 1'964'539'000;
  write_text(dir / "t.trace", disksim_line(1.964539, 20, 1, true) + disksim_line(1.964539, 56, 1, true));
  const RunResult r = run_platform(dir, trace_scenario(dir / "t.trace", "sptf"));
  REQUIRE(r.checks_passed);
  const Csv csv(dir / "out" / "requests.csv");
  REQUIRE(csv.size() == 2);
  const std::int64_t decide = t + 3 * kBusPs + kOverheadPs;
  CHECK(slot_start(20) - decide == 15'374);
  // B first.
  CHECK(csv.u64(0, "id") == 1);
  CHECK(csv.ps(0, "dispatch_ms") == t + 3 * kBusPs);
  CHECK(csv.ps(0, "seek_start_ms") == decide + kBusPs);
  CHECK(csv.ps(0, "seek_end_ms") == decide + kBusPs);
  CHECK(csv.ps(0, "transfer_start_ms") == slot_start(56));
  CHECK(csv.ps(0, "transfer_end_ms") == slot_start(57));
  CHECK(csv.ps(0, "predicted_positioning_ms") == slot_start(56) - (decide + kBusPs));
  // Then A, a revolution later than its sector's first pass.
  const std::int64_t decide_a = slot_start(57) + 4 * kBusPs + kOverheadPs;
  CHECK(csv.u64(1, "id") == 0);
  CHECK(csv.ps(1, "seek_start_ms") == decide_a + kBusPs);
  CHECK(csv.ps(1, "transfer_start_ms") == kPeriodPs + slot_start(20));
  CHECK(csv.ps(1, "transfer_end_ms") == kPeriodPs + slot_start(21));
  CHECK(csv.ps(1, "predicted_positioning_ms") == kPeriodPs + slot_start(20) - (decide_a + kBusPs));
  // The predictions are the measured positioning times.
  for (std::size_t row = 0; row < 2; ++row)
    CHECK(csv.ps(row, "predicted_positioning_ms") == csv.ps(row, "seek_ms") + csv.ps(row, "rotational_latency_ms"));
  CHECK(r.summary["metrics"]["prediction_max_abs_error_ms"].get<double>() == 0.0);
}

}  // namespace
}  // namespace drivevp
