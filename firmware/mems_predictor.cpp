#include "firmware/mems_predictor.h"

#include <stdexcept>
#include <string>

#include "hw_models/mems/mems_page.h"

namespace drivevp {

MemsPredictor::MemsPredictor(const MemsParameterPage& page)
    : params_(mems::mems_params_from_page(page)), seek_(params_, mems::seek_method_from_page(page)) {}

std::uint32_t MemsPredictor::regions() const {
  const mems::MemsLayout& L = seek_.layout();
  return L.sleds() * L.columns_per_cylinder() * L.cells_per_row();
}

Time MemsPredictor::startup(const MemsSledView& sled, Time start) const {
  if (start < sled.idle_since)
    throw std::invalid_argument("MemsPredictor: start " + std::to_string(start.count()) +
                                " ps is before the sled went idle (" + std::to_string(sled.idle_since.count()) +
                                " ps)");
  return start - sled.idle_since >= params_.time_before_inactive() ? params_.startup_delay() : Time{0};
}

MemsPrediction MemsPredictor::predict(const MemsSledView& sled, Time start, std::uint64_t lbn, Op,
                                      std::uint32_t blocks) const {
  MemsPrediction p;
  p.startup = startup(sled, start);
  const mems::MediaAccess m = seek_.access(sled.state, lbn, blocks);
  p.positioning = m.positioning;
  p.transfer = m.transfer;
  p.repositioning = m.repositioning;
  p.rows = m.rows;
  p.runs = m.runs;
  p.end = m.end;
  return p;
}

Time MemsPredictor::positioning(const mems::SledState& from, std::uint64_t lbn) const {
  const mems::MemsLayout& L = seek_.layout();
  const mems::BlockPosition b = L.position(lbn);
  const int dir = params_.bidirectional_access && L.reversed(b.address.cylinder, b.address.column) ? -1 : +1;
  return seek_.position(from, b.x_nm, dir > 0 ? b.up : b.down).total();
}

MemsLocation MemsPredictor::locate(std::uint64_t lbn) const {
  const mems::MemsLayout& L = seek_.layout();
  const mems::BlockAddress a = L.locate(lbn);
  MemsLocation loc;
  loc.x = a.cylinder;
  loc.y = L.physical_row(a.cylinder, a.column, a.row);
  loc.region = (a.sled * L.columns_per_cylinder() + a.column) * L.cells_per_row() + a.cell;
  return loc;
}

}  // namespace drivevp
