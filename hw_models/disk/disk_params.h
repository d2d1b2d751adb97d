// Parameters of a disk drive's mechanics and media, with the presets of the papers.
// Plain C++: the SystemC models (spindle.h, actuator.h, read_channel.h) take these.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tlm_bus/command.h"
#include "tlm_bus/drive_features.h"
#include "tlm_bus/param_page.h"

namespace drivevp {

/// The published two-branch seek curve (Ruemmler & Wilkes 1994; 004 Table 2; 003 eq. (1)):
/// seek(d) = short_const_ms + short_sqrt_ms * sqrt(d)    for 1 <= d <= short_max_distance,
///         = long_const_ms + long_linear_ms * d          for d > short_max_distance,
/// seek(0) = 0. Times in milliseconds, d in cylinders.
struct SeekCurve {
  double short_const_ms = 0;
  double short_sqrt_ms = 0;
  double long_const_ms = 0;
  double long_linear_ms = 0;
  std::uint32_t short_max_distance = 0;
  /// Explicit seek times for d = 1 .. first_ms.size(), overriding the branches there: DiskSim 4.0's
  /// `hplplus10` seek type ("First ten seek times", diskmodel/mech_g1_seektime.c
  /// dm_mech_g1_seek_1st10_plus_hpl). Empty for the published two-branch curves.
  std::vector<double> first_ms{};
  /// Seek time for a move of d cylinders (settle not included).
  Time operator()(std::uint32_t d) const;
};

/// Everything the disk models need. Configuration keys under [device] equal these member names.
struct DiskParams {
  std::string preset;           ///< name of the preset these values started from
  std::uint32_t cylinders = 0;  ///< >= 1
  std::uint32_t heads = 0;      ///< tracks per cylinder, >= 1
  std::vector<Zone> zones;      ///< tile [0, cylinders) (SkewOrigin::Disk); in order otherwise
  /// Sparing scheme, range size, LBN mapping scheme and where skews count from. The presets keep
  /// the default (no spares, skews from cylinder 0 with track_skew / cylinder_skew); a drive
  /// description (docs/models/drives.md) uses SkewOrigin::Zone and the zones' own skews.
  LayoutRules layout_rules;
  std::vector<std::uint32_t> slips;  ///< the zones' slip lists, concatenated (Zone::slip_first)
  std::vector<DefectRemap> defects;  ///< the zones' remapped defects, concatenated
  std::uint64_t block_count = 0;     ///< blocks exposed; 0: all the layout maps
  std::uint32_t track_skew = 0;      ///< sectors, < sectors per track
  std::uint32_t cylinder_skew = 0;   ///< sectors, < sectors per track
  double rpm = 0;                    ///< spindle speed, revolutions per minute, > 0
  SeekCurve seek_curve;              ///< used when seek_table is empty
  SeekTable seek_table;              ///< "table of samples" seek profile; overrides the curve when non-empty
  double head_switch_ms = 0;         ///< time to switch the active head on the same cylinder
  double settle_ms = 0;              ///< added to every arm move of >= 1 cylinder
  /// Added to a write's non-zero positioning time (seek or head switch), may be negative: DiskSim
  /// 4.0's "Add. write settling delay" (diskmodel/mech_g1.c dm_seek_time_g1). Presets: 0.
  double write_settle_ms = 0;
  double command_overhead_ms = 0;               ///< controller overhead per command (firmware applies it)
  std::uint32_t seek_calibration_samples = 96;  ///< seek samples published in the parameter page
  /// The drive's host interface, buffer cache and selected overheads (device.interface.*,
  /// device.cache.*, device.overheads.*; tlm_bus/drive_features.h). All off in every preset.
  DriveFeatures features;

  Time rotation_period() const;           ///< 60 s / rpm, rounded to 1 ps
  Time seek_time(std::uint32_t d) const;  ///< seek profile, settle not included
  Time head_switch() const { return from_ms(head_switch_ms); }
  Time settle() const { return from_ms(settle_ms); }
  Time write_settle() const { return from_ms(write_settle_ms); }
  DiskGeometry geometry() const;  ///< throws std::invalid_argument if inconsistent
  /// The parameter page this drive publishes: geometry, timing, and the seek profile sampled at
  /// `seek_calibration_samples` distances (every distance up to min(32, samples / 3), the curve's
  /// branch points, a full stroke, and geometric fill in between), as a controller's calibration table would hold.
  ParameterPage parameter_page() const;
  /// Checks ranges; throws std::invalid_argument naming the member and the allowed range.
  void validate() const;
};

/// The HP 97560 (001 §5, 004 Table 2, Ruemmler & Wilkes 1994): 1962 cylinders, 19 heads,
/// 72 sectors per track, 4002 RPM, seek 3.24 + 0.400 sqrt(d) ms (d < 383) / 8.00 + 0.008 d ms,
/// head switch 1.6 ms, controller overhead 2.2 ms, track skew 8, cylinder skew 18. The published
/// curve includes settle, so settle_ms = 0.
DiskParams hp97560();
/// The 10,000 RPM disk of paper 003 §3.1 (Tables 1-2, eq. (1) with the values in seconds, see
/// ../shared/reference/parameters.md). See docs/models/disk.md for the values 003 leaves open.
DiskParams disk003();
/// Paper 003 §5's disk four years on: disk003 with seeks x 0.92^4, rotation and transfer rate
/// x 1.2^4 (20,736 RPM, 35.25 MB/s), head switch x 0.92^4 and skews that cover it
/// (docs/models/disk.md "disk003_projected").
DiskParams disk003_projected();
/// Preset by scenario name ("hp97560", "disk003", "disk003_projected"); throws std::invalid_argument otherwise.
DiskParams disk_preset(std::string_view name);
/// Names accepted by disk_preset.
std::vector<std::string> disk_preset_names();

}  // namespace drivevp
