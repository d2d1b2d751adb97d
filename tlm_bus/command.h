// The command descriptor that travels host -> firmware -> hardware, as plain C++ (no SystemC), so
// that firmware policies and trace readers can use it without a simulation kernel.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace drivevp {

/// Simulated time in integer picoseconds. int64 covers +/- 106 days of simulated time.
using Time = std::chrono::duration<std::int64_t, std::pico>;

/// "No deadline" marker for Command::deadline.
inline constexpr Time kNoDeadline = Time::max();

/// Largest arrival time a workload may ask for: half the Time range, 4,611,686 s (53.4 days), so
/// that queueing and service after the last arrival still fit. Inputs that would place an arrival
/// later (trace window and time_scale, synthetic rate and count) are rejected before time zero.
inline constexpr Time kMaxArrival = Time::max() / 2;

/// Converts milliseconds (double) to Time, rounding to the nearest picosecond.
/// Throws std::out_of_range when `ms` is not finite or the result does not fit Time (|ms| must be
/// below 9,223,372,036 ms, about 106 days): every double-to-time conversion is checked, so no
/// input can wrap simulated time (callers validate their keys first and name them).
constexpr Time from_ms(double ms) {
  const double ps = ms * 1e9;
  if (!(ps > -0x1p63 && ps < 0x1p63))
    throw std::out_of_range("time out of range: the int64 picosecond clock holds +/- 106 days");
  return Time{static_cast<std::int64_t>(ps + (ms >= 0 ? 0.5 : -0.5))};
}
/// Converts seconds (double) to Time, rounding to the nearest picosecond; throws as from_ms().
constexpr Time from_s(double s) { return from_ms(s * 1e3); }
/// Time as milliseconds (double).
constexpr double to_ms(Time t) { return static_cast<double>(t.count()) * 1e-9; }
/// Time as seconds (double).
constexpr double to_s(Time t) { return static_cast<double>(t.count()) * 1e-12; }

/// Logical block size in bytes. Every LBN addresses one block of this size.
inline constexpr std::uint32_t kBlockBytes = 512;

enum class Op : std::uint8_t { Read = 0, Write = 1 };

/// Request class (paper 003 §1.2: C-requests are continuous-stream fragments served in rounds,
/// D-requests are discrete best-effort requests; paper 004: real-time periodic jobs and aperiodic
/// requests). Plain workloads are Discrete.
enum class RequestClass : std::uint8_t { Discrete = 0, Continuous = 1, RealTime = 2, Aperiodic = 3 };

/// Largest number of QoS dimensions a request carries (paper 001 §2: a request is a point in a
/// D-dimensional QoS space; issue 11: up to 16).
inline constexpr unsigned kMaxQosDims = 16;

/// Largest number of QoS levels per dimension (paper 001 §5.2.1, Fig. 9b: up to 256). A level
/// is in [0, 255]: one byte of Command::qos.
inline constexpr unsigned kMaxQosLevels = 256;

/// One I/O command as submitted by the host. Trivially copyable: it is copied byte-wise into
/// submission-queue entries in host memory (64 B, layout in docs/registers.md).
struct Command {
  std::uint64_t id = 0;      ///< host-assigned, unique per run, in submission order from 0
  std::uint64_t lbn = 0;     ///< first logical block number (64-bit)
  std::uint32_t blocks = 1;  ///< length in blocks of kBlockBytes, >= 1
  Op op = Op::Read;
  RequestClass cls = RequestClass::Discrete;
  std::uint8_t priority = 0;    ///< 0 = highest; policies that ignore priority ignore it
  std::uint32_t stream = 0;     ///< stream / task id (continuous streams, periodic tasks); 0 = none
  std::uint32_t tag = 0;        ///< host's tag for the command (NCQ tag / buffer slot), < queue depth
  Time arrival{0};              ///< time the host submitted the command
  Time deadline = kNoDeadline;  ///< absolute deadline, or kNoDeadline
  /// QoS vector (paper 001 §2; issue 11): qos[k] is the level of dimension k, in [0, N) for N
  /// levels (N <= kMaxQosLevels = 256, so one byte each); 16 dimensions of up to 256 levels, 128
  /// bits. Level 0 is the highest priority (001 §3: a lower curve value is served first).
  /// Dimensions beyond the workload's D are 0; all 0 = no vector (docs/registers.md).
  std::array<std::uint8_t, kMaxQosDims> qos{};
  bool is_read() const { return op == Op::Read; }
  std::uint64_t end_lbn() const { return lbn + blocks; }  ///< one past the last block
  /// Level of QoS dimension `k` (k < kMaxQosDims; no check on this hot path).
  std::uint32_t qos_level(unsigned k) const { return qos[k]; }
  /// Sets QoS dimension `k` (< kMaxQosDims) to `level` (< kMaxQosLevels; no check).
  void set_qos_level(unsigned k, std::uint32_t level) { qos[k] = static_cast<std::uint8_t>(level); }
};

static_assert(sizeof(Command) == 64 && alignof(Command) == 8,
              "Command crosses the bus in every submission entry: its layout is docs/registers.md's");
static_assert(std::is_trivially_copyable_v<Command>, "Command is copied byte-wise over the bus");

}  // namespace drivevp
