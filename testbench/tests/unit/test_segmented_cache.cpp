// The firmware's segmented cache bookkeeping (firmware/cache/segmented_cache.h): hit detection,
// read-ahead sizing, LRU replacement, the write segment and coherence after writes.
#include <catch2/catch_test_macros.hpp>

#include <stdexcept>

#include "firmware/cache/segmented_cache.h"

namespace drivevp {
namespace {

CacheParams params(std::uint32_t segments, std::uint32_t size, std::uint32_t max_ra, bool over) {
  CacheParams p;
  p.enabled = true;
  p.segments = segments;
  p.segment_blocks = size;
  p.max_read_ahead = max_ra;
  p.read_ahead_over_requested = over;
  return p;
}

TEST_CASE("segmented cache: a miss reads the request and its read-ahead into the LRU segment", "[unit][cache]") {
  SegmentedCache c(params(2, 64, 16, true));
  const SegmentedCache::ReadPlan p = c.plan_read(1000, 8, 1'000'000);
  CHECK(p.segment == 0);
  CHECK(p.hit_blocks == 0);
  CHECK(p.buffer_block == 0);
  CHECK(p.media_lbn == 1000);
  CHECK(p.requested_media_blocks == 8);
  CHECK(p.media_blocks == 8 + 16);  // over requested: 16 past the request's end
  // Nothing is valid until the media read fills it.
  CHECK(c.lookup(1000, 8).hit_blocks == 0);
  c.filled(p, 20);
  CHECK(c.lookup(1000, 8).hit_blocks == 8);
  CHECK(c.full_hit(1008, 8));
  CHECK(c.lookup(1016, 8).hit_blocks == 4);  // a partial hit: blocks 1016..1019
  // The next miss takes the other segment (least recently used), at buffer block 80: a segment's
  // region is its 64 blocks plus room for the 16 blocks of read-ahead past a request.
  const SegmentedCache::ReadPlan q = c.plan_read(5000, 4, 1'000'000);
  CHECK(q.segment == 1);
  CHECK(q.buffer_block == 80);
}

TEST_CASE("segmented cache: a read starting in a running pass's blocks joins it", "[unit][cache][join]") {
  // Segment 1's miss at 5000 reads 5000..5023 (8 + 16 read ahead) into buffer blocks 80..103; 12
  // blocks are in when a read of 5010..5019 joins: all of it from the buffer at block 80 + 10, no
  // media of its own; the segment becomes the most recently used (after a hit on segment 0, the
  // next miss takes segment 0) and the pass's blocks count as they are filled.
  SegmentedCache c(params(2, 64, 16, true));
  c.filled(c.plan_read(1000, 8, 1'000'000), 24);
  const SegmentedCache::ReadPlan pass = c.plan_read(5000, 8, 1'000'000);
  REQUIRE(pass.segment == 1);
  c.filled(pass, 12);
  REQUIRE(c.plan_read(1000, 8, 1'000'000).media_blocks == 0);  // a full hit: segment 0 most recently used
  const SegmentedCache::ReadPlan j = c.join(pass, 5010, 10, 1'000'000);
  CHECK(j.segment == 1);
  CHECK(j.hit_blocks == 10);
  CHECK(j.media_blocks == 0);
  CHECK(j.buffer_block == 80 + 10);
  c.filled(pass, 24);
  CHECK(c.full_hit(5010, 10));
  CHECK(c.plan_read(9000, 4, 1'000'000).segment == 0);
  // Not in the segment, or past the pass: not a join.
  CHECK_THROWS_AS(c.join(pass, 4990, 12, 1'000'000), std::logic_error);
  CHECK_THROWS_AS(c.join(pass, 5020, 8, 1'000'000), std::logic_error);
}

TEST_CASE("segmented cache: may_hold bounds what a running pass's segment can hit, whatever it has read",
          "[unit][cache]") {
  // Segment 1's miss at 5000 reads 5000..5023 (8 + 16 read ahead). Whatever filled() is told
  // (0 to 24 blocks), a lookup can hit it only in [5000, 5024): may_hold is true exactly there,
  // before any block is in and after all are; a pass without a segment holds nothing.
  SegmentedCache c(params(2, 64, 16, true));
  c.filled(c.plan_read(1000, 8, 1'000'000), 24);
  const SegmentedCache::ReadPlan pass = c.plan_read(5000, 8, 1'000'000);
  REQUIRE(pass.segment == 1);
  REQUIRE(pass.media_blocks == 24);
  for (const std::uint32_t filled : {0u, 12u, 24u}) {
    c.filled(pass, filled);
    CHECK_FALSE(c.may_hold(pass, 4999));
    CHECK(c.may_hold(pass, 5000));
    CHECK(c.may_hold(pass, 5023));
    CHECK_FALSE(c.may_hold(pass, 5024));
    CHECK_FALSE(c.may_hold(pass, 1000));  // segment 0's blocks: not this pass's segment
    // Where may_hold is false, no count filled() is told makes the segment hit.
    CHECK(c.lookup(5024, 1).segment != 1);
  }
  CHECK(c.lookup(5023, 1).segment == 1);
  SegmentedCache::ReadPlan bypass = pass;
  bypass.segment = -1;
  CHECK_FALSE(c.may_hold(bypass, 5000));
}

TEST_CASE("segmented cache: read-ahead per DiskSim's maximum, minimum and over-requested rules", "[unit][cache]") {
  // A maximum read-ahead counts past the request's end, over requested or not.
  SegmentedCache a(params(1, 64, 16, false));
  CHECK(a.plan_read(0, 4, 1'000'000).media_blocks == 4 + 16);
  SegmentedCache b(params(1, 64, 16, false));
  CHECK(b.plan_read(0, 20, 1'000'000).media_blocks == 20 + 16);
  // A maximum below the minimum is raised to the minimum.
  CacheParams raised = params(1, 64, 4, true);
  raised.min_read_ahead = 12;
  SegmentedCache m(raised);
  CHECK(m.plan_read(0, 8, 1'000'000).media_blocks == 8 + 12);
  // Without a maximum: a segment's worth from the request's start (the segment keeps the
  // request), nothing past a request of a segment's size ...
  SegmentedCache c(params(1, 64, 0, false));
  CHECK(c.plan_read(10, 20, 1'000'000).media_blocks == 64);
  SegmentedCache d(params(1, 64, 0, false));
  CHECK(d.plan_read(10, 64, 1'000'000).media_blocks == 64);
  // ... or, over requested, a segment's worth past the request's end.
  SegmentedCache o(params(1, 64, 0, true));
  CHECK(o.plan_read(10, 20, 1'000'000).media_blocks == 20 + 64);
  // The read-ahead is not cut at the segment's size: the segment is a ring that keeps the last 64
  // blocks read (44..107), the request's scrolled out.
  SegmentedCache e(params(1, 64, 100, true));
  const SegmentedCache::ReadPlan ring = e.plan_read(0, 8, 1'000'000);
  CHECK(ring.media_blocks == 108);
  e.filled(ring, 108);
  CHECK(e.lookup(0, 8).hit_blocks == 0);
  CHECK(e.full_hit(44, 64));
  CHECK_FALSE(e.full_hit(43, 1));
  // It stops at the capacity.
  SegmentedCache f(params(1, 64, 100, true));
  CHECK(f.plan_read(999'990, 8, 1'000'000).media_blocks == 10);
}

TEST_CASE("segmented cache: a partial hit continues in its segment, a full hit moves no media", "[unit][cache]") {
  SegmentedCache c(params(1, 64, 8, true));
  c.filled(c.plan_read(100, 8, 1'000'000), 12);  // 100..111
  const SegmentedCache::ReadPlan hit = c.plan_read(104, 8, 1'000'000);
  CHECK(hit.media_blocks == 0);
  CHECK(hit.buffer_block == 4);
  const SegmentedCache::ReadPlan partial = c.plan_read(108, 8, 1'000'000);
  CHECK(partial.segment == 0);
  CHECK(partial.hit_blocks == 4);
  CHECK(partial.buffer_block == 8);
  CHECK(partial.media_lbn == 112);
  CHECK(partial.requested_media_blocks == 4);
  CHECK(partial.media_blocks == 4 + 8);
  // The segment's region (16 blocks and 16 of read-ahead room: 32) is a ring: a partial hit whose
  // rest and read-ahead pass the region's end (from 100: block 132) continues in it, wrapping.
  SegmentedCache d(params(1, 16, 0, true));
  d.filled(d.plan_read(100, 8, 1'000'000), 24);  // 100..123, of which 108..123 are kept
  const SegmentedCache::ReadPlan wraps = d.plan_read(120, 16, 1'000'000);
  CHECK(wraps.hit_blocks == 4);
  CHECK(wraps.buffer_block == 20);
  CHECK(wraps.media_lbn == 124);
  CHECK(wraps.media_blocks == 136 + 16 - 124);               // a segment's worth past the request
  CHECK(d.contiguous_blocks(wraps.buffer_block, 16) == 12);  // 120..131; 132..135 at the ring's start
  SegmentedCache e(params(1, 16, 0, true));
  e.filled(e.plan_read(100, 16, 1'000'000), 32);  // 100..131, of which 116..131 are kept
  const SegmentedCache::ReadPlan restart = e.plan_read(128, 8, 1'000'000);
  CHECK(restart.segment == 0);
  CHECK(restart.hit_blocks == 4);
  CHECK(restart.buffer_block == 28);
  CHECK(restart.media_lbn == 132);
  CHECK(restart.media_blocks == 136 + 16 - 132);
  // A read larger than a segment bypasses the cache.
  const SegmentedCache::ReadPlan big = d.plan_read(0, 17, 1'000'000);
  CHECK(big.segment == -1);
  CHECK(big.media_blocks == 17);
}

TEST_CASE("segmented cache: writes drop stale segments and are read back from the write segment", "[unit][cache]") {
  CacheParams p = params(2, 64, 0, true);
  p.separate_write_segment = true;
  SegmentedCache c(p);
  c.filled(c.plan_read(100, 16, 1'000'000), 16);
  const SegmentedCache::WritePlan w = c.plan_write(110, 4);
  CHECK(w.segment == 2);  // the write segment, after the two read segments (regions of 64 + 64)
  CHECK(w.buffer_block == 256);
  CHECK_FALSE(c.full_hit(100, 4));  // the read segment held blocks the write changed
  CHECK(c.full_hit(110, 4));        // read hits on write data
  c.extend_write(114, 4);
  CHECK(c.full_hit(110, 8));
  CHECK_THROWS_AS(c.extend_write(200, 4), std::logic_error);
  CHECK(c.buffer_blocks() == 4 * 128);  // 2 read, 1 write, 1 bypass region
  CHECK_THROWS_AS(SegmentedCache(params(0, 64, 0, true)), std::invalid_argument);
  CHECK_THROWS_AS(SegmentedCache(params(65, 64, 0, true)), std::invalid_argument);
}

TEST_CASE("segmented cache: without read hits on write data a read of written blocks misses", "[unit][cache]") {
  CacheParams p = params(2, 64, 0, true);
  p.separate_write_segment = true;
  p.read_hits_on_write_data = false;
  SegmentedCache c(p);
  c.plan_write(110, 4);
  c.extend_write(114, 4);
  CHECK_FALSE(c.full_hit(110, 8));
  const SegmentedCache::ReadPlan r = c.plan_read(110, 8, 1'000'000);
  CHECK(r.segment == 0);  // a read segment, from the media
  CHECK(r.hit_blocks == 0);
  CHECK(r.media_blocks == 8 + 64);  // over requested: a segment's worth of read-ahead
  c.filled(r, 8);
  CHECK(c.full_hit(110, 8));  // read back from the media, it is read data
  // Without a write segment the write takes a read segment; a read finds nothing in it either.
  CacheParams q = params(1, 64, 0, true);
  q.read_hits_on_write_data = false;
  SegmentedCache d(q);
  d.filled(d.plan_read(0, 8, 1'000'000), 8);
  d.plan_write(200, 4);
  CHECK_FALSE(d.full_hit(200, 4));
  CHECK_FALSE(d.full_hit(0, 4));  // the write took the one segment
}

/// A layout of 100-block tracks, 4 tracks a cylinder: track t holds [100 t, 100 t + 100).
class HundredBlockTracks : public TrackLayout {
 public:
  std::uint64_t track_end(std::uint64_t lbn) const override { return (lbn / 100 + 1) * 100; }
  std::uint64_t cylinder_end(std::uint64_t lbn) const override { return (lbn / 400 + 1) * 400; }
  bool same_track(std::uint64_t a, std::uint64_t b) const override { return a / 100 == b / 100; }
  std::uint32_t max_track_blocks() const override { return 100; }
};

CacheParams with_mode(CacheParams p, std::uint32_t mode) {
  p.continuous_read = mode;
  return p;
}

TEST_CASE("segmented cache: the read-ahead modes of 'Buffer continuous read' end the media read", "[unit][cache]") {
  const HundredBlockTracks layout;
  // 0: no read-ahead at all.
  SegmentedCache none(with_mode(params(1, 64, 32, true), 0));
  none.set_layout(&layout);
  CHECK(none.plan_read(150, 8, 1'000'000).media_blocks == 8);
  // 1: max_read_ahead (32 past the end: 190), but not past the end of the request's last track (200).
  SegmentedCache track(with_mode(params(1, 64, 32, true), 1));
  track.set_layout(&layout);
  CHECK(track.plan_read(150, 8, 1'000'000).media_blocks == 32 + 8);  // 158 + 32 = 190 < 200
  SegmentedCache track_end(with_mode(params(1, 64, 32, true), 1));
  track_end.set_layout(&layout);
  CHECK(track_end.plan_read(180, 8, 1'000'000).media_blocks == 20);  // 188 + 32 = 220, stops at 200
  SegmentedCache at_boundary(with_mode(params(1, 64, 32, true), 1));
  at_boundary.set_layout(&layout);
  CHECK(at_boundary.plan_read(192, 8, 1'000'000).media_blocks == 8);  // the request ends the track
  // 2: the same within the cylinder (blocks 0..399).
  SegmentedCache cylinder(with_mode(params(1, 64, 32, true), 2));
  cylinder.set_layout(&layout);
  CHECK(cylinder.plan_read(180, 8, 1'000'000).media_blocks == 8 + 32);  // 220 < 400
  SegmentedCache cylinder_end(with_mode(params(1, 64, 32, true), 2));
  cylinder_end.set_layout(&layout);
  CHECK(cylinder_end.plan_read(380, 8, 1'000'000).media_blocks == 20);
  // 3: as without the key, max_read_ahead past the request (158 + 100 = 258), not cut at the
  // segment's size.
  SegmentedCache count(with_mode(params(1, 64, 100, true), 3));
  CHECK(count.plan_read(150, 8, 1'000'000).media_blocks == 108);
  // 1, 2 and 4 need the layout.
  SegmentedCache no_layout(with_mode(params(1, 64, 32, true), 1));
  CHECK_THROWS_AS(no_layout.plan_read(150, 8, 1'000'000), std::logic_error);
  CHECK_THROWS_AS(SegmentedCache(with_mode(params(1, 64, 32, true), 5)), std::invalid_argument);
}

TEST_CASE("segmented cache: read-ahead on idle hit continues from the segment's end to the larger target",
          "[unit][cache][idle-hit]") {
  CacheParams p = params(1, 64, 16, true);  // a region of 64 + 16 blocks
  p.read_ahead_on_idle_hit = true;
  SegmentedCache c(p);
  // A miss at 100 (8 blocks) reads 8 + 16 ahead, to 124 (the segment's target); stopped after 12.
  const SegmentedCache::ReadPlan miss = c.plan_read(100, 8, 1'000'000);
  REQUIRE(miss.media_blocks == 24);
  c.filled(miss, 12);  // [100, 112)
  // A full hit on 104..107 (its own target 108 + 16 = 124): from the segment's end 112 to 124.
  const SegmentedCache::ReadPlan hit = c.plan_read(104, 4, 1'000'000);
  REQUIRE(hit.hit_blocks == 4);
  REQUIRE(hit.media_blocks == 0);
  const SegmentedCache::ReadPlan ra = c.plan_hit_read_ahead(hit, 104, 4, 1'000'000);
  CHECK(ra.segment == 0);
  CHECK(ra.media_lbn == 112);
  CHECK(ra.media_blocks == 12);
  CHECK(ra.requested_media_blocks == 0);
  CHECK(ra.buffer_block == 12);                                      // after the segment's blocks
  CHECK(c.plan_hit_read_ahead(hit, 104, 4, 118).media_blocks == 6);  // bounded by the capacity
  c.filled(ra, 12);                                                  // [100, 124)
  // A hit on 116..123: its own target 124 + 16 = 140 is above the segment's 124.
  const SegmentedCache::ReadPlan hit2 = c.plan_read(116, 8, 1'000'000);
  const SegmentedCache::ReadPlan ra2 = c.plan_hit_read_ahead(hit2, 116, 8, 1'000'000);
  CHECK(ra2.media_lbn == 124);
  CHECK(ra2.media_blocks == 16);
  c.filled(ra2, 16);  // [100, 140), the segment's target 140
  // A hit on 100..103 (its own 120): the segment holds its target already.
  const SegmentedCache::ReadPlan hit3 = c.plan_read(100, 4, 1'000'000);
  CHECK(c.plan_hit_read_ahead(hit3, 100, 4, 1'000'000).media_blocks == 0);
  // A hit on 136..139 raises the target to 156 and reads it, one on 150..155 to 172; one on
  // 168..171 to 188: past the end of the segment's region (100 + 80 = 180), around its ring.
  const SegmentedCache::ReadPlan hit4 = c.plan_read(136, 4, 1'000'000);
  c.filled(c.plan_hit_read_ahead(hit4, 136, 4, 1'000'000), 16);  // [100, 156)
  const SegmentedCache::ReadPlan hit5 = c.plan_read(150, 6, 1'000'000);
  const SegmentedCache::ReadPlan ra5 = c.plan_hit_read_ahead(hit5, 150, 6, 1'000'000);
  CHECK(ra5.media_lbn == 156);
  CHECK(ra5.media_blocks == 16);
  c.filled(ra5, 16);  // [100, 172), the ring keeps the last 64: [108, 172)
  const SegmentedCache::ReadPlan hit6 = c.plan_read(168, 4, 1'000'000);
  REQUIRE(hit6.hit_blocks == 4);
  CHECK(c.plan_hit_read_ahead(hit6, 168, 4, 1'000'000).media_blocks == 188 - 172);
  // Off: none.
  CacheParams q = params(1, 64, 16, true);
  SegmentedCache off(q);
  off.filled(off.plan_read(100, 8, 1'000'000), 12);
  const SegmentedCache::ReadPlan off_hit = off.plan_read(104, 4, 1'000'000);
  CHECK(off.plan_hit_read_ahead(off_hit, 104, 4, 1'000'000).media_blocks == 0);
  // The write segment reads nothing ahead.
  CacheParams w = p;
  w.separate_write_segment = true;
  SegmentedCache ws(w);
  ws.plan_write(300, 4);
  const SegmentedCache::ReadPlan on_write = ws.plan_read(300, 4, 1'000'000);
  REQUIRE(on_write.hit_blocks == 4);
  CHECK(ws.plan_hit_read_ahead(on_write, 300, 4, 1'000'000).media_blocks == 0);
}

TEST_CASE("segmented cache: in mode 1 a hit's read-ahead stops at the end of its first block's track",
          "[unit][cache][idle-hit]") {
  const HundredBlockTracks layout;
  CacheParams p = with_mode(params(1, 64, 32, true), 1);
  p.read_ahead_on_idle_hit = true;
  SegmentedCache c(p);
  c.set_layout(&layout);
  // A miss at 150 (8) reads to min(158 + 32, 200) = 190; stopped after 20: [150, 170).
  c.filled(c.plan_read(150, 8, 1'000'000), 20);
  // A hit on 160..163: DiskSim's target max(190, 164 + 32 = 196), not past the track's end 200.
  const SegmentedCache::ReadPlan hit = c.plan_read(160, 4, 1'000'000);
  const SegmentedCache::ReadPlan ra = c.plan_hit_read_ahead(hit, 160, 4, 1'000'000);
  CHECK(ra.media_lbn == 170);
  CHECK(ra.media_blocks == 26);
  // A segment ending at its track's end: the read-ahead would be on the next track, to its end at
  // most (the driver refuses it unless the heads are there: DiskSim's disk_initiate_seek).
  SegmentedCache e(p);
  e.set_layout(&layout);
  e.filled(e.plan_read(180, 8, 1'000'000), 20);  // [180, 200)
  const SegmentedCache::ReadPlan hit2 = e.plan_read(190, 8, 1'000'000);
  const SegmentedCache::ReadPlan ra2 = e.plan_hit_read_ahead(hit2, 190, 8, 1'000'000);
  CHECK(ra2.media_lbn == 200);
  CHECK(ra2.media_blocks == 30);  // 198 + 32
}

TEST_CASE("segmented cache: the DEC scheme reads to the track's end and the segment keeps its last blocks",
          "[unit][cache]") {
  const HundredBlockTracks layout;
  // 2 segments of 16 blocks; max_read_ahead (8) does not apply. The region per segment widens to
  // 16 + 2 x 100 blocks.
  SegmentedCache c(with_mode(params(2, 16, 8, false), 4));
  c.set_layout(&layout);
  CHECK(c.buffer_blocks() == 3 * 216);
  const SegmentedCache::ReadPlan p = c.plan_read(120, 4, 1'000'000);
  CHECK(p.segment == 0);
  CHECK(p.media_lbn == 120);
  CHECK(p.requested_media_blocks == 4);
  CHECK(p.media_blocks == 80);  // 120..199: to the end of the track holding block 124
  c.filled(p, 80);
  // The segment keeps blocks 184..199: the request and the read-ahead before 184 scrolled out.
  CHECK(c.lookup(120, 4).hit_blocks == 0);
  CHECK(c.lookup(180, 4).hit_blocks == 0);
  CHECK(c.full_hit(184, 16));
  // A read from 196 to 203 is a partial hit (196..199); the segment's first block (184) lies
  // before the track holding block 204, so the media read would go on to the end of the track
  // after it (400), around the segment's ring (from 120, 216 blocks: block 336 at its start).
  const SegmentedCache::ReadPlan q = c.plan_read(196, 8, 1'000'000);
  CHECK(q.segment == 0);
  CHECK(q.hit_blocks == 4);
  CHECK(q.buffer_block == 76);  // block 196 sits 76 blocks into the segment's region
  CHECK(q.media_lbn == 200);
  CHECK(q.media_blocks == 200);  // 200..399
  c.filled(q, 200);
  CHECK(c.full_hit(384, 16));
  CHECK_FALSE(c.full_hit(383, 1));
  // A read before the blocks the segment keeps is a miss from the request's start, in the least
  // recently used segment.
  const SegmentedCache::ReadPlan r = c.plan_read(296, 60, 1'000'000);
  CHECK(r.segment == -1);  // larger than a segment: bypass
  const SegmentedCache::ReadPlan s = c.plan_read(330, 10, 1'000'000);
  CHECK(s.segment == 1);
  CHECK(s.hit_blocks == 0);
  CHECK(s.buffer_block == 216);
  CHECK(s.media_blocks == 70);  // 330..399: the track of block 340
  // A miss whose request ends exactly at a track's end: the block after it starts the next track,
  // which the segment (from 96) began before, so the read goes on to the end of the track after
  // it (DiskSim compares the segment's start with the track of the block after the request).
  SegmentedCache d(with_mode(params(1, 16, 0, false), 4));
  d.set_layout(&layout);
  CHECK(d.plan_read(96, 4, 1'000'000).media_blocks == 204);  // 96..299
  // ... bounded by the capacity.
  SegmentedCache e(with_mode(params(1, 16, 0, false), 4));
  e.set_layout(&layout);
  CHECK(e.plan_read(250, 4, 280).media_blocks == 30);
}

TEST_CASE("segmented cache: a miss's lead blocks start its segment earlier (read any free blocks)",
          "[unit][cache][free-blocks]") {
  // Two 64-block segments, 16 blocks of read-ahead, 100-block tracks: the key adds a track of room
  // to each segment's region (64 + 16 + 100 = 180 blocks).
  CacheParams cp = params(2, 64, 16, true);
  cp.read_any_free_blocks = true;
  SegmentedCache c(cp);
  const HundredBlockTracks layout;
  c.set_layout(&layout);
  CHECK(c.buffer_blocks() == 180 * 3);
  SegmentedCache::ReadPlan p = c.plan_read(1030, 8, 1'000'000);
  CHECK(p.buffer_block == 0);
  CHECK(p.media_blocks == 24);
  c.lead_in(p, 10);  // the read started at 1020
  CHECK(p.media_lbn == 1020);
  CHECK(p.media_blocks == 34);
  CHECK(p.requested_media_blocks == 18);
  CHECK(p.buffer_block == 10);  // the request's data after the 10 lead blocks
  c.filled(p, 34);
  CHECK(c.full_hit(1020, 10));  // the lead blocks are cached
  CHECK_FALSE(c.full_hit(1019, 1));
  CHECK(c.full_hit(1030, 24));
  // A partial hit continues in its segment within the same reach as without the lead: the miss's
  // first block plus 64 + 16 blocks (1110).
  const SegmentedCache::ReadPlan q = c.plan_read(1050, 8, 1'000'000);
  CHECK(q.segment == 0);
  CHECK(q.hit_blocks == 4);
  CHECK(q.buffer_block == 30);
  CHECK(q.media_lbn == 1054);
  CHECK(q.media_blocks == 4 + 16);
  SegmentedCache::ReadPlan again = p;
  CHECK_THROWS_AS(c.lead_in(again, 1), std::logic_error);  // the segment is no longer empty
}

TEST_CASE("segmented cache: without read any free blocks the region has no lead room", "[unit][cache][free-blocks]") {
  SegmentedCache c(params(2, 64, 16, true));
  const HundredBlockTracks layout;
  c.set_layout(&layout);
  CHECK(c.buffer_blocks() == 80 * 3);
}

}  // namespace
}  // namespace drivevp
