// Parameters of a MEMS-based storage device (media sled over a probe-tip array), with the presets
// G1, G2, G3 of Griffin, Schlosser, Ganger, Nagle, "Modeling and performance of MEMS-based storage
// devices", SIGMETRICS 2000, as DiskSim 4.0's memsdevices.specs gives them
// (../shared/reference/parameters.md, MEMS table; ../shared/reference/mems-model.md).
// Plain C++ (no SystemC): the device model and the firmware's predictor both use it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tlm_bus/command.h"

namespace drivevp::mems {

/// The order in which LBNs fill the media (docs/models/mems.md "Layout"; MemsLayout).
///  - Streaming: DiskSim 4.0's layout (../shared/reference/mems-model.md "Layout"): LBN order sled,
///    cylinder, column, logical row, cell; consecutive LBNs fill a row's cells (each block on its
///    own tips), then the next row; rows reversed on alternate columns.
///  - AlongY: paper 002 §4's layout ("a logical block of 512 bytes is mapped to 8 byte sectors at
///    the same relative position in 64 different regions ... Adjacent logical blocks are allocated
///    sequentially to the y-axis direction"): LBN order sled, cylinder, column, cell, logical row;
///    consecutive LBNs lie in consecutive rows (+Y) of the same tips; no row reversal, so blocks at
///    the same (x, y) in different regions are always swept in the same direction.
enum class LayoutOrder : std::uint8_t { Streaming = 0, AlongY = 1 };
/// Scenario spelling: "streaming", "along_y".
const char* to_string(LayoutOrder order);
/// Inverse of to_string; throws std::invalid_argument("device.layout must be streaming or along_y
/// (got 'TEXT')") otherwise.
LayoutOrder layout_order_from_string(std::string_view text);

/// Every parameter of the reference model. Lengths in nm, rates in bit/s, accelerations as the
/// parameter file gives them (m/s², multiplied by 1e9 to get nm/s²; mems-model.md "Coordinates"),
/// times in ms, powers in mW. Defaults are the G1 values; the presets set every member.
/// DiskSim parameter names (memsmodel_mems_params) are given per member.
struct MemsParams {
  std::string preset;  ///< name of the preset these values started from

  // --- geometry ---------------------------------------------------------------------------------
  /// "Sled movement X": X travel of the sled, nm, in [1000, 10'000'000]. parameters.md: 100 µm.
  std::uint32_t sled_movement_x_nm = 100'000;
  /// "Sled movement Y": Y travel of the sled, nm, in [1000, 10'000'000]. parameters.md: 100 µm.
  std::uint32_t sled_movement_y_nm = 100'000;
  /// "Bit cell length": side of a bit cell, nm, in [1, sled movement]. parameters.md: 50/40/30 nm.
  std::uint32_t bit_length_nm = 50;
  /// "Tip sector length": data bits of a tip sector, in [1, 1e6]. parameters.md: 80.
  std::uint32_t tip_sector_bits = 80;
  /// "Servo burst length": servo bits before each tip sector, in [0, 1e6]. parameters.md: 10.
  std::uint32_t servo_burst_bits = 10;
  /// "Tip sectors per lbn": tips one 512 B block is striped over, in [1, tips_active].
  /// parameters.md: 64 (002 §4: 8-byte sectors in 64 regions).
  std::uint32_t tip_sectors_per_block = 64;
  /// "Number of usable tips", in [1, 1e7]. parameters.md: 6400.
  std::uint32_t tips_total = 6400;
  /// "Simultaneously active tips", in [tip_sectors_per_block, tips_total]. parameters.md: 640/1280/3200.
  std::uint32_t tips_active = 640;
  /// "Number of sleds": sleds moving together (002 §4), in [1, 9] (DiskSim MEMS_MAXSLEDS). Not in
  /// parameters.md's table; 1 as in DiskSim's single-sled G1-G3 devices. LBNs fill sled 0, then 1, ...
  std::uint32_t sleds = 1;
  /// "Bidirectional access": data may be read moving -Y as well as +Y. Not in parameters.md's
  /// table; true as mems-model.md's layout gives every block an "up" and a "down" access.
  bool bidirectional_access = true;
  /// "layout": the order in which LBNs fill the media (LayoutOrder). Not a DiskSim parameter:
  /// Streaming (default) is DiskSim's layout, AlongY paper 002 §4's.
  LayoutOrder layout = LayoutOrder::Streaming;

  // --- mechanics --------------------------------------------------------------------------------
  /// "Sled acceleration X": m/s² (×1e9 = nm/s²), in (0, 1e6]. parameters.md: 688.8/803.6/1033.2.
  double sled_acceleration_x = 688.8;
  /// "Sled acceleration Y": m/s² (×1e9 = nm/s²), in (0, 1e6]. parameters.md: as X.
  double sled_acceleration_y = 688.8;
  /// "Sled access speed": per-tip data rate, bit/s, in [1, 1e12]. parameters.md: 400k/700k/1M.
  /// Access velocity along Y = this × bit_length_nm (nm/s).
  std::uint64_t tip_data_rate_bps = 400'000;
  /// "Sled resonant frequency", Hz, in (0, 1e9]. parameters.md: 739/739/1108.
  double resonant_frequency_hz = 739;
  /// "Settling time constants", in [0, 1000]. parameters.md: 2/1/1.
  double settling_time_constants = 2;
  /// "Spring constant factor": the springs' acceleration at full throw (offset = travel/2) as a
  /// fraction of the actuator's, in [0, 1) (0 = springs off; < 1 so the actuator can always
  /// decelerate). parameters.md: 0.75.
  double spring_constant_factor = 0.75;

  // --- per request, power -----------------------------------------------------------------------
  /// "Command overhead", ms, in [0, 1000]. parameters.md: 0.3/0.2/0.1.
  double command_overhead_ms = 0.3;
  /// "Time before sled inactive": idle time after which the sled stops, ms, in [0, 1e9].
  /// mems-model.md "Power states": 100 ms in DiskSim's specs.
  double time_before_inactive_ms = 100;
  /// "Startup delay": paid by the first request after the sled stopped, ms, in [0, 1e6].
  /// mems-model.md "Power states": 0.5 ms.
  double startup_delay_ms = 0.5;
  /// "Sled active power", mW, in [0, 1e6]. NOT in parameters.md or mems-model.md: default 0
  /// (energy then counts only what the scenario sets); see docs/models/mems.md.
  double sled_active_power_mw = 0;
  /// "Sled inactive power", mW, in [0, 1e6]. Not in the references: default 0 (see above).
  double sled_inactive_power_mw = 0;
  /// "Tip access power": per active tip while it transfers, mW, in [0, 1e6]. Not in the
  /// references: default 0 (see above).
  double tip_access_power_mw = 0;

  // --- derived quantities (no validation; call validate() first) ---------------------------------
  double accel_x_nm_s2() const { return sled_acceleration_x * 1e9; }  ///< mems-model.md "Coordinates"
  double accel_y_nm_s2() const { return sled_acceleration_y * 1e9; }
  /// Y velocity during access, nm/s: tip_data_rate_bps × bit_length_nm (mems-model.md).
  double access_velocity_nm_s() const;
  /// X settle, seconds: settling_time_constants / (2π · resonant_frequency_hz) (mems-model.md).
  double settle_s() const;
  Time settle() const { return from_s(settle_s()); }  ///< rounded to the nearest ps
  Time command_overhead() const { return from_ms(command_overhead_ms); }
  Time time_before_inactive() const { return from_ms(time_before_inactive_ms); }
  Time startup_delay() const { return from_ms(startup_delay_ms); }

  /// Checks every range above (layout: one of the LayoutOrder values); throws std::invalid_argument("device.KEY must be
  /// RANGE (got VALUE)").
  void validate() const;
};

/// G1 (parameters.md MEMS table, column G1): 50 nm bits, 640 of 6400 tips, 400 kbit/s, 688.8 m/s²,
/// 739 Hz, 2 settling constants, 0.3 ms overhead: 4,400,000 blocks.
MemsParams mems_g1();
/// G2: 40 nm bits, 1280 tips active, 700 kbit/s, 803.6 m/s², 739 Hz, 1 constant, 0.2 ms: 6,750,000.
MemsParams mems_g2();
/// G3: 30 nm bits, 3200 tips active, 1 Mbit/s, 1033.2 m/s², 1108 Hz, 1 constant, 0.1 ms: 11,998,800.
MemsParams mems_g3();
/// Preset by scenario name ("mems_g1", "mems_g2", "mems_g3"); throws std::invalid_argument otherwise.
MemsParams mems_preset(std::string_view name);
/// Names accepted by mems_preset.
std::vector<std::string> mems_preset_names();

}  // namespace drivevp::mems
