// A real drive's description: drivevp's own TOML format (drives/NAME.toml, docs/models/drives.md)
// with the layout, mechanics, cache, overheads and interface of one drive, as DiskSim 4.0's
// descriptions give them (diskmodel/layout_g1_load.c, diskmodel/mech_g1.c, src/modules/disk.modspec;
// the seven drives of ../shared/drives/). Plain C++: the loader, the writer and the conversion to
// the disk model's DiskParams.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "hw_models/disk/disk_params.h"

namespace drivevp {

/// A drive file that cannot be read: the message names the file, the line where known, the key,
/// what was expected and what was found.
class DriveSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One [[layout.zone]] (DiskSim 4.0 `dm_layout_g1_zone`).
struct DriveZone {
  std::uint32_t first_cylinder = 0;      ///< first_cylinder ("First cylinder number")
  std::uint32_t last_cylinder = 0;       ///< last_cylinder ("Last cylinder number"), >= first
  std::uint32_t blocks_per_track = 0;    ///< blocks_per_track ("Blocks per track"), >= 1
  std::uint32_t first_block_offset = 0;  ///< first_block_offset, sectors ("Offset of first block")
  std::uint32_t front_space = 0;         ///< front_space, sectors ("Empty space at zone front")
  std::uint32_t track_skew = 0;          ///< track_skew, sectors ("Skew for track switch")
  std::uint32_t cylinder_skew = 0;       ///< cylinder_skew, sectors ("Skew for cylinder switch")
  std::uint32_t spares = 0;              ///< spares ("Number of spares"; unit per sparing_scheme)
  std::vector<std::uint32_t> slips;      ///< slips, zone-relative sector (track) numbers ("slips")
  std::vector<DefectRemap> defects;      ///< defects, [defect, remap] pairs ("defects")
  bool operator==(const DriveZone& o) const;
};

/// [layout] (DiskSim 4.0 `dm_disk` and `dm_layout_g1`).
struct DriveLayout {
  std::uint32_t cylinders = 0;       ///< cylinders ("Number of cylinders")
  std::uint32_t surfaces = 0;        ///< surfaces ("Number of data surfaces")
  std::uint64_t block_count = 0;     ///< block_count ("Block count"): blocks the drive exposes
  std::uint32_t lbn_mapping = 0;     ///< lbn_mapping 0..2 ("LBN-to-PBN mapping scheme", LbnMapping)
  std::uint32_t sparing_scheme = 0;  ///< sparing_scheme 0..10 ("Sparing scheme used", SparingScheme)
  std::uint32_t sparing_range = 1;   ///< sparing_range, cylinders ("Rangesize for sparing")
  std::vector<DriveZone> zones;      ///< [[layout.zone]]
  bool operator==(const DriveLayout& o) const;
};

/// [mechanics] (DiskSim 4.0 `dm_mech_g1`). The seek is one of three forms (`seek`):
/// "table" (DiskSim's `extracted`: seek_table, interpolated linearly and extrapolated past the
/// last point), "hplplus10" (DiskSim's `hplplus10`: first_ten_seeks_ms for d <= 10, then
/// hpl_seek[1] + hpl_seek[2] sqrt(d) for d < hpl_seek[0], hpl_seek[3] + hpl_seek[4] d beyond) or
/// "curve" (drivevp's two-branch curve, [mechanics.curve] as device.seek_curve.*).
struct DriveMechanics {
  double rpm = 0;                ///< rpm ("Rotation speed (in rpms)"), > 0
  double rpm_error_percent = 0;  ///< rpm_error_percent ("Percent error in rpms"); must be 0 (no spindle jitter model)
  double head_switch_ms = 0;     ///< head_switch_ms ("Head switch time")
  double write_settle_ms = 0;    ///< write_settle_ms ("Add. write settling delay"), may be negative
  double settle_ms = 0;          ///< settle_ms: added to every arm move (DiskSim's tables include it: 0)
  std::string access_time_type = "trackSwitchPlusRotation";  ///< access_time_type ("Access time type")
  std::string seek = "table";                                ///< seek: "table", "hplplus10" or "curve"
  std::string seek_file;  ///< seek_file: the .seek file the table came from ("Full seek curve"), informational
  std::vector<std::pair<std::uint32_t, double>> seek_table;  ///< seek_table: [distance, ms] pairs
  std::vector<double> hpl_seek;                              ///< hpl_seek: 6 values ("HPL seek equation values")
  std::vector<double> first_ten_seeks_ms;                    ///< first_ten_seeks_ms: 10 values ("First ten seek times")
  std::optional<double> single_cylinder_seek_ms;             ///< single_cylinder_seek_ms ("Single cylinder seek time")
  std::optional<double> average_seek_ms;                     ///< average_seek_ms ("Average seek time")
  std::optional<double> full_strobe_seek_ms;                 ///< full_strobe_seek_ms ("Full strobe seek time")
  SeekCurve curve;                                           ///< [mechanics.curve] when seek = "curve"
  bool operator==(const DriveMechanics& o) const;
};

/// A typed value of the [cache], [overheads] and [interface] sections.
using DriveValue = std::variant<bool, std::int64_t, double>;

/// One key of [cache], [overheads] or [interface] (and its sub-tables): the TOML name (with the
/// sub-table, e.g. "scheduler.scheduling_policy"), DiskSim 4.0's parameter name
/// (src/modules/disk.modspec, or the bus / controller / ioqueue modspec), the type, range, unit
/// and meaning.
struct DriveKeyDecl {
  const char* section;  ///< "cache", "overheads" or "interface"
  const char* key;      ///< TOML key within the section (dotted for a sub-table)
  const char* disksim;  ///< DiskSim's parameter name
  int type;             ///< 0 bool (DiskSim 0/1), 1 integer, 2 number
  double min;
  double max;
  const char* unit;
  const char* description;
};

/// Every [cache], [overheads] and [interface] key, in file order (docs/models/drives.md lists them).
const std::vector<DriveKeyDecl>& drive_key_decls();

/// The keys of one section with their values, in drive_key_decls() order. A drive file sets each
/// key of the [cache] and [overheads] sections; [interface.bus] and [interface.controller] are
/// present only when the description came with a whole DiskSim system (.parv).
struct DriveSection {
  std::vector<std::pair<std::string, DriveValue>> values;
  /// The value of `key`; throws std::out_of_range if absent.
  const DriveValue& at(const std::string& key) const;
  bool has(const std::string& key) const;
  bool operator==(const DriveSection& o) const { return values == o.values; }
};

/// [cache]: segmented buffer, read-ahead, write-back ("fast write"). Read by the cache model.
using DriveCache = DriveSection;
/// [overheads]: command overheads by read/write x hit/miss x previous op, completion, reselect,
/// disconnect. Read by the overhead model.
using DriveOverheads = DriveSection;
/// [interface]: host-bus transfer and protocol, the drive's command queue ([interface.scheduler])
/// and, from a .parv, the bus it hangs on ([interface.bus]) and its controller
/// ([interface.controller]). Read by the interface model.
using DriveInterface = DriveSection;

/// A whole drive description.
struct DriveSpec {
  std::string name;    ///< name: DiskSim's label of the drive
  std::string source;  ///< source: where the description came from (informational)
  DriveLayout layout;
  DriveMechanics mechanics;
  DriveCache cache;
  DriveOverheads overheads;
  DriveInterface interface;
  bool operator==(const DriveSpec& o) const;

  /// The disk model's parameters: the zoned layout with DiskSim 4.0's sparing rules and per-zone
  /// skews (SkewOrigin::Zone), the drive's block count, its mechanics. The geometry's cylinder
  /// count is the larger of `cylinders` and the last zone's last cylinder + 1 (DiskSim does not
  /// check one against the other; hp_c2490a's last zone ends at cylinder 2629 of 2629).
  /// Throws DriveSpecError if the layout is inconsistent. Its `features` are features().
  DiskParams disk_params() const;
  /// The firmware timing features this description turns on (tlm_bus/drive_features.h,
  /// docs/models/drives.md "What the model uses"): the host interface (sector time = the larger of
  /// [interface.bus] read/write_block_transfer_ms and bulk_sector_transfer_ms; hold bus on reads;
  /// first/other reselect and read/write completion overheads from [overheads]), the cache
  /// (enable_caching != 0, segments, segment_blocks, separate_write_segment, min/max read-ahead,
  /// read_ahead_over_requested != 0, fast_write_level) and the 8 selected overheads, every
  /// overhead multiplied by [overheads] time_scale (DiskSim's "Time scale for overheads").
  /// Keys of the sections not listed are kept in the description but not modelled.
  DriveFeatures features() const;
};

/// Reads and validates a drive file. Throws DriveSpecError naming `path`, the line, the key, what
/// was expected and what was found (an unknown key, a missing key, a value out of range or of the
/// wrong type, a layout that does not map its block count).
DriveSpec load_drive_spec(const std::string& path);
/// Same, from text (`path` names it in messages).
DriveSpec parse_drive_spec(const std::string& text, const std::string& path);
/// The drive as drivevp's TOML; parse_drive_spec(write_drive_toml(d)) == d.
std::string write_drive_toml(const DriveSpec& d);

}  // namespace drivevp
