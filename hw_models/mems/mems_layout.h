// The layout of a MEMS-based storage device: LBN <-> (sled, cylinder, column, row, cell) <-> sled
// offsets (x, y) in nm, in DiskSim's streaming order or paper 002's along-Y order (LayoutOrder).
// Rules: ../shared/reference/mems-model.md "Layout" and "Coordinates" (DiskSim 4.0
// memsmodel/mems_mapping.c), 002 §4 (a block striped over 64 tips at the same relative position,
// adjacent blocks along Y, several sleds moving together).
#pragma once

#include <cstdint>

#include "hw_models/mems/mems_params.h"

namespace drivevp::mems {

/// A block's logical coordinates. `row` is the logical row (the order in which a column's rows
/// are filled); physical_row() gives the row's place along Y.
struct BlockAddress {
  std::uint32_t sled = 0;      ///< [0, sleds)
  std::uint32_t cylinder = 0;  ///< X position, [0, cylinders)
  std::uint32_t column = 0;    ///< tip group, [0, columns per cylinder)
  std::uint32_t row = 0;       ///< logical row, [0, rows per column)
  std::uint32_t cell = 0;      ///< block within the row (its own 64 tips), [0, cells per row)
  bool operator==(const BlockAddress& o) const {
    return sled == o.sled && cylinder == o.cylinder && column == o.column && row == o.row && cell == o.cell;
  }
};

/// One directed pass over a block's bits: the sled moves in `direction` (+1 = +Y "up",
/// -1 = -Y "down") at the access velocity from y_servo_nm (start of the servo burst) through
/// y_data_nm (start of the tip sector) to y_end_nm (end of the tip sector). Offsets in nm from
/// the centre of Y travel.
struct AccessPass {
  std::int64_t y_servo_nm = 0;
  std::int64_t y_data_nm = 0;
  std::int64_t y_end_nm = 0;
  int direction = +1;
};

/// Where a block lies on the sled: X offset (nm from the centre of X travel) and its two passes.
struct BlockPosition {
  BlockAddress address;
  std::uint32_t physical_row = 0;  ///< row index along +Y, [0, rows)
  std::uint32_t first_tip = 0;     ///< tips [first_tip, first_tip + tip_sectors_per_block) hold it
  std::int64_t x_nm = 0;
  AccessPass up;    ///< moving +Y: servo burst below the sector, then the sector
  AccessPass down;  ///< moving -Y: the servo burst above the sector, then the sector in reverse
};

/// The layout. Counts (mems-model.md "Layout"; bits along an axis = travel / bit_length, floored):
///  - cylinders = sled_movement_x_nm / bit_length_nm (G1 2000, G2 2500, G3 3333);
///  - rows per column = (y_bits - servo) / (servo + tip_sector) (G1 22, G2 27, G3 36); physical row r
///    spans Y bits [r·(servo+sector), (r+1)·(servo+sector)): servo burst, then tip sector; one more
///    servo burst ends the column (the "down" servo of the last row);
///  - columns per cylinder = tips_total / tips_active (G1 10, G2 5, G3 2);
///  - cells per row = tips_active / tip_sectors_per_block (G1 10, G2 20, G3 50);
///  - blocks per cylinder = cells × rows × columns; blocks per sled = that × cylinders;
///    capacity = blocks per sled × sleds (G1 4,400,000, G2 6,750,000, G3 11,998,800 with 1 sled).
/// LBN order, most significant first (MemsParams::layout):
///  - LayoutOrder::Streaming: sled, cylinder, column, logical row, cell. Rows run in reverse
///    (physical = rows-1-logical) on a column when (column + (columns odd ? cylinder : 0)) is odd,
///    so a column's sweep can turn round and stream on into the next column (mems-model.md).
///  - LayoutOrder::AlongY: sled, cylinder, column, cell, logical row (002 §4): consecutive LBNs lie
///    in consecutive rows along +Y on the same tips; no reversal (physical row = logical row).
/// Sleds are concatenated (sled s holds [s·blocks per sled, (s+1)·blocks per sled)); all sleds sit
/// at the same (x, y) at all times (002 §4), so equal (cylinder, physical row) on any sled, column
/// or cell is the same media position. The counts below do not depend on the order.
/// Coordinates (mems-model.md "Coordinates"): x = (cylinder - cylinders/2)·bit, integer division,
/// so the middle cylinder sits at 0; y of Y bit p = (p - column_bits/2)·bit with column_bits =
/// rows·(servo+sector) + servo, so the middle of a column sits at 0. All values exact integers in nm.
class MemsLayout {
 public:
  /// Validates `params` (throws std::invalid_argument as MemsParams::validate).
  explicit MemsLayout(const MemsParams& params);

  std::uint32_t cylinders() const { return cylinders_; }
  std::uint32_t rows_per_column() const { return rows_; }
  std::uint32_t columns_per_cylinder() const { return columns_; }
  std::uint32_t cells_per_row() const { return cells_; }
  std::uint32_t sleds() const { return sleds_; }
  std::uint32_t tip_sectors_per_block() const { return tsb_; }
  std::uint32_t row_bits() const { return row_bits_; }        ///< servo + tip sector bits
  std::uint32_t column_bits() const { return column_bits_; }  ///< rows·row_bits + servo
  std::uint32_t bit_length_nm() const { return bit_nm_; }
  LayoutOrder order() const { return order_; }
  std::uint64_t blocks_per_column() const { return std::uint64_t{cells_} * rows_; }
  std::uint64_t blocks_per_cylinder() const { return blocks_per_column() * columns_; }
  std::uint64_t blocks_per_sled() const { return blocks_per_cylinder() * cylinders_; }
  std::uint64_t capacity() const { return blocks_per_sled() * sleds_; }  ///< 512 B blocks

  /// LBN -> logical address. Throws std::out_of_range for lbn >= capacity().
  BlockAddress locate(std::uint64_t lbn) const;
  /// Logical address -> LBN (inverse of locate). Throws std::out_of_range for a coordinate out of range.
  std::uint64_t lbn(const BlockAddress& a) const;
  /// True when the rows of (cylinder, column) are numbered in reverse along Y (Streaming only;
  /// always false for AlongY).
  bool reversed(std::uint32_t cylinder, std::uint32_t column) const {
    return order_ == LayoutOrder::Streaming && ((column + ((columns_ & 1u) ? cylinder : 0u)) & 1u) != 0;
  }
  std::uint32_t physical_row(std::uint32_t cylinder, std::uint32_t column, std::uint32_t logical_row) const {
    return reversed(cylinder, column) ? rows_ - 1 - logical_row : logical_row;
  }
  /// Blocks from `a` (included) to the end of the sweep that streams it: the rest of its
  /// (sled, cylinder, column) for Streaming (blocks per column − (row·cells + cell)), the rest of its
  /// (column, cell)'s rows for AlongY (rows − row). MemsSeek::access cuts its runs here. `a` must be
  /// inside the layout (unchecked).
  std::uint64_t run_blocks(const BlockAddress& a) const {
    return order_ == LayoutOrder::Streaming ? blocks_per_column() - (std::uint64_t{a.row} * cells_ + a.cell)
                                            : std::uint64_t{rows_ - a.row};
  }
  /// X offset of a cylinder, nm.
  std::int64_t x_nm(std::uint32_t cylinder) const;
  /// Y offset of Y bit boundary p (0 = start of the first servo burst), nm.
  std::int64_t y_nm_of_bit(std::int64_t p) const;
  /// Passes over physical row r (see AccessPass).
  AccessPass up_pass(std::uint32_t physical_row) const;
  AccessPass down_pass(std::uint32_t physical_row) const;
  /// LBN -> full position. Throws std::out_of_range for lbn >= capacity().
  BlockPosition position(std::uint64_t lbn) const { return position_of(locate(lbn)); }
  /// The full position of the block at `a` (an address of this layout, unchecked; position(lbn) =
  /// position_of(locate(lbn))).
  BlockPosition position_of(const BlockAddress& a) const;
  /// Inverse from the media: the block whose up pass starts its servo burst at y_servo_nm on the
  /// cylinder at x_nm, read by tip group `column`, cell `cell`, on `sled`. Throws
  /// std::out_of_range when no block lies there.
  std::uint64_t lbn_at(std::uint32_t sled, std::int64_t x_nm, std::int64_t y_servo_nm, std::uint32_t column,
                       std::uint32_t cell) const;

 private:
  std::uint32_t bit_nm_, servo_, row_bits_, column_bits_, tsb_, tips_active_;
  std::uint32_t cylinders_, rows_, columns_, cells_, sleds_;
  LayoutOrder order_;
};

}  // namespace drivevp::mems
