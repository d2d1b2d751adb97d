#include "hw_models/mems/mems_keys.h"

#include <fmt/format.h>

namespace drivevp::mems {

namespace {

template <class T>
ParamKey<MemsParams> integer(const char* name, T MemsParams::*member, double min, double max, const char* unit,
                             const char* description) {
  return member_key(name, KeyType::Integer, member, min, max, unit, description);
}

ParamKey<MemsParams> number(const char* name, double MemsParams::*member, double min, double max, bool min_open,
                            const char* unit, const char* description) {
  return member_key(name, KeyType::Number, member, min, max, unit, description, min_open);
}

}  // namespace

const std::vector<ParamKey<MemsParams>>& mems_param_keys() {
  static const std::vector<ParamKey<MemsParams>> keys = [] {
    std::vector<ParamKey<MemsParams>> k;
    // Geometry (parameters.md MEMS table; mems-model.md "Layout").
    k.push_back(integer("sled_movement_x_nm", &MemsParams::sled_movement_x_nm, 1000, 1e7, "nm",
                        "X travel of the sled (parameters.md: 100 um)"));
    k.push_back(integer("sled_movement_y_nm", &MemsParams::sled_movement_y_nm, 1000, 1e7, "nm",
                        "Y travel of the sled (parameters.md: 100 um)"));
    k.push_back(integer("bit_length_nm", &MemsParams::bit_length_nm, 1, 1e7, "nm",
                        "bit cell length (parameters.md: G1 50, G2 40, G3 30 nm)"));
    k.push_back(integer("tip_sector_bits", &MemsParams::tip_sector_bits, 1, 1e6, "bits",
                        "data bits of a tip sector (parameters.md: 80)"));
    k.push_back(integer("servo_burst_bits", &MemsParams::servo_burst_bits, 0, 1e6, "bits",
                        "servo bits before each tip sector (parameters.md: 10)"));
    k.push_back(integer("tip_sectors_per_block", &MemsParams::tip_sectors_per_block, 1, 1e7, "tips",
                        "tips a 512 B block is striped over (parameters.md: 64; 002 section 4)"));
    k.push_back(integer("tips_total", &MemsParams::tips_total, 1, 1e7, "tips", "usable tips (parameters.md: 6400)"));
    k.push_back(integer("tips_active", &MemsParams::tips_active, 1, 1e7, "tips",
                        "simultaneously active tips (parameters.md: G1 640, G2 1280, G3 3200)"));
    k.push_back(integer("sleds", &MemsParams::sleds, 1, 9, "sleds",
                        "sleds moving together (002 section 4; DiskSim MEMS_MAXSLEDS 9; default 1)"));
    {
      ParamKey<MemsParams> b;
      b.name = "bidirectional_access";
      b.type = KeyType::Boolean;
      b.description = "data is also read moving -Y (mems-model.md layout: every block has an up and a down access)";
      b.set = [](MemsParams& p, const KeyValue& v) { p.bidirectional_access = v.number != 0; };
      b.show = [](const MemsParams& p) { return std::string(p.bidirectional_access ? "true" : "false"); };
      k.push_back(b);
    }
    {
      ParamKey<MemsParams> l;
      l.name = "layout";
      l.type = KeyType::Enum;
      l.choices = {"streaming", "along_y"};
      l.description =
          "LBN order: streaming (DiskSim 4.0, mems-model.md: cells of a row first) or along_y (002 section 4: "
          "consecutive blocks along Y on the same tips)";
      l.set = [](MemsParams& p, const KeyValue& v) { p.layout = layout_order_from_string(v.text); };
      l.show = [](const MemsParams& p) { return std::string(to_string(p.layout)); };
      k.push_back(l);
    }
    // Mechanics (parameters.md; Griffin et al. 2000 section 3).
    k.push_back(number("sled_acceleration_x", &MemsParams::sled_acceleration_x, 0, 1e6, true, "m/s^2",
                       "X actuator acceleration (parameters.md: G1 688.8, G2 803.6, G3 1033.2)"));
    k.push_back(number("sled_acceleration_y", &MemsParams::sled_acceleration_y, 0, 1e6, true, "m/s^2",
                       "Y actuator acceleration (parameters.md: as X)"));
    k.push_back(integer("tip_data_rate_bps", &MemsParams::tip_data_rate_bps, 1, 1e12, "bit/s",
                        "per-tip data rate; access velocity = this x bit length (parameters.md: 400k/700k/1M)"));
    k.push_back(number("resonant_frequency_hz", &MemsParams::resonant_frequency_hz, 0, 1e9, true, "Hz",
                       "sled resonant frequency; X settle = constants / (2 pi f) (parameters.md: 739/739/1108)"));
    k.push_back(number("settling_time_constants", &MemsParams::settling_time_constants, 0, 1000, false, "",
                       "settling time constants (parameters.md: G1 2, G2 1, G3 1)"));
    k.push_back(number("spring_constant_factor", &MemsParams::spring_constant_factor, 0, 0.999999, false, "",
                       "spring force at full throw / actuator force; 0 turns springs off (parameters.md: 0.75)"));
    // Per request and power (parameters.md; mems-model.md "Power states").
    k.push_back(number("command_overhead_ms", &MemsParams::command_overhead_ms, 0, 1000, false, "ms",
                       "firmware overhead per command (parameters.md: G1 0.3, G2 0.2, G3 0.1)"));
    k.push_back(number("time_before_inactive_ms", &MemsParams::time_before_inactive_ms, 0, 1e9, false, "ms",
                       "idle time after which the sled stops (mems-model.md: 100 ms in DiskSim's specs)"));
    k.push_back(number("startup_delay_ms", &MemsParams::startup_delay_ms, 0, 1e6, false, "ms",
                       "startup paid by the first request after the sled stopped (mems-model.md: 0.5 ms)"));
    k.push_back(number("sled_active_power_mw", &MemsParams::sled_active_power_mw, 0, 1e6, false, "mW",
                       "sled power while active (no published value: default 0)"));
    k.push_back(number("sled_inactive_power_mw", &MemsParams::sled_inactive_power_mw, 0, 1e6, false, "mW",
                       "sled power while inactive (no published value: default 0)"));
    k.push_back(number("tip_access_power_mw", &MemsParams::tip_access_power_mw, 0, 1e6, false, "mW",
                       "power per tip while it transfers (no published value: default 0)"));
    return k;
  }();
  return keys;
}

}  // namespace drivevp::mems
