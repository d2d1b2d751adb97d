// The drive firmware's segmented buffer cache: which blocks each segment of the buffer memory
// holds, hit detection, read-ahead sizing, LRU replacement and the separate write segment
// (DiskSim 4.0's disk cache; docs/models/cache.md). Plain C++, no SystemC: the disk media driver
// (firmware/controller/disk_driver.h) owns one and moves the data.
#pragma once

#include <cstdint>
#include <vector>

#include "tlm_bus/drive_features.h"

namespace drivevp {

/// The media layout that the read-ahead modes following tracks and cylinders need
/// (CacheParams::continuous_read 1, 2 and 4); the disk media driver gives its geometry's.
class TrackLayout {
 public:
  virtual ~TrackLayout() = default;
  /// The first LBN past the track holding `lbn` (lbn below the capacity).
  virtual std::uint64_t track_end(std::uint64_t lbn) const = 0;
  /// The first LBN past the cylinder holding `lbn` (lbn below the capacity).
  virtual std::uint64_t cylinder_end(std::uint64_t lbn) const = 0;
  /// Whether blocks `a` and `b` (both below the capacity) lie on the same track.
  virtual bool same_track(std::uint64_t a, std::uint64_t b) const = 0;
  /// The most blocks any track holds.
  virtual std::uint32_t max_track_blocks() const = 0;
};

/// Bookkeeping of CacheParams::segments read segments (plus one write segment when
/// CacheParams::separate_write_segment) in the sector buffer: segment i's region starts at buffer
/// block i * (its region's size), the write segment after the read segments, and a region for requests larger than a
/// segment (which bypass the cache) after that. Each segment's region is segment_blocks plus room for the read-ahead
/// past a request (read_ahead_room), so a miss's media read is never cut at the segment's size: a segment is a ring of
/// segment_blocks blocks (DiskSim 4.0 disksim_diskcache.c disk_buffer_segment_wrap), the read-ahead scrolling the
/// oldest blocks, the request's included, out of it. A segment holds the contiguous blocks [start, start + valid), all
/// equal to the media's, of which only the last segment_blocks count as cached. Each region is a ring in the buffer
/// addresses too: block x sits at the region's block (x - start) mod region (the channel's RING_BLOCKS), so a media
/// read past the region's end wraps to its start, over blocks already scrolled out.
class SegmentedCache {
 public:
  /// Throws std::invalid_argument when segments is outside [1, 64], segment_blocks outside
  /// [1, 65536] or continuous_read above 4.
  explicit SegmentedCache(const CacheParams& params);

  /// The layout for CacheParams::continuous_read 1, 2 and 4 (plan_read throws std::logic_error
  /// in those modes without it); not owned, must outlive the cache. With continuous_read 4 each
  /// segment's buffer region grows to segment_blocks + 2 x max_track_blocks(), room for a media
  /// read of the request and two tracks of read-ahead (the segment still keeps segment_blocks
  /// blocks valid). Call before the first plan.
  void set_layout(const TrackLayout* layout);

  /// Where a read's blocks are: `segment` holds the first `hit_blocks` of them (a full hit when
  /// that is all of them, a partial hit when fewer), or segment -1 and 0 blocks (a miss).
  struct Lookup {
    int segment = -1;
    std::uint32_t hit_blocks = 0;
  };
  /// The segment holding block `lbn` (the one holding most of the read when several do). A
  /// segment whose valid blocks end before the read's end is a partial hit. Without
  /// CacheParams::read_hits_on_write_data, segments holding write data are not looked at.
  Lookup lookup(std::uint64_t lbn, std::uint32_t blocks) const;
  bool full_hit(std::uint64_t lbn, std::uint32_t blocks) const { return lookup(lbn, blocks).hit_blocks == blocks; }

  /// How a read is served: `hit_blocks` from the buffer at `buffer_block`, then, when
  /// media_blocks > 0, a media read of media_blocks blocks from media_lbn into the buffer at
  /// `buffer_block + hit_blocks`, of which the first requested_media_blocks belong to the read and
  /// the rest is read-ahead. `segment` -1: the read bypasses the cache (larger than a segment).
  struct ReadPlan {
    int segment = -1;
    std::uint32_t hit_blocks = 0;
    std::uint64_t buffer_block = 0;
    std::uint64_t media_lbn = 0;
    std::uint32_t media_blocks = 0;
    std::uint32_t requested_media_blocks = 0;
  };
  /// Plans a read of `blocks` blocks at `lbn` on a drive of `capacity` blocks and takes its segment
  /// (most recently used from now on; a miss empties the least recently used read segment and
  /// starts it at lbn; a partial hit continues in its read segment, its media read wrapping
  /// around the segment's ring). The media read ends at read_ahead_end, bounded by the capacity.
  ReadPlan plan_read(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t capacity);
  /// Where the media read of a read of `blocks` at `lbn` ends (one past its last block, before the
  /// segment's and the capacity's bounds), per CacheParams::continuous_read, for a segment whose
  /// first valid block is `first` (<= lbn). Modes 1-3 count from DiskSim 4.0's
  /// disk_buffer_get_max_readahead: end + max(max_read_ahead, min_read_ahead) when that is above
  /// 0; else lbn + segment_blocks when read_ahead_over_requested is false (the segment keeps the
  /// request: no read-ahead past a request of a segment or more), end + segment_blocks when true.
  std::uint64_t read_ahead_end(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t first,
                               std::uint64_t capacity) const;
  /// DiskSim 4.0's read-ahead target for a read of `blocks` at `lbn` in a segment whose first valid
  /// block is `first` (disksim_diskcache.c disk_buffer_get_max_readahead, bounded by the capacity):
  /// the request's end in mode 0; mode 4's track rule; else the count of read_ahead_end (modes 1 and
  /// 2 not cut at the track or cylinder: DiskSim stops those read-aheads where they would leave it).
  std::uint64_t max_read_ahead_end(std::uint64_t lbn, std::uint32_t blocks, std::uint64_t first,
                                   std::uint64_t capacity) const;
  /// The read-ahead a full hit of `blocks` at `lbn` (`hit`, the plan plan_read just made for it)
  /// starts with CacheParams::read_ahead_on_idle_hit (DiskSim 4.0 disksim_diskctlr.c
  /// disk_check_hda_pending, readaheadifidle): a media read from the segment's end, all of it
  /// read-ahead (requested_media_blocks 0, into the buffer at buffer_block), up to the larger of the
  /// segment's read-ahead target (DiskSim's maxreadaheadblkno, kept from the reads served there) and
  /// the hit's own (max_read_ahead_end), not past the capacity (the segment's ring wraps), and in mode
  /// 1 (2) not past the end of the track (cylinder) holding the segment's end (where DiskSim's
  /// disk_initiate_seek refuses a background read's seek; the caller checks that the heads are on
  /// it). media_blocks 0: none (the key off, the write segment, the segment holding its target).
  /// Raises the segment's target either way, as DiskSim does for every read it serves.
  ReadPlan plan_hit_read_ahead(const ReadPlan& hit, std::uint64_t lbn, std::uint32_t blocks, std::uint64_t capacity);
  /// CacheParams::read_any_free_blocks: the media read of the miss `plan` (a segment started empty
  /// for it, hit_blocks 0) started `blocks` blocks before plan.media_lbn, on its first track, with
  /// its first block at the segment's first buffer block (DiskSim 4.0 disksim_diskcache.c
  /// disk_buffer_block_available takes blocks before the request into an empty segment; the
  /// segment's start moves to the first one read). The segment starts `blocks` earlier; the plan
  /// becomes that read: media_lbn, media_blocks and requested_media_blocks count from its first block
  /// (its lead blocks ahead of the request's), buffer_block (the request's data) moves `blocks` on.
  /// The segment's region has room for a track of such blocks (set_layout).
  void lead_in(ReadPlan& plan, std::uint32_t blocks);
  /// The media read of `plan` has put its first `blocks` blocks in the buffer.
  void filled(const ReadPlan& plan, std::uint32_t blocks);
  /// Whether a lookup of `lbn` may find it in the segment of the media read `pass` once filled()
  /// has been told any number of the pass's blocks (0 to pass.media_blocks): lbn lies in [the
  /// segment's start, the later of its valid end and the pass's end). False tells the caller that
  /// lookup(), full_hit() and raised_pass_end() give the same answers for `lbn` whatever the pass
  /// has read, so it need not ask the channel (the disk driver at a command's arrival during a
  /// miss's read-ahead). False for a pass without a segment.
  bool may_hold(const ReadPlan& pass, std::uint64_t lbn) const;
  /// A read of `blocks` at `lbn` joins the media read `pass` still running in its segment (DiskSim
  /// 4.0 disk_buffer_stopable_access: a read whose first block that segment holds is merged with the
  /// access instead of stopping it). The caller checks that the segment holds lbn and that the pass
  /// reads the rest (lbn + blocks <= pass.media_lbn + pass.media_blocks). Returns the read's plan:
  /// all its blocks from the buffer (hit_blocks = blocks, no media read of its own) at the buffer
  /// block where the pass puts lbn; the segment becomes the most recently used and its read-ahead
  /// target is raised by the read's own (DiskSim's disk_buffer_attempt_seg_ownership raises
  /// maxreadaheadblkno for every read that joins a segment).
  ReadPlan join(const ReadPlan& pass, std::uint64_t lbn, std::uint32_t blocks, std::uint64_t capacity);
  /// Where the media read `pass` still running in its segment may end once a read of `blocks` at
  /// `lbn` served there (a full hit or a read joining it) has raised the segment's read-ahead
  /// target (DiskSim 4.0 disk_buffer_attempt_seg_ownership / disk_check_hda_pending raise
  /// maxreadaheadblkno, and the running read-ahead goes on to it): the larger of the pass's end and
  /// the raised target (max_read_ahead_end), the latter bounded by the capacity and, in modes 1 (2), by the end of the
  /// track (cylinder) holding the pass's last block, where DiskSim's read-ahead stops. Changes nothing (raise_target
  /// does).
  std::uint64_t raised_pass_end(const ReadPlan& pass, std::uint64_t lbn, std::uint32_t blocks,
                                std::uint64_t capacity) const;
  /// As raised_pass_end, and raises the segment's target (its maxreadaheadblkno).
  std::uint64_t raise_target(const ReadPlan& pass, std::uint64_t lbn, std::uint32_t blocks, std::uint64_t capacity);

  /// How a write is held: its data at `buffer_block`; `segment` -1 when it bypasses the cache.
  struct WritePlan {
    int segment = -1;
    std::uint64_t buffer_block = 0;
  };
  /// Takes a segment for a write of `blocks` at `lbn` (the write segment, or the least recently
  /// used read segment) after dropping every segment overlapping the written blocks, so that no
  /// segment holds data older than the media. The segment holds the written data afterwards
  /// (read hits on write data).
  WritePlan plan_write(std::uint64_t lbn, std::uint32_t blocks);
  /// A write of `blocks` at `lbn` appends to the segment of the previous plan_write (which must
  /// end at lbn, with room for them): drops other segments overlapping it, extends that one.
  void extend_write(std::uint64_t lbn, std::uint32_t blocks);

  /// Blocks per segment region: each is a ring in the sector buffer (the channel's RING_BLOCKS),
  /// the read segments' and the write segment's regions the first ring_count() of the buffer.
  std::uint64_t region_blocks() const { return region_; }
  std::uint32_t ring_count() const { return static_cast<std::uint32_t>(segments_.size()); }
  /// Of `blocks` buffer blocks from `buffer_block` on, how many lie before its ring's end (the rest
  /// wraps around to the ring's start); all of them outside the rings.
  std::uint64_t contiguous_blocks(std::uint64_t buffer_block, std::uint64_t blocks) const;
  /// The buffer block `n` blocks after `buffer_block` in its ring (wrapping at the ring's end), or
  /// buffer_block + n outside the rings.
  std::uint64_t ring_advance(std::uint64_t buffer_block, std::uint64_t n) const;
  /// Buffer blocks the cache uses (the sector buffer grows to this).
  std::uint64_t buffer_blocks() const;
  const CacheParams& params() const { return params_; }

 private:
  struct Segment {
    std::uint64_t start = 0;  ///< the LBN at the segment's first buffer block
    std::uint32_t valid = 0;  ///< blocks [start, start + valid) were read or written
    std::uint64_t last_use = 0;
    std::uint32_t skip = 0;  ///< of those, the first `skip` scrolled out (continuous_read 4)
    bool written = false;    ///< a write put its data here (read_hits_on_write_data)
    /// DiskSim's maxreadaheadblkno: the read-ahead target of the reads served here (0 after a write).
    std::uint64_t ahead_end = 0;
    std::uint32_t lead = 0;  ///< blocks read before the miss that started it (lead_in)
  };
  int least_recently_used() const;
  /// The buffer block holding `lbn` in `segment`'s ring: its region's block (lbn - start) mod region.
  std::uint64_t ring_block(int segment, std::uint64_t lbn) const;
  /// max_read_ahead, raised to min_read_ahead when below it (DiskSim 4.0 disk_postpass_perdisk).
  std::uint32_t effective_max_read_ahead() const;
  /// Where modes 1-3 count a read's read-ahead to (read_ahead_end's count, before any stop).
  std::uint64_t count_end(std::uint64_t lbn, std::uint32_t blocks) const;
  /// Buffer blocks a segment's region holds beyond segment_blocks: the most read-ahead a media
  /// read goes past a request (continuous_read 1-3: the effective maximum read-ahead, or
  /// segment_blocks without one; 4: two tracks once the layout is set; 0: none), plus, with
  /// read_any_free_blocks and the layout set, a track for the blocks read before a miss (lead_in).
  std::uint64_t read_ahead_room() const;
  void touch(int segment);
  /// Empties every segment but `keep` that holds any of [lbn, lbn + blocks).
  void drop_overlapping(std::uint64_t lbn, std::uint32_t blocks, int keep);
  CacheParams params_;
  const TrackLayout* layout_ = nullptr;
  std::uint64_t region_ = 0;       ///< buffer blocks per segment (segment_blocks unless widened)
  std::uint64_t lead_room_ = 0;    ///< of those, the room for lead blocks (read_any_free_blocks)
  std::vector<Segment> segments_;  ///< read segments, then the write segment when separate
  std::uint64_t clock_ = 0;
  int last_write_ = -1;  ///< the segment of the last plan_write
};

}  // namespace drivevp
