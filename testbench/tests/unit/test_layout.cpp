// Unit tests of the zoned layout with spares, slips, front space, per-zone skews and mapping
// schemes (DiskGeometry's full constructor, tlm_bus/param_page.h; docs/models/drives.md), of the
// seek forms (SeekTable, positioning_seek with the write settle). The expected positions are
// derived in each test from the sparing rule it exercises: the physical sectors of a zone (or of a
// track, cylinder or range) in order, minus the spares and the slipped ones, hold the LBNs in order.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "tlm_bus/param_page.h"

namespace drivevp {
namespace {

constexpr Time us(std::int64_t v) { return Time{v * 1'000'000}; }

struct Pos {
  std::uint32_t cylinder, head, sector;
};

/// Physical position of zone-relative physical sector `pos` (cylinder-major, surfaces in order).
Pos physical(const Zone& z, std::uint32_t heads, std::uint64_t pos) {
  const std::uint64_t per_cyl = std::uint64_t{z.sectors_per_track} * heads;
  return {z.first_cylinder + static_cast<std::uint32_t>(pos / per_cyl),
          static_cast<std::uint32_t>((pos / z.sectors_per_track) % heads),
          static_cast<std::uint32_t>(pos % z.sectors_per_track)};
}

void check_at(const DiskGeometry& g, std::uint64_t lbn, Pos want) {
  INFO("LBN " << lbn);
  const PhysicalAddress a = g.locate(lbn);
  CHECK(a.cylinder == want.cylinder);
  CHECK(a.head == want.head);
  CHECK(a.sector == want.sector);
}

/// Every LBN of a one-zone layout against `usable`: the zone's physical sectors that hold blocks,
/// in order (derived by the caller from the sparing rule).
void check_all(const DiskGeometry& g, const std::vector<std::uint64_t>& usable) {
  REQUIRE(g.capacity_blocks() == usable.size());
  const Zone& z = g.zones()[0];
  for (std::uint64_t lbn = 0; lbn < usable.size(); ++lbn) check_at(g, lbn, physical(z, g.heads(), usable[lbn]));
}

Zone zone(std::uint32_t first, std::uint32_t cylinders, std::uint32_t spt) {
  Zone z;
  z.first_cylinder = first;
  z.cylinders = cylinders;
  z.sectors_per_track = spt;
  return z;
}

LayoutRules rules(SparingScheme s, std::uint32_t range = 1) {
  LayoutRules r;
  r.sparing = s;
  r.range_size = range;
  r.skew_origin = SkewOrigin::Zone;
  return r;
}

TEST_CASE("Sector-per-track sparing: the last spares of each track hold no block, slips push within the track",
          "[layout]") {
  // 3 cylinders x 2 heads x 10 sectors, 2 spares per track: 8 blocks per track, 48 in all.
  // A slip at physical sector 3 (track 0) moves blocks 3..7 one sector on, into the spare area.
  Zone z = zone(0, 3, 10);
  z.spares = 2;
  z.slip_count = 1;
  const DiskGeometry g(3, 2, {z}, 0, 0, rules(SparingScheme::SectorPerTrack), {3}, {}, 0);
  std::vector<std::uint64_t> usable;
  for (std::uint64_t track = 0; track < 6; ++track) {
    std::uint64_t taken = 0;
    for (std::uint64_t s = 0; s < 10 && taken < 8; ++s) {
      if (track * 10 + s == 3) continue;  // slipped
      usable.push_back(track * 10 + s);
      ++taken;
    }
  }
  check_all(g, usable);
  check_at(g, 3, {0, 0, 4});
  check_at(g, 7, {0, 0, 8});
  check_at(g, 8, {0, 1, 0});  // the spare boundary: next track
  CHECK(g.mapped_blocks() == 48);
}

TEST_CASE("Track sparing: spare tracks at the zone's end, slipped tracks skipped, front space first", "[layout]") {
  // 3 cylinders x 2 heads x 10 sectors, 1 spare track, track 1 slipped, 10 sectors of front space:
  // 60 - 10 - 10 = 40 blocks; block 0 is the first sector after the front space (track 1, which is
  // slipped: the rule skips it, so track 2).
  Zone z = zone(0, 3, 10);
  z.spares = 1;
  z.front_space = 10;
  z.slip_count = 1;
  const DiskGeometry g(3, 2, {z}, 0, 0, rules(SparingScheme::Track), {1}, {}, 0);
  CHECK(g.capacity_blocks() == 40);
  // Logical tracks (front space counted) 1.. map to physical tracks skipping track 1.
  std::vector<std::uint64_t> usable;
  for (std::uint64_t t = 2; t < 6; ++t)
    for (std::uint64_t s = 0; s < 10; ++s) usable.push_back(t * 10 + s);
  check_all(g, usable);
  check_at(g, 0, {1, 0, 0});
  check_at(g, 39, {2, 1, 9});
}

TEST_CASE("Sector-at-end sparing: every slip shifts the rest of the zone, across cylinders", "[layout]") {
  // 3 cylinders x 2 heads x 10 sectors, slips at 5 and 25: 58 blocks, the k-th block on the k-th
  // non-slipped physical sector.
  const Zone z = [] {
    Zone x = zone(0, 3, 10);
    x.slip_count = 2;
    return x;
  }();
  const DiskGeometry g(3, 2, {z}, 0, 0, rules(SparingScheme::SectorAtEnd), {5, 25}, {}, 0);
  std::vector<std::uint64_t> usable;
  for (std::uint64_t p = 0; p < 60; ++p)
    if (p != 5 && p != 25) usable.push_back(p);
  check_all(g, usable);
  check_at(g, 19, {1, 0, 0});  // pushed over the cylinder boundary by the slip at 5
  CHECK(g.mapped_blocks() == 58);
}

TEST_CASE("Sector-per-range sparing: spares at the end of each range of cylinders, slips within the range",
          "[layout]") {
  // 4 cylinders x 2 heads x 5 sectors, ranges of 2 cylinders (20 sectors), 3 spares per range:
  // 17 blocks per range, 34 in all; a slip at 7 shifts blocks 7..16 of range 0.
  Zone z = zone(0, 4, 5);
  z.spares = 3;
  z.slip_count = 1;
  const DiskGeometry g(4, 2, {z}, 0, 0, rules(SparingScheme::SectorPerRange, 2), {7}, {}, 0);
  std::vector<std::uint64_t> usable;
  for (std::uint64_t r = 0; r < 2; ++r) {
    std::uint64_t taken = 0;
    for (std::uint64_t p = r * 20; p < r * 20 + 20 && taken < 17; ++p) {
      if (p == 7) continue;
      usable.push_back(p);
      ++taken;
    }
  }
  check_all(g, usable);
  check_at(g, 17, {2, 0, 0});  // first block of range 1
  CHECK(g.mapped_blocks() == 34);
}

TEST_CASE("Sector-per-cylinder sparing: the last spares of each cylinder, remapped defects", "[layout]") {
  // 2 cylinders x 2 heads x 5 sectors, 1 spare per cylinder: 9 blocks per cylinder. The defect at
  // physical 2 is remapped to the spare at 9: block 2 lives at 9, block 3 at 3.
  Zone z = zone(0, 2, 5);
  z.spares = 1;
  z.defect_count = 1;
  const DiskGeometry g(2, 2, {z}, 0, 0, rules(SparingScheme::SectorPerCylinder), {}, {{2, 9}}, 0);
  CHECK(g.capacity_blocks() == 18);
  check_at(g, 1, {0, 0, 1});
  check_at(g, 2, {0, 1, 4});  // physical 9 = head 1 sector 4
  check_at(g, 3, {0, 0, 3});
  check_at(g, 9, {1, 0, 0});  // next cylinder
  // The run from block 0 stops before the remapped block; from 3 it runs to the track's end.
  CHECK(g.run_blocks(0, 100) == 2);
  CHECK(g.run_blocks(3, 100) == 2);
}

TEST_CASE("Zones with their own skews counted from each zone's first cylinder", "[layout]") {
  // Zone 0: cylinders 0-1, 10 spt, track skew 2, cylinder skew 3, offset 0.
  // Zone 1: cylinders 3-4 (cylinder 2 holds no block), 8 spt, track skew 1, cylinder skew 5,
  // first-block offset 4. Slot = (offset + switches * ts + cz * cs + sector) mod spt with
  // switches = head + (heads - 1) * cz.
  Zone a = zone(0, 2, 10);
  a.track_skew = 2;
  a.cylinder_skew = 3;
  Zone b = zone(3, 2, 8);
  b.track_skew = 1;
  b.cylinder_skew = 5;
  b.first_block_offset = 4;
  const DiskGeometry g(5, 2, {a, b}, 0, 0, rules(SparingScheme::None), {}, {}, 0);
  CHECK(g.capacity_blocks() == 40 + 32);
  CHECK(g.zone_first_lbn(1) == 40);
  CHECK(g.locate(0).slot == 0);
  CHECK(g.locate(10).slot == 2);             // head 1: one track switch
  CHECK(g.locate(20).slot == (2 + 3) % 10);  // cylinder 1 head 0: one switch + one cylinder skew
  PhysicalAddress z1 = g.locate(40);
  CHECK(z1.cylinder == 3);
  CHECK(z1.slot == 4);                          // the zone's own offset, not the cumulative skew
  CHECK(g.locate(48).slot == (4 + 1) % 8);      // head 1
  CHECK(g.locate(56).slot == (4 + 1 + 5) % 8);  // cylinder 4 head 0
  CHECK(g.locate(57).slot == (4 + 1 + 5 + 1) % 8);
  CHECK(g.sectors_per_track(2) == 10);  // between zones: the previous zone's
}

TEST_CASE("Mapping scheme 1 reverses the surfaces on odd cylinders of a zone", "[layout]") {
  Zone z = zone(0, 2, 4);
  LayoutRules r = rules(SparingScheme::None);
  r.mapping = LbnMapping::CylSwitchOnSurface1;
  const DiskGeometry g(2, 3, {z}, 0, 0, r, {}, {}, 0);
  check_at(g, 4, {0, 1, 0});
  check_at(g, 12, {1, 2, 0});  // cylinder 1 starts on the last surface
  check_at(g, 20, {1, 0, 0});
}

TEST_CASE("The presets' layout is unchanged: skew from cylinder 0, zones tiling", "[layout]") {
  // The HP 97560: 72 spt, 19 heads, track skew 8, cylinder skew 18: slot = (c*(18*8+18) + 8h + s) % 72.
  const DiskGeometry g(1962, 19, {Zone{0, 1962, 72}}, 8, 18);
  for (std::uint64_t lbn : {0ull, 71ull, 72ull, 1368ull, 1369ull, 100'000ull, 2'684'015ull}) {
    const PhysicalAddress a = g.locate(lbn);
    CHECK(a.slot == (a.cylinder * 162u + a.head * 8u + a.sector) % 72u);
    CHECK(a.cylinder == lbn / 1368);
  }
  CHECK(g.capacity_blocks() == 1962ull * 19 * 72);
  CHECK_THROWS_AS(DiskGeometry(10, 2, {Zone{0, 5, 10}, Zone{6, 4, 10}}, 0, 0), std::invalid_argument);
}

TEST_CASE("A block count below the mapped blocks exposes that many; above is an error", "[layout]") {
  const Zone z = zone(0, 2, 10);
  const DiskGeometry g(2, 2, {z}, 0, 0, rules(SparingScheme::None), {}, {}, 30);
  CHECK(g.capacity_blocks() == 30);
  CHECK(g.mapped_blocks() == 40);
  CHECK_THROWS_AS(g.locate(30), std::out_of_range);
  CHECK_THROWS_AS(DiskGeometry(2, 2, {z}, 0, 0, rules(SparingScheme::None), {}, {}, 41), std::invalid_argument);
}

TEST_CASE("A slip inside a track breaks the run the head reads in one pass", "[layout]") {
  Zone z = zone(0, 1, 10);
  z.slip_count = 1;
  const DiskGeometry g(1, 1, {z}, 0, 0, rules(SparingScheme::SectorAtEnd), {4}, {}, 0);
  CHECK(g.run_blocks(0, 100) == 4);  // sectors 0-3, then the slipped 4
  CHECK(g.run_blocks(4, 100) == 5);  // sectors 5-9
  CHECK(g.run_blocks(4, 2) == 2);
}

TEST_CASE("Seek table: exact at samples, linear between, extrapolated past the last", "[layout][seek]") {
  // DiskSim's .seek semantics (dm_mech_g1_seek_extracted).
  const SeekTable t({1, 5, 10}, {us(1000), us(2000), us(4000)});
  CHECK(t(0) == Time{0});
  CHECK(t(1) == us(1000));
  CHECK(t(5) == us(2000));
  CHECK(t(3) == us(1500));  // 1000 + (3-1) * 1000/4
  CHECK(t(7) == us(2800));  // 2000 + 2 * 2000/5
  CHECK(t(10) == us(4000));
  CHECK(t(15) == us(6000));  // past the last: the last two samples' slope, 400 us per cylinder
}

TEST_CASE("Write settle: added to a write's non-zero positioning, may be negative, never below 0", "[layout][seek]") {
  auto seek = [](std::uint32_t d) { return us(1000 * d); };
  CHECK(positioning_seek(0, false, seek, Time{0}, us(900), us(-500)) == Time{0});  // no move: nothing to settle
  CHECK(positioning_seek(0, true, seek, Time{0}, us(900), us(-500)) == us(400));   // head switch - 0.5 ms
  CHECK(positioning_seek(2, false, seek, Time{0}, us(900), us(650)) == us(2650));
  CHECK(positioning_seek(1, true, seek, Time{0}, us(1500), us(-2000)) == Time{0});  // clamped
  CHECK(positioning_seek(2, false, seek, Time{0}, us(900)) == us(2000));            // a read: none
}

}  // namespace
}  // namespace drivevp
