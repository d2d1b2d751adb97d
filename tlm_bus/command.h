// The command descriptor that travels host -> firmware -> hardware, as plain C++ (no SystemC), so
// that firmware policies and trace readers can use it without a simulation kernel.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>

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

/// Number of dimensions of a request's QoS vector (paper 001 §2: a request is a point in a
/// D-dimensional QoS space). Unused dimensions are 0.
inline constexpr std::size_t kQosDims = 4;

/// One I/O command as submitted by the host. Trivially copyable: it is copied byte-wise into
/// submission-queue entries in host memory.
struct Command {
  std::uint64_t id = 0;      ///< host-assigned, unique per run, in submission order from 0
  std::uint64_t lbn = 0;     ///< first logical block number (64-bit)
  std::uint32_t blocks = 1;  ///< length in blocks of kBlockBytes, >= 1
  Op op = Op::Read;
  RequestClass cls = RequestClass::Discrete;
  std::uint8_t priority = 0;                  ///< 0 = highest; policies that ignore priority ignore it
  std::uint32_t stream = 0;                   ///< stream / task id (continuous streams, periodic tasks); 0 = none
  std::uint32_t tag = 0;                      ///< host's tag for the command (NCQ tag / buffer slot), < queue depth
  Time arrival{0};                            ///< time the host submitted the command
  Time deadline = kNoDeadline;                ///< absolute deadline, or kNoDeadline
  std::array<std::uint16_t, kQosDims> qos{};  ///< QoS vector (paper 001 §2), 0 = lowest level

  bool is_read() const { return op == Op::Read; }
  std::uint64_t end_lbn() const { return lbn + blocks; }  ///< one past the last block
};

}  // namespace drivevp
