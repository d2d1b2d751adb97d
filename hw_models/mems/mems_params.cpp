#include "hw_models/mems/mems_params.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace drivevp::mems {

namespace {

constexpr double kPi = 3.14159265358979323846;

template <typename T>
[[noreturn]] void bad(const char* key, const std::string& range, T value) {
  std::ostringstream os;
  os.precision(17);
  os << "device." << key << " must be " << range << " (got " << value << ")";
  throw std::invalid_argument(os.str());
}

template <typename T>
void check_in(const char* key, T value, T lo, T hi) {
  if (!(value >= lo && value <= hi)) {
    std::ostringstream r;
    r.precision(17);
    r << "in [" << lo << ", " << hi << "]";
    bad(key, r.str(), value);
  }
}

}  // namespace

const char* to_string(LayoutOrder order) {
  switch (order) {
    case LayoutOrder::Streaming:
      return "streaming";
    case LayoutOrder::AlongY:
      return "along_y";
  }
  return "?";
}

LayoutOrder layout_order_from_string(std::string_view text) {
  if (text == "streaming") return LayoutOrder::Streaming;
  if (text == "along_y") return LayoutOrder::AlongY;
  throw std::invalid_argument("device.layout must be streaming or along_y (got '" + std::string(text) + "')");
}

double MemsParams::access_velocity_nm_s() const {
  return static_cast<double>(tip_data_rate_bps) * static_cast<double>(bit_length_nm);
}

double MemsParams::settle_s() const { return settling_time_constants / (2.0 * kPi * resonant_frequency_hz); }

void MemsParams::validate() const {
  check_in<std::uint32_t>("sled_movement_x_nm", sled_movement_x_nm, 1000, 10'000'000);
  check_in<std::uint32_t>("sled_movement_y_nm", sled_movement_y_nm, 1000, 10'000'000);
  check_in<std::uint32_t>("bit_length_nm", bit_length_nm, 1, std::min(sled_movement_x_nm, sled_movement_y_nm));
  check_in<std::uint32_t>("tip_sector_bits", tip_sector_bits, 1, 1'000'000);
  check_in<std::uint32_t>("servo_burst_bits", servo_burst_bits, 0, 1'000'000);
  check_in<std::uint32_t>("tips_total", tips_total, 1, 10'000'000);
  check_in<std::uint32_t>("tip_sectors_per_block", tip_sectors_per_block, 1, tips_total);
  check_in<std::uint32_t>("tips_active", tips_active, tip_sectors_per_block, tips_total);
  check_in<std::uint32_t>("sleds", sleds, 1, 9);
  if (layout != LayoutOrder::Streaming && layout != LayoutOrder::AlongY)
    bad("layout", "streaming (0) or along_y (1)", static_cast<unsigned>(layout));
  const std::uint64_t y_bits = sled_movement_y_nm / bit_length_nm;
  if (y_bits < 2ull * servo_burst_bits + tip_sector_bits)
    bad("sled_movement_y_nm",
        "at least (2 x servo_burst_bits + tip_sector_bits) x bit_length_nm = " +
            std::to_string((2ull * servo_burst_bits + tip_sector_bits) * bit_length_nm) + " nm (one row)",
        sled_movement_y_nm);
  if (!(sled_acceleration_x > 0 && sled_acceleration_x <= 1e6))
    bad("sled_acceleration_x", "in (0, 1000000] m/s^2", sled_acceleration_x);
  if (!(sled_acceleration_y > 0 && sled_acceleration_y <= 1e6))
    bad("sled_acceleration_y", "in (0, 1000000] m/s^2", sled_acceleration_y);
  check_in<std::uint64_t>("tip_data_rate_bps", tip_data_rate_bps, 1, 1'000'000'000'000ull);
  if (!(resonant_frequency_hz > 0 && resonant_frequency_hz <= 1e9))
    bad("resonant_frequency_hz", "in (0, 1e9] Hz", resonant_frequency_hz);
  check_in("settling_time_constants", settling_time_constants, 0.0, 1000.0);
  if (!(spring_constant_factor >= 0 && spring_constant_factor < 1))
    bad("spring_constant_factor", "in [0, 1)", spring_constant_factor);
  check_in("command_overhead_ms", command_overhead_ms, 0.0, 1000.0);
  check_in("time_before_inactive_ms", time_before_inactive_ms, 0.0, 1e9);
  check_in("startup_delay_ms", startup_delay_ms, 0.0, 1e6);
  check_in("sled_active_power_mw", sled_active_power_mw, 0.0, 1e6);
  check_in("sled_inactive_power_mw", sled_inactive_power_mw, 0.0, 1e6);
  check_in("tip_access_power_mw", tip_access_power_mw, 0.0, 1e6);
}

MemsParams mems_g1() {
  MemsParams p;  // the member defaults are G1 (parameters.md MEMS table, column G1)
  p.preset = "mems_g1";
  return p;
}

MemsParams mems_g2() {
  MemsParams p;
  p.preset = "mems_g2";
  p.bit_length_nm = 40;           // parameters.md: bit cell 40 nm
  p.tips_active = 1280;           // tips active at once
  p.tip_data_rate_bps = 700'000;  // per-tip data rate
  p.sled_acceleration_x = 803.6;  // sled acceleration
  p.sled_acceleration_y = 803.6;  //
  p.resonant_frequency_hz = 739;  // resonant frequency
  p.settling_time_constants = 1;  // settle time constants
  p.command_overhead_ms = 0.2;    // command overhead
  return p;
}

MemsParams mems_g3() {
  MemsParams p;
  p.preset = "mems_g3";
  p.bit_length_nm = 30;             // parameters.md: bit cell 30 nm
  p.tips_active = 3200;             // tips active at once
  p.tip_data_rate_bps = 1'000'000;  // per-tip data rate
  p.sled_acceleration_x = 1033.2;   // sled acceleration
  p.sled_acceleration_y = 1033.2;   //
  p.resonant_frequency_hz = 1108;   // resonant frequency
  p.settling_time_constants = 1;    // settle time constants
  p.command_overhead_ms = 0.1;      // command overhead
  return p;
}

MemsParams mems_preset(std::string_view name) {
  if (name == "mems_g1") return mems_g1();
  if (name == "mems_g2") return mems_g2();
  if (name == "mems_g3") return mems_g3();
  throw std::invalid_argument("device.preset: unknown MEMS preset '" + std::string(name) +
                              "' (expected mems_g1, mems_g2 or mems_g3)");
}

std::vector<std::string> mems_preset_names() { return {"mems_g1", "mems_g2", "mems_g3"}; }

}  // namespace drivevp::mems
