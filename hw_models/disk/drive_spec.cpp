#include "hw_models/disk/drive_spec.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

namespace drivevp {

namespace {

constexpr std::uint32_t kMaxCylinder = 10'000'000;

std::string type_name(int t) { return t == 0 ? "a boolean" : t == 1 ? "an integer" : "a number"; }

/// What a TOML node holds, for "found ..." in messages.
std::string found(const toml::node& n) {
  if (auto v = n.as_integer()) return fmt::format("{}", v->get());
  if (auto v = n.as_floating_point()) return fmt::format("{}", v->get());
  if (auto v = n.as_boolean()) return v->get() ? "true" : "false";
  if (auto v = n.as_string()) return fmt::format("\"{}\"", v->get());
  if (n.is_array()) return "an array";
  if (n.is_table()) return "a table";
  return "a value of another type";
}

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const toml::node* n, const std::string& key, const std::string& expected,
                         const std::string& what) const {
    const std::string where =
        n && n->source().begin.line > 0 ? fmt::format("{}:{}", path_, n->source().begin.line) : path_;
    throw DriveSpecError(fmt::format("{}: {}: expected {}, found {}", where, key, expected, what));
  }

  const toml::node& need(const toml::table& t, const std::string& section, const std::string& key) const {
    const toml::node* n = t.get(key);
    if (!n) fail(&t, section.empty() ? key : section + "." + key, "the key to be present", "nothing");
    return *n;
  }

  const toml::table& table(const toml::table& t, const std::string& section, const std::string& key) const {
    const toml::node& n = need(t, section, key);
    if (!n.is_table()) fail(&n, section.empty() ? key : section + "." + key, "a table", found(n));
    return *n.as_table();
  }

  double number(const toml::node& n, const std::string& key, double min, double max) const {
    std::optional<double> v;
    if (auto i = n.as_integer()) v = static_cast<double>(i->get());
    if (auto f = n.as_floating_point()) v = f->get();
    const std::string range = fmt::format("a number in [{}, {}]", min, max);
    if (!v) fail(&n, key, range, found(n));
    if (!(*v >= min && *v <= max)) fail(&n, key, range, found(n));
    return *v;
  }

  std::int64_t integer(const toml::node& n, const std::string& key, double min, double max) const {
    const std::string range = fmt::format("an integer in [{}, {}]", min, max);
    auto i = n.as_integer();
    if (!i || static_cast<double>(i->get()) < min || static_cast<double>(i->get()) > max)
      fail(&n, key, range, found(n));
    return i->get();
  }

  bool boolean(const toml::node& n, const std::string& key) const {
    auto b = n.as_boolean();
    if (!b) fail(&n, key, "true or false", found(n));
    return b->get();
  }

  std::string string(const toml::node& n, const std::string& key) const {
    auto s = n.as_string();
    if (!s) fail(&n, key, "a string", found(n));
    return s->get();
  }

  const toml::array& array(const toml::node& n, const std::string& key) const {
    if (!n.is_array()) fail(&n, key, "an array", found(n));
    return *n.as_array();
  }

  /// Every key of `t` is one of `known`.
  void only(const toml::table& t, const std::string& section, const std::set<std::string>& known) const {
    for (const auto& [k, v] : t) {
      const std::string key(k.str());
      if (!known.count(key)) {
        std::string list;
        for (const std::string& s : known) list += (list.empty() ? "" : ", ") + s;
        fail(&v, section.empty() ? key : section + "." + key, "one of the keys " + list, "an unknown key");
      }
    }
  }

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::uint32_t u32(const Reader& r, const toml::table& t, const std::string& section, const std::string& key, double min,
                  double max) {
  return static_cast<std::uint32_t>(r.integer(r.need(t, section, key), section + "." + key, min, max));
}

std::string number_text(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string value_text(const DriveValue& v) {
  if (std::holds_alternative<bool>(v)) return std::get<bool>(v) ? "true" : "false";
  if (std::holds_alternative<std::int64_t>(v)) return fmt::format("{}", std::get<std::int64_t>(v));
  return number_text(std::get<double>(v));
}

/// The sub-table of a dotted key ("scheduler.x" -> "scheduler"), or "".
std::string sub_of(const std::string& key) {
  const auto dot = key.find('.');
  return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

std::string leaf_of(const std::string& key) {
  const auto dot = key.find('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

/// Sub-tables present only when the description came with a whole DiskSim system.
bool optional_sub(const std::string& sub) { return sub == "bus" || sub == "controller"; }

DriveSection read_section(const Reader& r, const toml::table& root, const std::string& section) {
  const toml::table& t = r.table(root, "", section);
  DriveSection out;
  std::set<std::string> known_top, subs;
  std::map<std::string, std::set<std::string>> known_sub;
  for (const DriveKeyDecl& d : drive_key_decls()) {
    if (section != d.section) continue;
    const std::string key = d.key, sub = sub_of(key);
    if (sub.empty()) {
      known_top.insert(key);
    } else {
      known_top.insert(sub);
      known_sub[sub].insert(leaf_of(key));
    }
  }
  r.only(t, section, known_top);
  for (const auto& [sub, keys] : known_sub) {
    if (const toml::node* n = t.get(sub)) {
      if (!n->is_table()) r.fail(n, section + "." + sub, "a table", found(*n));
      r.only(*n->as_table(), section + "." + sub, keys);
    }
  }
  for (const DriveKeyDecl& d : drive_key_decls()) {
    if (section != d.section) continue;
    const std::string key = d.key, sub = sub_of(key), full = section + "." + key;
    const toml::table* holder = &t;
    if (!sub.empty()) {
      const toml::node* n = t.get(sub);
      if (!n) {
        if (optional_sub(sub)) continue;
        r.fail(&t, section + "." + sub, "the table to be present", "nothing");
      }
      holder = n->as_table();
    }
    const toml::node* n = holder->get(leaf_of(key));
    if (!n) r.fail(holder, full, "the key to be present (" + type_name(d.type) + ")", "nothing");
    DriveValue v;
    if (d.type == 0)
      v = r.boolean(*n, full);
    else if (d.type == 1)
      v = r.integer(*n, full, d.min, d.max);
    else
      v = r.number(*n, full, d.min, d.max);
    out.values.emplace_back(key, v);
  }
  return out;
}

DriveZone read_zone(const Reader& r, const toml::table& z, const std::string& at) {
  r.only(z, at,
         {"first_cylinder", "last_cylinder", "blocks_per_track", "first_block_offset", "front_space", "track_skew",
          "cylinder_skew", "spares", "slips", "defects"});
  DriveZone o;
  o.first_cylinder = u32(r, z, at, "first_cylinder", 0, kMaxCylinder);
  o.last_cylinder = u32(r, z, at, "last_cylinder", 0, kMaxCylinder);
  if (o.last_cylinder < o.first_cylinder)
    r.fail(z.get("last_cylinder"), at + ".last_cylinder",
           fmt::format("a cylinder >= first_cylinder ({})", o.first_cylinder), fmt::format("{}", o.last_cylinder));
  o.blocks_per_track = u32(r, z, at, "blocks_per_track", 1, 100'000);
  const double below = o.blocks_per_track - 1;
  o.first_block_offset = u32(r, z, at, "first_block_offset", 0, below);
  o.front_space = u32(r, z, at, "front_space", 0, 4e9);
  o.track_skew = u32(r, z, at, "track_skew", 0, below);
  o.cylinder_skew = u32(r, z, at, "cylinder_skew", 0, below);
  o.spares = u32(r, z, at, "spares", 0, 4e9);
  for (const toml::node& s : r.array(r.need(z, at, "slips"), at + ".slips"))
    o.slips.push_back(static_cast<std::uint32_t>(r.integer(s, at + ".slips", 0, 4e9)));
  for (const toml::node& d : r.array(r.need(z, at, "defects"), at + ".defects")) {
    const toml::array& pair = r.array(d, at + ".defects");
    if (pair.size() != 2) r.fail(&d, at + ".defects", "[defect, remap] pairs", fmt::format("{} values", pair.size()));
    o.defects.push_back({static_cast<std::uint32_t>(r.integer(*pair.get(0), at + ".defects", 0, 4e9)),
                         static_cast<std::uint32_t>(r.integer(*pair.get(1), at + ".defects", 0, 4e9))});
  }
  return o;
}

DriveLayout read_layout(const Reader& r, const toml::table& root) {
  const toml::table& t = r.table(root, "", "layout");
  r.only(t, "layout",
         {"cylinders", "surfaces", "block_count", "lbn_mapping", "sparing_scheme", "sparing_range", "zone"});
  DriveLayout l;
  l.cylinders = u32(r, t, "layout", "cylinders", 1, kMaxCylinder);
  l.surfaces = u32(r, t, "layout", "surfaces", 1, 1024);
  l.block_count =
      static_cast<std::uint64_t>(r.integer(r.need(t, "layout", "block_count"), "layout.block_count", 1, 1e15));
  l.lbn_mapping = u32(r, t, "layout", "lbn_mapping", 0, 2);
  l.sparing_scheme = u32(r, t, "layout", "sparing_scheme", 0, 10);
  l.sparing_range = u32(r, t, "layout", "sparing_range", 1, kMaxCylinder);
  const toml::node& zn = r.need(t, "layout", "zone");
  const toml::array* zones = zn.as_array();
  if (!zones || zones->empty() || !zones->is_array_of_tables())
    r.fail(&zn, "layout.zone", "one or more [[layout.zone]] tables", found(zn));
  if (zones->size() > ParameterPage::kMaxZones)
    r.fail(&zn, "layout.zone", fmt::format("at most {} zones", ParameterPage::kMaxZones),
           fmt::format("{}", zones->size()));
  std::size_t i = 0;
  for (const toml::node& z : *zones) {
    const std::string at = fmt::format("layout.zone[{}]", i++);
    l.zones.push_back(read_zone(r, *z.as_table(), at));
    if (l.zones.size() > 1 && l.zones.back().first_cylinder <= l.zones[l.zones.size() - 2].last_cylinder)
      r.fail(z.as_table()->get("first_cylinder"), at + ".first_cylinder",
             fmt::format("a cylinder after the previous zone's last ({})", l.zones[l.zones.size() - 2].last_cylinder),
             fmt::format("{}", l.zones.back().first_cylinder));
  }
  return l;
}

std::optional<double> optional_ms(const Reader& r, const toml::table& t, const std::string& key) {
  const toml::node* n = t.get(key);
  if (!n) return std::nullopt;
  return r.number(*n, "mechanics." + key, 0, 1000);
}

DriveMechanics read_mechanics(const Reader& r, const toml::table& root) {
  const toml::table& t = r.table(root, "", "mechanics");
  r.only(t, "mechanics",
         {"rpm", "rpm_error_percent", "head_switch_ms", "write_settle_ms", "settle_ms", "access_time_type", "seek",
          "seek_file", "seek_table", "hpl_seek", "first_ten_seeks_ms", "single_cylinder_seek_ms", "average_seek_ms",
          "full_strobe_seek_ms", "curve"});
  DriveMechanics m;
  auto num = [&](const char* key, double min, double max) {
    return r.number(r.need(t, "mechanics", key), std::string("mechanics.") + key, min, max);
  };
  m.rpm = num("rpm", 60, 100'000);
  m.rpm_error_percent = num("rpm_error_percent", 0, 0);
  m.head_switch_ms = num("head_switch_ms", 0, 1000);
  m.write_settle_ms = num("write_settle_ms", -1000, 1000);
  m.settle_ms = num("settle_ms", 0, 1000);
  m.access_time_type = r.string(r.need(t, "mechanics", "access_time_type"), "mechanics.access_time_type");
  if (m.access_time_type != "trackSwitchPlusRotation")
    r.fail(t.get("access_time_type"), "mechanics.access_time_type", "\"trackSwitchPlusRotation\"",
           "\"" + m.access_time_type + "\"");
  m.seek = r.string(r.need(t, "mechanics", "seek"), "mechanics.seek");
  if (m.seek != "table" && m.seek != "hplplus10" && m.seek != "curve")
    r.fail(t.get("seek"), "mechanics.seek", "one of table, hplplus10, curve", "\"" + m.seek + "\"");
  if (const toml::node* n = t.get("seek_file")) m.seek_file = r.string(*n, "mechanics.seek_file");
  if (const toml::node* n = t.get("seek_table")) {
    for (const toml::node& p : r.array(*n, "mechanics.seek_table")) {
      const toml::array& pair = r.array(p, "mechanics.seek_table");
      if (pair.size() != 2)
        r.fail(&p, "mechanics.seek_table", "[distance, ms] pairs", fmt::format("{} values", pair.size()));
      const auto d = static_cast<std::uint32_t>(r.integer(*pair.get(0), "mechanics.seek_table", 1, kMaxCylinder));
      if (!m.seek_table.empty() && d <= m.seek_table.back().first)
        r.fail(&p, "mechanics.seek_table", fmt::format("a distance above {}", m.seek_table.back().first),
               fmt::format("{}", d));
      m.seek_table.emplace_back(d, r.number(*pair.get(1), "mechanics.seek_table", 0, 10'000));
    }
  }
  auto list = [&](const char* key, std::size_t size, std::vector<double>& out) {
    const toml::node* n = t.get(key);
    if (!n) return;
    const toml::array& a = r.array(*n, std::string("mechanics.") + key);
    if (a.size() != size)
      r.fail(n, std::string("mechanics.") + key, fmt::format("{} numbers", size), fmt::format("{}", a.size()));
    for (const toml::node& v : a) out.push_back(r.number(v, std::string("mechanics.") + key, -1e6, 1e6));
  };
  list("hpl_seek", 6, m.hpl_seek);
  list("first_ten_seeks_ms", 10, m.first_ten_seeks_ms);
  m.single_cylinder_seek_ms = optional_ms(r, t, "single_cylinder_seek_ms");
  m.average_seek_ms = optional_ms(r, t, "average_seek_ms");
  m.full_strobe_seek_ms = optional_ms(r, t, "full_strobe_seek_ms");
  if (m.seek == "table" && m.seek_table.empty())
    r.fail(&t, "mechanics.seek_table", "[distance, ms] pairs (mechanics.seek = \"table\")", "nothing");
  if (m.seek == "hplplus10" && (m.hpl_seek.empty() || m.first_ten_seeks_ms.empty()))
    r.fail(&t, "mechanics.hpl_seek", "hpl_seek and first_ten_seeks_ms (mechanics.seek = \"hplplus10\")", "nothing");
  if (m.seek == "hplplus10" && !(m.hpl_seek[0] >= 11 && m.hpl_seek[0] <= kMaxCylinder && m.hpl_seek[1] >= 0 &&
                                 m.hpl_seek[2] >= 0 && m.hpl_seek[3] >= 0 && m.hpl_seek[4] >= 0))
    r.fail(t.get("hpl_seek"), "mechanics.hpl_seek",
           "[boundary distance >= 11, then four non-negative coefficients, then a flag]", "other values");
  if (const toml::node* n = t.get("curve")) {
    if (!n->is_table()) r.fail(n, "mechanics.curve", "a table", found(*n));
    const toml::table& c = *n->as_table();
    r.only(c, "mechanics.curve",
           {"short_const_ms", "short_sqrt_ms", "long_const_ms", "long_linear_ms", "short_max_distance"});
    auto cn = [&](const char* key) {
      return r.number(r.need(c, "mechanics.curve", key), std::string("mechanics.curve.") + key, 0, 1000);
    };
    m.curve.short_const_ms = cn("short_const_ms");
    m.curve.short_sqrt_ms = cn("short_sqrt_ms");
    m.curve.long_const_ms = cn("long_const_ms");
    m.curve.long_linear_ms = cn("long_linear_ms");
    m.curve.short_max_distance = u32(r, c, "mechanics.curve", "short_max_distance", 0, kMaxCylinder);
  } else if (m.seek == "curve") {
    r.fail(&t, "mechanics.curve", "a [mechanics.curve] table (mechanics.seek = \"curve\")", "nothing");
  }
  return m;
}

}  // namespace

bool DriveZone::operator==(const DriveZone& o) const {
  auto same = [](const std::vector<DefectRemap>& a, const std::vector<DefectRemap>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const DefectRemap& x, const DefectRemap& y) {
      return x.defect == y.defect && x.remap == y.remap;
    });
  };
  return first_cylinder == o.first_cylinder && last_cylinder == o.last_cylinder &&
         blocks_per_track == o.blocks_per_track && first_block_offset == o.first_block_offset &&
         front_space == o.front_space && track_skew == o.track_skew && cylinder_skew == o.cylinder_skew &&
         spares == o.spares && slips == o.slips && same(defects, o.defects);
}

bool DriveLayout::operator==(const DriveLayout& o) const {
  return cylinders == o.cylinders && surfaces == o.surfaces && block_count == o.block_count &&
         lbn_mapping == o.lbn_mapping && sparing_scheme == o.sparing_scheme && sparing_range == o.sparing_range &&
         zones == o.zones;
}

bool DriveMechanics::operator==(const DriveMechanics& o) const {
  const SeekCurve& a = curve;
  const SeekCurve& b = o.curve;
  return rpm == o.rpm && rpm_error_percent == o.rpm_error_percent && head_switch_ms == o.head_switch_ms &&
         write_settle_ms == o.write_settle_ms && settle_ms == o.settle_ms && access_time_type == o.access_time_type &&
         seek == o.seek && seek_file == o.seek_file && seek_table == o.seek_table && hpl_seek == o.hpl_seek &&
         first_ten_seeks_ms == o.first_ten_seeks_ms && single_cylinder_seek_ms == o.single_cylinder_seek_ms &&
         average_seek_ms == o.average_seek_ms && full_strobe_seek_ms == o.full_strobe_seek_ms &&
         a.short_const_ms == b.short_const_ms && a.short_sqrt_ms == b.short_sqrt_ms &&
         a.long_const_ms == b.long_const_ms && a.long_linear_ms == b.long_linear_ms &&
         a.short_max_distance == b.short_max_distance && a.first_ms == b.first_ms;
}

bool DriveSpec::operator==(const DriveSpec& o) const {
  return name == o.name && source == o.source && layout == o.layout && mechanics == o.mechanics && cache == o.cache &&
         overheads == o.overheads && interface == o.interface;
}

const DriveValue& DriveSection::at(const std::string& key) const {
  for (const auto& [k, v] : values)
    if (k == key) return v;
  throw std::out_of_range("drive section has no key " + key);
}

bool DriveSection::has(const std::string& key) const {
  return std::any_of(values.begin(), values.end(), [&](const auto& kv) { return kv.first == key; });
}

const std::vector<DriveKeyDecl>& drive_key_decls() {
  // Names and meanings: DiskSim 4.0 src/modules/disk.modspec, bus.modspec, ctlr.modspec and the
  // ioqueue's parameters; the values of the seven drives are in drives/*.toml.
  static const std::vector<DriveKeyDecl> decls = {
      {"cache", "segments", "Number of buffer segments", 1, 1, 100000, "segments", "cache segments"},
      {"cache", "max_write_segments", "Maximum number of write segments", 1, 0, 100000, "segments",
       "segments that may hold write data at once"},
      {"cache", "segment_blocks", "Segment size (in blks)", 1, 1, 10000000, "blocks", "size of each segment"},
      {"cache", "separate_write_segment", "Use separate write segment", 0, 0, 1, "", "a segment reserved for writes"},
      {"cache", "low_water_mark", "Low (write) water mark", 2, 0, 1, "fraction",
       "fill of the write segment at which the drive reconnects to fetch more write data"},
      {"cache", "high_water_mark", "High (read) water mark", 2, 0, 1, "fraction",
       "fill of a read segment at which the drive reconnects to send data"},
      {"cache", "watermark_by_request_size", "Set watermark by reqsize", 0, 0, 1, "",
       "water marks are fractions of the request rather than of the segment"},
      {"cache", "calc_sector_by_sector", "Calc sector by sector", 0, 0, 1, "",
       "data moves between media and buffer sector by sector"},
      {"cache", "enable_caching", "Enable caching in buffer", 1, 0, 2, "",
       "0 no caching, 1 read caching, 2 read caching that keeps prefetched data"},
      {"cache", "continuous_read", "Buffer continuous read", 1, 0, 4, "",
       "read-ahead mode after a read (DiskSim's 0..4)"},
      {"cache", "min_read_ahead_blocks", "Minimum read-ahead (blks)", 1, 0, 10000000, "blocks",
       "read-ahead always done after a read"},
      {"cache", "max_read_ahead_blocks", "Maximum read-ahead (blks)", 1, 0, 10000000, "blocks", "read-ahead limit"},
      {"cache", "read_ahead_over_requested", "Read-ahead over requested", 1, -1, 10000000, "",
       "read-ahead counts beyond the request (1) or includes it (0)"},
      {"cache", "read_ahead_on_idle_hit", "Read-ahead on idle hit", 0, 0, 1, "",
       "a hit while idle restarts read-ahead"},
      {"cache", "read_any_free_blocks", "Read any free blocks", 0, 0, 1, "",
       "read-ahead may take any free segment blocks"},
      {"cache", "fast_write_level", "Fast write level", 1, 0, 2, "",
       "write-back: 0 none, 1 for sequential writes, 2 for all writes"},
      {"cache", "immediate_buffer_read", "Immediate buffer read", 0, 0, 1, "",
       "data goes to the host as soon as it is in the buffer"},
      {"cache", "immediate_buffer_write", "Immediate buffer write", 0, 0, 1, "",
       "write data is taken as soon as buffer space is free"},
      {"cache", "combine_sequential_writes", "Combine seq writes", 0, 0, 1, "",
       "sequential write-back data is combined into one media write"},
      {"cache", "stop_prefetch_in_sector", "Stop prefetch in sector", 0, 0, 1, "",
       "a read-ahead stopped for a command stops at once, not at the end of the block under the head"},
      {"cache", "write_hit_stops_prefetch", "Write hit stop prefetch", 0, 0, 1, "",
       "a write into a prefetching segment stops the prefetch"},
      {"cache", "read_directly_to_buffer", "Read directly to buffer", 0, 0, 1, "",
       "media reads go into the buffer segment directly"},
      {"cache", "immediate_transfer_partial_hit", "Immed transfer partial hit", 0, 0, 1, "",
       "a partial hit sends the cached part at once"},
      {"cache", "allow_almost_read_hits", "Allow almost read hits", 0, 0, 1, "",
       "a read of data being prefetched counts as a hit"},
      {"cache", "allow_sneaky_full_read_hits", "Allow sneaky full read hits", 0, 0, 1, "",
       "full hits on data of a segment being written back"},
      {"cache", "allow_sneaky_partial_read_hits", "Allow sneaky partial read hits", 0, 0, 1, "",
       "partial hits on such data"},
      {"cache", "allow_sneaky_intermediate_read_hits", "Allow sneaky intermediate read hits", 0, 0, 1, "",
       "hits in the middle of such data"},
      {"cache", "allow_read_hits_on_write_data", "Allow read hits on write data", 0, 0, 1, "",
       "reads hit on data written and still in the buffer"},
      {"cache", "allow_write_prebuffering", "Allow write prebuffering", 0, 0, 1, "",
       "write data is taken before the previous write is done"},
      {"overheads", "per_request_ms", "Per-request overhead time", 2, 0, 1000, "ms", "overhead added to every request"},
      {"overheads", "time_scale", "Time scale for overheads", 2, 0, 1000, "factor", "multiplies every overhead"},
      {"overheads", "read_hit_after_read_ms", "Read hit over. after read", 2, 0, 1000, "ms",
       "command overhead of a read hit after a read"},
      {"overheads", "read_hit_after_write_ms", "Read hit over. after write", 2, 0, 1000, "ms",
       "command overhead of a read hit after a write"},
      {"overheads", "read_miss_after_read_ms", "Read miss over. after read", 2, 0, 1000, "ms",
       "command overhead of a read miss after a read"},
      {"overheads", "read_miss_after_write_ms", "Read miss over. after write", 2, 0, 1000, "ms",
       "command overhead of a read miss after a write"},
      {"overheads", "write_hit_after_read_ms", "Write hit over. after read", 2, 0, 1000, "ms",
       "command overhead of a write hit after a read"},
      {"overheads", "write_hit_after_write_ms", "Write hit over. after write", 2, 0, 1000, "ms",
       "command overhead of a write hit after a write"},
      {"overheads", "write_miss_after_read_ms", "Write miss over. after read", 2, 0, 1000, "ms",
       "command overhead of a write miss after a read"},
      {"overheads", "write_miss_after_write_ms", "Write miss over. after write", 2, 0, 1000, "ms",
       "command overhead of a write miss after a write"},
      {"overheads", "read_completion_ms", "Read completion overhead", 2, 0, 1000, "ms",
       "overhead of completing a read"},
      {"overheads", "write_completion_ms", "Write completion overhead", 2, 0, 1000, "ms",
       "overhead of completing a write"},
      {"overheads", "data_preparation_ms", "Data preparation overhead", 2, 0, 1000, "ms",
       "overhead before data moves on the bus"},
      {"overheads", "first_reselect_ms", "First reselect overhead", 2, 0, 1000, "ms", "first reconnection to the host"},
      {"overheads", "other_reselect_ms", "Other reselect overhead", 2, 0, 1000, "ms", "later reconnections"},
      {"overheads", "read_disconnect_after_read_ms", "Read disconnect afterread", 2, 0, 1000, "ms",
       "disconnect of a read after a read"},
      {"overheads", "read_disconnect_after_write_ms", "Read disconnect afterwrite", 2, 0, 1000, "ms",
       "disconnect of a read after a write"},
      {"overheads", "write_disconnect_ms", "Write disconnect overhead", 2, 0, 1000, "ms", "disconnect of a write"},
      {"overheads", "extra_write_disconnect", "Extra write disconnect", 0, 0, 1, "",
       "writes disconnect a second time (the HP C2247's protocol)"},
      {"overheads", "extra_disconnect_command_ms", "Extradisc command overhead", 2, 0, 1000, "ms",
       "command overhead with the extra disconnect"},
      {"overheads", "extra_disconnect_overhead_ms", "Extradisc disconnect overhead", 2, 0, 1000, "ms",
       "first disconnect with the extra disconnect"},
      {"overheads", "extra_disconnect_inter_delay_ms", "Extradisc inter-disconnect delay", 2, 0, 1000, "ms",
       "delay between the two disconnects"},
      {"overheads", "extra_disconnect_second_ms", "Extradisc 2nd disconnect overhead", 2, 0, 1000, "ms",
       "second disconnect"},
      {"overheads", "extra_disconnect_seek_delta_ms", "Extradisc seek delta", 2, 0, 1000, "ms",
       "seek time change with the extra disconnect"},
      {"overheads", "minimum_seek_delay_ms", "Minimum seek delay", 2, 0, 1000, "ms",
       "least time from command to the seek's end"},
      {"interface", "bulk_sector_transfer_ms", "Bulk sector transfer time", 2, 0, 1000, "ms",
       "interface time per sector"},
      {"interface", "hold_bus_entire_read", "Hold bus entire read xfer", 0, 0, 1, "",
       "a read keeps the bus for its whole transfer"},
      {"interface", "hold_bus_entire_write", "Hold bus entire write xfer", 0, 0, 1, "",
       "a write keeps the bus for its whole transfer"},
      {"interface", "never_disconnect", "Never disconnect", 0, 0, 1, "",
       "the drive never releases the bus during a command"},
      {"interface", "disconnect_write_if_seek", "Disconnect write if seek", 0, 0, 1, "",
       "a write disconnects when it needs a seek"},
      {"interface", "preseeking_level", "Preseeking level", 1, 0, 2, "",
       "how early the drive seeks relative to the bus transfer"},
      {"interface", "max_queue_length", "Max queue length", 1, 0, 100000, "commands", "commands the drive queues"},
      {"interface", "avg_sectors_per_cylinder", "Avg sectors per cylinder", 1, 0, 100000000, "sectors",
       "DiskSim's approximate sectors per cylinder (scheduling estimates)"},
      {"interface", "print_stats", "Print stats", 0, 0, 1, "",
       "DiskSim prints the drive's statistics (no effect in drivevp)"},
      {"interface", "scheduler.scheduling_policy", "Scheduling policy", 1, 0, 100, "",
       "DiskSim ioqueue policy number of the drive's queue (1 = FCFS)"},
      {"interface", "scheduler.cylinder_mapping_strategy", "Cylinder mapping strategy", 1, 0, 100, "",
       "how the queue maps blocks to cylinders"},
      {"interface", "scheduler.write_initiation_delay_ms", "Write initiation delay", 2, 0, 1000, "ms",
       "delay before a write is issued"},
      {"interface", "scheduler.read_initiation_delay_ms", "Read initiation delay", 2, 0, 1000, "ms",
       "delay before a read is issued"},
      {"interface", "scheduler.sequential_stream_scheme", "Sequential stream scheme", 1, 0, 100, "",
       "sequential stream detection"},
      {"interface", "scheduler.maximum_concat_size", "Maximum concat size", 1, 0, 100000000, "blocks",
       "largest concatenated request"},
      {"interface", "scheduler.overlapping_request_scheme", "Overlapping request scheme", 1, 0, 100, "",
       "handling of overlapping requests"},
      {"interface", "scheduler.sequential_stream_diff_maximum", "Sequential stream diff maximum", 1, 0, 100000000,
       "blocks", "gap still counted sequential"},
      {"interface", "scheduler.timeout_scheme", "Scheduling timeout scheme", 1, 0, 100, "", "queue timeout scheme"},
      {"interface", "scheduler.timeout_time_weight", "Timeout time/weight", 2, 0, 1000000, "",
       "timeout time or weight"},
      {"interface", "scheduler.timeout_scheduling", "Timeout scheduling", 1, 0, 100, "",
       "policy for timed-out requests"},
      {"interface", "scheduler.priority_scheme", "Scheduling priority scheme", 1, 0, 100, "", "priority scheme"},
      {"interface", "scheduler.priority_scheduling", "Priority scheduling", 1, 0, 100, "",
       "policy for priority requests"},
      {"interface", "bus.type", "type", 1, 0, 100, "", "DiskSim bus type of the bus the drive hangs on (.parv only)"},
      {"interface", "bus.arbitration_type", "Arbitration type", 1, 0, 100, "", "bus arbitration type"},
      {"interface", "bus.arbitration_time_ms", "Arbitration time", 2, 0, 1000, "ms", "bus arbitration time"},
      {"interface", "bus.read_block_transfer_ms", "Read block transfer time", 2, 0, 1000, "ms",
       "bus time per block read"},
      {"interface", "bus.write_block_transfer_ms", "Write block transfer time", 2, 0, 1000, "ms",
       "bus time per block written"},
      {"interface", "bus.print_stats", "Print stats", 0, 0, 1, "",
       "DiskSim prints the bus's statistics (no effect in drivevp)"},
      {"interface", "controller.type", "type", 1, 0, 100, "",
       "DiskSim controller type between the drive's bus and the host (.parv only)"},
      {"interface", "controller.scale_for_delays", "Scale for delays", 2, 0, 1000, "factor", "controller delay scale"},
      {"interface", "controller.bulk_sector_transfer_ms", "Bulk sector transfer time", 2, 0, 1000, "ms",
       "controller time per sector"},
      {"interface", "controller.maximum_queue_length", "Maximum queue length", 1, 0, 100000, "commands",
       "controller queue length"},
      {"interface", "controller.print_stats", "Print stats", 0, 0, 1, "",
       "DiskSim prints the controller's statistics (no effect in drivevp)"},
  };
  return decls;
}

DriveSpec parse_drive_spec(const std::string& text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw DriveSpecError(fmt::format("{}:{}: {}", path, e.source().begin.line, e.description()));
  }
  const Reader r(path);
  r.only(root, "", {"name", "source", "layout", "mechanics", "cache", "overheads", "interface"});
  DriveSpec d;
  d.name = r.string(r.need(root, "", "name"), "name");
  if (const toml::node* n = root.get("source")) d.source = r.string(*n, "source");
  d.layout = read_layout(r, root);
  d.mechanics = read_mechanics(r, root);
  d.cache = read_section(r, root, "cache");
  d.overheads = read_section(r, root, "overheads");
  d.interface = read_section(r, root, "interface");
  try {
    const DiskParams p = d.disk_params();
    (void)p;
  } catch (const DriveSpecError& e) {
    throw DriveSpecError(path + ": " + e.what());
  }
  return d;
}

DriveSpec load_drive_spec(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw DriveSpecError(fmt::format("{}: cannot open the drive file", path));
  std::ostringstream s;
  s << in.rdbuf();
  return parse_drive_spec(s.str(), path);
}

namespace {

/// A number of a section (an integer or a real), or `fallback` when the section lacks it.
double section_number(const DriveSection& s, const std::string& key, double fallback = 0) {
  if (!s.has(key)) return fallback;
  const DriveValue& v = s.at(key);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return std::get<bool>(v) ? 1 : 0;
}

bool section_flag(const DriveSection& s, const std::string& key) { return section_number(s, key) != 0; }

std::uint32_t section_count(const DriveSection& s, const std::string& key, std::uint32_t fallback) {
  return static_cast<std::uint32_t>(section_number(s, key, fallback));
}

}  // namespace

DriveFeatures DriveSpec::features() const {
  DriveFeatures f;
  const double scale = section_number(overheads, "time_scale", 1);
  InterfaceParams& i = f.interface;
  i.read_sector_ms = std::max(section_number(interface, "bus.read_block_transfer_ms"),
                              section_number(interface, "bulk_sector_transfer_ms"));
  i.write_sector_ms = std::max(section_number(interface, "bus.write_block_transfer_ms"),
                               section_number(interface, "bulk_sector_transfer_ms"));
  i.hold_bus_read = section_flag(interface, "hold_bus_entire_read");
  i.first_reselect_ms = scale * section_number(overheads, "first_reselect_ms");
  i.other_reselect_ms = scale * section_number(overheads, "other_reselect_ms");
  i.read_completion_ms = scale * section_number(overheads, "read_completion_ms");
  i.write_completion_ms = scale * section_number(overheads, "write_completion_ms");
  i.data_prep_ms = scale * section_number(overheads, "data_preparation_ms");
  i.write_reconnect = !section_flag(interface, "never_disconnect");
  i.write_disconnect_ms = scale * section_number(overheads, "write_disconnect_ms");
  i.write_media_overlap = true;  // DiskSim writes sector by sector as the data arrives
  i.extra_write_disconnect = section_flag(overheads, "extra_write_disconnect");
  i.extra_disconnect_command_ms = scale * section_number(overheads, "extra_disconnect_command_ms");
  i.extra_disconnect_overhead_ms = scale * section_number(overheads, "extra_disconnect_overhead_ms");
  i.extra_disconnect_inter_delay_ms = scale * section_number(overheads, "extra_disconnect_inter_delay_ms");
  i.extra_disconnect_second_ms = scale * section_number(overheads, "extra_disconnect_second_ms");
  i.extra_disconnect_seek_delta_ms = scale * section_number(overheads, "extra_disconnect_seek_delta_ms");
  CacheParams& c = f.cache;
  c.enabled = section_flag(cache, "enable_caching");
  c.segments = section_count(cache, "segments", c.segments);
  c.segment_blocks = section_count(cache, "segment_blocks", c.segment_blocks);
  c.separate_write_segment = section_flag(cache, "separate_write_segment");
  c.min_read_ahead = section_count(cache, "min_read_ahead_blocks", 0);
  c.max_read_ahead = section_count(cache, "max_read_ahead_blocks", 0);
  c.read_ahead_over_requested = section_flag(cache, "read_ahead_over_requested");
  c.continuous_read = section_count(cache, "continuous_read", c.continuous_read);
  c.read_hits_on_write_data = section_number(cache, "allow_read_hits_on_write_data", 1) != 0;
  c.read_ahead_on_idle_hit = section_flag(cache, "read_ahead_on_idle_hit");
  c.read_any_free_blocks = section_flag(cache, "read_any_free_blocks");
  c.stop_prefetch_in_sector = section_flag(cache, "stop_prefetch_in_sector");
  c.fast_write_level = c.enabled ? section_count(cache, "fast_write_level", 0) : 0;
  c.read_water_mark = section_number(cache, "high_water_mark");
  c.watermark_by_request_size = section_flag(cache, "watermark_by_request_size");
  OverheadParams& o = f.overheads;
  o.enabled = true;
  o.minimum_seek_delay_ms = section_number(overheads, "minimum_seek_delay_ms");  // not time-scaled (DiskSim)
  o.read_hit_after_read_ms = scale * section_number(overheads, "read_hit_after_read_ms");
  o.read_hit_after_write_ms = scale * section_number(overheads, "read_hit_after_write_ms");
  o.read_miss_after_read_ms = scale * section_number(overheads, "read_miss_after_read_ms");
  o.read_miss_after_write_ms = scale * section_number(overheads, "read_miss_after_write_ms");
  o.write_hit_after_read_ms = scale * section_number(overheads, "write_hit_after_read_ms");
  o.write_hit_after_write_ms = scale * section_number(overheads, "write_hit_after_write_ms");
  o.write_miss_after_read_ms = scale * section_number(overheads, "write_miss_after_read_ms");
  o.write_miss_after_write_ms = scale * section_number(overheads, "write_miss_after_write_ms");
  return f;
}

DiskParams DriveSpec::disk_params() const {
  DiskParams p;
  p.preset = name;
  const DriveLayout& l = layout;
  if (l.zones.empty()) throw DriveSpecError("layout.zone: expected one or more zones, found none");
  p.cylinders = std::max(l.cylinders, l.zones.back().last_cylinder + 1);
  p.heads = l.surfaces;
  p.layout_rules.sparing = static_cast<SparingScheme>(l.sparing_scheme);
  p.layout_rules.range_size = l.sparing_range;
  p.layout_rules.mapping = static_cast<LbnMapping>(l.lbn_mapping);
  p.layout_rules.skew_origin = SkewOrigin::Zone;
  for (const DriveZone& z : l.zones) {
    Zone g;
    g.first_cylinder = z.first_cylinder;
    g.cylinders = z.last_cylinder - z.first_cylinder + 1;
    g.sectors_per_track = z.blocks_per_track;
    g.track_skew = z.track_skew;
    g.cylinder_skew = z.cylinder_skew;
    g.first_block_offset = z.first_block_offset;
    g.front_space = z.front_space;
    g.spares = z.spares;
    g.slip_first = static_cast<std::uint32_t>(p.slips.size());
    g.slip_count = static_cast<std::uint32_t>(z.slips.size());
    p.slips.insert(p.slips.end(), z.slips.begin(), z.slips.end());
    g.defect_first = static_cast<std::uint32_t>(p.defects.size());
    g.defect_count = static_cast<std::uint32_t>(z.defects.size());
    p.defects.insert(p.defects.end(), z.defects.begin(), z.defects.end());
    p.zones.push_back(g);
  }
  p.track_skew = l.zones[0].track_skew;
  p.cylinder_skew = l.zones[0].cylinder_skew;
  p.block_count = l.block_count;
  const DriveMechanics& m = mechanics;
  p.rpm = m.rpm;
  p.head_switch_ms = m.head_switch_ms;
  p.settle_ms = m.settle_ms;
  p.write_settle_ms = m.write_settle_ms;
  p.command_overhead_ms = 0;  // the [overheads] section's model applies them
  p.features = features();
  p.seek_calibration_samples = ParameterPage::kMaxSeekSamples;
  if (m.seek == "table") {
    std::vector<std::uint32_t> d;
    std::vector<Time> t;
    for (const auto& [dist, ms] : m.seek_table) {
      d.push_back(dist);
      t.push_back(from_ms(ms));
    }
    p.seek_table = SeekTable(std::move(d), std::move(t));
  } else if (m.seek == "hplplus10") {
    // DiskSim 4.0 dm_mech_g1_seek_1st10_plus_hpl: d <= 10 from the list, d < hpl[0] on the
    // square-root branch, beyond on the linear one.
    p.seek_curve = {
        m.hpl_seek[1],       m.hpl_seek[2], m.hpl_seek[3], m.hpl_seek[4], static_cast<std::uint32_t>(m.hpl_seek[0]) - 1,
        m.first_ten_seeks_ms};
  } else {
    p.seek_curve = m.curve;
  }
  try {
    p.validate();
    const DiskGeometry g = p.geometry();
    (void)g;
  } catch (const std::invalid_argument& e) {
    throw DriveSpecError(std::string("layout: ") + e.what());
  }
  return p;
}

std::string write_drive_toml(const DriveSpec& d) {
  std::string o;
  auto line = [&o](const std::string& s) { o += s + "\n"; };
  auto str = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return q + "\"";
  };
  line("# A drive description in drivevp's format (docs/models/drives.md).");
  line("name = " + str(d.name));
  if (!d.source.empty()) line("source = " + str(d.source));
  const DriveLayout& l = d.layout;
  line("");
  line("[layout]");
  line(fmt::format("cylinders = {}", l.cylinders));
  line(fmt::format("surfaces = {}", l.surfaces));
  line(fmt::format("block_count = {}", l.block_count));
  line(fmt::format("lbn_mapping = {}", l.lbn_mapping));
  line(fmt::format("sparing_scheme = {}", l.sparing_scheme));
  line(fmt::format("sparing_range = {}", l.sparing_range));
  for (const DriveZone& z : l.zones) {
    line("");
    line("[[layout.zone]]");
    line(fmt::format("first_cylinder = {}", z.first_cylinder));
    line(fmt::format("last_cylinder = {}", z.last_cylinder));
    line(fmt::format("blocks_per_track = {}", z.blocks_per_track));
    line(fmt::format("first_block_offset = {}", z.first_block_offset));
    line(fmt::format("front_space = {}", z.front_space));
    line(fmt::format("track_skew = {}", z.track_skew));
    line(fmt::format("cylinder_skew = {}", z.cylinder_skew));
    line(fmt::format("spares = {}", z.spares));
    line(fmt::format("slips = [{}]", fmt::join(z.slips, ", ")));
    std::string defects;
    for (const DefectRemap& x : z.defects)
      defects += fmt::format("{}[{}, {}]", defects.empty() ? "" : ", ", x.defect, x.remap);
    line("defects = [" + defects + "]");
  }
  const DriveMechanics& m = d.mechanics;
  line("");
  line("[mechanics]");
  line("rpm = " + number_text(m.rpm));
  line("rpm_error_percent = " + number_text(m.rpm_error_percent));
  line("head_switch_ms = " + number_text(m.head_switch_ms));
  line("write_settle_ms = " + number_text(m.write_settle_ms));
  line("settle_ms = " + number_text(m.settle_ms));
  line("access_time_type = " + str(m.access_time_type));
  line("seek = " + str(m.seek));
  if (!m.seek_file.empty()) line("seek_file = " + str(m.seek_file));
  if (m.single_cylinder_seek_ms) line("single_cylinder_seek_ms = " + number_text(*m.single_cylinder_seek_ms));
  if (m.average_seek_ms) line("average_seek_ms = " + number_text(*m.average_seek_ms));
  if (m.full_strobe_seek_ms) line("full_strobe_seek_ms = " + number_text(*m.full_strobe_seek_ms));
  auto numbers = [](const std::vector<double>& v) {
    std::string s;
    for (double x : v) s += (s.empty() ? "" : ", ") + number_text(x);
    return "[" + s + "]";
  };
  if (!m.hpl_seek.empty()) line("hpl_seek = " + numbers(m.hpl_seek));
  if (!m.first_ten_seeks_ms.empty()) line("first_ten_seeks_ms = " + numbers(m.first_ten_seeks_ms));
  if (!m.seek_table.empty()) {
    line("seek_table = [");
    for (const auto& [dist, ms] : m.seek_table) line(fmt::format("  [{}, {}],", dist, number_text(ms)));
    line("]");
  }
  if (m.seek == "curve") {
    line("");
    line("[mechanics.curve]");
    line("short_const_ms = " + number_text(m.curve.short_const_ms));
    line("short_sqrt_ms = " + number_text(m.curve.short_sqrt_ms));
    line("long_const_ms = " + number_text(m.curve.long_const_ms));
    line("long_linear_ms = " + number_text(m.curve.long_linear_ms));
    line(fmt::format("short_max_distance = {}", m.curve.short_max_distance));
  }
  auto section = [&](const char* name, const DriveSection& s) {
    std::string current = "-";
    for (const auto& [key, v] : s.values) {
      const std::string sub = sub_of(key);
      if (sub != current) {
        line("");
        line(sub.empty() ? fmt::format("[{}]", name) : fmt::format("[{}.{}]", name, sub));
        current = sub;
      }
      line(leaf_of(key) + " = " + value_text(v));
    }
    if (current == "-") {
      line("");
      line(fmt::format("[{}]", name));
    }
  };
  section("cache", d.cache);
  section("overheads", d.overheads);
  section("interface", d.interface);
  return o;
}

}  // namespace drivevp
