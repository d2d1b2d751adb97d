#include "hw_models/mems/mems_layout.h"

#include <stdexcept>
#include <string>

namespace drivevp::mems {

MemsLayout::MemsLayout(const MemsParams& p) {
  p.validate();
  bit_nm_ = p.bit_length_nm;
  servo_ = p.servo_burst_bits;
  row_bits_ = p.servo_burst_bits + p.tip_sector_bits;
  tsb_ = p.tip_sectors_per_block;
  tips_active_ = p.tips_active;
  cylinders_ = p.sled_movement_x_nm / p.bit_length_nm;
  const std::uint32_t y_bits = p.sled_movement_y_nm / p.bit_length_nm;
  rows_ = (y_bits - servo_) / row_bits_;  // validate() guarantees >= 1
  column_bits_ = rows_ * row_bits_ + servo_;
  columns_ = p.tips_total / p.tips_active;
  cells_ = p.tips_active / p.tip_sectors_per_block;
  sleds_ = p.sleds;
  order_ = p.layout;
}

namespace {

// locate() in the unsigned type U: every quotient and remainder is that of the 64-bit
// arithmetic as long as the capacity fits in U (32-bit division is several times faster).
template <class U>
BlockAddress locate_as(U lbn, U per_sled, U per_cylinder, U per_column, U cells, U rows, bool streaming) {
  BlockAddress a;
  a.sled = static_cast<std::uint32_t>(lbn / per_sled);
  U r = lbn % per_sled;
  a.cylinder = static_cast<std::uint32_t>(r / per_cylinder);
  r %= per_cylinder;
  a.column = static_cast<std::uint32_t>(r / per_column);
  r %= per_column;
  if (streaming) {
    a.row = static_cast<std::uint32_t>(r / cells);
    a.cell = static_cast<std::uint32_t>(r % cells);
  } else {
    a.cell = static_cast<std::uint32_t>(r / rows);
    a.row = static_cast<std::uint32_t>(r % rows);
  }
  return a;
}

}  // namespace

BlockAddress MemsLayout::locate(std::uint64_t lbn) const {
  const std::uint64_t cap = capacity();
  if (lbn >= cap)
    throw std::out_of_range("MEMS LBN " + std::to_string(lbn) + " beyond the capacity of " + std::to_string(cap) +
                            " blocks");
  const bool streaming = order_ == LayoutOrder::Streaming;
  if (cap <= 0xFFFF'FFFFu)
    return locate_as<std::uint32_t>(static_cast<std::uint32_t>(lbn), static_cast<std::uint32_t>(blocks_per_sled()),
                                    static_cast<std::uint32_t>(blocks_per_cylinder()),
                                    static_cast<std::uint32_t>(blocks_per_column()), cells_, rows_, streaming);
  return locate_as<std::uint64_t>(lbn, blocks_per_sled(), blocks_per_cylinder(), blocks_per_column(), cells_, rows_,
                                  streaming);
}

std::uint64_t MemsLayout::lbn(const BlockAddress& a) const {
  if (a.sled >= sleds_ || a.cylinder >= cylinders_ || a.column >= columns_ || a.row >= rows_ || a.cell >= cells_)
    throw std::out_of_range("MEMS block address (sled " + std::to_string(a.sled) + ", cylinder " +
                            std::to_string(a.cylinder) + ", column " + std::to_string(a.column) + ", row " +
                            std::to_string(a.row) + ", cell " + std::to_string(a.cell) + ") outside the layout");
  const std::uint64_t in_column =
      order_ == LayoutOrder::Streaming ? std::uint64_t{a.row} * cells_ + a.cell : std::uint64_t{a.cell} * rows_ + a.row;
  return a.sled * blocks_per_sled() + a.cylinder * blocks_per_cylinder() + a.column * blocks_per_column() + in_column;
}

std::int64_t MemsLayout::x_nm(std::uint32_t cylinder) const {
  return (static_cast<std::int64_t>(cylinder) - static_cast<std::int64_t>(cylinders_ / 2)) * bit_nm_;
}

std::int64_t MemsLayout::y_nm_of_bit(std::int64_t p) const {
  return (p - static_cast<std::int64_t>(column_bits_ / 2)) * bit_nm_;
}

AccessPass MemsLayout::up_pass(std::uint32_t r) const {
  const std::int64_t base = std::int64_t{r} * row_bits_;
  return {y_nm_of_bit(base), y_nm_of_bit(base + servo_), y_nm_of_bit(base + row_bits_), +1};
}

AccessPass MemsLayout::down_pass(std::uint32_t r) const {
  const std::int64_t top = std::int64_t{r + 1} * row_bits_;  // the servo burst above row r starts here
  return {y_nm_of_bit(top + servo_), y_nm_of_bit(top), y_nm_of_bit(top - row_bits_ + servo_), -1};
}

BlockPosition MemsLayout::position_of(const BlockAddress& a) const {
  BlockPosition b;
  b.address = a;
  b.physical_row = physical_row(b.address.cylinder, b.address.column, b.address.row);
  b.first_tip = b.address.column * tips_active_ + b.address.cell * tsb_;
  b.x_nm = x_nm(b.address.cylinder);
  b.up = up_pass(b.physical_row);
  b.down = down_pass(b.physical_row);
  return b;
}

std::uint64_t MemsLayout::lbn_at(std::uint32_t sled, std::int64_t x, std::int64_t y_servo, std::uint32_t column,
                                 std::uint32_t cell) const {
  const auto fail = [&] {
    throw std::out_of_range("no MEMS block at x " + std::to_string(x) + " nm, y " + std::to_string(y_servo) +
                            " nm (up-pass servo start), column " + std::to_string(column) + ", cell " +
                            std::to_string(cell) + ", sled " + std::to_string(sled));
  };
  if (x % bit_nm_ != 0 || y_servo % bit_nm_ != 0) fail();
  const std::int64_t c = x / bit_nm_ + cylinders_ / 2;
  const std::int64_t p = y_servo / bit_nm_ + column_bits_ / 2;
  if (c < 0 || c >= cylinders_ || p < 0 || p % row_bits_ != 0 || p / row_bits_ >= rows_) fail();
  if (sled >= sleds_ || column >= columns_ || cell >= cells_) fail();
  const auto cyl = static_cast<std::uint32_t>(c);
  const auto phys = static_cast<std::uint32_t>(p / row_bits_);
  // physical_row() is its own inverse for a given (cylinder, column).
  return lbn({sled, cyl, column, physical_row(cyl, column, phys), cell});
}

}  // namespace drivevp::mems
