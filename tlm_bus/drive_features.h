// Settings of a real drive's host interface, buffer cache and command overheads, as DiskSim 4.0's
// disk specification names them (src/modules/disk.modspec; ../shared/drives/disksim-valid/*.diskspecs).
// Plain C++ shared by the disk's scenario keys (hw_models/disk/disk_keys.cpp, device.interface.*,
// device.cache.*, device.overheads.*), the platform and the firmware's disk media driver
// (firmware/controller/disk_driver.h, firmware/cache/segmented_cache.h). Every default is "off":
// a drive without these sections behaves exactly as before (data moves at the bus's per-access
// latency, no cache, one command overhead device.command_overhead_ms). docs/models/cache.md.
#pragma once

#include <cstdint>

#include "tlm_bus/command.h"

namespace drivevp {

/// The host interface (SCSI bus) between the drive's buffer and the host: how fast a sector
/// crosses it and the protocol overheads around a request's data phase. docs/models/cache.md
/// "Host interface".
struct InterfaceParams {
  /// Time one 512-byte sector takes to cross the interface, ms, in [0, 100]: the larger of
  /// DiskSim's bus "Read block transfer time" / "Write block transfer time" (the .parv's bus) and
  /// the disk's "Bulk sector transfer time". 0 (default): the interface is not modelled and data
  /// moves in one bus access (10 ns), as before.
  double read_sector_ms = 0;
  double write_sector_ms = 0;  ///< as read_sector_ms, for data from the host (writes), ms, [0, 100]
  /// "Hold bus entire read xfer": once a media read's data phase has started, the drive stays
  /// connected while the interface waits for the media (true), or disconnects whenever the next
  /// sector is not yet in the buffer and reconnects when it is, paying other_reselect_ms (false).
  /// Default false.
  bool hold_bus_read = false;
  /// "First reselect overhead", ms, [0, 100]: a read miss disconnects after its command; the time
  /// to reconnect once the first sector is in the buffer, before it crosses. Default 0.
  double first_reselect_ms = 0;
  /// "Other reselect overhead", ms, [0, 100]: each later reconnection of a read's data phase
  /// (only without hold_bus_read). Default 0.
  double other_reselect_ms = 0;
  /// "Read completion overhead", ms, [0, 100]: from the last sector of a read crossing the
  /// interface to the completion the host sees. Default 0.
  double read_completion_ms = 0;
  /// "Write completion overhead", ms, [0, 100]: from the write's data on the media (or, with
  /// write-back, in the buffer) to the completion. Default 0.
  double write_completion_ms = 0;

  /// True when any member differs from its default (the firmware's feature path is then used).
  bool active() const {
    return read_sector_ms > 0 || write_sector_ms > 0 || hold_bus_read || first_reselect_ms > 0 ||
           other_reselect_ms > 0 || read_completion_ms > 0 || write_completion_ms > 0;
  }
  Time sector_time(Op op) const { return from_ms(op == Op::Read ? read_sector_ms : write_sector_ms); }
};

/// The segmented buffer cache with read-ahead and write-back. docs/models/cache.md "Cache".
struct CacheParams {
  /// "Enable caching in buffer" (any non-zero DiskSim value): reads are looked up in the segments
  /// and read-ahead fills them. Default false (no cache).
  bool enabled = false;
  /// "Number of buffer segments", in [1, 64]. Default 1.
  std::uint32_t segments = 1;
  /// "Segment size (in blks)": blocks of 512 bytes per segment, in [1, 65536]. Default 256. A read
  /// larger than a segment bypasses the cache (served as without it).
  std::uint32_t segment_blocks = 256;
  /// "Use separate write segment": one more segment that only writes use (read hits on its data
  /// are allowed, DiskSim's "Allow read hits on write data" = 1). Without it a write takes the
  /// least recently used segment. Default false.
  bool separate_write_segment = false;
  /// "Minimum read-ahead (blks)", in [0, 65536]: read-ahead that an arriving request does not
  /// stop. Default 0.
  std::uint32_t min_read_ahead = 0;
  /// "Maximum read-ahead (blks)", in [0, 65536]: how far past the request the media read goes
  /// (see read_ahead_over_requested), bounded by the segment. 0: no read-ahead. Default 0.
  std::uint32_t max_read_ahead = 0;
  /// "Read-ahead over requested": true: the read-ahead is max_read_ahead blocks beyond the
  /// request's end; false: the media read ends max_read_ahead blocks after the request's first
  /// block (no read-ahead when the request is that long). Default false.
  bool read_ahead_over_requested = false;
  /// "Buffer continuous read" (DiskSim 4.0 src/modules/disk.modspec; the read-ahead's end in
  /// disksim_diskcache.c disk_buffer_get_max_readahead, the track/cylinder stops in
  /// disksim_diskctlr.c disk_initiate_seek), in [0, 4]; where a miss's or partial hit's media read
  /// ends (docs/models/cache.md "Read-ahead modes"):
  ///  0 no read-ahead (the media read ends with the request);
  ///  1 as 3, but not past the end of the track holding the request's last block;
  ///  2 as 3, but not past the end of that block's cylinder;
  ///  3 (default) max_read_ahead per read_ahead_over_requested, bounded by the segment: the
  ///    behaviour before this key existed;
  ///  4 DiskSim's BUFFER_DEC_PREFETCH_SCHEME: to the end of the track holding the block after the
  ///    request, or to the end of the track after that when the segment already holds blocks of an
  ///    earlier track (a sequential stream stays one track ahead); max_read_ahead does not apply.
  ///    The segment keeps only the last segment_blocks blocks read (DiskSim's
  ///    disk_buffer_segment_wrap): read-ahead past them scrolls the oldest, the request's included,
  ///    out of the segment.
  std::uint32_t continuous_read = 3;
  /// "Allow read hits on write data" (DiskSim 4.0 src/modules/disk.modspec; disksim_diskcache.c
  /// disk_buffer_select_read_segment): true (default, the behaviour before this key) a read may be
  /// served from a segment holding data a write put there (write-back or not); false such a
  /// segment serves no read hit: the read goes to the media.
  bool read_hits_on_write_data = true;
  /// "Fast write level" (DiskSim's NO_, LIMITED_ and FULL_FASTWRITE), in [0, 2]: 0 write-through
  /// (completion when the data is on the media); 1 write-back when the buffer holds no other
  /// write-back data or the write appends to it (starts where it ends, and both fit a segment),
  /// else the pending data is flushed and the write goes through (the host waits for both); 2
  /// write-back always (a segment's worth at most), pending data it does not append to being
  /// flushed first (the host waits for that flush). Write-back data goes to the media when the
  /// drive has nothing else to do, or before a read that needs the media. Needs `enabled`.
  /// Default 0.
  std::uint32_t fast_write_level = 0;
};

/// The firmware's command overhead, selected by the command's direction, whether the cache
/// serves it ("hit": a read found whole in a segment, a write taken by write-back) and the
/// previous command's direction: DiskSim's "Read hit over. after read" ... "Write miss over. after
/// write", all in ms. Spent as firmware busy time before the command's media or buffer access.
/// When `enabled` is false (default) the firmware spends device.command_overhead_ms for every
/// command. The first command counts as after a read. docs/models/cache.md "Overheads".
struct OverheadParams {
  bool enabled = false;
  double read_hit_after_read_ms = 0;     ///< "Read hit over. after read", [0, 1000]
  double read_hit_after_write_ms = 0;    ///< "Read hit over. after write", [0, 1000]
  double read_miss_after_read_ms = 0;    ///< "Read miss over. after read", [0, 1000]
  double read_miss_after_write_ms = 0;   ///< "Read miss over. after write", [0, 1000]
  double write_hit_after_read_ms = 0;    ///< "Write hit over. after read", [0, 1000]
  double write_hit_after_write_ms = 0;   ///< "Write hit over. after write", [0, 1000]
  double write_miss_after_read_ms = 0;   ///< "Write miss over. after read", [0, 1000]
  double write_miss_after_write_ms = 0;  ///< "Write miss over. after write", [0, 1000]

  /// The overhead of an `op` command that is a cache hit or not, after a `previous` command.
  Time select(Op op, bool hit, Op previous) const {
    const bool after_read = previous == Op::Read;
    double ms;
    if (op == Op::Read)
      ms = hit ? (after_read ? read_hit_after_read_ms : read_hit_after_write_ms)
               : (after_read ? read_miss_after_read_ms : read_miss_after_write_ms);
    else
      ms = hit ? (after_read ? write_hit_after_read_ms : write_hit_after_write_ms)
               : (after_read ? write_miss_after_read_ms : write_miss_after_write_ms);
    return from_ms(ms);
  }
};

/// The three together, as the disk's media driver takes them.
struct DriveFeatures {
  InterfaceParams interface;
  CacheParams cache;
  OverheadParams overheads;
  /// True when any feature is on: the driver then serves one command at a time through the cache
  /// path (firmware/controller/disk_driver.h); false keeps the plain seek-and-transfer path.
  bool active() const { return interface.active() || cache.enabled || overheads.enabled; }
};

}  // namespace drivevp
