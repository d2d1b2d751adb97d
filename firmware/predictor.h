// The firmware's predictor interface: what a scheduling policy may ask about the media of any
// device (disk: firmware/disk_predictor.h; MEMS: firmware/mems_predictor.h). The media driver builds
// its device's predictor at boot from the device's parameter page (ARCHITECTURE.md "How a request
// travels"; docs/models/firmware.md "Predictor"). Plain C++: no SystemC.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tlm_bus/command.h"

namespace drivevp {

/// Where the media is (the disk's arm cylinder and head; the MEMS sled's X and Y offsets, Y
/// direction and the time it went idle), opaque to policies: only the predictor that produced it
/// (through its media driver) reads the words. Policies hand it back to the predictor unchanged.
struct MediaPosition {
  std::array<std::int64_t, 4> words{};
  bool operator==(const MediaPosition& o) const { return words == o.words; }
  bool operator!=(const MediaPosition& o) const { return !(*this == o); }
};

/// A predicted positioning, picoseconds.
struct PositioningEstimate {
  /// The firmware's own command path from the estimate's start until the media starts moving
  /// (disk: CommandPath::to_seek; 0 where the device's command acceptance is the start).
  Time lead{0};
  /// From the media starting to move until the first block is under the head or tips: the disk's
  /// seek + settle + command path to the channel + rotational wait; MEMS: startup delay + sled
  /// positioning (002 eq. (1)).
  Time positioning{0};
  /// lead + positioning: from the estimate's start until the first block can be transferred
  /// (what SPTF minimises).
  Time access() const { return lead + positioning; }
};

/// The predictor of one device, as policies see it. Implementations are immutable between
/// boot-time configuration calls; every query is const and thread-safe.
class Predictor {
 public:
  virtual ~Predictor() = default;
  /// "disk" or "mems".
  virtual std::string_view device_kind() const = 0;
  /// Blocks (512 B) the device holds.
  virtual std::uint64_t capacity_blocks() const = 0;
  /// The firmware's overhead per command (from the parameter page), spent once per decision.
  virtual Time command_overhead() const = 0;
  /// The sweep coordinate of elevator-style policies (SSTF, SCAN, LOOK, C-SCAN, C-LOOK): values
  /// in [0, sweep_extent()); the disk's cylinder, the MEMS sled's X position (cylinder).
  virtual std::uint32_t sweep_extent() const = 0;
  /// The sweep coordinate of block `lbn`. Throws std::out_of_range for lbn >= capacity_blocks().
  virtual std::uint32_t sweep_coordinate(std::uint64_t lbn) const = 0;
  /// The sweep coordinate of a media position.
  virtual std::uint32_t sweep_coordinate(const MediaPosition& position) const = 0;
  /// Predicted positioning for an `op` on block `lbn` whose command path starts at `start` (ps)
  /// with the media at `from`. Throws std::out_of_range for lbn >= capacity_blocks().
  virtual PositioningEstimate estimate(const MediaPosition& from, Time start, std::uint64_t lbn, Op op) const = 0;
};

}  // namespace drivevp
