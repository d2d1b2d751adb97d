// Real drives (issue 12): DiskSim 4.0 descriptions imported into drivevp's drive TOML
// (hw_models/disk/disksim_import.h, drive_spec.h), every key read, converted, written, reloaded
// and equal; exact block counts; LBN -> physical positions at zone and spare boundaries of the
// real drives, derived from the sparing rules (docs/models/drives.md); parse and validation
// errors naming file, line and key; device.drive in a scenario.
#include <catch2/catch_test_macros.hpp>

#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <cstdlib>

#include "hw_models/disk/disksim_import.h"
#include "hw_models/disk/drive_spec.h"
#include "source_paths.h"  // generated: DRIVEVP_DATA_DIR, DRIVEVP_SOURCE_DIR
#include "testbench/tests/sim/sim_test_util.h"

using namespace drivevp;
using namespace drivevp::simtest;
using Catch::Matchers::ContainsSubstring;

namespace {

const std::string kDrives = DRIVEVP_SOURCE_DIR "/drives/";
const std::string kDiskSim = DRIVEVP_SOURCE_DIR "/drives/disksim-valid/";

struct Known {
  const char* toml;           ///< drives/<toml>.toml
  const char* parv;           ///< drives/disksim-valid/<parv>.parv and .diskspecs
  std::uint64_t block_count;  ///< DiskSim's "Block count"
  /// DiskSim 4.0's own sum of the zones' blocks (layout_g1_load.c dm_layout_g1_compute_blksinband,
  /// worked out per zone from the sparing scheme's rule).
  std::uint64_t mapped;
};

const Known kKnown[] = {
    {"atlas_III", "atlas_III", 17'783'250, 17'797'944}, {"barracuda", "barracuda", 4'110'000, 4'217'670},
    {"cheetah4LP", "cheetah4LP", 8'887'200, 8'887'940}, {"ibm18es", "ibm18es", 17'916'240, 18'033'753},
    {"hp_c2247a", "hp_c2247a", 2'054'864, 2'054'864},   {"hp_c2490a", "hp_c2490a", 4'165'272, 4'165'272},
    {"dec_rz26", "dec_rz26", 2'050'860, 2'050'860},
};

std::size_t count(const DriveSection& s, const std::string& prefix) {
  std::size_t n = 0;
  for (const auto& [k, v] : s.values)
    if (prefix.empty() ? k.find('.') == std::string::npos : k.rfind(prefix, 0) == 0) ++n;
  return n;
}

void check_at(const DiskGeometry& g, std::uint64_t lbn, std::uint32_t c, std::uint32_t h, std::uint32_t s) {
  INFO("LBN " << lbn);
  const PhysicalAddress a = g.locate(lbn);
  CHECK(a.cylinder == c);
  CHECK(a.head == h);
  CHECK(a.sector == s);
}

std::string import_error(const fs::path& file) {
  try {
    (void)disksim::import_drive(file.string());
  } catch (const disksim::ImportError& e) {
    return e.what();
  }
  return "no error";
}

std::string drive_error(const std::string& text) {
  try {
    (void)parse_drive_spec(text, "bad.toml");
  } catch (const DriveSpecError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("drives: the seven DiskSim drives import, write, reload equal, and match the shipped TOML", "[drives]") {
  for (const Known& k : kKnown) {
    INFO(k.toml);
    const DriveSpec from_parv = disksim::import_drive(kDiskSim + k.parv + ".parv");
    const std::string text = write_drive_toml(from_parv);
    CHECK(parse_drive_spec(text, "roundtrip.toml") == from_parv);
    CHECK(load_drive_spec(kDrives + k.toml + ".toml") == from_parv);
    CHECK(read_text(kDrives + std::string(k.toml) + ".toml") == text);
    // Every key of the disk, its queue, its bus and controller read and converted.
    CHECK(from_parv.cache.values.size() == 29);
    CHECK(from_parv.overheads.values.size() == 25);
    CHECK(count(from_parv.interface, "") == 9);
    CHECK(count(from_parv.interface, "scheduler.") == 13);
    CHECK(count(from_parv.interface, "bus.") == 6);
    CHECK(count(from_parv.interface, "controller.") == 5);
    // The .diskspecs alone: the same drive without the bus and controller.
    DriveSpec from_specs = disksim::import_drive(kDiskSim + k.parv + ".diskspecs");
    CHECK(count(from_specs.interface, "bus.") == 0);
    CHECK(from_specs.layout == from_parv.layout);
    CHECK(from_specs.mechanics == from_parv.mechanics);
    CHECK(from_specs.cache == from_parv.cache);
    CHECK(from_specs.overheads == from_parv.overheads);
  }
}

TEST_CASE("drives: exact block counts", "[drives]") {
  for (const Known& k : kKnown) {
    INFO(k.toml);
    const DiskGeometry g = load_drive_spec(kDrives + k.toml + ".toml").disk_params().geometry();
    CHECK(g.capacity_blocks() == k.block_count);
    CHECK(g.mapped_blocks() == k.mapped);
  }
}

TEST_CASE("drives: LBN positions at zone and spare boundaries of the real drives", "[drives]") {
  {  // HP C2490: track sparing, 18 surfaces, zone 0 with 2376 sectors (22 tracks of 108) of front
     // space and 198 spare tracks; zone 1 from cylinder 187 at 104 sectors with first-block offset 60.
    const DiskGeometry g = load_drive_spec(kDrives + "hp_c2490a.toml").disk_params().geometry();
    check_at(g, 0, 1, 4, 0);  // track 22 = cylinder 1 head 4
    // Zone 0: 187 cylinders x 18 x 108 - 2376 - 198 x 108 = 339,768 blocks on its logical tracks
    // 22 .. 22 + 339768/108 - 1 = 3167; the slips at tracks 1626 and 1850 push the later ones by 1, 2.
    CHECK(g.zone_first_lbn(1) == 339'768);
    check_at(g, 1604 * 108 - 1, 1625 / 18, 1625 % 18, 107);  // last block before the slipped track 1626
    check_at(g, 1604 * 108, 1627 / 18, 1627 % 18, 0);        // first after it
    check_at(g, 339'767, 3169 / 18, 3169 % 18, 107);         // zone's last block: logical track 3167 + 2 slips
    check_at(g, 339'768, 187, 0, 0);
    CHECK(g.locate(339'768).slot == 60);
    CHECK(g.locate(339'768 + 104).slot == (60 + 17) % 104);  // head 1: the zone's own track skew
  }
  {  // Cheetah 4LP: spares per range of 12 cylinders (108 of 12 x 8 x 195 = 18,720 sectors).
    const DiskGeometry g = load_drive_spec(kDrives + "cheetah4LP.toml").disk_params().geometry();
    check_at(g, 18'611, 11, 7, 86);  // the range's last block; sectors 87-194 of that track are spares
    check_at(g, 18'612, 12, 0, 0);   // the next range
    // Zone 1 starts at cylinder 1345 (1344 holds no block): zone 0 = 112 ranges x 18,612.
    CHECK(g.zone_first_lbn(1) == 112 * 18'612ull);
    check_at(g, 112 * 18'612ull, 1345, 0, 0);
  }
  {  // Atlas III: sector-at-end sparing; zone 0's front space is 128,000 sectors (50 cylinders of
     // 10 x 256); the slip at zone sector 272,037 (cylinder 106, head 2, sector 165) is skipped.
    const DiskGeometry g = load_drive_spec(kDrives + "atlas_III.toml").disk_params().geometry();
    check_at(g, 0, 50, 0, 0);
    check_at(g, 272'037 - 128'000 - 1, 106, 2, 164);
    check_at(g, 272'037 - 128'000, 106, 2, 166);
  }
}

TEST_CASE("drives: DiskSim parse and conversion errors name the file, line and key", "[drives]") {
  TempDir dir("drive-import-errors");
  write_text(dir / "unknown.diskspecs", "# a drive\ndisksim_disk D {\n   Model = 1,\n   Frobnicate = 2\n}\n");
  CHECK_THAT(import_error(dir / "unknown.diskspecs"),
             ContainsSubstring("unknown.diskspecs:4:") && ContainsSubstring("unsupported key 'Frobnicate'"));
  write_text(dir / "syntax.diskspecs", "disksim_disk D {\n   Model 1\n}\n");
  CHECK_THAT(import_error(dir / "syntax.diskspecs"),
             ContainsSubstring("syntax.diskspecs:2:") && ContainsSubstring("expected '=' after the key 'Model 1'"));
  write_text(dir / "open.diskspecs", "disksim_disk D {\n   Print stats = 1,\n");
  CHECK_THAT(import_error(dir / "open.diskspecs"), ContainsSubstring("expected '}' closing the block"));
  write_text(dir / "missing.parv", "source nothere.diskspecs\n");
  CHECK_THAT(import_error(dir / "missing.parv"),
             ContainsSubstring("missing.parv:1") && ContainsSubstring("cannot open"));
  write_text(dir / "bad.seek", "Seek distances measured: 3\n1, 1.0\n2, 1.5\n");
  CHECK_THROWS_WITH(disksim::read_seek_file((dir / "bad.seek").string()),
                    ContainsSubstring("expected 3 seek samples (its header), found 2"));
  write_text(dir / "bad2.seek", "Seek distances measured: 2\n1, 1.0\n1, 1.5\n");
  CHECK_THROWS_WITH(disksim::read_seek_file((dir / "bad2.seek").string()), ContainsSubstring("bad2.seek:3:"));
  // A real drive with one key changed to an unsupported value: the file and line of the key.
  std::string model = read_text(kDiskSim + "hp_c2247a_validate.model");
  const auto at = model.find("Seek type = hplplus10");
  REQUIRE(at != std::string::npos);
  model.replace(at, 21, "Seek type = 3pt_line");
  fs::copy_file(kDiskSim + "hp_c2247a.diskspecs", dir / "hp_c2247a.diskspecs");
  write_text(dir / "hp_c2247a_validate.model", model);
  const std::size_t line = static_cast<std::size_t>(std::count(model.begin(), model.begin() + at, '\n')) + 1;
  CHECK_THAT(import_error(dir / "hp_c2247a.diskspecs"),
             ContainsSubstring(fmt::format("hp_c2247a_validate.model:{}: dm_mech_g1 'Seek type'", line)) &&
                 ContainsSubstring("expected extracted or hplplus10"));
}

TEST_CASE("drives: drive TOML errors name the file, line, key, expected and found", "[drives]") {
  const std::string good = read_text(kDrives + std::string("dec_rz26.toml"));
  CHECK(drive_error(good) == "no error");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), to);
    return t;
  };
  CHECK_THAT(drive_error(with("segments = 10", "segments = 10\nsegmants = 3")),
             ContainsSubstring("bad.toml:") && ContainsSubstring("cache.segmants: expected one of the keys"));
  CHECK_THAT(drive_error(with("segments = 10", "segments = \"ten\"")),
             ContainsSubstring("cache.segments: expected an integer in [1, 100000], found \"ten\""));
  CHECK_THAT(drive_error(with("fast_write_level = 0", "fast_write_level = 3")),
             ContainsSubstring("cache.fast_write_level: expected an integer in [0, 2], found 3"));
  CHECK_THAT(drive_error(with("fast_write_level = 0\n", "")),
             ContainsSubstring("cache.fast_write_level: expected the key to be present"));
  CHECK_THAT(drive_error(with("sparing_scheme = 3", "sparing_scheme = 11")),
             ContainsSubstring("layout.sparing_scheme: expected an integer in [0, 10], found 11"));
  CHECK_THAT(drive_error(with("block_count = 2050860", "block_count = 2050861")),
             ContainsSubstring("block count 2050861 exceeds the blocks the layout maps (2050860)"));
  CHECK_THAT(drive_error(with("track_skew = 7", "track_skew = 58")),
             ContainsSubstring("layout.zone[0].track_skew: expected an integer in [0, 57], found 58"));
  CHECK_THAT(drive_error(with("write_settle_ms = -0.483", "write_settle_ms = \"x\"")),
             ContainsSubstring("mechanics.write_settle_ms: expected a number in [-1000, 1000]"));
}

TEST_CASE("drives: device.drive loads a drive beside the presets", "[drives][sim]") {
  TempDir dir("drive-scenario");
  const std::string toml = fmt::format(
      "[device]\ndrive = \"{}\"\n\n[firmware]\npolicy = \"sstf\"\n\n[workload]\nkind = \"synthetic\"\nread_fraction = "
      "0.5\n\n[run]\nrequests = 200\nprogress = false\n\n[output]\nplots = false\n",
      kDrives + "hp_c2490a.toml");
  write_text(dir / "scenario.toml", toml);
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), {});
  CHECK(sc.device.preset == "HP_C2490A_validate");
  CHECK(sc.capacity_blocks() == 4'165'272);
  REQUIRE(sc.drive.has_value());
  CHECK(std::get<double>(sc.drive->overheads.at("read_miss_after_read_ms")) == 3.616);
  CHECK(sc.device.write_settle_ms == -0.642);
  // Both a preset and a drive: an error naming both.
  write_text(dir / "both.toml", "[device]\npreset = \"hp97560\"\ndrive = \"x.toml\"\n");
  CHECK_THROWS_WITH(load_scenario((dir / "both.toml").string(), {}),
                    ContainsSubstring("both.toml:3: device.drive: expected either device.preset or device.drive"));
  write_text(dir / "missing.toml", "[device]\ndrive = \"nothere.toml\"\n");
  CHECK_THROWS_WITH(
      load_scenario((dir / "missing.toml").string(), {}),
      ContainsSubstring("device.drive:") && ContainsSubstring("nothere.toml: cannot open the drive file"));
  // The whole platform on the drive: the firmware's predictor locates blocks as the hardware does
  // (the run's checkers compare them) and every request completes.
  const RunResult r = run_platform(dir, toml);
  CHECK(r.requests == 200);
  CHECK(r.checks_passed);
}

TEST_CASE("drives: seek forms of the real drives: hplplus10 and measured tables", "[drives][seek]") {
  auto ms = [](double v) { return from_ms(v); };
  {  // HP C2247, hplplus10 (dm_mech_g1_seek_1st10_plus_hpl): the first ten from the list, then
     // 3.81 + 0.33 sqrt(d) below 300 cylinders and 7.75 + 0.0059 d from 300 on.
    const DiskParams p = load_drive_spec(kDrives + "hp_c2247a.toml").disk_params();
    CHECK(p.seek_time(0) == Time{0});
    CHECK(p.seek_time(1) == ms(2.89));
    CHECK(p.seek_time(7) == ms(4.52));
    CHECK(p.seek_time(10) == ms(4.99));
    CHECK(p.seek_time(11) == ms(3.81 + 0.33 * std::sqrt(11.0)));
    CHECK(p.seek_time(299) == ms(3.81 + 0.33 * std::sqrt(299.0)));
    CHECK(p.seek_time(300) == ms(7.75 + 0.0059 * 300));
    CHECK(p.write_settle() == ms(0.65));
    CHECK(p.head_switch() == ms(0.89));
  }
  {  // HP C2490, a measured table (.seek): exact at 10 and 12, halfway at 11, and past the last
     // sample (2625) extrapolated along the last two (2600, 2625).
    const DiskParams p = load_drive_spec(kDrives + "hp_c2490a.toml").disk_params();
    CHECK(p.seek_time(10) == ms(3.068618));
    CHECK(p.seek_time(12) == ms(3.1301274));
    CHECK(std::llabs((p.seek_time(11) - ms((3.068618 + 3.1301274) / 2)).count()) <= 1);
    const double slope = (17.37756025 - 17.2679442) / 25;
    CHECK(std::llabs((p.seek_time(2629) - ms(17.37756025 + 4 * slope)).count()) <= 1);
    CHECK(p.write_settle() == ms(-0.642));
  }
}

TEST_CASE("drives: a description's cache, overhead and interface sections become the firmware's features",
          "[drives][cache]") {
  SECTION("HP C2490: one 256-block segment, 128 blocks of read-ahead over the request, bus paced") {
    const DriveFeatures f = load_drive_spec(kDrives + "hp_c2490a.toml").disk_params().features;
    CHECK(f.cache.enabled);  // enable_caching = 2
    CHECK(f.cache.segments == 1);
    CHECK(f.cache.segment_blocks == 256);
    CHECK_FALSE(f.cache.separate_write_segment);
    CHECK(f.cache.min_read_ahead == 0);
    CHECK(f.cache.max_read_ahead == 128);
    CHECK(f.cache.read_ahead_over_requested);
    CHECK(f.cache.continuous_read == 3);    // until the segment is full
    CHECK(f.cache.read_ahead_on_idle_hit);  // "Read-ahead on idle hit" 1
    CHECK_FALSE(f.cache.read_any_free_blocks);
    CHECK(f.cache.fast_write_level == 0);
    // The larger of the bus's 0.14841 ms per block and the disk's bulk sector time 0.
    CHECK(f.interface.read_sector_ms == 0.14841);
    CHECK(f.interface.write_sector_ms == 0.14841);
    CHECK(f.interface.hold_bus_read);
    CHECK(f.interface.read_completion_ms == 0.081);
    CHECK(f.interface.write_completion_ms == 0);
    CHECK(f.overheads.enabled);
    CHECK(f.overheads.read_hit_after_read_ms == 1.419);
    CHECK(f.overheads.read_miss_after_read_ms == 3.616);
    CHECK(f.overheads.read_miss_after_write_ms == 2.275);
    CHECK(f.overheads.write_hit_after_write_ms == 0.82391);
    CHECK(f.overheads.write_miss_after_read_ms == 3.283);
  }
  SECTION("Atlas III: six 64-block segments, write-back, the disk's bulk sector time paces the bus") {
    const DriveFeatures f = load_drive_spec(kDrives + "atlas_III.toml").disk_params().features;
    CHECK(f.cache.enabled);
    CHECK(f.cache.segments == 6);
    CHECK(f.cache.segment_blocks == 64);
    CHECK(f.cache.max_read_ahead == 64);
    CHECK_FALSE(f.cache.read_ahead_over_requested);
    CHECK(f.cache.continuous_read == 4);  // DiskSim's DEC prefetch scheme
    CHECK_FALSE(f.cache.read_ahead_on_idle_hit);
    CHECK(f.cache.read_hits_on_write_data);
    CHECK(f.cache.fast_write_level == 2);
    CHECK(f.interface.read_sector_ms == 0.106);  // bus 0, bulk sector transfer 0.106
    CHECK_FALSE(f.interface.hold_bus_read);
    CHECK(f.overheads.read_hit_after_read_ms == 0.374);
    CHECK(f.overheads.write_hit_after_read_ms == 0.414);
  }
  SECTION("IBM 18ES: \"Read any free blocks\" 1 (the only one of the seven)") {
    CHECK(load_drive_spec(kDrives + "ibm18es.toml").disk_params().features.cache.read_any_free_blocks);
    CHECK_FALSE(load_drive_spec(kDrives + "dec_rz26.toml").disk_params().features.cache.read_any_free_blocks);
  }
}
