// Unit tests of the LBN layout (DiskGeometry), the sampled seek table, the rotational-wait
// contract (tlm_bus/param_page.h) and the firmware's DiskPredictor (firmware/disk_predictor.h).
// Every expected value is worked out by hand in the comments. Plain C++: no SystemC.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "firmware/disk_predictor.h"
#include "tlm_bus/param_page.h"

namespace drivevp {
namespace {

constexpr Time us(std::int64_t v) { return Time{v * 1'000'000}; }
constexpr Time ms(std::int64_t v) { return us(v * 1000); }

/// 4 cylinders, 2 heads; zone 0 = cylinders 0-1 at 10 sectors per track, zone 1 = cylinders 2-3 at
/// 8; track skew 2 slots, cylinder skew 3 slots. Capacity 2*2*10 + 2*2*8 = 72 blocks. The skew
/// offset of track (c, h) is c * ((heads-1)*2 + 3) + h*2 = 5c + 2h slots, and
/// slot = (offset + sector) mod spt.
DiskGeometry zoned_geometry() { return DiskGeometry(4, 2, {Zone{0, 2, 10}, Zone{2, 2, 8}}, 2, 3); }

void check_address(const PhysicalAddress& a, std::uint32_t cylinder, std::uint32_t head, std::uint32_t sector,
                   std::uint32_t spt, std::uint32_t slot) {
  CHECK(a.cylinder == cylinder);
  CHECK(a.head == head);
  CHECK(a.sector == sector);
  CHECK(a.sectors_per_track == spt);
  CHECK(a.slot == slot);
}

TEST_CASE("DiskGeometry maps LBNs cylinder-major with zones and skew", "[predictor][geometry]") {
  const DiskGeometry g = zoned_geometry();
  CHECK(g.cylinders() == 4);
  CHECK(g.heads() == 2);
  CHECK(g.capacity_blocks() == 72);
  CHECK(g.sectors_per_track(0) == 10);
  CHECK(g.sectors_per_track(1) == 10);
  CHECK(g.sectors_per_track(2) == 8);
  CHECK(g.sectors_per_track(3) == 8);
  check_address(g.locate(0), 0, 0, 0, 10, 0);
  check_address(g.locate(9), 0, 0, 9, 10, 9);
  check_address(g.locate(13), 0, 1, 3, 10, 5);  // offset 2: (2 + 3) mod 10
  check_address(g.locate(27), 1, 0, 7, 10, 2);  // offset 5: (5 + 7) mod 10
  check_address(g.locate(39), 1, 1, 9, 10, 6);  // offset 7: (7 + 9) mod 10
  check_address(g.locate(40), 2, 0, 0, 8, 2);   // zone 1 starts; offset 10: 10 mod 8
  check_address(g.locate(50), 2, 1, 2, 8, 6);   // offset 12: (12 + 2) mod 8
  check_address(g.locate(71), 3, 1, 7, 8, 0);   // last block; offset 17: (17 + 7) mod 8
  CHECK(g.slot_of(3, 1, 7) == 0);
}

TEST_CASE("DiskGeometry without skew puts sector s in slot s", "[predictor][geometry]") {
  const DiskGeometry g(100, 2, {Zone{0, 100, 10}}, 0, 0);
  CHECK(g.capacity_blocks() == 2000);
  check_address(g.locate(1234), 61, 1, 4, 10, 4);  // track 123 = cylinder 61 head 1
  check_address(g.locate(1999), 99, 1, 9, 10, 9);
}

TEST_CASE("DiskGeometry rejects out-of-range LBNs and malformed zones", "[predictor][geometry]") {
  const DiskGeometry g = zoned_geometry();
  CHECK_THROWS_AS(g.locate(72), std::out_of_range);
  CHECK_THROWS_AS(g.locate(~std::uint64_t{0}), std::out_of_range);
  CHECK_THROWS_AS(DiskGeometry(0, 2, {Zone{0, 1, 10}}, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(DiskGeometry(4, 0, {Zone{0, 4, 10}}, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(DiskGeometry(4, 2, {}, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(DiskGeometry(4, 2, {Zone{0, 2, 10}, Zone{3, 1, 8}}, 0, 0), std::invalid_argument);  // gap
  CHECK_THROWS_AS(DiskGeometry(4, 2, {Zone{0, 3, 10}}, 0, 0), std::invalid_argument);                 // short
  CHECK_THROWS_AS(DiskGeometry(4, 2, {Zone{0, 4, 0}}, 0, 0), std::invalid_argument);                  // 0 spt
}

TEST_CASE("SeekTable interpolates and extrapolates linearly", "[predictor][seek]") {
  const SeekTable t({1, 10, 100}, {ms(1), ms(4), ms(13)});
  CHECK(t(0) == Time{0});
  CHECK(t(1) == ms(1));  // samples exactly
  CHECK(t(10) == ms(4));
  CHECK(t(100) == ms(13));
  CHECK(t(4) == ms(2));                // 1 + 3 * (4-1)/(10-1)
  CHECK(t(55) == us(8500));            // 4 + 9 * (55-10)/(100-10)
  CHECK(t(200) == ms(23));             // beyond the last sample: 4 + 9 * (200-10)/90
  CHECK(t(2) == Time{1'333'333'333});  // 1 + 3/9 ms, rounded to the nearest ps

  // Below the first sample: extrapolated from the first two.
  const SeekTable low({5, 10}, {ms(5), ms(10)});
  CHECK(low(1) == ms(1));
  CHECK(low(20) == ms(20));
  // Halves round up.
  const SeekTable half({1, 3}, {Time{0}, Time{1}});
  CHECK(half(2) == Time{1});
  // One sample: constant for every distance >= 1.
  const SeekTable one({7}, {ms(3)});
  CHECK(one(1) == ms(3));
  CHECK(one(500) == ms(3));
  CHECK(one(0) == Time{0});
}

TEST_CASE("SeekTable rejects malformed samples", "[predictor][seek]") {
  CHECK_THROWS_AS(SeekTable({}, {}), std::invalid_argument);
  CHECK_THROWS_AS(SeekTable({1, 2}, {ms(1)}), std::invalid_argument);
  CHECK_THROWS_AS(SeekTable({0, 2}, {ms(1), ms(2)}), std::invalid_argument);
  CHECK_THROWS_AS(SeekTable({3, 3}, {ms(1), ms(2)}), std::invalid_argument);
  CHECK_THROWS_AS(SeekTable({3, 2}, {ms(1), ms(2)}), std::invalid_argument);
}

TEST_CASE("rotational_wait waits for the slot's leading edge", "[predictor][rotation]") {
  const Time T = ms(10);  // 10 slots: slot s starts at phase s ms
  CHECK(rotational_wait(Time{0}, Time{0}, T, 0, 10) == Time{0});
  CHECK(rotational_wait(Time{0}, Time{0}, T, 3, 10) == ms(3));
  CHECK(rotational_wait(ms(3), Time{0}, T, 3, 10) == Time{0});
  CHECK(rotational_wait(us(3500), Time{0}, T, 3, 10) == us(9500));  // just missed it
  CHECK(rotational_wait(ms(25), Time{0}, T, 1, 10) == ms(6));       // phase 5 ms
  CHECK(rotational_wait(Time{0}, ms(2), T, 0, 10) == ms(2));        // before the origin: phase 8 ms
  CHECK(rotational_wait(ms(12), ms(2), T, 9, 10) == ms(9));
  // Slot starts are floored: period 10 ps, 3 slots start at 0, 3, 6 ps.
  CHECK(rotational_wait(Time{4}, Time{0}, Time{10}, 2, 3) == Time{2});
  CHECK(rotational_wait(Time{4}, Time{0}, Time{10}, 1, 3) == Time{9});
  CHECK(rotational_wait(Time{4}, Time{0}, Time{10}, 0, 3) == Time{6});
  CHECK(sectors_time(T, 3, 10) == ms(3));
  CHECK(sectors_time(Time{10}, 1, 3) == Time{3});
}

/// 100 cylinders, 2 heads, 10 sectors per track, optional skew, 10 ms per revolution, seek
/// samples 1 -> 1 ms, 10 -> 4 ms, 100 -> 13 ms, settle 0.2 ms, head switch 1.5 ms.
ParameterPage predictor_page(std::uint32_t track_skew = 0, std::uint32_t cylinder_skew = 0) {
  ParameterPage p;
  p.cylinders = 100;
  p.heads = 2;
  p.track_skew = track_skew;
  p.cylinder_skew = cylinder_skew;
  p.zone_count = 1;
  p.zones[0] = Zone{0, 100, 10};
  p.seek_sample_count = 3;
  p.seek_distance[0] = 1;
  p.seek_distance[1] = 10;
  p.seek_distance[2] = 100;
  p.seek_time_ps[0] = ms(1).count();
  p.seek_time_ps[1] = ms(4).count();
  p.seek_time_ps[2] = ms(13).count();
  p.rotation_period_ps = ms(10).count();
  p.head_switch_ps = us(1500).count();
  p.settle_ps = us(200).count();
  p.command_overhead_ps = us(50).count();
  p.capacity_blocks = 2000;
  return p;
}

TEST_CASE("ParameterPage rebuilds its geometry and seek table", "[predictor][page]") {
  const ParameterPage p = predictor_page(2, 3);
  const DiskGeometry g = p.geometry();
  CHECK(g.cylinders() == 100);
  CHECK(g.heads() == 2);
  CHECK(g.track_skew() == 2);
  CHECK(g.cylinder_skew() == 3);
  CHECK(g.capacity_blocks() == 2000);
  const SeekTable t = p.seek_table();
  CHECK(t.distances() == std::vector<std::uint32_t>{1, 10, 100});
  CHECK(t(55) == us(8500));  // without settle

  ParameterPage bad = p;
  bad.header.magic = 0;
  CHECK_THROWS_AS(bad.geometry(), std::invalid_argument);
  bad = p;
  bad.header.version = 1;  // the layout before the device-kind header
  CHECK_THROWS_AS(bad.geometry(), std::invalid_argument);
  bad = p;
  bad.header.kind = DeviceKind::Mems;  // another device's page is not a disk's
  CHECK_THROWS_AS(bad.geometry(), std::invalid_argument);
  bad = p;
  bad.zone_count = 0;
  CHECK_THROWS_AS(bad.geometry(), std::invalid_argument);
  bad = p;
  bad.seek_sample_count = ParameterPage::kMaxSeekSamples + 1;
  CHECK_THROWS_AS(bad.seek_table(), std::invalid_argument);
}

TEST_CASE("DiskPredictor seek rule: head switch, seek plus settle, overlap", "[predictor]") {
  const DiskPredictor pr(predictor_page(), Time{0});
  CHECK(pr.rotation_period() == ms(10));
  CHECK(pr.command_overhead() == us(50));
  CHECK(pr.capacity_blocks() == 2000);
  const HeadPosition at50{50, 0};
  CHECK(pr.seek_time(at50, 50, 0) == Time{0});                  // same track
  CHECK(pr.seek_time(at50, 50, 1) == us(1500));                 // head switch only
  CHECK(pr.seek_time(at50, 51, 0) == us(1200));                 // seek(1) + settle
  CHECK(pr.seek_time(at50, 51, 1) == us(1500));                 // max(1.2 ms, head switch 1.5 ms)
  CHECK(pr.seek_time(at50, 60, 1) == us(4200));                 // max(seek(10) + settle, head switch)
  CHECK(pr.seek_time(at50, 40, 0) == us(4200));                 // symmetric
  CHECK(pr.seek_time(HeadPosition{50, 1}, 54, 0) == us(2200));  // seek(4) = 2 ms, + settle
}

TEST_CASE("DiskPredictor adds the rotational latency after the seek", "[predictor]") {
  const DiskPredictor pr(predictor_page(), Time{0});
  // From cylinder 0 at t = 0 to cylinder 10 head 0: seek 4.2 ms, arriving at phase 4.2 ms.
  Prediction p = pr.predict(HeadPosition{0, 0}, Time{0}, 200 + 5, Op::Read);  // sector 5: starts at 5 ms
  CHECK(p.target.cylinder == 10);
  CHECK(p.target.head == 0);
  CHECK(p.target.sector == 5);
  CHECK(p.seek == us(4200));
  CHECK(p.rotation == us(800));
  CHECK(p.positioning() == ms(5));
  p = pr.predict(HeadPosition{0, 0}, Time{0}, 200 + 2, Op::Read);  // sector 2 just passed: wait to 12 ms
  CHECK(p.rotation == us(7800));
  CHECK(p.positioning() == ms(12));
  // Same track at t = 25 ms (phase 5 ms): sector 5 is under the head, sector 4 a revolution away.
  CHECK(pr.predict(HeadPosition{10, 0}, ms(25), 205, Op::Read).positioning() == Time{0});
  CHECK(pr.predict(HeadPosition{10, 0}, ms(25), 204, Op::Read).positioning() == ms(9));

  // The phase origin shifts the spindle: at origin 1 ms, slot 5 passes at 6 ms.
  const DiskPredictor shifted(predictor_page(), ms(1));
  p = shifted.predict(HeadPosition{0, 0}, Time{0}, 205, Op::Read);
  CHECK(p.seek == us(4200));
  CHECK(p.rotation == us(1800));
}

TEST_CASE("DiskPredictor uses the skewed slot", "[predictor]") {
  // Track skew 2, cylinder skew 3: cylinder 1 head 0 sector 0 sits in slot 5, head 1 in slot 7.
  const DiskPredictor pr(predictor_page(2, 3), Time{0});
  Prediction p = pr.predict(HeadPosition{1, 0}, Time{0}, 20, Op::Read);
  CHECK(p.target.slot == 5);
  CHECK(p.seek == Time{0});
  CHECK(p.rotation == ms(5));
  p = pr.predict(HeadPosition{1, 0}, Time{0}, 30, Op::Read);  // head switch 1.5 ms, slot 7 at 7 ms
  CHECK(p.target.slot == 7);
  CHECK(p.seek == us(1500));
  CHECK(p.rotation == us(5500));
}

TEST_CASE("DiskPredictor counts the firmware's command path around the seek", "[predictor][path]") {
  // Command path: 10 ns for a read and 40 ns for a write before the seek, 20 ns from the seek's
  // end to the channel (the controller's, docs/models/firmware.md). No skew: slot s at s ms.
  DiskPredictor pr(predictor_page(), Time{0});
  const CommandPath path{Time{10'000}, Time{40'000}, Time{20'000}};
  pr.set_command_path(path);
  CHECK(pr.command_path().to_seek(Op::Read) == Time{10'000});
  CHECK(pr.command_path().to_seek(Op::Write) == Time{40'000});
  // Same track, sector 5 due at 5 ms; the decision is 25 ns before it. A read's seek (of 0)
  // starts 10 ns later and its channel 20 ns after that, 5 ns after the sector's edge: the sector
  // is a revolution away, at 15 ms. Without the path it would be predicted 25 ns away.
  const Time start = ms(5) - Time{25'000};
  Prediction p = pr.predict(HeadPosition{10, 0}, start, 205, Op::Read);
  CHECK(p.lead == Time{10'000});
  CHECK(p.seek == Time{0});
  CHECK(p.rotation == ms(10) + Time{15'000});  // seek end 5 ms - 15 ns to 15 ms
  CHECK(p.positioning() == ms(10) + Time{15'000});
  CHECK(p.access() == ms(10) + Time{25'000});  // 5 ms - 25 ns to 15 ms
  // 35 ns before the sector the read is in time: the channel starts 5 ns before the edge.
  p = pr.predict(HeadPosition{10, 0}, ms(5) - Time{35'000}, 205, Op::Read);
  CHECK(p.rotation == Time{25'000});  // 20 ns path + 5 ns wait
  CHECK(p.access() == Time{35'000});
  // A write's 40 ns lead misses it from there: seek at 5 ms + 5 ns, channel at 5 ms + 25 ns.
  p = pr.predict(HeadPosition{10, 0}, ms(5) - Time{35'000}, 205, Op::Write);
  CHECK(p.lead == Time{40'000});
  CHECK(p.rotation == ms(10) - Time{5'000});  // 5 ms + 5 ns to 15 ms
  CHECK(p.access() == ms(10) + Time{35'000});
  // With a seek: cylinder 0 -> 10 head 0 (4.2 ms incl. settle), deciding at 0: the seek starts at
  // 10 ns and ends at 4.2 ms + 10 ns, the channel starts 20 ns later, sector 5 passes at 5 ms.
  p = pr.predict(HeadPosition{0, 0}, Time{0}, 205, Op::Read);
  CHECK(p.seek == us(4200));
  CHECK(p.rotation == us(800) - Time{10'000});
  CHECK(p.positioning() == ms(5) - Time{10'000});
  CHECK(p.access() == ms(5));

  // rotation_after_seek is the rotation predict() adds after a seek ending at start + lead + seek.
  for (const Time s : {Time{0}, ms(5) - Time{35'000}, ms(17) + Time{3}})
    for (const std::uint64_t lbn : {std::uint64_t{205}, std::uint64_t{1999}})
      for (const Op op : {Op::Read, Op::Write}) {
        p = pr.predict(HeadPosition{3, 1}, s, lbn, op);
        CHECK(pr.rotation_after_seek(s + p.lead + p.seek, p.target) == p.rotation);
      }
  // Seek ending 15 ns before sector 5's edge: 20 ns to the channel, a revolution less 5 ns.
  CHECK(pr.rotation_after_seek(ms(5) - Time{15'000}, pr.locate(205)) == Time{20'000} + ms(10) - Time{5'000});

  CHECK_THROWS_AS(pr.set_command_path(CommandPath{Time{-1}, Time{0}, Time{0}}), std::invalid_argument);
  CHECK_THROWS_AS(pr.predict(HeadPosition{0, 0}, Time{0}, 2000, Op::Read), std::out_of_range);
}

TEST_CASE("DiskPredictor's locate memo and seek tabulation give the layout's and the table's values",
          "[predictor][memo]") {
  // predictor_page's disk widened to 300 cylinders (6000 blocks): LBNs 0 and 4181 share a memo
  // slot, and distances beyond the last seek sample (100) are extrapolated.
  ParameterPage page = predictor_page(2, 3);
  page.cylinders = 300;
  page.zones[0] = Zone{0, 300, 10};
  page.capacity_blocks = 6000;
  const DiskPredictor pr(page, Time{0});
  const DiskGeometry g = page.geometry();
  const SeekTable t = page.seek_table();
  auto same = [](const PhysicalAddress& a, const PhysicalAddress& b) {
    return a.cylinder == b.cylinder && a.head == b.head && a.sector == b.sector &&
           a.sectors_per_track == b.sectors_per_track && a.slot == b.slot;
  };
  // Every LBN, twice (the second from the memo), and in reverse order.
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint64_t l = 0; l < 6000; ++l) CHECK(same(pr.locate(l), g.locate(l)));
  for (std::uint64_t l = 6000; l-- > 0;) CHECK(same(pr.locate(l), g.locate(l)));
  // Two LBNs sharing a memo slot (the slot is the top 13 bits of lbn * 0x9E3779B97F4A7C15),
  // alternately: each evicts the other and both stay right.
  auto slot = [](std::uint64_t l) { return (l * 0x9E3779B97F4A7C15ULL) >> (64 - DiskPredictor::kLocateCacheBits); };
  std::vector<std::uint64_t> first(DiskPredictor::kLocateCacheEntries, UINT64_MAX);
  std::uint64_t a = 0, b = 0;
  for (std::uint64_t l = 0; l < 6000 && b == 0; ++l) {
    if (first[slot(l)] != UINT64_MAX) a = first[slot(l)], b = l;
    first[slot(l)] = l;
  }
  REQUIRE(b > a);
  for (int i = 0; i < 3; ++i) {
    CHECK(same(pr.locate(a), g.locate(a)));
    CHECK(same(pr.locate(b), g.locate(b)));
  }
  CHECK(pr.sweep_coordinate(b) == g.locate(b).cylinder);
  // Out of range: thrown, nothing cached.
  CHECK_THROWS_AS(pr.locate(6000), std::out_of_range);
  CHECK_THROWS_AS(pr.locate(6000), std::out_of_range);
  // The tabulated seek curve: the table's value plus settle at every distance the disk has.
  for (std::uint32_t d = 1; d < 300; ++d) CHECK(pr.seek_time(HeadPosition{0, 0}, d, 0) == t(d) + us(200));
}

TEST_CASE("DiskPredictor rejects a page without a rotation period", "[predictor]") {
  ParameterPage p = predictor_page();
  p.rotation_period_ps = 0;
  CHECK_THROWS_AS(DiskPredictor(p, Time{0}), std::invalid_argument);
}

}  // namespace
}  // namespace drivevp
