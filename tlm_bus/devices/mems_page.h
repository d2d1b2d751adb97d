// The MEMS-based storage device's read-only parameter page: what the firmware's MEMS predictor
// (firmware/mems_predictor.h) needs to compute the same positioning and access times as the device
// (hw_models/mems/). It starts with the ParameterPageHeader (kind = DeviceKind::Mems) and carries
// every mems::MemsParams value as it is (integers as integers, the doubles as IEEE doubles), so that
// the parameters rebuilt from the page (hw_models/mems/mems_page.h) are equal to the device's, bit
// for bit. Byte layout: docs/registers.md ("MEMS parameter page"). Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tlm_bus/param_page.h"

namespace drivevp {

/// The MEMS device's parameter page as it sits on the bus. Units as mems::MemsParams (nm, bit/s,
/// m/s², Hz, ms, mW); the derived layout counts are published too (the firmware checks them
/// against its own layout). Field order keeps every member naturally aligned (no padding).
struct MemsParameterPage {
  static constexpr std::uint32_t kVersion = 2;
  static constexpr std::size_t kPresetChars = 16;

  ParameterPageHeader header{ParameterPageHeader::kMagic, kVersion, DeviceKind::Mems, 0};
  // --- geometry (MemsParams) ---
  std::uint32_t sled_movement_x_nm = 0;
  std::uint32_t sled_movement_y_nm = 0;
  std::uint32_t bit_length_nm = 0;
  std::uint32_t tip_sector_bits = 0;
  std::uint32_t servo_burst_bits = 0;
  std::uint32_t tip_sectors_per_block = 0;
  std::uint32_t tips_total = 0;
  std::uint32_t tips_active = 0;
  std::uint32_t sleds = 0;
  std::uint32_t bidirectional_access = 0;  ///< 0 or 1
  std::uint32_t seek_method = 0;           ///< mems::SeekMethod: 0 exact, 1 DiskSim's chunks
  std::uint32_t layout = 0;                ///< mems::LayoutOrder: 0 streaming, 1 along_y
  // --- mechanics ---
  std::uint64_t tip_data_rate_bps = 0;
  double sled_acceleration_x = 0;  ///< m/s²
  double sled_acceleration_y = 0;  ///< m/s²
  double resonant_frequency_hz = 0;
  double settling_time_constants = 0;
  double spring_constant_factor = 0;
  // --- per request, power ---
  double command_overhead_ms = 0;
  double time_before_inactive_ms = 0;
  double startup_delay_ms = 0;
  double sled_active_power_mw = 0;
  double sled_inactive_power_mw = 0;
  double tip_access_power_mw = 0;
  // --- derived layout (MemsLayout), for checking ---
  std::uint32_t cylinders = 0;
  std::uint32_t rows_per_column = 0;
  std::uint32_t columns_per_cylinder = 0;
  std::uint32_t cells_per_row = 0;
  std::uint64_t capacity_blocks = 0;
  /// MemsParams::preset, NUL-padded (a longer name is cut to 15 characters).
  char preset[kPresetChars] = {};
};
static_assert(std::is_trivially_copyable_v<MemsParameterPage>, "the page is read over the bus byte for byte");
static_assert(sizeof(MemsParameterPage) == 16 + 12 * 4 + 8 + 11 * 8 + 4 * 4 + 8 + 16,
              "the MEMS page's layout is documented in docs/registers.md");
static_assert(offsetof(MemsParameterPage, layout) == 60);
static_assert(offsetof(MemsParameterPage, tip_data_rate_bps) == 64);
static_assert(offsetof(MemsParameterPage, cylinders) == 160);
static_assert(offsetof(MemsParameterPage, capacity_blocks) == 176);
static_assert(offsetof(MemsParameterPage, preset) == 184);

}  // namespace drivevp
