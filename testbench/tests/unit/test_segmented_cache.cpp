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
  // The next miss takes the other segment (least recently used), at buffer block 64.
  const SegmentedCache::ReadPlan q = c.plan_read(5000, 4, 1'000'000);
  CHECK(q.segment == 1);
  CHECK(q.buffer_block == 64);
}

TEST_CASE("segmented cache: read-ahead not over requested counts from the request's start", "[unit][cache]") {
  SegmentedCache c(params(1, 64, 16, false));
  CHECK(c.plan_read(0, 4, 1'000'000).media_blocks == 16);
  SegmentedCache d(params(1, 64, 16, false));
  CHECK(d.plan_read(0, 20, 1'000'000).media_blocks == 20);  // no read-ahead past a long request
  SegmentedCache e(params(1, 64, 100, true));
  CHECK(e.plan_read(0, 8, 1'000'000).media_blocks == 64);  // bounded by the segment
  SegmentedCache f(params(1, 64, 100, true));
  CHECK(f.plan_read(999'990, 8, 1'000'000).media_blocks == 10);  // and by the capacity
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
  // No room left in the segment for the rest: served as a miss from the request's start.
  SegmentedCache d(params(1, 16, 0, true));
  d.filled(d.plan_read(100, 8, 1'000'000), 8);
  const SegmentedCache::ReadPlan no_room = d.plan_read(104, 16, 1'000'000);
  CHECK(no_room.hit_blocks == 0);
  CHECK(no_room.media_lbn == 104);
  // The same when the segment that missed is also the least recently used one (it restarts).
  SegmentedCache e(params(1, 16, 0, true));
  e.filled(e.plan_read(100, 16, 1'000'000), 16);  // 100..115
  const SegmentedCache::ReadPlan restart = e.plan_read(112, 8, 1'000'000);
  CHECK(restart.segment == 0);
  CHECK(restart.hit_blocks == 0);
  CHECK(restart.buffer_block == 0);
  CHECK(restart.media_lbn == 112);
  CHECK(restart.media_blocks == 8);
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
  CHECK(w.segment == 2);  // the write segment, after the two read segments
  CHECK(w.buffer_block == 128);
  CHECK_FALSE(c.full_hit(100, 4));  // the read segment held blocks the write changed
  CHECK(c.full_hit(110, 4));        // read hits on write data
  c.extend_write(114, 4);
  CHECK(c.full_hit(110, 8));
  CHECK_THROWS_AS(c.extend_write(200, 4), std::logic_error);
  CHECK(c.buffer_blocks() == 4 * 64);  // 2 read, 1 write, 1 bypass region
  CHECK_THROWS_AS(SegmentedCache(params(0, 64, 0, true)), std::invalid_argument);
  CHECK_THROWS_AS(SegmentedCache(params(65, 64, 0, true)), std::invalid_argument);
}

}  // namespace
}  // namespace drivevp
