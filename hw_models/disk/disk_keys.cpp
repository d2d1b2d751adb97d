#include "hw_models/disk/disk_keys.h"

#include <string>
#include <type_traits>
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

/// A member of one of the drive's feature sections (device.interface.*, device.cache.*,
/// device.overheads.*; tlm_bus/drive_features.h). A bool member is a Boolean key.
template <class S, class T>
ParamKey<DiskParams> feature(const char* name, S DriveFeatures::*section, T S::*member, double min, double max,
                             const char* unit, const char* description) {
  constexpr bool is_bool = std::is_same_v<T, bool>;
  if (is_bool && *unit == 0) unit = "boolean";
  ParamKey<DiskParams> k = declared(name,
                                    is_bool                 ? KeyType::Boolean
                                    : std::is_integral_v<T> ? KeyType::Integer
                                                            : KeyType::Number,
                                    min, max, unit, description);
  k.set = [section, member](DiskParams& p, const KeyValue& v) {
    if constexpr (is_bool)
      (p.features.*section).*member = v.number != 0;
    else
      (p.features.*section).*member = static_cast<T>(v.number);
  };
  k.show = [section, member](const DiskParams& p) {
    if constexpr (is_bool)
      return std::string((p.features.*section).*member ? "true" : "false");
    else
      return fmt::format("{}", (p.features.*section).*member);
  };
  return k;
}

/// The HP 97560's published cache (Ruemmler & Wilkes 1994, ../shared/reference/parameters.md):
/// a 128 KB buffer (one 256-block segment) with a 64 KB read fence (read-ahead of 128 blocks past
/// the request).
void hp97560_published_cache(CacheParams& c) {
  c.enabled = true;
  c.segments = 1;
  c.segment_blocks = 256;
  c.max_read_ahead = 128;
  c.read_ahead_over_requested = true;
}

void add_feature_keys(std::vector<ParamKey<DiskParams>>& k) {
  using F = DriveFeatures;
  using I = InterfaceParams;
  using C = CacheParams;
  using O = OverheadParams;
  // Host interface (DiskSim disk and bus parameters, docs/models/cache.md "Host interface").
  k.push_back(feature("interface.read_sector_ms", &F::interface, &I::read_sector_ms, 0, 100, "ms",
                      "time a sector of read data takes to cross the host interface: the larger of DiskSim's bus "
                      "'Read block transfer time' and the disk's 'Bulk sector transfer time' (0: not modelled)"));
  k.push_back(feature("interface.write_sector_ms", &F::interface, &I::write_sector_ms, 0, 100, "ms",
                      "as interface.read_sector_ms for write data (DiskSim's 'Write block transfer time', 'Bulk "
                      "sector transfer time')"));
  k.push_back(feature("interface.hold_bus_read", &F::interface, &I::hold_bus_read, 0, 1, "",
                      "DiskSim 'Hold bus entire read xfer': stay connected while the data phase waits for the media "
                      "(false: disconnect and pay interface.other_reselect_ms)"));
  k.push_back(feature("interface.first_reselect_ms", &F::interface, &I::first_reselect_ms, 0, 100, "ms",
                      "DiskSim 'First reselect overhead': reconnection before a read miss's first sector crosses"));
  k.push_back(feature("interface.other_reselect_ms", &F::interface, &I::other_reselect_ms, 0, 100, "ms",
                      "DiskSim 'Other reselect overhead': each later reconnection of a read (without hold_bus_read)"));
  k.push_back(feature("interface.read_completion_ms", &F::interface, &I::read_completion_ms, 0, 100, "ms",
                      "DiskSim 'Read completion overhead': last sector across to completion"));
  k.push_back(feature("interface.write_completion_ms", &F::interface, &I::write_completion_ms, 0, 100, "ms",
                      "DiskSim 'Write completion overhead': data on the media (write-back: in the buffer) to "
                      "completion"));
  k.push_back(feature("interface.data_prep_ms", &F::interface, &I::data_prep_ms, 0, 100, "ms",
                      "DiskSim 'Data preparation overhead': before each data phase that moves data (a hit's, a "
                      "write's, each reconnection of a read miss)"));
  k.push_back(feature("interface.write_reconnect", &F::interface, &I::write_reconnect, 0, 1, "",
                      "a write-through write disconnects once its data is in and reconnects (paying "
                      "interface.first_reselect_ms) when it is on the media (DiskSim 'Never disconnect' = 0)"));
  k.push_back(feature("interface.write_disconnect_ms", &F::interface, &I::write_disconnect_ms, 0, 100, "ms",
                      "DiskSim 'Write disconnect overhead': the disconnect after a write's data (with "
                      "interface.write_reconnect)"));
  k.push_back(feature("interface.write_media_overlap", &F::interface, &I::write_media_overlap, 0, 1, "",
                      "a write-through write's media write starts before all its data is in, on the first pass on "
                      "which no block's data arrives after the head (DiskSim's sector-by-sector write)"));
  k.push_back(feature("interface.extra_write_disconnect", &F::interface, &I::extra_write_disconnect, 0, 1, "",
                      "DiskSim 'Extra write disconnect': a write-through write after a write it does not continue "
                      "disconnects once more before its data (the interface.extra_disconnect_* times); every "
                      "write's media write waits for min(blocks, 10) blocks (15 from 45 blocks) in the buffer"));
  k.push_back(feature("interface.extra_disconnect_command_ms", &F::interface, &I::extra_disconnect_command_ms, 0, 100,
                      "ms", "DiskSim 'Extradisc command overhead'"));
  k.push_back(feature("interface.extra_disconnect_overhead_ms", &F::interface, &I::extra_disconnect_overhead_ms, 0, 100,
                      "ms", "DiskSim 'Extradisc disconnect overhead'"));
  k.push_back(feature("interface.extra_disconnect_inter_delay_ms", &F::interface, &I::extra_disconnect_inter_delay_ms,
                      0, 100, "ms", "DiskSim 'Extradisc inter-disconnect delay'"));
  k.push_back(feature("interface.extra_disconnect_second_ms", &F::interface, &I::extra_disconnect_second_ms, 0, 100,
                      "ms", "DiskSim 'Extradisc 2nd disconnect overhead'"));
  k.push_back(feature("interface.extra_disconnect_seek_delta_ms", &F::interface, &I::extra_disconnect_seek_delta_ms, 0,
                      100, "ms", "DiskSim 'Extradisc seek delta'"));
  // Segmented cache (DiskSim disk cache parameters, docs/models/cache.md "Cache").
  {
    ParamKey<DiskParams> h = declared("cache.hp97560_published", KeyType::Boolean, 0, 1, "boolean",
                                      "true: the HP 97560's published cache, 128 KB (one 256-block segment) with a "
                                      "64 KB read fence (read-ahead 128 blocks past the request) (Ruemmler & Wilkes "
                                      "1994); later device.cache keys override its values");
    h.set = [](DiskParams& p, const KeyValue& v) {
      if (v.number != 0) hp97560_published_cache(p.features.cache);
    };
    h.show = [](const DiskParams&) { return std::string("false"); };
    k.push_back(h);
  }
  k.push_back(feature("cache.enabled", &F::cache, &C::enabled, 0, 1, "",
                      "DiskSim 'Enable caching in buffer': the segmented read cache with read-ahead"));
  k.push_back(feature("cache.segments", &F::cache, &C::segments, 1, 64, "segments",
                      "DiskSim 'Number of buffer segments' (read segments)"));
  k.push_back(feature("cache.segment_blocks", &F::cache, &C::segment_blocks, 1, 65536, "blocks",
                      "DiskSim 'Segment size (in blks)'; a larger read bypasses the cache"));
  k.push_back(feature("cache.separate_write_segment", &F::cache, &C::separate_write_segment, 0, 1, "",
                      "DiskSim 'Use separate write segment': one more segment for writes only"));
  k.push_back(feature("cache.min_read_ahead", &F::cache, &C::min_read_ahead, 0, 65536, "blocks",
                      "DiskSim 'Minimum read-ahead (blks)': read-ahead an arriving request does not stop"));
  k.push_back(feature("cache.max_read_ahead", &F::cache, &C::max_read_ahead, 0, 65536, "blocks",
                      "DiskSim 'Maximum read-ahead (blks)': blocks past the request's end, the segment a ring "
                      "keeping the last segment_blocks; 0: a segment's worth (see read_ahead_over_requested)"));
  k.push_back(feature("cache.read_ahead_over_requested", &F::cache, &C::read_ahead_over_requested, 0, 1, "",
                      "DiskSim 'Read-ahead over requested', only with max_read_ahead 0: true: segment_blocks past "
                      "the request's end; false: the media read ends segment_blocks after the request's start"));
  k.push_back(feature("cache.continuous_read", &F::cache, &C::continuous_read, 0, 4, "mode",
                      "DiskSim 'Buffer continuous read': 0 no read-ahead, 1 not past the request's last track, 2 "
                      "not past its cylinder, 3 max_read_ahead past the request (default), 4 to the end of the "
                      "track after the request (one more track for a stream), the segment keeping its last "
                      "segment_blocks blocks"));
  k.push_back(feature("cache.read_hits_on_write_data", &F::cache, &C::read_hits_on_write_data, 0, 1, "",
                      "DiskSim 'Allow read hits on write data': a read may hit on blocks a write left in a "
                      "segment (false: it goes to the media)"));
  k.push_back(feature("cache.read_ahead_on_idle_hit", &F::cache, &C::read_ahead_on_idle_hit, 0, 1, "",
                      "DiskSim 'Read-ahead on idle hit': a full hit served with no media access in progress "
                      "starts a read-ahead from its segment's end (modes 1, 2: on the heads' track / cylinder)"));
  k.push_back(feature("cache.read_any_free_blocks", &F::cache, &C::read_any_free_blocks, 0, 1, "",
                      "DiskSim 'Read any free blocks': a read miss also reads the blocks of its first track before "
                      "the request that pass under the head before it, its segment starting there"));
  k.push_back(feature("cache.stop_prefetch_in_sector", &F::cache, &C::stop_prefetch_in_sector, 0, 1, "",
                      "DiskSim 'Stop prefetch in sector': a read-ahead stopped for a command stops at once "
                      "instead of at the end of the block under the head"));
  k.push_back(feature("cache.fast_write_level", &F::cache, &C::fast_write_level, 0, 2, "level",
                      "DiskSim 'Fast write level': 0 write-through, 1 limited write-back (appends only), 2 full "
                      "write-back; needs device.cache.enabled"));
  k.push_back(feature("cache.read_water_mark", &F::cache, &C::read_water_mark, 0, 1, "fraction",
                      "DiskSim 'High (read) water mark': a read miss's data phase (re)connects once this fraction "
                      "of the request (cache.watermark_by_request_size) or of a segment is in the buffer (0: one "
                      "block)"));
  k.push_back(feature("cache.watermark_by_request_size", &F::cache, &C::watermark_by_request_size, 0, 1, "",
                      "DiskSim 'Set watermark by reqsize': cache.read_water_mark is a fraction of the request "
                      "(false: of a segment)"));
  // Overheads by read/write x hit/miss x previous command (DiskSim "... over. after ...").
  k.push_back(feature("overheads.enabled", &F::overheads, &O::enabled, 0, 1, "",
                      "true: the 8 device.overheads values replace device.command_overhead_ms"));
  k.push_back(feature("overheads.minimum_seek_delay_ms", &F::overheads, &O::minimum_seek_delay_ms, 0, 1000, "ms",
                      "DiskSim 'Minimum seek delay': a media write's seek takes at least this long"));
  k.push_back(feature("overheads.read_hit_after_read_ms", &F::overheads, &O::read_hit_after_read_ms, 0, 1000, "ms",
                      "DiskSim 'Read hit over. after read'"));
  k.push_back(feature("overheads.read_hit_after_write_ms", &F::overheads, &O::read_hit_after_write_ms, 0, 1000, "ms",
                      "DiskSim 'Read hit over. after write'"));
  k.push_back(feature("overheads.read_miss_after_read_ms", &F::overheads, &O::read_miss_after_read_ms, 0, 1000, "ms",
                      "DiskSim 'Read miss over. after read'"));
  k.push_back(feature("overheads.read_miss_after_write_ms", &F::overheads, &O::read_miss_after_write_ms, 0, 1000, "ms",
                      "DiskSim 'Read miss over. after write'"));
  k.push_back(feature("overheads.write_hit_after_read_ms", &F::overheads, &O::write_hit_after_read_ms, 0, 1000, "ms",
                      "DiskSim 'Write hit over. after read' (hit: taken by write-back)"));
  k.push_back(feature("overheads.write_hit_after_write_ms", &F::overheads, &O::write_hit_after_write_ms, 0, 1000, "ms",
                      "DiskSim 'Write hit over. after write'"));
  k.push_back(feature("overheads.write_miss_after_read_ms", &F::overheads, &O::write_miss_after_read_ms, 0, 1000, "ms",
                      "DiskSim 'Write miss over. after read'"));
  k.push_back(feature("overheads.write_miss_after_write_ms", &F::overheads, &O::write_miss_after_write_ms, 0, 1000,
                      "ms", "DiskSim 'Write miss over. after write'"));
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
    k.push_back(number("write_settle_ms", &DiskParams::write_settle_ms, -1000, 1000, "ms",
                       "DiskSim 4.0 'Add. write settling delay': added to a media write's non-zero positioning "
                       "(seek or head switch), may be negative, the sum not below 0 (both presets: 0)"));
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
    add_feature_keys(k);
    return k;
  }();
  return keys;
}

}  // namespace drivevp
