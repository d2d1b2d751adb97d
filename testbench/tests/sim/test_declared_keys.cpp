// Scenario keys declared by their components (hw_models/param_keys.h): the disk's table
// (hw_models/disk/disk_keys.h) read by the loader — every value, the array keys' exact messages
// (the same bytes as the central schema they replaced, also for a value with several faults),
// the cross-key rules — the policies' typed parameters (firmware/policy.h), and `drivevp keys`.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "firmware/policy.h"
#include "hw_models/disk/disk_keys.h"
#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::Equals;

/// A valid synthetic hp97560 scenario.
const char* kBase =
    "[device]\npreset = \"hp97560\"\n[firmware]\npolicy = \"sptf\"\n[workload]\nkind = \"synthetic\"\n"
    "[run]\nseed = 1\n[output]\nplots = false\n";

fs::path base_file() {
  static TempDir dir("declared_keys");
  static const fs::path path = [] {
    const fs::path p = dir / "base.toml";
    write_text(p, kBase);
    return p;
  }();
  return path;
}

Scenario load(const std::vector<std::string>& sets) { return load_scenario(base_file().string(), sets); }

/// The ConfigError of the base scenario with `sets`, the file's path replaced by "FILE", or
/// "<no error>".
std::string error_of(const std::vector<std::string>& sets) {
  try {
    (void)load(sets);
  } catch (const ConfigError& e) {
    std::string m = e.what();
    const std::string path = base_file().string();
    for (auto at = m.find(path); at != std::string::npos; at = m.find(path)) m.replace(at, path.size(), "FILE");
    return m;
  }
  return "<no error>";
}

const std::string kZones =
    "an array of [first_cylinder, cylinders, sectors_per_track] triples tiling [0, device.cylinders) in order";
const std::string kTable = "an array of [distance, ms] pairs, distances >= 1 strictly increasing";

TEST_CASE("keys: the disk declares every DiskParams member a scenario sets, in the order they apply",
          "[sim][config][keys]") {
  std::vector<std::string> names;
  for (const ParamKey<DiskParams>& k : disk_param_keys()) {
    INFO(k.name);
    names.push_back(k.name);
    CHECK(!k.description.empty());
    CHECK(!k.unit.empty());
    CHECK(k.set);
    CHECK(k.show);
  }
  CHECK(names ==
        std::vector<std::string>{
            "cylinders", "heads", "sectors_per_track", "zones", "track_skew", "cylinder_skew", "rpm", "head_switch_ms",
            "settle_ms", "write_settle_ms", "command_overhead_ms", "seek_calibration_samples",
            "seek_curve.short_const_ms", "seek_curve.short_sqrt_ms", "seek_curve.long_const_ms",
            "seek_curve.long_linear_ms", "seek_curve.short_max_distance", "seek_table",
            // The drive's features (tlm_bus/drive_features.h), all off by default.
            "interface.read_sector_ms", "interface.write_sector_ms", "interface.hold_bus_read",
            "interface.first_reselect_ms", "interface.other_reselect_ms", "interface.read_completion_ms",
            "interface.write_completion_ms", "interface.data_prep_ms", "interface.write_reconnect",
            "interface.write_disconnect_ms", "interface.write_media_overlap", "interface.extra_write_disconnect",
            "interface.extra_disconnect_command_ms", "interface.extra_disconnect_overhead_ms",
            "interface.extra_disconnect_inter_delay_ms", "interface.extra_disconnect_second_ms",
            "interface.extra_disconnect_seek_delta_ms", "cache.hp97560_published", "cache.enabled", "cache.segments",
            "cache.segment_blocks", "cache.separate_write_segment", "cache.min_read_ahead", "cache.max_read_ahead",
            "cache.read_ahead_over_requested", "cache.continuous_read", "cache.read_hits_on_write_data",
            "cache.read_ahead_on_idle_hit", "cache.read_any_free_blocks", "cache.stop_prefetch_in_sector",
            "cache.fast_write_level", "cache.read_water_mark", "cache.watermark_by_request_size", "overheads.enabled",
            "overheads.minimum_seek_delay_ms", "overheads.read_hit_after_read_ms", "overheads.read_hit_after_write_ms",
            "overheads.read_miss_after_read_ms", "overheads.read_miss_after_write_ms",
            "overheads.write_hit_after_read_ms", "overheads.write_hit_after_write_ms",
            "overheads.write_miss_after_read_ms", "overheads.write_miss_after_write_ms"});
  // Every preset's value lies in its key's declared range.
  for (const DiskParams& preset : {hp97560(), disk003()}) {
    for (const ParamKey<DiskParams>& k : disk_param_keys()) {
      if (k.type != KeyType::Integer && k.type != KeyType::Number) continue;
      INFO(preset.preset << " " << k.name << " = " << k.show(preset));
      const double v = std::strtod(k.show(preset).c_str(), nullptr);
      CHECK(v >= k.min);
      CHECK(v <= k.max);
    }
  }
  const ParamKey<DiskParams>& zones = disk_param_keys()[3];
  CHECK(zones.type == KeyType::List);
  CHECK(zones.columns.size() == 3);
  CHECK(zones.max_items == 64);
  CHECK(zones.show(hp97560()) == "[[0, 1962, 72]]");
  CHECK(disk_param_keys()[17].name == "seek_table");
  CHECK(disk_param_keys()[17].show(hp97560()) == "none");
}

TEST_CASE("keys: every disk key reaches its DiskParams member", "[sim][config][keys]") {
  const Scenario sc =
      load({"device.preset=\"disk003\"", "device.cylinders=2000", "device.heads=4",
            "device.zones=[[0, 500, 300], [500, 1500, 250]]", "device.track_skew=7", "device.cylinder_skew=9",
            "device.rpm=7200.5", "device.head_switch_ms=0.25", "device.settle_ms=0.125",
            "device.command_overhead_ms=0.5", "device.seek_calibration_samples=40",
            "device.seek_curve.short_const_ms=1.5", "device.seek_curve.short_sqrt_ms=0.25",
            "device.seek_curve.long_const_ms=4", "device.seek_curve.long_linear_ms=0.001",
            "device.seek_curve.short_max_distance=900", "device.seek_table=[[1, 0.5], [10, 1.25], [1999, 9]]"});
  const DiskParams& d = sc.device;
  CHECK(d.preset == "disk003");
  CHECK(d.cylinders == 2000);
  CHECK(d.heads == 4);
  REQUIRE(d.zones.size() == 2);
  CHECK((d.zones[0].first_cylinder == 0 && d.zones[0].cylinders == 500 && d.zones[0].sectors_per_track == 300));
  CHECK((d.zones[1].first_cylinder == 500 && d.zones[1].cylinders == 1500 && d.zones[1].sectors_per_track == 250));
  CHECK(d.track_skew == 7);
  CHECK(d.cylinder_skew == 9);
  CHECK(d.rpm == 7200.5);
  CHECK(d.head_switch_ms == 0.25);
  CHECK(d.settle_ms == 0.125);
  CHECK(d.command_overhead_ms == 0.5);
  CHECK(d.seek_calibration_samples == 40);
  CHECK(d.seek_curve.short_const_ms == 1.5);
  CHECK(d.seek_curve.short_sqrt_ms == 0.25);
  CHECK(d.seek_curve.long_const_ms == 4);
  CHECK(d.seek_curve.long_linear_ms == 0.001);
  CHECK(d.seek_curve.short_max_distance == 900);
  CHECK(d.seek_table.distances() == std::vector<std::uint32_t>{1, 10, 1999});
  CHECK(d.seek_table.times() == std::vector<Time>{Time{500'000'000}, Time{1'250'000'000}, Time{9'000'000'000}});

  // Cross-key rules: device.cylinders keeps a single zone over all cylinders, device.sectors_per_track
  // makes the disk single-zone over device.cylinders (whichever order the file lists them in).
  const Scenario one = load({"device.sectors_per_track=50", "device.cylinders=1000"});
  REQUIRE(one.device.zones.size() == 1);
  CHECK((one.device.zones[0].first_cylinder == 0 && one.device.zones[0].cylinders == 1000 &&
         one.device.zones[0].sectors_per_track == 50));
  const Scenario multi = load({"device.zones=[[0, 1000, 80], [1000, 962, 72]]", "device.sectors_per_track=60"});
  CHECK(multi.device.zones.size() == 2);  // zones apply after sectors_per_track
  CHECK(multi.capacity_blocks() == 19u * (1000u * 80u + 962u * 72u));
}

TEST_CASE("keys: the array keys' messages byte for byte", "[sim][config][keys]") {
  // The value as a whole: not an array, or the wrong number of items.
  CHECK_THAT(error_of({"device.zones=3"}),
             Equals("--set device.zones=3: device.zones: expected " + kZones + ", 1 to 64 zones, found 3"));
  CHECK_THAT(error_of({"device.zones=[]"}),
             Equals("--set device.zones=[]: device.zones: expected " + kZones + ", 1 to 64 zones, found []"));
  std::string many = "[";
  for (int i = 0; i < 65; ++i) many += (i ? ", " : "") + std::string("[0, 1, 72]");
  many += "]";
  CHECK_THAT(
      error_of({"device.zones=" + many}),
      ContainsSubstring("device.zones: expected " + kZones + ", 1 to 64 zones, found [\\x0A    [ 0, 1, 72 ],\\x0A"));
  CHECK_THAT(error_of({"device.seek_table=[]"}),
             Equals("--set device.seek_table=[]: device.seek_table: expected " + kTable + ", found []"));
  CHECK_THAT(error_of({"device.seek_table=1"}),
             Equals("--set device.seek_table=1: device.seek_table: expected " + kTable + ", found 1"));
  // An item of the wrong shape, or a column out of its range.
  CHECK_THAT(error_of({"device.zones=[[0,1962]]"}),
             Equals("--set device.zones=[[0,1962]]: device.zones: expected " + kZones + ", found [ 0, 1962 ]"));
  CHECK_THAT(error_of({"device.zones=[[0,1962,72],\"x\"]"}),
             Equals("--set device.zones=[[0,1962,72],\"x\"]: device.zones: expected " + kZones + ", found 'x'"));
  CHECK_THAT(
      error_of({"device.zones=[[0,1962,72,1]]"}),
      Equals("--set device.zones=[[0,1962,72,1]]: device.zones: expected " + kZones + ", found [ 0, 1962, 72, 1 ]"));
  CHECK_THAT(error_of({"device.zones=[[0,1000,72],[1000,962,0]]"}),
             Equals("--set device.zones=[[0,1000,72],[1000,962,0]]: device.zones: expected an integer in "
                    "[1, 100000], found 0"));
  CHECK_THAT(error_of({"device.zones=[[0,20000000,72]]"}),
             Equals("--set device.zones=[[0,20000000,72]]: device.zones: expected an integer in [1, 10000000], "
                    "found 20000000"));
  CHECK_THAT(error_of({"device.seek_table=[[0,2]]"}),
             Equals("--set device.seek_table=[[0,2]]: device.seek_table: expected an integer in [1, 10000000], "
                    "found 0"));
  CHECK_THAT(error_of({"device.seek_table=[[1.5,2]]"}),
             Equals("--set device.seek_table=[[1.5,2]]: device.seek_table: expected an integer in [1, 10000000], "
                    "found 1.5"));
  CHECK_THAT(error_of({"device.seek_table=[[1,20000]]"}),
             Equals("--set device.seek_table=[[1,20000]]: device.seek_table: expected a number in [0, 10000], "
                    "found 20000"));
  CHECK_THAT(
      error_of({"device.seek_table=[[1,2,3]]"}),
      Equals("--set device.seek_table=[[1,2,3]]: device.seek_table: expected " + kTable + ", found [ 1, 2, 3 ]"));
  // Rules across items (the item is named) and against device.cylinders (the whole value).
  CHECK_THAT(error_of({"device.zones=[[1,1962,72]]"}),
             Equals("--set device.zones=[[1,1962,72]]: device.zones: expected " + kZones +
                    " (next zone must start at cylinder 0), found [ 1, 1962, 72 ]"));
  CHECK_THAT(error_of({"device.zones=[[0,1000,72],[1001,961,60]]"}),
             Equals("--set device.zones=[[0,1000,72],[1001,961,60]]: device.zones: expected " + kZones +
                    " (next zone must start at cylinder 1000), found [ 1001, 961, 60 ]"));
  CHECK_THAT(error_of({"device.zones=[[0,1000,72]]"}),
             Equals("--set device.zones=[[0,1000,72]]: device.zones: expected " + kZones +
                    " (zones cover 1000 cylinders, device.cylinders is 1962), found [ [ 0, 1000, 72 ] ]"));
  CHECK_THAT(error_of({"device.cylinders=100", "device.zones=[[0,50,72],[50,40,72]]"}),
             Equals("--set device.zones=[[0,50,72],[50,40,72]]: device.zones: expected " + kZones +
                    " (zones cover 90 cylinders, device.cylinders is 100), found [ [ 0, 50, 72 ], [ 50, 40, 72 ] ]"));
  CHECK_THAT(error_of({"device.seek_table=[[1,2],[5,3],[4,5]]"}),
             Equals("--set device.seek_table=[[1,2],[5,3],[4,5]]: device.seek_table: expected " + kTable +
                    ", found [ 4, 5 ]"));
  // A value with several faults reports the first in reading order, as the central schema did.
  CHECK_THAT(error_of({"device.zones=[[1,1962,72],\"x\"]"}),
             Equals("--set device.zones=[[1,1962,72],\"x\"]: device.zones: expected " + kZones +
                    " (next zone must start at cylinder 0), found [ 1, 1962, 72 ]"));
  CHECK_THAT(error_of({"device.zones=[[0,1000,72],[1001,961,0]]"}),
             Equals("--set device.zones=[[0,1000,72],[1001,961,0]]: device.zones: expected an integer in "
                    "[1, 100000], found 0"));
  CHECK_THAT(
      error_of({"device.seek_table=[[1,2],[1,-2]]"}),
      Equals("--set device.seek_table=[[1,2],[1,-2]]: device.seek_table: expected " + kTable + ", found [ 1, -2 ]"));
  // A file's line is named.
  static TempDir dir("declared_keys_file");
  const fs::path file = dir / "zones.toml";
  write_text(file, "[device]\npreset = \"hp97560\"\nzones = [[0, 1000, 72],\n  [1000, 900, 60]]\n");
  try {
    (void)load_scenario(file.string(), {});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK_THAT(std::string(e.what()), Equals(file.string() + ":3: device.zones: expected " + kZones +
                                             " (zones cover 1900 cylinders, device.cylinders is 1962), found [ [ "
                                             "0, 1000, 72 ], [ 1000, 900, 60 ] ]"));
  }
}

TEST_CASE("keys: policy parameters are typed; the zone counts are integers", "[sim][config][keys]") {
  const PolicyInfo* zsptf = find_policy("zsptf");
  REQUIRE(zsptf != nullptr);
  REQUIRE(zsptf->params.size() == 2);
  for (const PolicyParameter& p : zsptf->params) {
    CHECK(p.type == KeyType::Integer);
    CHECK(p.min == 1);
    CHECK(p.max == 100000);
    CHECK(p.unit == "zones");
  }
  CHECK(zsptf->params[0].default_value == 25);
  CHECK(zsptf->params[1].default_value == 3);
  CHECK(find_policy("aged_sptf")->params[0].type == KeyType::Number);

  const std::string mems = "device.preset=\"mems_g1\"";
  const std::string zpol = "firmware.policy=\"zsptf\"";
  CHECK_THAT(error_of({mems, zpol, "firmware.zones_x=0"}),
             Equals("--set firmware.zones_x=0: firmware.zones_x: expected an integer in [1, 100000], found 0"));
  CHECK_THAT(error_of({mems, zpol, "firmware.zones_x=1.5"}),
             Equals("--set firmware.zones_x=1.5: firmware.zones_x: expected an integer in [1, 100000], found 1.5"));
  CHECK_THAT(error_of({mems, zpol, "firmware.zones_y='a'"}),
             Equals("--set firmware.zones_y='a': firmware.zones_y: expected an integer in [1, 100000], found 'a'"));
  // The device's grid bounds them further (G1: 2000 cylinders, 22 rows per column).
  CHECK_THAT(error_of({mems, zpol, "firmware.zones_x=2001"}),
             Equals("--set firmware.zones_x=2001: firmware.zones_x: expected an integer in [1, 2000] (the cylinders "
                    "of device 'mems_g1'), found 2001"));
  CHECK_THAT(error_of({mems, zpol, "firmware.zones_y=23"}),
             Equals("--set firmware.zones_y=23: firmware.zones_y: expected an integer in [1, 22] (the rows per "
                    "column of device 'mems_g1'), found 23"));
  const Scenario sc = load({mems, zpol, "firmware.zones_x=2000", "firmware.zones_y=22"});
  CHECK(sc.policy_params.at("zones_x") == 2000);
  CHECK(sc.policy_params.at("zones_y") == 22);
  // A number stays a number.
  const Scenario aged = load({"firmware.policy=\"aged_sptf\"", "firmware.age_weight=2.5"});
  CHECK(aged.policy_params.at("age_weight") == 2.5);
  CHECK_THAT(error_of({"firmware.policy=\"aged_sptf\"", "firmware.age_weight=-1"}),
             Equals("--set firmware.age_weight=-1: firmware.age_weight: expected a number in [0, 1000000000], found "
                    "-1"));
}

TEST_CASE("keys: make_policy checks a typed parameter's kind", "[sim][config][keys]") {
  CHECK_THROWS_WITH(make_policy("zsptf", {{"zones_x", 2.5}}, "mems"),
                    "policy 'zsptf' parameter 'zones_x' must be an integer in [1.000000, 100000.000000], got 2.500000");
  CHECK_THROWS_WITH(make_policy("zsptf", {{"zones_y", 0}}, "mems"),
                    "policy 'zsptf' parameter 'zones_y' must be an integer in [1.000000, 100000.000000], got 0.000000");
  CHECK_NOTHROW(make_policy("zsptf", {{"zones_x", 7}, {"zones_y", 2}}, "mems"));
  CHECK_NOTHROW(make_policy("aged_sptf", {{"age_weight", 2.5}}));
  // The declaration helpers.
  const PolicyParameter e = PolicyParameter::one_of("order", {"up", "down"}, "down", "sweep direction");
  CHECK(e.type == KeyType::Enum);
  CHECK(e.default_value == 1);
  CHECK(e.min == 0);
  CHECK(e.max == 1);
  CHECK_THROWS_WITH(PolicyParameter::one_of("order", {"up", "down"}, "left", "sweep direction"),
                    "policy parameter 'order': default 'left' is not one of its choices");
  const PolicyParameter b = PolicyParameter::boolean("strict", true, "d");
  CHECK(b.type == KeyType::Boolean);
  CHECK(b.default_value == 1);
  CHECK(b.max == 1);
}

TEST_CASE("keys: drivevp keys lists the declared keys with type range unit and default", "[sim][config][keys]") {
  const std::string text = describe_scenario_keys();
  std::vector<std::string> keys;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != ' ') keys.push_back(line.substr(0, line.find(' ')));
  // device.preset and device.drive first, the disk's keys in their order, then the rest of the schema.
  REQUIRE(keys.size() > 20);
  CHECK(keys[0] == "device.preset");
  CHECK(keys[1] == "device.drive");
  for (std::size_t i = 0; i < disk_param_keys().size(); ++i)
    CHECK(keys[2 + i] == "device." + disk_param_keys()[i].name);
  CHECK(keys[2 + disk_param_keys().size()] == "firmware.policy");
  auto line_of = [&](const std::string& start) {
    const auto at = text.find(start);
    REQUIRE(at != std::string::npos);
    return text.substr(at, text.find('\n', at) - at);
  };
  CHECK(line_of("device.cylinders ") ==
        "device.cylinders                       integer    [1, 10000000] cylinders (disk, hp97560 1962)");
  CHECK(line_of("device.rpm ") ==
        "device.rpm                             number     [60, 100000] rpm (disk, hp97560 4002)");
  CHECK(line_of("device.zones ") ==
        "device.zones                           array      " + kZones +
            ", 1 to 64 zones; first_cylinder integer in [0, 10000000] cylinder, cylinders integer in [1, 10000000] "
            "cylinders, sectors_per_track integer in [1, 100000] sectors (disk, hp97560 [[0, 1962, 72]])");
  CHECK(line_of("device.seek_table ") ==
        "device.seek_table                      array      " + kTable +
            "; distance integer in [1, 10000000] cylinders, ms number in [0, 10000] ms (disk, hp97560 none)");
  CHECK(line_of("device.layout ") ==
        "device.layout                          string     one of streaming, along_y (MEMS, mems_g1 streaming)");
  CHECK(line_of("firmware.zones_x ") ==
        "firmware.zones_x                       integer    [1, 100000] zones (policy zsptf, default 25)");
  CHECK(line_of("firmware.age_weight ") ==
        "firmware.age_weight                    number     [0, 1000000000] per mille (policy aged_sptf, default 6)");
  // Each declared key's description follows on the next line.
  CHECK(text.find("(hp97560: 1962, 001 section 5, 004 Table 2; disk003: 6720, 003 Table 1)") != std::string::npos);
}

}  // namespace
}  // namespace drivevp
