// The platform's address map and the host-interface data structures (docs/registers.md).
#pragma once

#include <cstdint>

#include "tlm_bus/command.h"

namespace drivevp::amap {

// Device register windows (firmware's view, through the router).
inline constexpr std::uint64_t kHostIf = 0x0000'0000;  ///< controller host-interface registers
inline constexpr std::uint64_t kHostIfSize = 0x1000;
inline constexpr std::uint64_t kSpindle = 0x1000'0000;
inline constexpr std::uint64_t kActuator = 0x1000'1000;
inline constexpr std::uint64_t kChannel = 0x1000'2000;
inline constexpr std::uint64_t kMems = 0x1000'3000;  ///< MEMS device registers (mems_regs), when the device is MEMS
inline constexpr std::uint64_t kParamPage = 0x1000'4000;  ///< read-only parameter page
inline constexpr std::uint64_t kRegWindow = 0x1000;
inline constexpr std::uint64_t kParamPageSize = 0x4000;
inline constexpr std::uint64_t kChannelBuffer = 0x2000'0000;      ///< read channel sector buffer
inline constexpr std::uint64_t kChannelBufferSize = 0x1000'0000;  ///< 256 MiB window
// Host memory (DMA target).
inline constexpr std::uint64_t kHostMem = 0x1'0000'0000;
inline constexpr std::uint64_t kHostMemSize = 0xFFFF'0000'0000;
inline constexpr std::uint64_t kHostSq = 0x0;              ///< offset of the submission queue
inline constexpr std::uint64_t kHostCq = 0x1000'0000;      ///< offset of the completion queue
inline constexpr std::uint64_t kHostData = 0x1'0000'0000;  ///< offset of data buffer slot 0
inline constexpr std::uint64_t kHostDataStride =
    0x4000'0000;  ///< bytes between tag buffers; a buffer is found by its start address

// Host-interface registers (offsets in kHostIf).
inline constexpr std::uint64_t kRegVersion = 0x00;  ///< RO 32: interface version (1)
/// RO 32: queue depth Q. The SQ and the CQ have Q + 1 entries each: a ring of Q + 1 holds Q
/// commands without full looking like empty.
inline constexpr std::uint64_t kRegQueueSize = 0x04;
inline constexpr std::uint64_t kRegSqTail = 0x08;    ///< WO 32: SQ tail doorbell
inline constexpr std::uint64_t kRegCqHead = 0x0C;    ///< WO 32: CQ head doorbell
inline constexpr std::uint64_t kRegCapacity = 0x10;  ///< RO 64: capacity in blocks

/// A submission-queue entry in host memory: 72 B, the 64 B Command (with its 16-byte QoS vector,
/// issue 11) and the data buffer's address. The firmware fetches it in one bus read; the router
/// charges a fixed latency per access whatever its length (tlm_bus/sc/router.h), so the entry's
/// size does not change simulated time.
struct SubmissionEntry {
  Command command;
  std::uint64_t data_address = 0;  ///< host-memory address of the data buffer (bus address)
};
static_assert(sizeof(SubmissionEntry) == 72, "the submission entry crosses the bus: docs/registers.md's layout");

/// Vendor-specific service log the firmware appends to each completion (the monitor's source of
/// the per-request breakdown). Times are simulated picoseconds.
struct ServiceLog {
  std::int64_t dispatch_ps = 0;
  std::int64_t seek_start_ps = 0;
  std::int64_t seek_end_ps = 0;
  std::int64_t transfer_start_ps = 0;
  std::int64_t transfer_end_ps = 0;
  std::int64_t predicted_positioning_ps = -1;
  std::uint32_t cylinder = 0;
  std::uint32_t head = 0;
  std::uint32_t seek_distance = 0;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(ServiceLog) == 64, "the service log crosses the bus: docs/registers.md's layout");

inline constexpr std::uint32_t kStatusOk = 0;
inline constexpr std::uint32_t kStatusMediaError = 1;  ///< the hardware reported an error
inline constexpr std::uint32_t kStatusInvalidLba = 2;  ///< blocks beyond the capacity, or 0 blocks

/// A completion-queue entry in host memory.
struct CompletionEntry {
  std::uint64_t command_id = 0;
  std::uint32_t tag = 0;
  std::uint32_t status = 0;   ///< kStatusOk or an error
  std::uint32_t valid = 0;    ///< 1 when posted by the firmware; the host clears it on consuming
  std::uint32_t sq_head = 0;  ///< firmware's SQ head after this completion
  ServiceLog log;
};
static_assert(sizeof(CompletionEntry) == 88, "the completion entry crosses the bus: docs/registers.md's layout");

}  // namespace drivevp::amap
