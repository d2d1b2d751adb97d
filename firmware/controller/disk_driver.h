// The disk's media driver: boot from the disk's parameter page and spindle, then every media
// access as a seek (actuator) followed by a transfer (read channel). docs/models/firmware.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "firmware/cache/segmented_cache.h"
#include "firmware/controller/media_driver.h"
#include "firmware/disk_predictor.h"
#include "tlm_bus/drive_features.h"
#include "tlm_bus/sc/irq.h"

namespace drivevp {

/// Drives the disk's actuator and read channel (register map: tlm_bus/devices/disk_registers.h,
/// docs/registers.md) for the controller, through its ControllerServices:
///  1. boot: reads the parameter page and the spindle's index time over the bus, times that
///     register read (the loosely-timed offset it adds: one bus access, the unit of the
///     firmware's own command path) and builds its DiskPredictor with that command path;
///  2. serve (after the controller spent the command overhead): for a write it sets the
///     channel's COUNT and DMAs the data from the host into the sector buffer; then one burst
///     programs the actuator (TARGET_CYLINDER, TARGET_HEAD, COMMAND = seek);
///  3. seek-done interrupt: one burst read from IRQ_ACK takes the status, acknowledges (read to
///     clear) and reads the seek log; one burst programs the read channel (LBN, COUNT, COMMAND);
///  4. transfer-done interrupt: one burst read from IRQ_ACK takes the status, acknowledges and
///     reads the transfer times; for a read it DMAs the data to the host buffer; the access ends
///     (ControllerServices::access_done).
/// An error status from either interrupt ends that command with amap::kStatusMediaError.
/// A batch (several commands in one decision) that is one contiguous run — every command of the
/// same op, each starting at the LBN where the one before it ends (the Linux elevators' merge
/// chains, docs/models/firmware.md "Merging") — is served as the block layer's merged request:
/// one seek to the first LBN and one channel transfer of all the blocks (for a write, COUNT is the
/// total and each command's data is DMAed to its offset in the sector buffer; for a read, each
/// command's data is DMAed from its offset), and every command's log is the merged access's (its
/// own cylinder and head, the shared seek and transfer times). Any other batch is served one
/// command after another, each with its own seek and transfer. Either way the command overhead is
/// spent once for the decision and the commands complete together after the access. A Reposition seeks the arm to
/// Decision::cylinder on the current head and reads back the arm's cylinder. An interrupt that arrives in a state that
/// does not expect it is acknowledged and otherwise ignored.
///
/// With DriveFeatures (tlm_bus/drive_features.h) active — a host interface, the segmented cache or
/// the selected overheads — the driver serves a decision's commands one at a time on the feature
/// path (docs/models/cache.md):
///  - overhead: command_overhead() selects OverheadParams by read/write, hit (a read whole in a
///    segment; a write taken by write-back) and the previous command (the controller spends it for
///    the decision's first command, the driver for each later one);
///  - read: SegmentedCache::plan_read. A full hit moves no media: its data crosses the interface
///    from the buffer (InterfaceParams::read_sector_ms per block from the command's time). A miss
///    or partial hit seeks and reads the rest plus the read-ahead into the segment (channel
///    BUFFER_OFFSET, MARK = the requested blocks), reads back the transfer's start and paces the
///    data phase over the interface: block i crosses after the previous one and once it has passed
///    under the head (DiskPredictor::block_ends), reconnecting per first/other reselect overhead
///    and hold_bus_read. At the data phase's end (a firmware timer; untraced, at once when nothing
///    else can happen first: deliver_inline()) the data is DMAed to the host
///    and, after the read completion overhead, the command completes; the read-ahead continues in
///    the background (state Prefetching, not busy(), kept in ahead_plan_) until the segment's read
///    ends or a command stops it. A command arriving meanwhile (command_overhead()) reads
///    BLOCKS_DONE (untraced: not when no count could make it a hit or a join, stops_whatever_read()),
///    counting the blocks read so far as in the segment (DiskSim's access swap): a
///    full hit is served while the read-ahead goes on; so is a read whose first block is in the
///    segment and whose last block the running pass reads once the read has raised the segment's
///    read-ahead target (it joins the pass: start_join(), the pass extended to the raised target
///    through the channel's EXTEND, its data crossing as the pass reads it; a full hit raises the
///    target of the pass the same way: raise_ahead()); any other command stops it at its arrival
///    (yield_background(): channel STOP once the minimum read-ahead has passed) and starts after
///    its overhead's end plus what is left of the stop (the channel's STOP ends once a head switch
///    or seek under way has ended and, without "Stop prefetch in sector", the block or rotational
///    wait under the heads; DiskSim 4.0 disk_check_hda adds the two, finish_background());
///  - read-ahead on idle hit (CacheParams::read_ahead_on_idle_hit): a full hit served with no media
///    access in progress also reads ahead from its segment's end (SegmentedCache::
///    plan_hit_read_ahead), its seek starting a read miss's overhead after the hit's arrival (its
///    own timer, ahead_timer_), in parallel with the hit's data phase. The driver is not busy()
///    while only that read-ahead runs: a full hit (counting the blocks it has read when the hit
///    arrives, as for a miss's read-ahead) or a read joining it is served meanwhile and the
///    read-ahead goes on;
///    any other command (serve()) or a Reposition waits for it to stop: at once before its seek or
///    first sector (the channel is programmed just before it), at its seek's end (a command: its
///    overhead's end plus the rest of the seek at its arrival, DiskSim's disk_seek_stoptime), or at
///    the block under the head; a full hit served while it seeks raises its target (the count it is
///    programmed with);
///  - read any free blocks (CacheParams::read_any_free_blocks): a miss into an empty segment sets
///    the channel's LEAD to the blocks before it on its track; the read starts with the first of
///    them (or the request) under the head, LEAD_TAKEN of them go to the segment's front
///    (SegmentedCache::lead_in) and the data phase paces only the request's blocks;
///  - write: the data crosses the interface (write_sector_ms per block from the command's time)
///    into the segment SegmentedCache::plan_write gives; write-through seeks meanwhile and starts
///    the media write once seek and data are both done, completing at its end plus the write
///    completion overhead; write-back (CacheParams::fast_write_level) completes when the data is
///    in the buffer (plus the completion overhead) and flushes it when the controller has nothing
///    to serve (on_idle()), or before a write or a media read (the host then waits for the flush).
///    A command arriving during an idle flush waits for it, its overhead running from its arrival
///    (background_stops()).
class DiskMediaDriver : public sc_core::sc_module, public MediaDriver {
 public:
  /// Throws std::invalid_argument for a CacheParams out of range (SegmentedCache), or a fast write
  /// level above 0 without the cache.
  DiskMediaDriver(sc_core::sc_module_name name, ControllerServices& services, InterruptLine& seek_done,
                  InterruptLine& transfer_done, const DriveFeatures& features = {});

  /// A factory for Controller: the driver bound to the disk's seek-done and transfer-done lines.
  static MediaDriverFactory factory(InterruptLine& seek_done, InterruptLine& transfer_done,
                                    const DriveFeatures& features = {});

  std::string_view device_kind() const override { return "disk"; }
  std::vector<std::string> state_names() const override;
  void boot() override;
  const Predictor& predictor() const override { return predictor_; }
  /// The disk predictor itself (geometry, rotation period, command path).
  const DiskPredictor& disk_predictor() const { return predictor_; }
  MediaPosition position() const override { return DiskPredictor::position_of(head_); }
  /// Idle, or only reading ahead (after a miss, or after a full hit with
  /// CacheParams::read_ahead_on_idle_hit): DiskSim
  /// serves a command arriving then at once (a full hit from the buffer while the read-ahead goes
  /// on; any other after stopping it, serve() waiting for that).
  bool busy() const override {
    return state_ != State::Idle &&
           !(state_ == State::Prefetching && ahead_ != Ahead::None && batch_.empty() && !reposition_waiting_);
  }
  void serve(std::vector<MediaResult>& batch) override;
  void reposition(const Decision& decision) override;
  void dma_path_changed() override { predictor_.set_command_path(command_path()); }
  Time command_overhead(const Command& first) override;
  void yield_background() override;
  /// Reading ahead (a command stops it), or flushing write-back data when idle (a command waits
  /// for the flush, which is not interrupted): either way the waiting command's overhead runs
  /// from its arrival (DiskSim 4.0 disk_read_arrive / disk_write_arrive set overhead_done from the
  /// arrival; disk_buffer_stopable_access does not stop a write in progress, and disk_check_hda
  /// starts the next access once it is released, delayed by what is left of the overhead).
  bool background_stops() const override {
    return state_ == State::Prefetching || (state_ == State::Flushing && batch_.empty());
  }
  void on_idle() override;
  /// The cache's bookkeeping (null without CacheParams::enabled).
  const SegmentedCache* cache() const { return cache_ ? &*cache_ : nullptr; }

 private:
  enum class State : std::uint8_t {
    Idle = 0,
    Seeking = 1,
    Transferring = 2,
    Repositioning = 3,
    Delivering = 4,   ///< feature path: data crossing the interface without the media
    Prefetching = 5,  ///< feature path: read-ahead after the command completed
    Flushing = 6      ///< feature path: write-back data going to the media
  };
  void set_state(State s);
  /// Starts the seek of batch_[index_] (and, for a write, moves its data in first).
  void start_command();
  /// batch_[index_] is done: starts the next command of the batch, or ends the access.
  void next_or_finish();
  /// Whether batch_ is one contiguous run of one op of more than one command (served as one
  /// seek and one transfer).
  bool contiguous_run() const;
  /// The device reported an error for batch_[index_] (for a merged run: for all of it).
  void fail();
  void on_seek_done();
  void on_transfer_done();
  /// The firmware's command path around a seek (DiskPredictor), from the bus access time
  /// measured at boot and the sector buffer's DMI grant.
  CommandPath command_path() const;
  // Feature path (DriveFeatures active).
  /// What the firmware timer does when it fires: complete a command's data phase, start a media
  /// write whose data has arrived, stop a read-ahead.
  enum class Wake : std::uint8_t { None, Deliver, ProgramWrite, Stop };
  /// CacheParams::read_ahead_on_idle_hit: where the read-ahead a full hit started (ahead_plan_) is:
  /// its seek not yet started (Pending), seeking, its first sector not yet under the head
  /// (Awaiting: the channel is programmed just before it), reading.
  enum class Ahead : std::uint8_t { None, Pending, Seeking, Awaiting, Reading };
  /// What the read-ahead's own timer (ahead_timer_) does: start its seek, program its channel
  /// transfer, or drop it for a waiting command.
  enum class AheadWake : std::uint8_t { None, Seek, Program, Abandon };
  /// The hit in batch_[index_] (read_ its plan) starts its read-ahead when the cache gives one:
  /// returns whether it did (the Deliver wake is then armed too).
  bool start_hit_read_ahead(Time deliver);
  /// Seeks to the read-ahead's first block at `at` (>= sim_now(), possibly before the local time:
  /// DiskSim's seek starts at the read miss overhead's end, in parallel with the hit's overhead).
  void seek_ahead(Time at);
  void ahead_seek_done();
  void program_ahead();
  void ahead_transfer_done();
  /// After a read's transfer-done interrupt: reads the done burst (acknowledging it) and then
  /// BLOCKS_DONE, two bus accesses' time; returns BLOCKS_DONE, or none when the channel reports an
  /// error (then BLOCKS_DONE is not read). Untraced runs read both in one burst.
  std::optional<std::uint32_t> read_done_and_blocks();
  void on_ahead_timer();
  /// At `first`'s arrival during a miss's read-ahead, in an untraced run: whether
  /// command_overhead() stops the read-ahead for it whatever BLOCKS_DONE reads (a write, or a read
  /// that is no full hit elsewhere and cannot hit the read-ahead's segment: SegmentedCache::may_hold).
  bool stops_whatever_read(const Command& first) const;
  /// command_overhead() after the arrival's read-ahead handling: the overhead `first` spends.
  Time command_overhead_after_arrival(const Command& first);
  void ahead_wake_at(AheadWake what, Time at);
  bool write_back(const Command& c) const;  ///< the cache takes this write back
  /// InterfaceParams::extra_write_disconnect applies to `c`: a write-through write after a write
  /// that did not end at c.lbn.
  bool extra_disconnect(const Command& c) const;
  void start_feature();  ///< batch_[index_], its overhead spent
  void start_read();
  /// batch_[index_] joins the miss's read-ahead still running (joining_): served from the buffer,
  /// each block once the pass has read it, the read-ahead going on.
  void start_join();
  /// A read `c` served on the segment of the running read-ahead (joining it, or a full hit):
  /// raises the segment's read-ahead target and, when it passes the pass's end, extends the
  /// channel's pass to it (EXTEND).
  void raise_ahead(const Command& c);
  void start_write();
  void start_flush();
  void seek_to(std::uint64_t lbn, const Command* c);
  /// Writes the channel's BUFFER_OFFSET and MARK (blocks) in one burst, the transaction carrying
  /// `c` when given; an untraced run skips a write of the values the registers already hold and
  /// spends its bus access time.
  void write_buffer_mark(std::uint64_t offset, std::uint32_t mark, const Command* c);
  void program_transfer();  ///< the channel burst for the command (or the flush) after its seek
  /// The end of a read's data phase from the buffer to the host (ps): from `e` (the data phase's
  /// start), one interface sector time per block of `ready` (when each block is in the buffer, ps)
  /// from index `first` on; a block not yet in the buffer waits (hold_bus_read) or disconnects and
  /// reconnects once the read watermark of a `request_blocks`-block read is in (other_reselect +
  /// data_prep); with `reconnect_first`, the first block's reconnection after the seek
  /// (first_reselect + data_prep). DiskSim 4.0 disksim_diskctlr.c (disk_reconnect_done,
  /// disk_buffer_sector_done), docs/models/cache.md "Host interface".
  Time data_phase_end(const std::vector<Time>& ready, std::size_t first, Time e, bool reconnect_first,
                      std::uint32_t request_blocks) const;
  /// InterfaceParams::write_media_overlap: when to program the media write of `c`, its seek done at
  /// `now` and its data still crossing the interface (`now`: at once).
  Time overlapped_write_start(const Command& c, Time now) const;
  void feature_seek_done();
  void feature_transfer_done();
  /// The channel reported an error at a transfer's end (not a flush's): a read-ahead whose command
  /// completed is lost; else the command completes with kStatusMediaError.
  void transfer_failed();
  void on_timer();
  /// The data phase's end (Wake::Deliver) at the handler's local time: completes batch_[index_]
  /// (for a read, its data DMAed to the host; a miss's read-ahead goes on in the background).
  void deliver();
  /// program_transfer(): runs deliver() at once, at the local time max(e, now + offset), when
  /// that cannot change what happens (untraced, nothing else scheduled up to then, nothing to
  /// dispatch after the completion); returns false when the timer must do it.
  bool deliver_inline(Time e);
  /// Arms the firmware timer: `what` at absolute time `at` (now when already past).
  void wake_at(Wake what, Time at);
  /// Completes batch_[index_] now: the completion overhead, then the next command or the end
  /// (the driver stays busy in `after` when not Idle).
  void complete_feature(State after);
  void finish_background();
  /// The track (cylinder, head) of block lbn + blocks - 1 of a media read from `lbn`: lbn's own
  /// when the blocks are one run on its track (no mapping of the last block), else the geometry's.
  HeadPosition track_of_last(std::uint64_t lbn, std::uint64_t blocks) const;
  /// The heads' track after a read of `planned` blocks from `lbn` ended with `blocks` read: the
  /// last block's, or, when a stop cut it short, the first unread block's (ReadChannel::stop).
  HeadPosition track_after(std::uint64_t lbn, std::uint64_t blocks, std::uint64_t planned) const;
  /// The channel's stop command for CacheParams::stop_prefetch_in_sector.
  std::uint32_t stop_command() const;

  /// The cache's view of the layout (SegmentedCache::set_layout): the predictor's geometry.
  class GeometryLayout : public TrackLayout {
   public:
    explicit GeometryLayout(const DiskPredictor& predictor) : predictor_(&predictor) {}
    std::uint64_t track_end(std::uint64_t lbn) const override { return run_end(lbn, true); }
    std::uint64_t cylinder_end(std::uint64_t lbn) const override { return run_end(lbn, false); }
    bool same_track(std::uint64_t a, std::uint64_t b) const override;
    std::uint32_t max_track_blocks() const override;

   private:
    /// The first LBN past lbn's track (per_track) or cylinder, walking the geometry's runs.
    std::uint64_t run_end(std::uint64_t lbn, bool per_track) const;
    const DiskPredictor* predictor_;
  };

  DriveFeatures features_;
  std::optional<SegmentedCache> cache_;
  Op previous_op_ = Op::Read;
  std::uint64_t previous_end_ = 0;  ///< the block after the previous command's last
  bool extra_ = false;              ///< batch_[index_] makes the extra write disconnect
  sc_core::sc_event timer_;
  Wake wake_ = Wake::None;
  SegmentedCache::ReadPlan read_;   ///< the read in progress
  std::uint64_t buffer_block_ = 0;  ///< the command's data in the sector buffer
  /// What the driver last wrote to the channel's BUFFER_OFFSET and MARK (blocks); none before the
  /// first write (the registers' reset values are not assumed).
  std::optional<std::uint64_t> written_offset_;
  std::optional<std::uint32_t> written_mark_;
  Time command_time_{0};     ///< the command's start, after its overhead
  Time data_in_{0};          ///< a write's data is in the buffer
  Time media_start_{0};      ///< the media read's first sector under the head
  std::vector<Time> ready_;  ///< when each requested media block (lead ones first) is in the buffer
  /// CacheParams::read_any_free_blocks: the channel's LEAD is set for the miss in progress.
  bool lead_armed_ = false;
  std::uint32_t lead_ = 0;   ///< the blocks its read started before the request (LEAD_TAKEN; read_ includes them)
  bool media_done_ = false;  ///< the media read (with its read-ahead) has ended
  bool flushing_ = false;    ///< the media access in progress is a write-back flush
  bool continue_after_flush_ = false;  ///< batch_[index_] waits for the flush
  bool stop_requested_ = false;
  bool taking_back_ = false;  ///< batch_[index_] is a write the cache takes back
  // CacheParams::read_ahead_on_idle_hit.
  Ahead ahead_ = Ahead::None;
  SegmentedCache::ReadPlan ahead_plan_;  ///< the read-ahead of a full hit (all of it read-ahead)
  std::uint32_t ahead_keep_ = 0;         ///< of its blocks, those a waiting command does not stop
  /// ahead_plan_ is a miss's read-ahead going on after its command completed (not a hit's): a
  /// command arriving that is neither a full hit nor a join stops it at its arrival (a hit's read-ahead
  /// when the command is served). Either way the command sees the blocks read so far (command_overhead()).
  bool ahead_from_miss_ = false;
  /// The command command_overhead() last saw joins the miss's read-ahead running at its arrival: a
  /// read whose first block that read-ahead's segment holds and whose last block its pass reads
  /// (DiskSim 4.0 disk_buffer_stopable_access merges it with the access: no stop, the read hit
  /// overhead, disk_read_arrive).
  bool joining_ = false;
  bool joined_ = false;            ///< batch_[index_] joined the read-ahead (its data phase waits for the pass)
  std::optional<Time> resume_at_;  ///< a command waiting for a miss's read-ahead to stop: its overhead's end
  sc_core::sc_event ahead_timer_;
  AheadWake ahead_wake_ = AheadWake::None;
  Time spent_overhead_{0};          ///< the overhead command_overhead() gave the last command
  Time miss_overhead_{0};           ///< a read miss's overhead for that command (DiskSim's overhead_done)
  Time overhead_start_{0};          ///< batch_[index_]'s overhead began (DiskSim's arrival)
  Time arrived_at_{0};              ///< when command_overhead() last ran (the command's dispatch)
  std::optional<Time> stop_at_;     ///< a read-ahead's stop asked for at a command's arrival (finish_background)
  Time transfer_done_at_{0};        ///< the channel's last transfer-done interrupt
  std::optional<Time> yielded_at_;  ///< a waiting command first asked the background to stop
  std::optional<Decision> reposition_waiting_;  ///< a Reposition waiting for a hit's read-ahead to stop
  /// A command served while a hit's read-ahead runs: drops one not yet started (Pending); returns
  /// whether the command must wait for it to stop (it is not a full read hit), the stop requested.
  bool stop_ahead_for(const Command* c);
  struct Dirty {
    std::uint64_t lbn = 0;
    std::uint32_t blocks = 0;
    std::uint64_t buffer_block = 0;
  };
  std::optional<Dirty> dirty_;  ///< write-back data not yet on the media

  ControllerServices& services_;
  InterruptLine& seek_done_;
  InterruptLine& transfer_done_;
  DiskPredictor predictor_;
  GeometryLayout layout_{predictor_};
  Time bus_access_time_{0};  ///< one register access on the bus, measured at boot
  State state_ = State::Idle;
  HeadPosition head_;
  std::vector<MediaResult> batch_;     ///< the access in progress
  std::vector<MediaResult> finished_;  ///< the access just finished, while access_done() posts it
  std::size_t index_ = 0;              ///< the command of batch_ in service
  bool merged_ = false;                ///< batch_ is served as one transfer (contiguous_run())
  std::uint32_t merged_blocks_ = 0;    ///< the blocks of that transfer
};

}  // namespace drivevp
