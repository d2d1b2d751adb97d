// The MEMS-based storage device's register map, command codes, status bits and the burst layouts
// the firmware moves over the bus: one header that the device model (hw_models/mems/sc/
// mems_device.h) and the firmware both include, so that neither writes an offset or a code as a
// literal. Offsets are relative to the device's register window; the map is documented in
// docs/registers.md ("MEMS device"). Every struct that crosses the bus is packed and its size and
// field offsets are checked against the register offsets below.
#pragma once

#include <cstddef>
#include <cstdint>

namespace drivevp::mems_regs {

// --- the access --------------------------------------------------------------------------------
inline constexpr std::uint64_t kLbn = 0x00;      ///< 8 bytes, RW: first block of the access
inline constexpr std::uint64_t kCount = 0x08;    ///< 4 bytes, RW: blocks (sizes the sector buffer)
inline constexpr std::uint64_t kCommand = 0x0C;  ///< 4 bytes, WO: kCmd* (| kCmdUseTarget)
inline constexpr std::uint64_t kStatus = 0x10;   ///< 4 bytes, RO: kStatus* bits
inline constexpr std::uint64_t kIrqAck = 0x14;   ///< 4 bytes: write acknowledges; read returns STATUS and acknowledges
inline constexpr std::uint64_t kAccessStartPs = 0x18;     ///< 8 bytes, RO: time the last command was accepted
inline constexpr std::uint64_t kPositioningEndPs = 0x20;  ///< 8 bytes, RO: startup + first positioning done
inline constexpr std::uint64_t kAccessEndPs = 0x28;       ///< 8 bytes, RO: last block transferred (done IRQ)
inline constexpr std::uint64_t kStartupPs = 0x30;         ///< 8 bytes, RO: startup delay the last command paid
inline constexpr std::uint64_t kRows = 0x38;              ///< 4 bytes, RO: rows swept by the last command
inline constexpr std::uint64_t kRuns = 0x3C;              ///< 4 bytes, RO: sweeps (positionings) of the last command
// --- the sled, at the access's time ------------------------------------------------------------
inline constexpr std::uint64_t kSledXNm = 0x40;         ///< 8 bytes, RO: X offset, nm, int64 two's complement
inline constexpr std::uint64_t kSledYNm = 0x48;         ///< 8 bytes, RO: Y offset, nm, int64 two's complement
inline constexpr std::uint64_t kSledYDirection = 0x50;  ///< 4 bytes, RO: +1 or -1 as int32
inline constexpr std::uint64_t kActiveTips = 0x54;      ///< 4 bytes, RO: tips transferring now
inline constexpr std::uint64_t kPowerState = 0x58;      ///< 4 bytes, RO: kPower* (mems::SledPowerState)
inline constexpr std::uint64_t kStartups = 0x5C;        ///< 4 bytes, RO: startups so far (saturating)
inline constexpr std::uint64_t kEnergyNj = 0x60;        ///< 8 bytes, RO: energy so far, nJ (rounded)
// --- the target as media coordinates (used by a command with kCmdUseTarget) ---------------------
inline constexpr std::uint64_t kTargetSled = 0x68;      ///< 4 bytes, RW
inline constexpr std::uint64_t kTargetCylinder = 0x6C;  ///< 4 bytes, RW: X index
inline constexpr std::uint64_t kTargetColumn = 0x70;    ///< 4 bytes, RW: tip group
inline constexpr std::uint64_t kTargetRow = 0x74;       ///< 4 bytes, RW: physical row (Y index)
inline constexpr std::uint64_t kTargetCell = 0x78;      ///< 4 bytes, RW: block within the row
// --- a batch: several requests in one media access (kCmdBatch) ----------------------------------
/// 4 bytes, RW: entries of the batch table a kCmdBatch serves, [1, kMaxBatch].
inline constexpr std::uint64_t kBatchCount = 0x80;
/// kMaxBatch BatchEntry records, RW. Entry i's data sits in the sector buffer at byte offset
/// 512 * (count of entries 0 .. i-1): the entries' data back to back, in table order.
inline constexpr std::uint64_t kBatchTable = 0x100;
inline constexpr std::uint32_t kMaxBatch = 64;

/// COMMAND values (low byte). kCmdRead / kCmdWrite: position to the first block, then stream
/// COUNT blocks between the media and the sector buffer. kCmdMove: position to the first block's
/// pass only (no transfer; COUNT is not used).
inline constexpr std::uint32_t kCmdRead = 1;
inline constexpr std::uint32_t kCmdWrite = 2;
inline constexpr std::uint32_t kCmdMove = 3;
/// kCmdBatch: serve entries 0 .. BATCH_COUNT-1 of the batch table in one media access: their first
/// blocks lie at the same relative (x, y) in different regions and are swept together by their
/// own tips (002 §4), up to the active-tip limit; blocks beyond an entry's first sweep follow in
/// table order. The device refuses (error bit) a batch whose first sweeps do not share the
/// position and direction, or whose tips overlap or exceed the active tips (docs/registers.md).
inline constexpr std::uint32_t kCmdBatch = 4;
/// COMMAND flag: take the first block from TARGET_* instead of LBN (LBN is then set to it).
inline constexpr std::uint32_t kCmdUseTarget = 1u << 8;

/// STATUS bits.
inline constexpr std::uint32_t kStatusBusy = 1u << 0;          ///< a command is in progress
inline constexpr std::uint32_t kStatusDonePending = 1u << 1;   ///< done, not acknowledged
inline constexpr std::uint32_t kStatusError = 1u << 2;         ///< the last command was refused
inline constexpr std::uint32_t kStatusTransferring = 1u << 3;  ///< tips transferring (sweep) now
inline constexpr std::uint32_t kStatusStartup = 1u << 4;       ///< the sled is starting up now

/// POWER_STATE values (equal to mems::SledPowerState).
inline constexpr std::uint32_t kPowerInactive = 0;
inline constexpr std::uint32_t kPowerIdle = 1;
inline constexpr std::uint32_t kPowerActive = 2;

#pragma pack(push, 1)
/// The firmware's access: one write burst at kLbn.
struct AccessBurst {
  std::uint64_t lbn;
  std::uint32_t count;
  std::uint32_t command;  ///< kCmdRead, kCmdWrite or kCmdMove
};
/// The done read burst at kIrqAck: STATUS (and acknowledge), then the command's log.
struct AccessDoneBurst {
  std::uint32_t status;
  std::uint64_t access_start_ps;
  std::uint64_t positioning_end_ps;
  std::uint64_t access_end_ps;
  std::uint64_t startup_ps;
  std::uint32_t rows;
  std::uint32_t runs;
};
/// The target as media coordinates: one write burst at kTargetSled.
struct TargetBurst {
  std::uint32_t sled;
  std::uint32_t cylinder;
  std::uint32_t column;
  std::uint32_t row;  ///< physical row
  std::uint32_t cell;
};
/// The sled's state: one read burst at kSledXNm.
struct SledBurst {
  std::int64_t x_nm;
  std::int64_t y_nm;
  std::int32_t y_direction;
  std::uint32_t active_tips;
  std::uint32_t power_state;
  std::uint32_t startups;
  std::uint64_t energy_nj;
};
/// The done burst and the sled's position in one read burst at kIrqAck (the two are adjacent).
struct DoneSledBurst {
  AccessDoneBurst done;
  std::int64_t x_nm;
  std::int64_t y_nm;
  std::int32_t y_direction;
};
/// One entry of the batch table (kBatchTable + 16 * i).
struct BatchEntry {
  std::uint64_t lbn;
  std::uint32_t count;  ///< blocks, >= 1
  std::uint32_t op;     ///< kCmdRead or kCmdWrite
};
#pragma pack(pop)

static_assert(sizeof(AccessBurst) == kStatus - kLbn);
static_assert(offsetof(AccessBurst, count) == kCount - kLbn);
static_assert(offsetof(AccessBurst, command) == kCommand - kLbn);
static_assert(sizeof(AccessDoneBurst) == kRuns + 4 - kIrqAck);
static_assert(offsetof(AccessDoneBurst, access_start_ps) == kAccessStartPs - kIrqAck);
static_assert(offsetof(AccessDoneBurst, positioning_end_ps) == kPositioningEndPs - kIrqAck);
static_assert(offsetof(AccessDoneBurst, access_end_ps) == kAccessEndPs - kIrqAck);
static_assert(offsetof(AccessDoneBurst, startup_ps) == kStartupPs - kIrqAck);
static_assert(offsetof(AccessDoneBurst, rows) == kRows - kIrqAck);
static_assert(offsetof(AccessDoneBurst, runs) == kRuns - kIrqAck);
static_assert(offsetof(DoneSledBurst, x_nm) == kSledXNm - kIrqAck);
static_assert(offsetof(DoneSledBurst, y_nm) == kSledYNm - kIrqAck);
static_assert(offsetof(DoneSledBurst, y_direction) == kSledYDirection - kIrqAck);
static_assert(sizeof(DoneSledBurst) == kSledYDirection + 4 - kIrqAck);
static_assert(sizeof(TargetBurst) == kTargetCell + 4 - kTargetSled);
static_assert(offsetof(TargetBurst, cylinder) == kTargetCylinder - kTargetSled);
static_assert(offsetof(TargetBurst, column) == kTargetColumn - kTargetSled);
static_assert(offsetof(TargetBurst, row) == kTargetRow - kTargetSled);
static_assert(offsetof(TargetBurst, cell) == kTargetCell - kTargetSled);
static_assert(sizeof(BatchEntry) == 16);
static_assert(kBatchTable + kMaxBatch * sizeof(BatchEntry) <= 0x1000, "the batch table fits the register window");
static_assert(kBatchCount + 4 <= kBatchTable);
static_assert(sizeof(SledBurst) == kEnergyNj + 8 - kSledXNm);
static_assert(offsetof(SledBurst, y_nm) == kSledYNm - kSledXNm);
static_assert(offsetof(SledBurst, y_direction) == kSledYDirection - kSledXNm);
static_assert(offsetof(SledBurst, active_tips) == kActiveTips - kSledXNm);
static_assert(offsetof(SledBurst, power_state) == kPowerState - kSledXNm);
static_assert(offsetof(SledBurst, startups) == kStartups - kSledXNm);
static_assert(offsetof(SledBurst, energy_nj) == kEnergyNj - kSledXNm);

}  // namespace drivevp::mems_regs
