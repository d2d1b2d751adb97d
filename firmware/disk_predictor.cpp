#include "firmware/disk_predictor.h"

#include <algorithm>
#include <stdexcept>

namespace drivevp {

DiskPredictor::DiskPredictor(const ParameterPage& page, Time phase_origin)
    : geometry_(page.geometry()),
      seek_table_(page.seek_table()),
      rotation_period_(page.rotation_period_ps),
      head_switch_(page.head_switch_ps),
      settle_(page.settle_ps),
      write_settle_(page.write_settle_ps),
      command_overhead_(page.command_overhead_ps),
      phase_origin_(phase_origin) {
  if (rotation_period_ <= Time{0}) throw std::invalid_argument("parameter page: rotation period must be > 0");
  seek_by_distance_.resize(geometry_.cylinders());
  for (std::uint32_t d = 0; d < geometry_.cylinders(); ++d) seek_by_distance_[d] = seek_table_(d);
}

Time DiskPredictor::seek_time(HeadPosition from, std::uint32_t cylinder, std::uint32_t head, Op op) const {
  const std::uint32_t d = from.cylinder > cylinder ? from.cylinder - cylinder : cylinder - from.cylinder;
  return positioning_seek(d, from.head != head, seek_fn(), settle_, head_switch_,
                          op == Op::Write ? write_settle_ : Time{0});
}

void DiskPredictor::set_command_path(const CommandPath& path) {
  if (path.read_to_seek < Time{0} || path.write_to_seek < Time{0} || path.seek_to_transfer < Time{0})
    throw std::invalid_argument("predictor: command path times must be >= 0");
  command_path_ = path;
}

Prediction DiskPredictor::predict(HeadPosition from, Time start, std::uint64_t lbn, Op op) const {
  Prediction p;
  p.target = locate(lbn);
  p.lead = command_path_.to_seek(op);
  p.seek = seek_time(from, p.target.cylinder, p.target.head, op);
  p.rotation = rotation_after_seek(start + p.lead + p.seek, p.target);
  return p;
}

}  // namespace drivevp
