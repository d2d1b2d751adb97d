#include "firmware/predictor.h"

#include <algorithm>
#include <stdexcept>

namespace drivevp {

PositioningPredictor::PositioningPredictor(const ParameterPage& page, Time phase_origin)
    : geometry_(page.geometry()),
      seek_table_(page.seek_table()),
      rotation_period_(page.rotation_period_ps),
      head_switch_(page.head_switch_ps),
      settle_(page.settle_ps),
      command_overhead_(page.command_overhead_ps),
      phase_origin_(phase_origin) {
  if (rotation_period_ <= Time{0}) throw std::invalid_argument("parameter page: rotation period must be > 0");
}

Time PositioningPredictor::seek_time(HeadPosition from, std::uint32_t cylinder, std::uint32_t head) const {
  const std::uint32_t d = from.cylinder > cylinder ? from.cylinder - cylinder : cylinder - from.cylinder;
  return positioning_seek(d, from.head != head, seek_table_, settle_, head_switch_);
}

Prediction PositioningPredictor::predict(HeadPosition from, Time start, std::uint64_t lbn) const {
  Prediction p;
  p.target = geometry_.locate(lbn);
  p.seek = seek_time(from, p.target.cylinder, p.target.head);
  p.rotation =
      rotational_wait(start + p.seek, phase_origin_, rotation_period_, p.target.slot, p.target.sectors_per_track);
  return p;
}

}  // namespace drivevp
