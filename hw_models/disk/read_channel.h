// Read/write channel and media model.
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "hw_models/backing_store.h"
#include "hw_models/disk/actuator.h"
#include "hw_models/disk/disk_params.h"
#include "hw_models/disk/spindle.h"
#include "hw_models/sector_buffer.h"
#include "tlm_bus/sc/irq.h"
#include "tlm_bus/sc/register_bank.h"
#include "waveforms/tracer.h"

namespace drivevp {

/// The read/write channel with the media: maps LBNs to (cylinder, head, sector) through the
/// zoned, skewed layout (DiskGeometry), waits for the first target sector to come under the head
/// (rotational latency from the spindle phase), transfers at the media rate (one sector per
/// period/spt), and crosses track boundaries with a head switch or a one-cylinder seek followed
/// by the rotational wait left after it (the skew makes it short: on the HP 97560 0.066 ms after a
/// head switch and 0.108 ms after a cylinder switch). Data moves through a sector buffer
/// that the firmware reaches by DMA; the media contents live in a BackingStore (compact, payload
/// or discard mode: the bytes move over the bus the same way in every mode).
/// The buffer cache, read-ahead and write-back are the firmware's (docs/models/cache.md); the channel
/// gives it BUFFER_OFFSET, MARK, BLOCKS_DONE and STOP (below). Does not model: ECC retries, defect remapping, sparing,
/// zero-latency (out-of-order) reads.
///
/// Registers (docs/registers.md "Read channel"): LBN 0x00 RW64, COUNT 0x08 RW32, COMMAND 0x0C
/// WO32 (1 read, 2 write), STATUS 0x10 RO32 (bit0 busy, bit1 done pending, bit2 error), IRQ_ACK
/// 0x14 RW32 (write: acknowledge; read: STATUS, then acknowledge), TRANSFER_START_PS 0x18 RO64, TRANSFER_END_PS 0x20
/// RO64, SECTOR_UNDER_HEAD 0x28 RO32 (angular slot under the head on the current track, at the access's time). The
/// buffer window (second socket, DMI-capable) holds COUNT blocks from offset 0. A COMMAND write that carries a
/// CommandExtension records the command's id for waveforms (drive.channel.command_id).
/// Buffer-cache support (docs/models/cache.md; all zero by default, which is the behaviour above):
/// BUFFER_OFFSET 0x30 RW64 (blocks: the transfer's data is at that block of the sector buffer,
/// which grows to BUFFER_OFFSET + COUNT blocks), MARK 0x38 RW32 (a read's first MARK blocks are in
/// the buffer once they have passed under the head, before the whole transfer ends; 0: none),
/// BLOCKS_DONE 0x3C RO32 (blocks the current or last transfer has passed, at the access's time; reading it
/// during a read puts the blocks passed so far in the buffer: catch-up on access),
/// COMMAND 3 = stop and 4 = stop in sector (DiskSim 4.0 disksim_diskctlr.c disk_buffer_stopable_access
/// and disk_buffer_stop_access with "Disconnect in seek" 0: a read in progress ends with the blocks
/// wholly passed by the command's time, the block under the head not read; the transfer-done interrupt,
/// and the heads, move to the stop's end: with 4 the command's time, with 3 the end of the block under
/// the head or of the rotational wait before the next block; with either, a head switch or seek to the
/// next block's track in progress ends first, the heads then on that track; at a block boundary the
/// stop is at once),
/// LEAD 0x40 RW32 (blocks, 0..2^32-1; one read command's, cleared by every command: the read may
/// start up to LEAD blocks before LBN on LBN's track, at whichever of those blocks and LBN comes
/// under the head first from the command's time, and reads on through LBN + COUNT - 1: DiskSim 4.0's
/// "Read any free blocks", disksim_diskctlr.c disk_buffer_seekdone), LEAD_TAKEN 0x44 RO32 (blocks
/// the last read started before LBN). Such a read is then the transfer of LBN - LEAD_TAKEN, COUNT +
/// LEAD_TAKEN blocks (LBN and COUNT read back so, MARK when not 0 grows by LEAD_TAKEN, the data
/// starts at BUFFER_OFFSET, BLOCKS_DONE counts from its first block),
/// EXTEND 0x48 WO32 (blocks: a read in progress continues on the same pass to that many blocks in
/// all, its end and the transfer-done interrupt moving later; the firmware raises a running
/// read-ahead's target with it, as DiskSim 4.0 raises a segment's maxreadaheadblkno),
/// RING_BLOCKS 0x4C RW32 and RING_COUNT 0x50 RW32 (the buffer's first RING_COUNT x RING_BLOCKS
/// blocks are RING_COUNT rings of RING_BLOCKS blocks: a transfer whose BUFFER_OFFSET lies in a ring
/// puts its block i at the ring's block (BUFFER_OFFSET - ring start + i) mod RING_BLOCKS, wrapping
/// around the ring's end to its start, as DiskSim 4.0's segments wrap in the buffer; 0: none).
class ReadChannel : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ReadChannel> socket;         ///< registers
  tlm_utils::simple_target_socket<ReadChannel> buffer_socket;  ///< sector buffer (DMA)
  InterruptLine transfer_done_irq{"transfer_done_irq"};

  ReadChannel(sc_core::sc_module_name name, const DiskParams& params, Spindle& spindle, Actuator& actuator);

  const DiskGeometry& geometry() const { return geometry_; }
  /// Brings the state up to time `at`: a transfer whose end is due has completed (data moved
  /// between the sector buffer and the store, heads on the last track).
  void catch_up(Time at);
  /// A read in progress: its first `passed` blocks go into the buffer now (BLOCKS_DONE's read).
  void deliver_passed(std::uint32_t passed);
  /// The media contents (set its mode before the simulation starts).
  BackingStore& store() { return store_; }
  const BackingStore& store() const { return store_; }
  void trace(Tracer& tracer, const std::string& prefix);

  /// Timing of a media transfer: when the first sector comes under the head, when the last one has
  /// passed, and where the heads end.
  struct Plan {
    Time transfer_start{0};
    Time transfer_end{0};
    std::uint32_t end_cylinder = 0;
    std::uint32_t end_head = 0;
  };

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void buffer_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  /// Grants direct access to the sector buffer (read/write, no latency of its own); revoked
  /// through invalidate_direct_mem_ptr whenever a larger COUNT reallocates the buffer.
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void start(bool is_write, const sc_core::sc_time& delay);
  /// A COMMAND write of `v` (read, write, stop) carried by `trans`.
  void command(std::uint64_t v, tlm::tlm_generic_payload& trans);
  /// SECTOR_UNDER_HEAD's read at the access's time (brings the actuator up to it).
  std::uint64_t sector_under_head();
  /// BLOCKS_DONE's read at the access's time: the blocks passed, those of a read put in the buffer.
  std::uint32_t blocks_done();
  std::uint64_t status() const;
  void acknowledge();
  void on_done();
  const DiskParams& params_;
  Spindle& spindle_;
  Actuator& actuator_;
  DiskGeometry geometry_;
  Time period_;
  BackingStore store_;
  SectorBuffer buffer_;  ///< the sector buffer's bytes and bus paths (hw_models/sector_buffer.h)
  /// One run of the current transfer's media pass (media_pass, tlm_bus/param_page.h): blocks on
  /// consecutive sectors of one track.
  struct Run {
    std::uint64_t index = 0;   ///< of the run's first block in the transfer
    std::uint64_t blocks = 0;  ///< in the run
    Time start{0};             ///< when the run's first sector is under the head
    Time base{0};  ///< sectors_time(slot): block j of the run ends at start + sectors_time(slot + j + 1) - base
    std::uint32_t slot = 0;
    std::uint32_t sectors_per_track = 0;
    std::uint32_t cylinder = 0;
    std::uint32_t head = 0;
  };
  /// Plans the media pass of `blocks` blocks from `lbn` into runs_ (once per transfer: the plan,
  /// the mark, BLOCKS_DONE and a stop all read it) and returns its plan.
  Plan plan_runs(std::uint64_t lbn, std::uint64_t blocks, Time start, bool write);
  /// The current transfer's plan cut to its first `blocks` blocks (1 <= blocks <= count_): a
  /// shorter pass from the same start passes the same runs, the last one cut short.
  Plan plan_prefix(std::uint64_t blocks) const;
  /// When the first `n` blocks of run `r` have passed under the head (n = 0: the run's start).
  Time run_boundary(const Run& r, std::uint64_t n) const {
    return r.start + sectors_time(period_, r.slot + n, r.sectors_per_track) - r.base;
  }
  /// Blocks of the current transfer that have passed under the head by `at`.
  std::uint32_t blocks_passed(Time at) const;
  void stop(const sc_core::sc_time& delay, bool in_sector);
  /// LEAD: of LBN and the up to `lead` blocks before it on its track, how many blocks before LBN
  /// the one first under the head from `begin` is (0: LBN itself).
  std::uint32_t lead_in(std::uint32_t lead, Time begin) const;
  /// EXTEND: the read in progress continues to `blocks` blocks (ignored unless a read is in
  /// progress, blocks > COUNT and the blocks lie inside the capacity).
  void extend(std::uint64_t blocks, const sc_core::sc_time& delay);
  /// Grows the sector buffer to BUFFER_OFFSET + COUNT blocks (revoking DMI when it moves).
  void size_buffer();
  /// Moves transfer blocks [first, first + n) between the store and the sector buffer (to the
  /// store when `to_store`), wrapping around the transfer's ring (RING_BLOCKS) if it has one.
  void move_blocks(std::uint64_t first, std::uint64_t n, bool to_store);
  /// The ring holding buffer block `b` as [start, start + RING_BLOCKS), or {b, 0} when none does.
  std::pair<std::uint64_t, std::uint64_t> ring_of(std::uint64_t b) const;
  std::uint32_t ring_blocks_ = 0;
  std::uint32_t ring_count_ = 0;
  std::uint64_t lbn_ = 0;
  std::uint32_t count_ = 0;
  std::uint64_t buffer_offset_ = 0;  ///< blocks
  std::uint32_t mark_ = 0;
  std::uint32_t lead_ = 0;        ///< LEAD
  std::uint32_t lead_taken_ = 0;  ///< LEAD_TAKEN
  bool mark_copied_ = false;
  std::uint64_t filled_ = 0;  ///< blocks of the current read already in the buffer (the marked ones)
  Time mark_end_{0};
  Time begin_{0};  ///< when the current transfer was commanded
  bool op_write_ = false;
  Traced<bool> transferring_{false};
  Traced<std::uint64_t> current_lbn_{0};
  Traced<std::uint64_t> command_id_{0};
  bool done_pending_ = false;
  bool error_ = false;
  Plan plan_;
  std::vector<Run> runs_;  ///< the current transfer's media pass (plan_runs)
  sc_core::sc_event done_event_;
  RegisterBank regs_;
};

}  // namespace drivevp
