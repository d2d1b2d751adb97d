#include "hw_models/mems/mems_page.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "hw_models/mems/mems_layout.h"

namespace drivevp::mems {

namespace {

[[noreturn]] void bad_page(const std::string& field, const std::string& expected, const std::string& found) {
  throw std::invalid_argument("MEMS parameter page: " + field + " must be " + expected + " (found " + found + ")");
}

void check_count(const char* field, std::uint64_t published, std::uint64_t derived) {
  if (published != derived)
    bad_page(field, std::to_string(derived) + " (from the page's parameters)", std::to_string(published));
}

}  // namespace

MemsParameterPage make_mems_page(const MemsParams& p, SeekMethod method) {
  const MemsLayout layout(p);  // validates
  MemsParameterPage g;
  g.header.page_bytes = sizeof(MemsParameterPage);
  g.sled_movement_x_nm = p.sled_movement_x_nm;
  g.sled_movement_y_nm = p.sled_movement_y_nm;
  g.bit_length_nm = p.bit_length_nm;
  g.tip_sector_bits = p.tip_sector_bits;
  g.servo_burst_bits = p.servo_burst_bits;
  g.tip_sectors_per_block = p.tip_sectors_per_block;
  g.tips_total = p.tips_total;
  g.tips_active = p.tips_active;
  g.sleds = p.sleds;
  g.bidirectional_access = p.bidirectional_access ? 1 : 0;
  g.seek_method = static_cast<std::uint32_t>(method);
  g.layout = static_cast<std::uint32_t>(p.layout);
  g.tip_data_rate_bps = p.tip_data_rate_bps;
  g.sled_acceleration_x = p.sled_acceleration_x;
  g.sled_acceleration_y = p.sled_acceleration_y;
  g.resonant_frequency_hz = p.resonant_frequency_hz;
  g.settling_time_constants = p.settling_time_constants;
  g.spring_constant_factor = p.spring_constant_factor;
  g.command_overhead_ms = p.command_overhead_ms;
  g.time_before_inactive_ms = p.time_before_inactive_ms;
  g.startup_delay_ms = p.startup_delay_ms;
  g.sled_active_power_mw = p.sled_active_power_mw;
  g.sled_inactive_power_mw = p.sled_inactive_power_mw;
  g.tip_access_power_mw = p.tip_access_power_mw;
  g.cylinders = layout.cylinders();
  g.rows_per_column = layout.rows_per_column();
  g.columns_per_cylinder = layout.columns_per_cylinder();
  g.cells_per_row = layout.cells_per_row();
  g.capacity_blocks = layout.capacity();
  std::strncpy(g.preset, p.preset.c_str(), MemsParameterPage::kPresetChars - 1);
  return g;
}

SeekMethod seek_method_from_page(const MemsParameterPage& g) {
  if (g.seek_method > 1) bad_page("seek_method", "0 (exact) or 1 (DiskSim chunks)", std::to_string(g.seek_method));
  return static_cast<SeekMethod>(g.seek_method);
}

MemsParams mems_params_from_page(const MemsParameterPage& g) {
  if (g.header.magic != ParameterPageHeader::kMagic)
    bad_page("header.magic", std::to_string(ParameterPageHeader::kMagic), std::to_string(g.header.magic));
  if (g.header.version != MemsParameterPage::kVersion)
    bad_page("header.version", std::to_string(MemsParameterPage::kVersion), std::to_string(g.header.version));
  if (g.header.kind != DeviceKind::Mems)
    bad_page("header.kind", std::to_string(static_cast<std::uint32_t>(DeviceKind::Mems)) + " (MEMS)",
             std::to_string(static_cast<std::uint32_t>(g.header.kind)));
  if (g.header.page_bytes != sizeof(MemsParameterPage))
    bad_page("header.page_bytes", std::to_string(sizeof(MemsParameterPage)), std::to_string(g.header.page_bytes));
  if (g.bidirectional_access > 1) bad_page("bidirectional_access", "0 or 1", std::to_string(g.bidirectional_access));
  seek_method_from_page(g);
  if (g.layout > 1) bad_page("layout", "0 (streaming) or 1 (along_y)", std::to_string(g.layout));
  MemsParams p;
  const std::size_t n = ::strnlen(g.preset, MemsParameterPage::kPresetChars);
  p.preset.assign(g.preset, n);
  p.sled_movement_x_nm = g.sled_movement_x_nm;
  p.sled_movement_y_nm = g.sled_movement_y_nm;
  p.bit_length_nm = g.bit_length_nm;
  p.tip_sector_bits = g.tip_sector_bits;
  p.servo_burst_bits = g.servo_burst_bits;
  p.tip_sectors_per_block = g.tip_sectors_per_block;
  p.tips_total = g.tips_total;
  p.tips_active = g.tips_active;
  p.sleds = g.sleds;
  p.bidirectional_access = g.bidirectional_access != 0;
  p.layout = static_cast<LayoutOrder>(g.layout);
  p.tip_data_rate_bps = g.tip_data_rate_bps;
  p.sled_acceleration_x = g.sled_acceleration_x;
  p.sled_acceleration_y = g.sled_acceleration_y;
  p.resonant_frequency_hz = g.resonant_frequency_hz;
  p.settling_time_constants = g.settling_time_constants;
  p.spring_constant_factor = g.spring_constant_factor;
  p.command_overhead_ms = g.command_overhead_ms;
  p.time_before_inactive_ms = g.time_before_inactive_ms;
  p.startup_delay_ms = g.startup_delay_ms;
  p.sled_active_power_mw = g.sled_active_power_mw;
  p.sled_inactive_power_mw = g.sled_inactive_power_mw;
  p.tip_access_power_mw = g.tip_access_power_mw;
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("MEMS parameter page: ") + e.what());
  }
  const MemsLayout layout(p);
  check_count("cylinders", g.cylinders, layout.cylinders());
  check_count("rows_per_column", g.rows_per_column, layout.rows_per_column());
  check_count("columns_per_cylinder", g.columns_per_cylinder, layout.columns_per_cylinder());
  check_count("cells_per_row", g.cells_per_row, layout.cells_per_row());
  check_count("capacity_blocks", g.capacity_blocks, layout.capacity());
  return p;
}

}  // namespace drivevp::mems
