#include "firmware/cache/segmented_cache.h"

#include <algorithm>
#include <stdexcept>

namespace drivevp {

SegmentedCache::SegmentedCache(const CacheParams& params) : params_(params) {
  if (params_.segments < 1 || params_.segments > 64)
    throw std::invalid_argument("device.cache.segments must be in [1, 64]");
  if (params_.segment_blocks < 1 || params_.segment_blocks > 65536)
    throw std::invalid_argument("device.cache.segment_blocks must be in [1, 65536]");
  if (params_.continuous_read > 4) throw std::invalid_argument("device.cache.continuous_read must be in [0, 4]");
  segments_.resize(params_.segments + (params_.separate_write_segment ? 1 : 0));
  region_ = params_.segment_blocks + read_ahead_room();  // no lead room before the layout is set
}

std::uint32_t SegmentedCache::effective_max_read_ahead() const {
  // DiskSim's disk_postpass_perdisk raises a maximum below the minimum to the minimum.
  return std::max(params_.max_read_ahead, params_.min_read_ahead);
}

std::uint64_t SegmentedCache::read_ahead_room() const {
  // The blocks a miss reads before its request (lead_in): at most a track's.
  const std::uint64_t lead = lead_room_;
  switch (params_.continuous_read) {
    case 0:
      return lead;
    case 4:
      return layout_ ? 2 * std::uint64_t{layout_->max_track_blocks()} + lead : 0;
    default: {  // the most blocks read_ahead_end goes past a request's end
      const std::uint32_t max_ra = effective_max_read_ahead();
      return (max_ra > 0 ? max_ra : params_.segment_blocks) + lead;
    }
  }
}

void SegmentedCache::set_layout(const TrackLayout* layout) {
  layout_ = layout;
  lead_room_ = params_.read_any_free_blocks && layout_ ? layout_->max_track_blocks() : 0;
  region_ = params_.segment_blocks + read_ahead_room();
}

std::uint64_t SegmentedCache::ring_block(int segment, std::uint64_t lbn) const {
  return region_ * static_cast<std::uint64_t>(segment) + (lbn - segments_[segment].start) % region_;
}

std::uint64_t SegmentedCache::contiguous_blocks(std::uint64_t buffer_block, std::uint64_t blocks) const {
  if (buffer_block >= region_ * segments_.size()) return blocks;  // the bypass region: no ring
  return std::min(blocks, (buffer_block / region_ + 1) * region_ - buffer_block);
}

std::uint64_t SegmentedCache::ring_advance(std::uint64_t buffer_block, std::uint64_t n) const {
  if (buffer_block >= region_ * segments_.size()) return buffer_block + n;
  const std::uint64_t ring = buffer_block - buffer_block % region_;
  return ring + (buffer_block - ring + n) % region_;
}

std::uint64_t SegmentedCache::buffer_blocks() const { return region_ * (segments_.size() + 1); }

SegmentedCache::Lookup SegmentedCache::lookup(std::uint64_t lbn, std::uint32_t blocks) const {
  Lookup best;
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    if (lbn < s.start + s.skip || lbn >= s.start + s.valid) continue;
    if (s.written && !params_.read_hits_on_write_data) continue;
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

std::uint64_t SegmentedCache::max_read_ahead_end(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t first,
                                                 std::uint64_t capacity) const {
  const std::uint32_t mode = params_.continuous_read;
  // Modes 1 and 2 count as 3: their stop is where the heads would leave the track or cylinder.
  if (mode == 1 || mode == 2) return std::min(count_end(lbn, blocks), capacity);
  return std::min(read_ahead_end(lbn, blocks, first, capacity), capacity);
}

std::uint64_t SegmentedCache::count_end(std::uint64_t lbn, std::uint32_t blocks) const {
  // DiskSim 4.0 disksim_diskcache.c disk_buffer_get_max_readahead: a maximum read-ahead counts past
  // the request's end; without one, a segment's worth, from the request's start when the segment
  // must keep the request's data ("Read-ahead over requested" 0), else past its end.
  const std::uint64_t end = lbn + blocks;
  const std::uint32_t max_ra = effective_max_read_ahead();
  const std::uint64_t size = params_.segment_blocks;
  if (max_ra > 0) return end + max_ra;
  if (!params_.read_ahead_over_requested) return blocks >= size ? end : lbn + size;
  return end + size;
}

SegmentedCache::ReadPlan SegmentedCache::plan_hit_read_ahead(const ReadPlan& hit, std::uint64_t lbn,
                                                             std::uint32_t blocks, std::uint64_t capacity) {
  ReadPlan p;
  if (hit.segment < 0 || hit.hit_blocks != blocks) return p;
  Segment& s = segments_[hit.segment];
  // DiskSim raises the segment's target for every read it serves (disk_check_hda_pending).
  s.ahead_end = std::max(s.ahead_end, max_read_ahead_end(lbn, blocks, s.start + s.skip, capacity));
  if (!params_.read_ahead_on_idle_hit || hit.segment >= static_cast<int>(params_.segments)) return p;
  const std::uint64_t from = s.start + s.valid;
  std::uint64_t end = std::min(s.ahead_end, capacity);  // the segment's ring: no end of its own
  if (from >= end) return p;
  const std::uint32_t mode = params_.continuous_read;
  if (mode == 1 || mode == 2) {
    if (!layout_) throw std::logic_error("SegmentedCache: device.cache.continuous_read 1, 2 and 4 need the layout");
    end = std::min(end, mode == 1 ? layout_->track_end(from) : layout_->cylinder_end(from));
  }
  p.segment = hit.segment;
  p.buffer_block = ring_block(hit.segment, from);
  p.media_lbn = from;
  p.media_blocks = static_cast<std::uint32_t>(end - from);
  return p;
}

std::uint64_t SegmentedCache::read_ahead_end(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t first,
                                             std::uint64_t capacity) const {
  const std::uint64_t end = lbn + blocks;
  const std::uint64_t by_count = count_end(lbn, blocks);
  const std::uint32_t mode = params_.continuous_read;
  if (mode == 0) return end;
  if (mode == 3) return by_count;
  if (!layout_) throw std::logic_error("SegmentedCache: device.cache.continuous_read 1, 2 and 4 need the layout");
  if (mode == 1) return std::min(by_count, layout_->track_end(end - 1));
  if (mode == 2) return std::min(by_count, layout_->cylinder_end(end - 1));
  // 4: stay a track ahead of the stream (DiskSim's BUFFER_DEC_PREFETCH_SCHEME).
  if (end >= capacity) return end;
  const std::uint64_t track_end = layout_->track_end(end);
  if (layout_->same_track(first, end) || track_end >= capacity) return track_end;
  return layout_->track_end(track_end);
}

SegmentedCache::ReadPlan SegmentedCache::plan_read(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t capacity) {
  ReadPlan p;
  const std::uint32_t size = params_.segment_blocks;
  if (blocks > size) {  // bypass: the region after the segments, no read-ahead
    p.buffer_block = region_ * segments_.size();
    p.media_lbn = lbn;
    p.media_blocks = p.requested_media_blocks = blocks;
    return p;
  }
  const Lookup l = lookup(lbn, blocks);
  int seg = l.segment;
  // A partial hit continues in its segment (a ring: the rest and the read-ahead wrap around its
  // region), never in the write segment.
  const bool hit = seg >= 0 && (l.hit_blocks == blocks || seg < static_cast<int>(params_.segments));
  if (!hit) {  // a miss: the least recently used read segment starts at the request
    seg = least_recently_used();
    segments_[seg] = {lbn, 0, 0};
  }
  Segment& s = segments_[seg];
  touch(seg);
  p.segment = seg;
  p.hit_blocks = hit ? l.hit_blocks : 0;
  p.buffer_block = ring_block(seg, lbn);
  if (p.hit_blocks == blocks) return p;  // full hit
  p.media_lbn = lbn + p.hit_blocks;
  p.requested_media_blocks = blocks - p.hit_blocks;
  const std::uint64_t wanted_end = read_ahead_end(lbn, blocks, s.start + s.skip, capacity);
  s.ahead_end = std::max(s.ahead_end, max_read_ahead_end(lbn, blocks, s.start + s.skip, capacity));
  const std::uint64_t end = std::min(wanted_end, capacity);
  p.media_blocks = static_cast<std::uint32_t>(end - p.media_lbn);
  return p;
}

void SegmentedCache::lead_in(ReadPlan& plan, std::uint32_t blocks) {
  if (plan.segment < 0 || plan.hit_blocks > 0 || blocks == 0) return;
  Segment& s = segments_[plan.segment];
  if (s.valid > 0 || s.start != plan.media_lbn || blocks > plan.media_lbn)
    throw std::logic_error("SegmentedCache::lead_in: not a miss's read into an empty segment");
  if (blocks > lead_room_) throw std::logic_error("SegmentedCache::lead_in: more blocks than a track");
  s.start -= blocks;
  s.lead = blocks;
  plan.media_lbn -= blocks;
  plan.media_blocks += blocks;
  plan.requested_media_blocks += blocks;
  plan.buffer_block += blocks;
}

void SegmentedCache::filled(const ReadPlan& plan, std::uint32_t blocks) {
  if (plan.segment < 0) return;
  Segment& s = segments_[plan.segment];
  s.valid = static_cast<std::uint32_t>(plan.media_lbn + blocks - s.start);
  // The segment is a ring of segment_blocks blocks: it keeps the last segment_blocks blocks read,
  // read-ahead past them scrolls the oldest (the request's included) out.
  s.skip = s.valid > params_.segment_blocks ? s.valid - params_.segment_blocks : 0;
}

bool SegmentedCache::may_hold(const ReadPlan& pass, std::uint64_t lbn) const {
  if (pass.segment < 0 || static_cast<std::size_t>(pass.segment) >= segments_.size()) return false;
  const Segment& s = segments_[pass.segment];
  // filled() sets valid to media_lbn + blocks - start (blocks <= media_blocks) and skip >= 0.
  return lbn >= s.start && lbn < std::max(s.start + s.valid, pass.media_lbn + pass.media_blocks);
}

SegmentedCache::ReadPlan SegmentedCache::join(const ReadPlan& pass, std::uint64_t lbn, std::uint32_t blocks,
                                              std::uint64_t capacity) {
  if (pass.segment < 0 || static_cast<std::size_t>(pass.segment) >= segments_.size())
    throw std::logic_error("SegmentedCache::join: the pass has no segment");
  Segment& s = segments_[pass.segment];
  if (lbn < s.start + s.skip || lbn >= s.start + s.valid || lbn + blocks > pass.media_lbn + pass.media_blocks)
    throw std::logic_error("SegmentedCache::join: the read does not start in the segment or ends past the pass");
  touch(pass.segment);
  s.ahead_end = std::max(s.ahead_end, max_read_ahead_end(lbn, blocks, s.start + s.skip, capacity));
  ReadPlan p;
  p.segment = pass.segment;
  p.hit_blocks = blocks;
  p.buffer_block = ring_block(pass.segment, lbn);
  return p;
}

std::uint64_t SegmentedCache::raised_pass_end(const ReadPlan& pass, std::uint64_t lbn, std::uint32_t blocks,
                                              std::uint64_t capacity) const {
  if (pass.segment < 0 || static_cast<std::size_t>(pass.segment) >= segments_.size())
    throw std::logic_error("SegmentedCache::raised_pass_end: the pass has no segment");
  const Segment& s = segments_[pass.segment];
  const std::uint64_t pass_end = pass.media_lbn + pass.media_blocks;
  std::uint64_t end = std::max(s.ahead_end, max_read_ahead_end(lbn, blocks, s.start + s.skip, capacity));
  end = std::min(end, capacity);
  const std::uint32_t mode = params_.continuous_read;
  if ((mode == 1 || mode == 2) && pass_end > 0 && pass_end < capacity) {
    if (!layout_) throw std::logic_error("SegmentedCache: device.cache.continuous_read 1, 2 and 4 need the layout");
    end = std::min(end, mode == 1 ? layout_->track_end(pass_end - 1) : layout_->cylinder_end(pass_end - 1));
  }
  return std::max(end, pass_end);
}

std::uint64_t SegmentedCache::raise_target(const ReadPlan& pass, std::uint64_t lbn, std::uint32_t blocks,
                                           std::uint64_t capacity) {
  const std::uint64_t end = raised_pass_end(pass, lbn, blocks, capacity);
  Segment& s = segments_[pass.segment];
  s.ahead_end = std::max(s.ahead_end, max_read_ahead_end(lbn, blocks, s.start + s.skip, capacity));
  return end;
}

void SegmentedCache::drop_overlapping(std::uint64_t lbn, std::uint32_t blocks, int keep) {
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    Segment& s = segments_[i];
    if (static_cast<int>(i) != keep && s.valid > 0 && s.start + s.skip < lbn + blocks && lbn < s.start + s.valid)
      s.valid = s.skip = 0;
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
    p.buffer_block = region_ * segments_.size();
    return p;
  }
  const int seg = params_.separate_write_segment ? static_cast<int>(params_.segments) : least_recently_used();
  segments_[seg] = {lbn, blocks, 0};
  segments_[seg].written = true;
  touch(seg);
  last_write_ = seg;
  p.segment = seg;
  p.buffer_block = region_ * static_cast<std::uint64_t>(seg);
  return p;
}

}  // namespace drivevp
