#include "firmware/mems_predictor.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw_models/mems/mems_page.h"

namespace drivevp {

MemsPredictor::MemsPredictor(const MemsParameterPage& page)
    : params_(mems::mems_params_from_page(page)), seek_(params_, mems::seek_method_from_page(page)) {}

MemsPredictor::MemsPredictor(const mems::MemsParams& params, mems::SeekMethod method)
    : params_(params), seek_(params_, method) {}

void MemsPredictor::set_command_path(const MemsCommandPath& path) {
  if (path.read_to_command < Time{0} || path.write_to_command < Time{0})
    throw std::invalid_argument("MEMS predictor: command path times must be >= 0");
  path_ = path;
}

PositioningEstimate MemsPredictor::estimate(const MediaPosition& from, Time start, std::uint64_t lbn, Op op) const {
  const MemsSledView sled = sled_of(from);
  PositioningEstimate e;
  e.lead = path_.to_command(op);
  const Time accepted = std::max(start + e.lead, sled.idle_since);
  e.positioning = startup(sled, accepted) + positioning(sled.state, lbn);
  return e;
}

MemsIndices MemsPredictor::indices(const mems::SledState& s) const {
  const mems::MemsLayout& L = seek_.layout();
  const std::int64_t bit = L.bit_length_nm();
  // x = (cylinder - cylinders/2) * bit (mems-model.md "Coordinates"): the nearest cylinder.
  const std::int64_t half = L.cylinders() / 2;
  std::int64_t cyl = half + (s.x_nm >= 0 ? (s.x_nm + bit / 2) / bit : -((-s.x_nm + bit / 2) / bit));
  cyl = std::clamp<std::int64_t>(cyl, 0, std::int64_t{L.cylinders()} - 1);
  // Physical row r spans Y bits [r * row_bits, (r + 1) * row_bits) from y_nm_of_bit(0).
  const std::int64_t row_nm = std::int64_t{L.row_bits()} * bit;
  const std::int64_t from0 = s.y_nm - L.y_nm_of_bit(0);
  std::int64_t row = from0 >= 0 ? from0 / row_nm : -1;
  row = std::clamp<std::int64_t>(row, 0, std::int64_t{L.rows_per_column()} - 1);
  return {static_cast<std::uint32_t>(cyl), static_cast<std::uint32_t>(row)};
}

Time MemsPredictor::positioning_to(const mems::SledState& from, std::uint32_t x, std::uint32_t y) const {
  const mems::MemsLayout& L = seek_.layout();
  const std::int64_t x_nm = L.x_nm(x);
  const Time up = seek_.position(from, x_nm, L.up_pass(y)).total();
  // Rows run +Y everywhere in 002's layout; the streaming layout reverses alternate columns.
  if (!params_.bidirectional_access || params_.layout == mems::LayoutOrder::AlongY) return up;
  return std::min(up, seek_.position(from, x_nm, L.down_pass(y)).total());
}

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
  const mems::BlockPosition b = seek_.layout().position_of(address(lbn));
  return seek_.position(from, b.x_nm, seek_.pass_for(b, seek_.direction(b.address))).total();
}

const mems::BlockAddress& MemsPredictor::address(std::uint64_t lbn) const {
  if (!last_valid_ || lbn != last_lbn_) {
    last_address_ = seek_.layout().locate(lbn);  // throws beyond the capacity, the memo unchanged
    last_lbn_ = lbn;
    last_valid_ = true;
  }
  return last_address_;
}

MemsLocation MemsPredictor::locate(std::uint64_t lbn) const {
  const mems::MemsLayout& L = seek_.layout();
  const mems::BlockAddress& a = address(lbn);
  MemsLocation loc;
  loc.x = a.cylinder;
  loc.y = L.physical_row(a.cylinder, a.column, a.row);
  loc.region = (a.sled * L.columns_per_cylinder() + a.column) * L.cells_per_row() + a.cell;
  return loc;
}

}  // namespace drivevp
