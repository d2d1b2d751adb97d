// The disk's register map, command codes, status bits and the burst layouts the firmware moves
// over the bus: one header that the device models (hw_models/spindle, actuator, read_channel)
// and the firmware (firmware/controller) both include, so that neither writes an offset or a
// code as a literal. Offsets are relative to each block's base in tlm_bus/sc/address_map.h;
// the map is documented in docs/registers.md. Every struct that crosses the bus is packed and its
// size and field offsets are checked against the register offsets below.
#pragma once

#include <cstddef>
#include <cstdint>

namespace drivevp::disk_regs {

/// Spindle (docs/registers.md "Spindle").
namespace spindle {
inline constexpr std::uint64_t kPeriodPs = 0x00;        ///< 8 bytes, RO: revolution period, ps
inline constexpr std::uint64_t kIndexTimePs = 0x08;     ///< 8 bytes, RO: time of the last index, ps
inline constexpr std::uint64_t kAngle = 0x10;           ///< 4 bytes, RO: angle now
inline constexpr std::uint64_t kIndexIrqEnable = 0x14;  ///< 4 bytes, RW
inline constexpr std::uint64_t kIrqAck = 0x18;          ///< 4 bytes, WO
}  // namespace spindle

/// Actuator (docs/registers.md "Actuator").
namespace actuator {
inline constexpr std::uint64_t kTargetCylinder = 0x00;  ///< 4 bytes, RW
inline constexpr std::uint64_t kTargetHead = 0x04;      ///< 4 bytes, RW
inline constexpr std::uint64_t kCommand = 0x08;         ///< 4 bytes, WO: kCmdSeek starts a seek
inline constexpr std::uint64_t kStatus = 0x0C;          ///< 4 bytes, RO: kStatus* bits
inline constexpr std::uint64_t kCylinder = 0x10;        ///< 4 bytes, RO: the arm's cylinder
inline constexpr std::uint64_t kHead = 0x14;            ///< 4 bytes, RO: the active head
inline constexpr std::uint64_t kIrqAck = 0x18;          ///< 4 bytes: read returns STATUS and acknowledges
inline constexpr std::uint64_t kSeekStartPs = 0x20;     ///< 8 bytes, RO
inline constexpr std::uint64_t kSeekEndPs = 0x28;       ///< 8 bytes, RO
inline constexpr std::uint64_t kSeekDistance = 0x30;    ///< 4 bytes, RO: cylinders
inline constexpr std::uint32_t kCmdSeek = 1;            ///< COMMAND value: seek to TARGET_*
/// COMMAND value: seek to TARGET_* for a write (adds the drive's write settle, DiskParams::write_settle_ms).
inline constexpr std::uint32_t kCmdSeekWrite = 2;
}  // namespace actuator

/// Read channel (docs/registers.md "Read channel").
namespace channel {
inline constexpr std::uint64_t kLbn = 0x00;              ///< 8 bytes, RW: first block
inline constexpr std::uint64_t kCount = 0x08;            ///< 4 bytes, RW: blocks (sizes the sector buffer)
inline constexpr std::uint64_t kCommand = 0x0C;          ///< 4 bytes, WO: kCmdRead or kCmdWrite
inline constexpr std::uint64_t kStatus = 0x10;           ///< 4 bytes, RO: kStatus* bits
inline constexpr std::uint64_t kIrqAck = 0x14;           ///< 4 bytes: read returns STATUS and acknowledges
inline constexpr std::uint64_t kTransferStartPs = 0x18;  ///< 8 bytes, RO
inline constexpr std::uint64_t kTransferEndPs = 0x20;    ///< 8 bytes, RO
inline constexpr std::uint64_t kSectorUnderHead = 0x28;  ///< 4 bytes, RO
inline constexpr std::uint64_t kBufferOffset = 0x30;     ///< 8 bytes, RW: sector-buffer block the transfer uses first
inline constexpr std::uint64_t kMark = 0x38;             ///< 4 bytes, RW: blocks whose data is in the buffer early
inline constexpr std::uint64_t kBlocksDone = 0x3C;       ///< 4 bytes, RO: blocks the last transfer has passed
/// 4 bytes, RW: the next read may start up to LEAD blocks before LBN on LBN's track (cleared by a command)
inline constexpr std::uint64_t kLead = 0x40;
inline constexpr std::uint64_t kLeadTaken = 0x44;   ///< 4 bytes, RO: blocks the last read started before LBN
inline constexpr std::uint64_t kExtend = 0x48;      ///< 4 bytes, WO: a running read continues to this many blocks
inline constexpr std::uint64_t kRingBlocks = 0x4C;  ///< 4 bytes, RW: blocks per ring of the sector buffer (0: none)
inline constexpr std::uint64_t kRingCount = 0x50;   ///< 4 bytes, RW: rings from buffer block 0
inline constexpr std::uint32_t kCmdRead = 1;
inline constexpr std::uint32_t kCmdWrite = 2;
/// A read ends with the blocks wholly passed by now (DiskSim 4.0 "Stop prefetch in sector" = 0): the
/// heads go on to the end of the block under them, of the rotational wait before the next block, or of
/// the head switch or seek to the next block's track; the block under the heads is not read.
inline constexpr std::uint32_t kCmdStop = 3;
/// kCmdStop with "Stop prefetch in sector" = 1: the heads stop at once, but a head switch or seek to
/// the next block's track ends first.
inline constexpr std::uint32_t kCmdStopInSector = 4;
}  // namespace channel

/// STATUS bits of the actuator and the read channel.
inline constexpr std::uint32_t kStatusBusy = 1u << 0;
inline constexpr std::uint32_t kStatusDonePending = 1u << 1;
inline constexpr std::uint32_t kStatusError = 1u << 2;

#pragma pack(push, 1)
/// The firmware's seek: one write burst at actuator::kTargetCylinder.
struct SeekBurst {
  std::uint32_t target_cylinder;
  std::uint32_t target_head;
  std::uint32_t command;  ///< actuator::kCmdSeek
};
/// The seek-done read burst at actuator::kIrqAck: STATUS (and acknowledge), a reserved word, the
/// seek log.
struct SeekDoneBurst {
  std::uint32_t status;
  std::uint32_t reserved;
  std::uint64_t seek_start_ps;
  std::uint64_t seek_end_ps;
  std::uint32_t seek_distance;
};
/// The firmware's transfer start: one write burst at channel::kLbn.
struct TransferBurst {
  std::uint64_t lbn;
  std::uint32_t count;
  std::uint32_t command;  ///< channel::kCmdRead or kCmdWrite
};
/// The transfer-done read burst at channel::kIrqAck: STATUS (and acknowledge), the transfer times.
struct TransferDoneBurst {
  std::uint32_t status;
  std::uint64_t transfer_start_ps;
  std::uint64_t transfer_end_ps;
};
/// The transfer-done burst read on up to BLOCKS_DONE: one 44-byte read burst at channel::kIrqAck
/// that takes STATUS (and acknowledges), the transfer times, SECTOR_UNDER_HEAD, a reserved word,
/// BUFFER_OFFSET, MARK and BLOCKS_DONE. The firmware reads it after a read's transfer-done
/// interrupt in untraced runs, instead of the 20-byte done burst and a BLOCKS_DONE read one bus
/// access later (docs/registers.md "Read channel").
struct TransferDoneBlocksBurst {
  TransferDoneBurst done;
  std::uint32_t sector_under_head;
  std::uint32_t reserved;
  std::uint64_t buffer_offset;  ///< blocks
  std::uint32_t mark;           ///< blocks
  std::uint32_t blocks_done;    ///< blocks
};
/// The cache path's buffer placement: one write burst at channel::kBufferOffset (BUFFER_OFFSET,
/// MARK; blocks).
struct BufferMarkBurst {
  std::uint64_t buffer_offset;
  std::uint32_t mark;
};
/// TRANSFER_START_PS and TRANSFER_END_PS: one read burst at channel::kTransferStartPs (ps).
struct TransferTimesBurst {
  std::uint64_t transfer_start_ps;
  std::uint64_t transfer_end_ps;
};
#pragma pack(pop)

static_assert(sizeof(SeekBurst) == actuator::kStatus - actuator::kTargetCylinder);
static_assert(offsetof(SeekBurst, target_head) == actuator::kTargetHead - actuator::kTargetCylinder);
static_assert(offsetof(SeekBurst, command) == actuator::kCommand - actuator::kTargetCylinder);
static_assert(sizeof(SeekDoneBurst) == actuator::kSeekDistance + 4 - actuator::kIrqAck);
static_assert(offsetof(SeekDoneBurst, seek_start_ps) == actuator::kSeekStartPs - actuator::kIrqAck);
static_assert(offsetof(SeekDoneBurst, seek_end_ps) == actuator::kSeekEndPs - actuator::kIrqAck);
static_assert(offsetof(SeekDoneBurst, seek_distance) == actuator::kSeekDistance - actuator::kIrqAck);
static_assert(sizeof(TransferBurst) == channel::kStatus - channel::kLbn);
static_assert(offsetof(TransferBurst, count) == channel::kCount - channel::kLbn);
static_assert(offsetof(TransferBurst, command) == channel::kCommand - channel::kLbn);
static_assert(sizeof(TransferDoneBurst) == channel::kTransferEndPs + 8 - channel::kIrqAck);
static_assert(offsetof(TransferDoneBurst, transfer_start_ps) == channel::kTransferStartPs - channel::kIrqAck);
static_assert(offsetof(TransferDoneBurst, transfer_end_ps) == channel::kTransferEndPs - channel::kIrqAck);
static_assert(sizeof(TransferDoneBlocksBurst) == channel::kBlocksDone + 4 - channel::kIrqAck);
static_assert(offsetof(TransferDoneBlocksBurst, sector_under_head) == channel::kSectorUnderHead - channel::kIrqAck);
static_assert(offsetof(TransferDoneBlocksBurst, buffer_offset) == channel::kBufferOffset - channel::kIrqAck);
static_assert(offsetof(TransferDoneBlocksBurst, mark) == channel::kMark - channel::kIrqAck);
static_assert(offsetof(TransferDoneBlocksBurst, blocks_done) == channel::kBlocksDone - channel::kIrqAck);
static_assert(sizeof(BufferMarkBurst) == channel::kBlocksDone - channel::kBufferOffset);
static_assert(offsetof(BufferMarkBurst, mark) == channel::kMark - channel::kBufferOffset);
static_assert(sizeof(TransferTimesBurst) == channel::kSectorUnderHead - channel::kTransferStartPs);

}  // namespace drivevp::disk_regs
