#include "hw_models/disk/disk_keys.h"

#include <string>
#include <utility>

#include <fmt/format.h>

namespace drivevp {

namespace {

ParamKey<DiskParams> declared(const char* name, KeyType type, double min, double max, const char* unit,
                              const char* description) {
  ParamKey<DiskParams> k;
  k.name = name;
  k.type = type;
  k.min = min;
  k.max = max;
  k.unit = unit;
  k.description = description;
  return k;
}

template <class T>
ParamKey<DiskParams> integer(const char* name, T DiskParams::*member, double min, double max, const char* unit,
                             const char* description) {
  return member_key(name, KeyType::Integer, member, min, max, unit, description);
}

ParamKey<DiskParams> number(const char* name, double DiskParams::*member, double min, double max, const char* unit,
                            const char* description) {
  return member_key(name, KeyType::Number, member, min, max, unit, description);
}

/// A member of the seek curve (device.seek_curve.<name>).
template <class T>
ParamKey<DiskParams> curve(const char* name, T SeekCurve::*member, KeyType type, double max, const char* unit,
                           const char* description) {
  ParamKey<DiskParams> k = declared(name, type, 0, max, unit, description);
  k.set = [member](DiskParams& p, const KeyValue& v) { p.seek_curve.*member = static_cast<T>(v.number); };
  k.show = [member](const DiskParams& p) { return fmt::format("{}", p.seek_curve.*member); };
  return k;
}

void rebuild_single_zone(DiskParams& d, std::uint32_t spt) { d.zones = {Zone{0, d.cylinders, spt}}; }

ParamKey<DiskParams> zones_key() {
  ParamKey<DiskParams> k;
  k.name = "zones";
  k.type = KeyType::List;
  k.columns = {{"first_cylinder", KeyType::Integer, 0, 10'000'000, "cylinder"},
               {"cylinders", KeyType::Integer, 1, 10'000'000, "cylinders"},
               {"sectors_per_track", KeyType::Integer, 1, 100'000, "sectors"}};
  k.min_items = 1;
  k.max_items = ParameterPage::kMaxZones;
  k.unit = "zones";
  k.shape = "an array of [first_cylinder, cylinders, sectors_per_track] triples tiling [0, device.cylinders) in order";
  k.description =
      "recording zones, replacing the preset's (both presets have one zone over all cylinders, docs/models/disk.md); "
      "set device.cylinders first if it changes";
  // Each zone starts where the previous one ended (checked once the zone is read whole).
  k.check = [shape = k.shape](const std::vector<std::vector<double>>& rows) {
    if (rows.back().size() != 3) return;
    std::uint64_t next = 0;
    for (std::size_t i = 0; i + 1 < rows.size(); ++i) next += static_cast<std::uint64_t>(rows[i][1]);
    if (static_cast<std::uint64_t>(rows.back()[0]) != next)
      throw KeyValueError(shape + " (next zone must start at cylinder " + std::to_string(next) + ")", rows.size() - 1);
  };
  // Together they cover exactly device.cylinders (set before, or the preset's).
  k.set = [shape = k.shape](DiskParams& p, const KeyValue& v) {
    std::vector<Zone> zones;
    std::uint64_t covered = 0;
    for (const std::vector<double>& z : v.rows) {
      zones.push_back(
          Zone{static_cast<std::uint32_t>(z[0]), static_cast<std::uint32_t>(z[1]), static_cast<std::uint32_t>(z[2])});
      covered += zones.back().cylinders;
    }
    if (covered != p.cylinders)
      throw KeyValueError(shape + " (zones cover " + std::to_string(covered) + " cylinders, device.cylinders is " +
                          std::to_string(p.cylinders) + ")");
    p.zones = std::move(zones);
  };
  k.show = [](const DiskParams& p) {
    std::string s;
    for (const Zone& z : p.zones)
      s += fmt::format("{}[{}, {}, {}]", s.empty() ? "[" : ", ", z.first_cylinder, z.cylinders, z.sectors_per_track);
    return s.empty() ? std::string("[]") : s + "]";
  };
  return k;
}

ParamKey<DiskParams> seek_table_key() {
  ParamKey<DiskParams> k;
  k.name = "seek_table";
  k.type = KeyType::List;
  k.columns = {{"distance", KeyType::Integer, 1, 10'000'000, "cylinders"}, {"ms", KeyType::Number, 0, 10'000, "ms"}};
  k.min_items = 1;
  k.max_items = KeyDecl::kUnbounded;
  k.unit = "pairs";
  k.shape = "an array of [distance, ms] pairs, distances >= 1 strictly increasing";
  k.description =
      "seek profile as samples, exact at them, linear between and extrapolated beyond (SeekTable, "
      "tlm_bus/param_page.h); overrides device.seek_curve (no preset has one)";
  // Distances strictly increase (checked as soon as the distance is read).
  k.check = [shape = k.shape](const std::vector<std::vector<double>>& rows) {
    if (rows.back().size() != 1 || rows.size() < 2) return;
    if (rows.back()[0] <= rows[rows.size() - 2][0]) throw KeyValueError(shape, rows.size() - 1);
  };
  k.set = [](DiskParams& p, const KeyValue& v) {
    std::vector<std::uint32_t> d;
    std::vector<Time> t;
    for (const std::vector<double>& pair : v.rows) {
      d.push_back(static_cast<std::uint32_t>(pair[0]));
      t.push_back(from_ms(pair[1]));
    }
    p.seek_table = SeekTable(std::move(d), std::move(t));
  };
  k.show = [](const DiskParams& p) {
    const SeekTable& t = p.seek_table;
    if (t.distances().empty()) return std::string("none");
    std::string s;
    for (std::size_t i = 0; i < t.distances().size(); ++i)
      s += fmt::format("{}[{}, {}]", i == 0 ? "[" : ", ", t.distances()[i], to_ms(t.times()[i]));
    return s + "]";
  };
  return k;
}

}  // namespace

const std::vector<ParamKey<DiskParams>>& disk_param_keys() {
  static const std::vector<ParamKey<DiskParams>> keys = [] {
    std::vector<ParamKey<DiskParams>> k;
    // Geometry (001 §5, 003 Table 1, 004 Table 2; disk_params.cpp; docs/models/disk.md).
    {
      ParamKey<DiskParams> c = integer("cylinders", &DiskParams::cylinders, 1, 10'000'000, "cylinders",
                                       "cylinders; a single-zone disk keeps one zone over all of them (hp97560: "
                                       "1962, 001 section 5, 004 Table 2; disk003: 6720, 003 Table 1)");
      c.set = [](DiskParams& p, const KeyValue& v) {
        p.cylinders = static_cast<std::uint32_t>(v.number);
        if (p.zones.size() == 1) rebuild_single_zone(p, p.zones[0].sectors_per_track);
      };
      k.push_back(c);
    }
    k.push_back(integer("heads", &DiskParams::heads, 1, 1024, "heads",
                        "tracks per cylinder (hp97560: 19, 001 section 5; disk003: 12, assumed, docs/models/disk.md)"));
    {
      ParamKey<DiskParams> s = declared("sectors_per_track", KeyType::Integer, 1, 100'000, "sectors",
                                        "512 B sectors per track; makes the disk single-zone (hp97560: 72, 001 "
                                        "section 5; disk003: 199, 003 Table 1's 17 MB/s at 6 ms per revolution)");
      s.set = [](DiskParams& p, const KeyValue& v) { rebuild_single_zone(p, static_cast<std::uint32_t>(v.number)); };
      s.show = [](const DiskParams& p) {
        return p.zones.size() == 1 ? fmt::format("{}", p.zones[0].sectors_per_track) : std::string("per zone");
      };
      k.push_back(s);
    }
    k.push_back(zones_key());
    k.push_back(integer("track_skew", &DiskParams::track_skew, 0, 99'999, "sectors",
                        "skew after a head switch, less than the sectors per track (hp97560: 8, Ruemmler & Wilkes "
                        "1994; disk003: 27, assumed to cover the 0.8 ms head switch)"));
    k.push_back(integer("cylinder_skew", &DiskParams::cylinder_skew, 0, 99'999, "sectors",
                        "skew after a cylinder switch, less than the sectors per track (hp97560: 18, Ruemmler & "
                        "Wilkes 1994; disk003: 67, assumed to cover a 1-cylinder seek)"));
    // Timing.
    k.push_back(number("rpm", &DiskParams::rpm, 60, 100'000, "rpm",
                       "spindle speed (hp97560: 4002, 001 section 5, 004 Table 2; disk003: 10000, 003 Table 1)"));
    k.push_back(number("head_switch_ms", &DiskParams::head_switch_ms, 0, 1000, "ms",
                       "head switch time (hp97560: 1.6, Ruemmler & Wilkes 1994; disk003: 0.8, assumed)"));
    k.push_back(number("settle_ms", &DiskParams::settle_ms, 0, 1000, "ms",
                       "settle added to every arm move of >= 1 cylinder (both presets: 0, included in their curves)"));
    k.push_back(number("command_overhead_ms", &DiskParams::command_overhead_ms, 0, 1000, "ms",
                       "controller overhead per command, spent by the firmware (hp97560: 2.2, Ruemmler & Wilkes "
                       "1994; disk003: 0, 003 section 3.2)"));
    k.push_back(integer("seek_calibration_samples", &DiskParams::seek_calibration_samples, 2,
                        ParameterPage::kMaxSeekSamples, "samples",
                        "seek samples the parameter page publishes for the firmware's predictor (default 96, "
                        "docs/models/disk.md)"));
    // Seek curve a + b sqrt(d) for d <= short_max_distance, c + e d above (004 Table 2; 003 eq. (1)).
    k.push_back(curve("seek_curve.short_const_ms", &SeekCurve::short_const_ms, KeyType::Number, 1000, "ms",
                      "a of a + b sqrt(d) (hp97560: 3.24, 004 Table 2; disk003: 1.867, 003 eq. (1))"));
    k.push_back(curve("seek_curve.short_sqrt_ms", &SeekCurve::short_sqrt_ms, KeyType::Number, 1000, "ms",
                      "b of a + b sqrt(d) (hp97560: 0.400, 004 Table 2; disk003: 0.1315, 003 eq. (1))"));
    k.push_back(curve("seek_curve.long_const_ms", &SeekCurve::long_const_ms, KeyType::Number, 1000, "ms",
                      "c of c + e d (hp97560: 8.00, 004 Table 2; disk003: 3.8635, 003 eq. (1))"));
    k.push_back(curve("seek_curve.long_linear_ms", &SeekCurve::long_linear_ms, KeyType::Number, 1000, "ms/cylinder",
                      "e of c + e d (hp97560: 0.008, 004 Table 2; disk003: 0.0021, 003 eq. (1))"));
    k.push_back(curve("seek_curve.short_max_distance", &SeekCurve::short_max_distance, KeyType::Integer, 10'000'000,
                      "cylinders",
                      "last distance of the sqrt branch (hp97560: 382, 004 Table 2's d < 383; disk003: 1344, "
                      "where 003 eq. (1)'s branches meet)"));
    k.push_back(seek_table_key());
    return k;
  }();
  return keys;
}

}  // namespace drivevp
