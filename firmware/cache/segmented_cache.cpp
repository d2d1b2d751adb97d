#include "firmware/cache/segmented_cache.h"

#include <algorithm>
#include <stdexcept>

namespace drivevp {

SegmentedCache::SegmentedCache(const CacheParams& params) : params_(params) {
  if (params_.segments < 1 || params_.segments > 64)
    throw std::invalid_argument("device.cache.segments must be in [1, 64]");
  if (params_.segment_blocks < 1 || params_.segment_blocks > 65536)
    throw std::invalid_argument("device.cache.segment_blocks must be in [1, 65536]");
  segments_.resize(params_.segments + (params_.separate_write_segment ? 1 : 0));
}

std::uint64_t SegmentedCache::buffer_blocks() const {
  return std::uint64_t{params_.segment_blocks} * (segments_.size() + 1);
}

SegmentedCache::Lookup SegmentedCache::lookup(std::uint64_t lbn, std::uint32_t blocks) const {
  Lookup best;
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    if (lbn < s.start || lbn >= s.start + s.valid) continue;
    const auto hit = static_cast<std::uint32_t>(std::min<std::uint64_t>(blocks, s.start + s.valid - lbn));
    if (hit > best.hit_blocks) best = {static_cast<int>(i), hit};
  }
  return best;
}

int SegmentedCache::least_recently_used() const {
  int lru = 0;
  for (std::uint32_t i = 1; i < params_.segments; ++i)
    if (segments_[i].last_use < segments_[lru].last_use) lru = static_cast<int>(i);
  return lru;
}

void SegmentedCache::touch(int segment) { segments_[segment].last_use = ++clock_; }

SegmentedCache::ReadPlan SegmentedCache::plan_read(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t capacity) {
  ReadPlan p;
  const std::uint32_t size = params_.segment_blocks;
  if (blocks > size) {  // bypass: the region after the segments, no read-ahead
    p.buffer_block = std::uint64_t{size} * segments_.size();
    p.media_lbn = lbn;
    p.media_blocks = p.requested_media_blocks = blocks;
    return p;
  }
  const Lookup l = lookup(lbn, blocks);
  const std::uint64_t wanted_end = params_.read_ahead_over_requested
                                       ? lbn + blocks + params_.max_read_ahead
                                       : std::max<std::uint64_t>(lbn + blocks, lbn + params_.max_read_ahead);
  int seg = l.segment;
  // A partial hit continues in its segment when the rest fits there (never in the write segment).
  const bool hit = seg >= 0 && (l.hit_blocks == blocks || (segments_[seg].start + size >= lbn + blocks &&
                                                           seg < static_cast<int>(params_.segments)));
  if (!hit) {  // a miss: the least recently used read segment starts at the request
    seg = least_recently_used();
    segments_[seg] = {lbn, 0, 0};
  }
  Segment& s = segments_[seg];
  touch(seg);
  p.segment = seg;
  p.hit_blocks = hit ? l.hit_blocks : 0;
  p.buffer_block = std::uint64_t{size} * seg + (lbn - s.start);
  if (p.hit_blocks == blocks) return p;  // full hit
  p.media_lbn = lbn + p.hit_blocks;
  p.requested_media_blocks = blocks - p.hit_blocks;
  const std::uint64_t end = std::min({wanted_end, s.start + size, capacity});
  p.media_blocks = static_cast<std::uint32_t>(end - p.media_lbn);
  return p;
}

void SegmentedCache::filled(const ReadPlan& plan, std::uint32_t blocks) {
  if (plan.segment < 0) return;
  Segment& s = segments_[plan.segment];
  s.valid = static_cast<std::uint32_t>(plan.media_lbn + blocks - s.start);
}

void SegmentedCache::drop_overlapping(std::uint64_t lbn, std::uint32_t blocks, int keep) {
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    Segment& s = segments_[i];
    if (static_cast<int>(i) != keep && s.valid > 0 && s.start < lbn + blocks && lbn < s.start + s.valid) s.valid = 0;
  }
}

void SegmentedCache::extend_write(std::uint64_t lbn, std::uint32_t blocks) {
  if (last_write_ < 0 || segments_[last_write_].start + segments_[last_write_].valid != lbn ||
      segments_[last_write_].valid + blocks > params_.segment_blocks)
    throw std::logic_error("SegmentedCache::extend_write: not an append to the last write's segment");
  drop_overlapping(lbn, blocks, last_write_);
  segments_[last_write_].valid += blocks;
  touch(last_write_);
}

SegmentedCache::WritePlan SegmentedCache::plan_write(std::uint64_t lbn, std::uint32_t blocks) {
  drop_overlapping(lbn, blocks, -1);
  WritePlan p;
  last_write_ = -1;
  if (blocks > params_.segment_blocks) {
    p.buffer_block = std::uint64_t{params_.segment_blocks} * segments_.size();
    return p;
  }
  const int seg = params_.separate_write_segment ? static_cast<int>(params_.segments) : least_recently_used();
  segments_[seg] = {lbn, blocks, 0};
  touch(seg);
  last_write_ = seg;
  p.segment = seg;
  p.buffer_block = std::uint64_t{params_.segment_blocks} * seg;
  return p;
}

}  // namespace drivevp
