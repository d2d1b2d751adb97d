// Settings of a real drive's host interface, buffer cache and command overheads, as DiskSim 4.0's
// disk specification names them (src/modules/disk.modspec; ../shared/drives/disksim-valid/*.diskspecs).
// Plain C++ shared by the disk's scenario keys (hw_models/disk/disk_keys.cpp, device.interface.*,
// device.cache.*, device.overheads.*), the platform and the firmware's disk media driver
// (firmware/controller/disk_driver.h, firmware/cache/segmented_cache.h). Every default is "off":
// a drive without these sections behaves exactly as before (data moves at the bus's per-access
// latency, no cache, one command overhead device.command_overhead_ms). docs/models/cache.md.
#pragma once

#include <algorithm>
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
  /// "Data preparation overhead", ms, [0, 100]: before each data phase that moves data (a read
  /// hit's or a write's after the command overhead, each reconnection of a read miss after its
  /// reselect overhead). DiskSim 4.0 src/disksim_diskctlr.c disk_read_arrive, disk_write_arrive
  /// and disk_check_bus (added to the delay when the transfer moves blocks); disk.modspec "Data
  /// preparation overhead": "additional processing overhead ... before a data transfer". Default 0.
  double data_prep_ms = 0;
  /// A write-through write disconnects once its data is in the buffer and reconnects when its data
  /// is on the media, paying first_reselect_ms before its completion overhead (true: DiskSim's
  /// "Never disconnect" = 0; src/disksim_diskctlr.c disk_buffer_transfer_size, which disconnects a
  /// NO_FASTWRITE write after its data, and disk_check_bus, which reconnects with the first
  /// reselect overhead when disk_buffer_request_complete finds the write on the media). Default
  /// false: the write stays connected and completes when its data is on the media.
  bool write_reconnect = false;
  /// "Write disconnect overhead", ms, [0, 100]: with write_reconnect, the disconnect after a write's
  /// data; the reconnection starts no earlier than its end (DiskSim disk_reconnection_or_transfer_
  /// complete sends the disconnect with this delay). Default 0.
  double write_disconnect_ms = 0;
  /// A write-through write's media write starts before all its data is in: a block is written when
  /// it comes under the head if its data has crossed the interface by then (the block before it has
  /// passed), else the head waits a revolution. The firmware starts the media write on the first
  /// pass of the write's first sector on which no block would be missed (the same end time when at
  /// most one block is missed). DiskSim 4.0 src/disksim_diskctlr.c disk_buffer_sector_done (a
  /// write's sector is written when disk_buffer_block_available, else it passes) and
  /// disk_buffer_update_outbuffer (the buffer fills as the bus transfer proceeds). Default false:
  /// the media write starts once all the data is in.
  bool write_media_overlap = false;
  /// "Extra write disconnect" (the HP C2247's protocol): a write-through write that follows a write
  /// it does not continue (its first block is not where that write ended) disconnects once more
  /// before its data: the media side waits extra_disconnect_command_ms + extra_disconnect_seek_delta_ms
  /// instead of the command overhead; the drive disconnects after extra_disconnect_command_ms +
  /// extra_disconnect_overhead_ms, waits extra_disconnect_inter_delay_ms and reconnects (first
  /// reselect, data preparation) for the data; the disconnect after the data takes
  /// extra_disconnect_second_ms and the reconnection after the media write other_reselect_ms.
  /// DiskSim src/disksim_diskctlr.c disk_write_arrive, disk_disconnect, disk_check_bus,
  /// disk_reconnection_or_transfer_complete (EXTRA_WRITE_DISCONNECT), with the condition of
  /// src/disksim_diskcache.c disk_buffer_select_segment (a write after a non-sequential write; that
  /// code is commented out in DiskSim 4.0's public source, but the C2247 trace marks exactly these
  /// writes "Trip", three disconnects). With it, every write's media write also waits for the fill
  /// of write_fill_blocks() (DiskSim ties that rule to the same parameter). Default false.
  bool extra_write_disconnect = false;
  double extra_disconnect_command_ms = 0;      ///< "Extradisc command overhead", ms, [0, 100]
  double extra_disconnect_overhead_ms = 0;     ///< "Extradisc disconnect overhead", ms, [0, 100]
  double extra_disconnect_inter_delay_ms = 0;  ///< "Extradisc inter-disconnect delay", ms, [0, 100]
  double extra_disconnect_second_ms = 0;       ///< "Extradisc 2nd disconnect overhead", ms, [0, 100]
  double extra_disconnect_seek_delta_ms = 0;   ///< "Extradisc seek delta", ms, [0, 100]

  /// Blocks of a write-through write of `blocks` blocks that must be in the buffer before any of
  /// its blocks is written on the media (with write_media_overlap). With extra_write_disconnect
  /// DiskSim 4.0 holds the media write until the write's segment holds min(blocks, 10) blocks
  /// (fewer than 45 blocks) or 15 blocks (45 or more): src/disksim_diskcache.c
  /// disk_buffer_block_available, which disk_buffer_sector_done asks at each sector of a write
  /// (a block whose answer is no passes under the head, and waits a revolution). This applies to
  /// every write when "Extra write disconnect" is set, with or without the extra disconnect itself.
  /// Otherwise 1: a block is written once its own data is in.
  std::uint32_t write_fill_blocks(std::uint32_t blocks) const {
    if (!extra_write_disconnect) return 1;
    return blocks < 45 ? std::min<std::uint32_t>(blocks, 10) : 15;
  }

  /// True when any member differs from its default (the firmware's feature path is then used).
  bool active() const {
    return read_sector_ms > 0 || write_sector_ms > 0 || hold_bus_read || first_reselect_ms > 0 ||
           other_reselect_ms > 0 || read_completion_ms > 0 || write_completion_ms > 0 || data_prep_ms > 0 ||
           write_reconnect || write_disconnect_ms > 0 || write_media_overlap || extra_write_disconnect;
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
  /// "Maximum read-ahead (blks)", in [0, 65536]: how many blocks past the request's end the media
  /// read goes (raised to min_read_ahead when below it), not cut at the segment's size: the
  /// segment is a ring that keeps the last segment_blocks blocks read (DiskSim 4.0
  /// disksim_diskcache.c disk_buffer_get_max_readahead and disk_buffer_segment_wrap). 0 (with
  /// min_read_ahead 0): a segment's worth, see read_ahead_over_requested. Default 0.
  std::uint32_t max_read_ahead = 0;
  /// "Read-ahead over requested" (DiskSim's keeprequestdata = 1 - this), used only when the
  /// maximum read-ahead is 0: true: the media read goes segment_blocks past the request's end;
  /// false: the segment keeps the request, so the media read ends segment_blocks after the
  /// request's first block (no read-ahead past a request of a segment or more). Default false.
  bool read_ahead_over_requested = false;
  /// "Buffer continuous read" (DiskSim 4.0 src/modules/disk.modspec; the read-ahead's end in
  /// disksim_diskcache.c disk_buffer_get_max_readahead, the track/cylinder stops in
  /// disksim_diskctlr.c disk_initiate_seek), in [0, 4]; where a miss's or partial hit's media read
  /// ends (docs/models/cache.md "Read-ahead modes"):
  ///  0 no read-ahead (the media read ends with the request);
  ///  1 as 3, but not past the end of the track holding the request's last block;
  ///  2 as 3, but not past the end of that block's cylinder;
  ///  3 (default) max_read_ahead past the request (or per read_ahead_over_requested);
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
  /// "Read-ahead on idle hit" (DiskSim 4.0 src/modules/disk.modspec: "whether or not prefetching
  /// should be initiated by the disk when a read request is completely satisfied by cached data";
  /// src/disksim_diskctlr.c disk_check_hda_pending, readaheadifidle): true: a full hit in a read
  /// segment that the drive serves with no media access in progress starts a read-ahead from the
  /// segment's end to the larger of the segment's read-ahead target and the hit's own
  /// (read_ahead_end's count past the hit), while the hit's data crosses the interface; its seek
  /// starts a read miss's command overhead after the hit's arrival (DiskSim's overhead_done). Modes
  /// 1 and 2 read ahead only on the heads' track / cylinder (disk_initiate_seek refuses a read-ahead
  /// that would leave it). false (default): a hit starts no read-ahead.
  bool read_ahead_on_idle_hit = false;
  /// "Read any free blocks" (DiskSim 4.0 src/disksim_diskctlr.c disk_buffer_seekdone, where a
  /// read's heads land on the track it starts on and the read starts with the first block to come
  /// under the head; src/disksim_diskcache.c disk_buffer_block_available, which takes blocks before
  /// the request only into a segment still empty): true: a read miss (a segment started empty for
  /// it) also reads the blocks of its first track before the request that come under the head
  /// before the request's first block (from the first one to pass after the seek, or from the
  /// track's first block when the heads land past the request's start), and its segment starts
  /// there. The request's own timing is unchanged; the segment keeps its last segment_blocks
  /// blocks as before. Needs the layout (the disk media driver's). false (default): a read starts
  /// at its first block.
  bool read_any_free_blocks = false;
  /// "Stop prefetch in sector" (DiskSim 4.0 src/disksim_diskctlr.c disk_buffer_stopable_access,
  /// with "Disconnect in seek" 0): true: a read-ahead stopped for a command stops at once, the block
  /// under the head unread (the channel's stop in sector); false (default): the heads go on to the
  /// end of the block under them, or of the rotational wait before the next block (the channel's
  /// stop). Either way a head switch or seek to the read-ahead's next track ends first, and the
  /// command's seek waits for that end *on top of* what is left of its overhead (disk_check_hda adds
  /// disk_seek_stoptime - now to overhead_done - now).
  bool stop_prefetch_in_sector = false;
  /// "Fast write level" (DiskSim's NO_, LIMITED_ and FULL_FASTWRITE), in [0, 2]: 0 write-through
  /// (completion when the data is on the media); 1 write-back when the buffer holds no other
  /// write-back data or the write appends to it (starts where it ends, and both fit a segment),
  /// else the pending data is flushed and the write goes through (the host waits for both); 2
  /// write-back always (a segment's worth at most), pending data it does not append to being
  /// flushed first (the host waits for that flush). Write-back data goes to the media when the
  /// drive has nothing else to do, or before a read that needs the media. Needs `enabled`.
  /// Default 0.
  std::uint32_t fast_write_level = 0;
  /// "High (read) water mark", in [0, 1]: a read miss's data phase starts (the drive reconnects to
  /// the host) once read_watermark() of the request's blocks are in the buffer, or all of them are;
  /// a data phase that ran dry (without InterfaceParams::hold_bus_read) reconnects the same way,
  /// once that many more blocks are in. Used on the feature path, with or without `enabled`.
  /// DiskSim 4.0 src/disksim_diskcache.c disk_buffer_set_segment (the watermark) and
  /// src/disksim_diskctlr.c disk_request_needs_bus (the reconnection test); disk.modspec: "the disk
  /// may disconnect from the bus until additional data are read from the disk media. When the
  /// amount of available data in the cache reaches the high water mark, the disk attempts to
  /// reconnect". Default 0: one block, the behaviour without a watermark.
  double read_water_mark = 0;
  /// "Set watermark by reqsize": true: read_water_mark is a fraction of the request (at most a
  /// segment); false: of a segment (disk.modspec). Default false.
  bool watermark_by_request_size = false;
  /// The read watermark in blocks for a read of `blocks`, at least 1: floor(min(segment_blocks,
  /// blocks) x read_water_mark) by request size, else segment_blocks x read_water_mark rounded up
  /// (DiskSim's two formulas in disk_buffer_set_segment).
  std::uint32_t read_watermark(std::uint32_t blocks) const {
    const double base = watermark_by_request_size ? std::min(segment_blocks, blocks) : segment_blocks;
    const double w = watermark_by_request_size ? base * read_water_mark : base * read_water_mark + 0.9999999999;
    return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(w));
  }
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
  /// "Minimum seek delay", ms, [0, 1000]: a media write's positioning (a write-through write's or a
  /// write-back flush's seek, write settle included) takes at least this long; a shorter seek
  /// starts later by the difference. Independent of `enabled`, on the feature path. DiskSim 4.0
  /// src/disksim_diskctlr.c disk_check_hda_pending (mintime for a write that does not append to a
  /// write in progress) and disk_initiate_seek (seg->time += mintime - seektime); disk.modspec
  /// "Minimum seek delay": "the minimum media access delay for a nonsequential write request".
  /// Default 0.
  double minimum_seek_delay_ms = 0;

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
