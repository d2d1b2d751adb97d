// The firmware's positioning-time predictor, built at boot from the parameter page the drive
// publishes (ARCHITECTURE.md "How a request travels"). Plain C++: no SystemC.
#pragma once

#include <cstdint>

#include "tlm_bus/command.h"
#include "tlm_bus/param_page.h"

namespace drivevp {

/// Where the heads are: the cylinder the arm is over and the active head.
struct HeadPosition {
  std::uint32_t cylinder = 0;
  std::uint32_t head = 0;
};

/// A predicted positioning for one request.
struct Prediction {
  PhysicalAddress target;  ///< where the request's first block lives
  Time seek{0};            ///< seek + settle, or head switch, or 0
  Time rotation{0};        ///< rotational latency after the seek ends
  Time positioning() const { return seek + rotation; }
};

/// Predicts seek and rotational latency from the firmware's own tables: the sampled seek table of
/// the parameter page (linear interpolation between samples, so it may differ from the true
/// curve between samples), settle, head switch, and the spindle phase read at boot.
///
/// Seek rule (shared with the actuator model, docs/models/disk.md): distance 0 on the same head
/// costs 0; distance 0 with a head change costs head_switch; distance d >= 1 costs
/// max(seek(d) + settle, head_switch) (the head switch overlaps the arm move).
class PositioningPredictor {
 public:
  PositioningPredictor() = default;
  /// `phase_origin`: a time at which the spindle was at phase 0 (index), read from the spindle.
  /// Throws std::invalid_argument on a malformed page.
  PositioningPredictor(const ParameterPage& page, Time phase_origin);

  const DiskGeometry& geometry() const { return geometry_; }
  Time rotation_period() const { return rotation_period_; }
  Time command_overhead() const { return command_overhead_; }
  std::uint64_t capacity_blocks() const { return geometry_.capacity_blocks(); }

  /// Seek time from `from` to (cylinder, head), per the seek rule above.
  Time seek_time(HeadPosition from, std::uint32_t cylinder, std::uint32_t head) const;
  /// Full prediction for starting to position at time `start` towards block `lbn`
  /// (precondition lbn < capacity_blocks()).
  Prediction predict(HeadPosition from, Time start, std::uint64_t lbn) const;

 private:
  DiskGeometry geometry_;
  SeekTable seek_table_;
  Time rotation_period_{0};
  Time head_switch_{0};
  Time settle_{0};
  Time command_overhead_{0};
  Time phase_origin_{0};
};

}  // namespace drivevp
