// The drive's read-only parameter page: the contract between the hardware models, which publish
// it on the bus, and the firmware, which reads it at boot to build its own positioning-time
// predictor (ARCHITECTURE.md, "How a request travels"). Plain C++, no SystemC.
//
// The page is a trivially copyable struct read over the bus as one block; its byte layout is
// documented in docs/registers.md ("Parameter page"). It also carries the LBN layout rules
// (zones, track skew, cylinder skew), implemented once here by DiskGeometry so that the
// hardware and the firmware agree on where a block lives.
#pragma once

#include <algorithm>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tlm_bus/command.h"

namespace drivevp {

/// A recording zone: a run of cylinders with the same number of sectors per track, and (for a
/// drive described in DiskSim 4.0's layout, `dm_layout_g1_zone` of diskmodel/layout_g1_load.c) its
/// own skews, first-block offset, front space, spares, slips and defects. Trivially copyable: the
/// parameter page carries it (docs/registers.md). The members after `sectors_per_track` default to
/// a zone without any of them (the presets' zones).
struct Zone {
  std::uint32_t first_cylinder = 0;     ///< first cylinder of the zone
  std::uint32_t cylinders = 0;          ///< number of cylinders, >= 1
  std::uint32_t sectors_per_track = 0;  ///< sectors (of kBlockBytes) per track, >= 1
  /// Track and cylinder skew, sectors (< sectors_per_track). Used when the layout counts skew
  /// from each zone's first cylinder (SkewOrigin::Zone); otherwise the geometry's global skews.
  std::uint32_t track_skew = 0;
  std::uint32_t cylinder_skew = 0;
  std::uint32_t first_block_offset = 0;  ///< angular offset of the zone's first block, sectors
  std::uint32_t front_space = 0;         ///< sectors at the zone's front that hold no block
  std::uint32_t spares = 0;              ///< spare sectors or tracks, per the SparingScheme
  std::uint32_t slip_first = 0;          ///< the zone's slips: [slip_first, +slip_count) of the slip list
  std::uint32_t slip_count = 0;
  std::uint32_t defect_first = 0;  ///< the zone's remapped defects: [defect_first, +defect_count)
  std::uint32_t defect_count = 0;
};

/// How spare media is set aside, with DiskSim 4.0's numbers (`Sparing scheme used`,
/// diskmodel/layout_g1.h; semantics in docs/models/drives.md "Sparing"). Slip and defect
/// positions are counted in the zone from its first physical sector (tracks for TrackSparing).
enum class SparingScheme : std::uint32_t {
  None = 0,                        ///< no spares
  Track = 1,                       ///< `spares` whole tracks at the zone's end; slips are tracks
  SectorPerCylinder = 2,           ///< `spares` sectors at the end of each cylinder
  SectorPerTrack = 3,              ///< `spares` sectors at the end of each track
  SectorPerCylinderSlipToEnd = 4,  ///< as 2, a slip shifts every later block of the zone
  SectorPerCylinderAtFront = 5,    ///< `spares` sectors at the front of each cylinder
  SectorPerCylinderAtFrontSlipToEnd = 6,
  SectorAtEnd = 7,              ///< no spares in the zone; each slip shifts every later block (slip to the zone's end)
  SectorPerRange = 8,           ///< `spares` sectors at the end of each range of `range_size` cylinders
  SectorPerZone = 9,            ///< `spares` sectors at the zone's end; slips shift later blocks
  SectorPerZoneSlipToEnd = 10,  ///< as 9, the slips also cost blocks
};

/// Order of the surfaces on a cylinder (DiskSim 4.0 `LBN-to-PBN mapping scheme`).
enum class LbnMapping : std::uint32_t {
  Normal = 0,               ///< every cylinder from surface 0 up
  CylSwitchOnSurface1 = 1,  ///< odd cylinders (counted from the zone's first) from the last surface down
  CylSwitchOnSurface2 = 2,  ///< odd cylinders (absolute) from the last surface down
};

/// Where the skews are counted from.
enum class SkewOrigin : std::uint32_t {
  Disk = 0,  ///< cumulatively from cylinder 0 head 0 with the global skews (the presets)
  Zone = 1,  ///< from each zone's first cylinder with the zone's own skews and first-block offset (DiskSim 4.0)
};

/// The layout's rules beyond the zones.
struct LayoutRules {
  SparingScheme sparing = SparingScheme::None;
  std::uint32_t range_size = 1;  ///< cylinders per sparing range (SectorPerRange), >= 1
  LbnMapping mapping = LbnMapping::Normal;
  SkewOrigin skew_origin = SkewOrigin::Disk;
};

/// A remapped defect: the block that would live at `defect` lives at `remap` (both zone-relative
/// physical sector numbers, or track numbers under SparingScheme::Track).
struct DefectRemap {
  std::uint32_t defect = 0;
  std::uint32_t remap = 0;
};

/// Where a block lives on the media.
struct PhysicalAddress {
  std::uint32_t cylinder = 0;
  std::uint32_t head = 0;
  std::uint32_t sector = 0;             ///< logical sector index within the track, 0..spt-1
  std::uint32_t sectors_per_track = 0;  ///< of the block's zone
  /// Angular slot of the sector on the platter, 0..spt-1, after track and cylinder skew: the
  /// slot whose leading edge passes under the head at spindle phase slot/spt.
  std::uint32_t slot = 0;
};

/// LBN layout of a zoned disk with track and cylinder skew, spares, slips and remapped defects.
/// LBNs fill a track, then the next head of the same cylinder, then the next cylinder
/// (cylinder-major, the layout of Ruemmler & Wilkes 1994 section "Data layout"), skipping the
/// zone's front space, its spare sectors or tracks, slipped sectors and remapped defects as DiskSim
/// 4.0's first-generation layout does (diskmodel/layout_g1.c, "ltop" per sparing scheme; the rules
/// are written out in docs/models/drives.md). Skew: the first sector of each successive track is
/// rotated by the track skew after a head switch and by the cylinder skew after a cylinder switch,
/// cumulatively from cylinder 0 head 0 (SkewOrigin::Disk) or from each zone's first cylinder plus
/// the zone's first-block offset (SkewOrigin::Zone); under the per-track and per-cylinder sparing
/// schemes a slip earlier in the zone also rotates the track by one sector (DiskSim's
/// g1_map_pbn_skew).
class DiskGeometry {
 public:
  DiskGeometry() = default;
  /// The presets' layout: zones tiling [0, cylinders), no spares, skews from cylinder 0.
  /// Throws std::invalid_argument if cylinders or heads is 0, the zones do not tile
  /// [0, cylinders) in order, or any zone has 0 sectors per track.
  DiskGeometry(std::uint32_t cylinders, std::uint32_t heads, std::vector<Zone> zones, std::uint32_t track_skew,
               std::uint32_t cylinder_skew);
  /// A full layout. Zones are in order and do not overlap, within [0, cylinders) (cylinders
  /// between zones hold no blocks); their slip/defect ranges index `slips` and `defects`.
  /// `block_count` > 0 exposes that many blocks (it must not exceed the blocks the layout maps);
  /// 0 exposes all of them. Throws std::invalid_argument naming the zone and the rule broken.
  DiskGeometry(std::uint32_t cylinders, std::uint32_t heads, std::vector<Zone> zones, std::uint32_t track_skew,
               std::uint32_t cylinder_skew, const LayoutRules& rules, std::vector<std::uint32_t> slips,
               std::vector<DefectRemap> defects, std::uint64_t block_count);

  std::uint32_t cylinders() const { return cylinders_; }
  std::uint32_t heads() const { return heads_; }
  std::uint32_t track_skew() const { return track_skew_; }
  std::uint32_t cylinder_skew() const { return cylinder_skew_; }
  const std::vector<Zone>& zones() const { return zones_; }
  const LayoutRules& rules() const { return rules_; }
  const std::vector<std::uint32_t>& slips() const { return slips_; }
  const std::vector<DefectRemap>& defects() const { return defects_; }
  /// Total number of blocks exposed (kBlockBytes each).
  std::uint64_t capacity_blocks() const { return capacity_; }
  /// Blocks the layout maps (DiskSim 4.0 replaces `Block count` by this sum over the zones,
  /// layout_g1_load.c checknumblocks); >= capacity_blocks().
  std::uint64_t mapped_blocks() const { return mapped_; }
  /// Blocks zone `z` maps (DiskSim's blksinband).
  std::uint64_t zone_blocks(std::size_t z) const { return zone_blocks_.at(z); }
  /// First LBN of zone `z`.
  std::uint64_t zone_first_lbn(std::size_t z) const { return zone_first_lbn_.at(z); }

  /// Maps an LBN to its physical address. Precondition: lbn < capacity_blocks()
  /// (throws std::out_of_range otherwise).
  PhysicalAddress locate(std::uint64_t lbn) const;
  /// Number of blocks from `lbn` on (at most `limit`) that lie on consecutive sectors of lbn's
  /// track: what one uninterrupted pass of the head reads. >= 1 for lbn < capacity_blocks().
  std::uint64_t run_blocks(std::uint64_t lbn, std::uint64_t limit) const;
  /// run_blocks(lbn, limit) when locate(lbn) is already known (`a`): saves mapping lbn again.
  std::uint64_t run_blocks(std::uint64_t lbn, std::uint64_t limit, const PhysicalAddress& a) const;
  /// Sectors per track of the zone holding `cylinder` (a cylinder between zones: the previous
  /// zone's, as DiskSim's g1_st_pbn).
  std::uint32_t sectors_per_track(std::uint32_t cylinder) const;
  /// Angular slot of logical sector `sector` on track (cylinder, head), without slip rotation.
  std::uint32_t slot_of(std::uint32_t cylinder, std::uint32_t head, std::uint32_t sector) const;

 private:
  struct Pbn {
    std::uint32_t cylinder_in_zone;
    std::uint32_t surface;  ///< in LBN order on the cylinder (before the mapping scheme)
    std::uint32_t sector;
  };
  const Zone& zone_of(std::uint32_t cylinder) const;
  std::uint64_t compute_zone_blocks(const Zone& z) const;
  Pbn map_in_zone(const Zone& z, std::uint64_t rel) const;
  std::uint32_t slot_in_zone(const Zone& z, std::uint32_t cylinder_in_zone, std::uint32_t surface,
                             std::uint32_t sector) const;
  std::uint32_t cylinders_ = 0;
  std::uint32_t heads_ = 0;
  std::vector<Zone> zones_;
  std::vector<std::uint64_t> zone_first_lbn_;
  std::vector<std::uint64_t> zone_blocks_;
  std::uint32_t track_skew_ = 0;
  std::uint32_t cylinder_skew_ = 0;
  LayoutRules rules_;
  std::vector<std::uint32_t> slips_;
  std::vector<DefectRemap> defects_;
  std::uint64_t capacity_ = 0;
  std::uint64_t mapped_ = 0;
};

/// Piecewise-linear seek-time table: seek time at sampled distances, linearly interpolated in
/// between (the "table of samples" seek profile of DiskSim 4.0 and the firmware's calibration
/// table). Distance 0 costs 0.
class SeekTable {
 public:
  SeekTable() = default;
  /// distances strictly increasing, >= 1, the same length as times (>= 1 entry); otherwise
  /// throws std::invalid_argument. Beyond the last sample the last two samples are extrapolated.
  SeekTable(std::vector<std::uint32_t> distances, std::vector<Time> times);
  /// Seek time for a move of `distance` cylinders.
  Time operator()(std::uint32_t distance) const;
  const std::vector<std::uint32_t>& distances() const { return distances_; }
  const std::vector<Time>& times() const { return times_; }

 private:
  std::vector<std::uint32_t> distances_;
  std::vector<Time> times_;
};

/// Which kind of device publishes a parameter page (the page's header says it first, so that
/// the firmware knows how to read the rest).
enum class DeviceKind : std::uint32_t {
  Disk = 1,  ///< a zoned disk: the rest of the page is a ParameterPage (this struct)
  Mems = 2,  ///< a MEMS-based storage device (issue 8; not built yet)
};

/// The header every device's parameter page starts with: the firmware reads it first and checks
/// the magic, the layout version and the kind before reading the device's own fields.
struct ParameterPageHeader {
  static constexpr std::uint32_t kMagic = 0x50564444;  // "DDVP"
  std::uint32_t magic = kMagic;
  std::uint32_t version = 2;  ///< 2: the page starts with this header (1 had magic and version only)
  DeviceKind kind = DeviceKind::Disk;
  std::uint32_t page_bytes = 0;  ///< size of the whole page, header included
};
static_assert(sizeof(ParameterPageHeader) == 16, "the header crosses the bus: its layout is fixed");

/// The disk's parameter page as it sits in the drive's register space. Fixed-size arrays, so it
/// can be read over the bus byte-for-byte. Times are integer picoseconds.
struct ParameterPage {
  static constexpr std::uint32_t kMagic = ParameterPageHeader::kMagic;
  static constexpr std::uint32_t kVersion = 3;  ///< 3: zoned layout with spares, slips, defects, write settle
  static constexpr std::size_t kMaxZones = 64;
  static constexpr std::size_t kMaxSeekSamples = 128;
  static constexpr std::size_t kMaxSlips = 1024;
  static constexpr std::size_t kMaxDefects = 256;

  ParameterPageHeader header{ParameterPageHeader::kMagic, kVersion, DeviceKind::Disk, 0};
  std::uint32_t cylinders = 0;
  std::uint32_t heads = 0;
  std::uint32_t track_skew = 0;     ///< slots (SkewOrigin::Disk)
  std::uint32_t cylinder_skew = 0;  ///< slots (SkewOrigin::Disk)
  std::uint32_t zone_count = 0;
  std::uint32_t seek_sample_count = 0;
  std::int64_t rotation_period_ps = 0;
  std::int64_t head_switch_ps = 0;
  std::int64_t settle_ps = 0;            ///< added to every seek of distance >= 1
  std::int64_t command_overhead_ps = 0;  ///< controller overhead per command
  std::uint64_t capacity_blocks = 0;     ///< blocks exposed
  LayoutRules rules{};
  std::uint32_t slip_count = 0;
  std::uint32_t defect_count = 0;
  std::int64_t write_settle_ps = 0;  ///< added to a write's non-zero positioning; may be negative
  std::array<Zone, kMaxZones> zones{};
  std::array<std::uint32_t, kMaxSeekSamples> seek_distance{};
  std::array<std::int64_t, kMaxSeekSamples> seek_time_ps{};  ///< excluding settle
  std::array<std::uint32_t, kMaxSlips> slips{};
  std::array<DefectRemap, kMaxDefects> defects{};

  /// Rebuilds the geometry the page describes. Throws std::invalid_argument on a malformed page.
  DiskGeometry geometry() const;
  /// Rebuilds the sampled seek table (without settle).
  SeekTable seek_table() const;
};
static_assert(std::is_trivially_copyable_v<ParameterPage>, "the page is read over the bus byte for byte");
static_assert(sizeof(ParameterPage) ==
                  16 + 6 * 4 + 5 * 8 + 16 + 2 * 4 + 8 + 64 * 48 + 128 * 4 + 128 * 8 + 1024 * 4 + 256 * 8,
              "the disk page's layout is documented in docs/registers.md");

}  // namespace drivevp

namespace drivevp {

/// floor(a * b / c) for a >= 0 and c > 0, as the signed 128-bit expression (a * b) / c computes it
/// (truncated toward zero, then to 64 bits): a 64-bit multiply and divide whenever b >= 0 and the
/// product fits in 64 bits, which it does for every slot and sector count of a real track, and the
/// 128-bit division (a library call) otherwise. Bit-identical to the 128-bit expression.
inline std::int64_t mul_div(std::uint64_t a, std::int64_t b, std::uint64_t c) {
  std::uint64_t product = 0;
  if (b >= 0 && !__builtin_mul_overflow(a, static_cast<std::uint64_t>(b), &product))
    return static_cast<std::int64_t>(product / c);
  return static_cast<std::int64_t>((static_cast<__int128>(a) * b) / static_cast<__int128>(c));
}

/// Rotational wait, from time `t`, until the leading edge of angular slot `slot` (of
/// `sectors_per_track` equal slots) is under the head. The spindle is at phase 0 at time
/// `phase_origin` and turns once per `period`; slot s starts at phase floor(s * period / spt).
/// Result in [0, period). This is the contract both the spindle model and the firmware predictor
/// follow.
inline Time rotational_wait(Time t, Time phase_origin, Time period, std::uint32_t slot,
                            std::uint32_t sectors_per_track) {
  const std::int64_t T = period.count();
  const std::int64_t slot_start = mul_div(slot, T, sectors_per_track);
  std::int64_t pos = (t - phase_origin).count() % T;
  if (pos < 0) pos += T;
  std::int64_t w = slot_start - pos;  // in (-T, T) for slot < spt: the second modulo is a compare
  if (w < 0 || w >= T) {
    w %= T;
    if (w < 0) w += T;
  }
  return Time{w};
}

/// Time for `n` whole sectors to pass under the head on a track of `spt` slots.
inline Time sectors_time(Time period, std::uint64_t n, std::uint32_t spt) {
  return Time{mul_div(n, period.count(), spt)};
}

/// The seek rule shared by the actuator model and the firmware predictor (docs/models/disk.md):
/// distance 0 on the same head costs 0; distance 0 with a head change costs `head_switch`;
/// distance d >= 1 costs max(seek(d) + settle, head_switch) when the head changes (the switch
/// overlaps the arm move) and seek(d) + settle otherwise.
///
/// A write adds `write_settle` (DiskSim 4.0's "Add. write settling delay", may be negative) to a
/// non-zero result (diskmodel/mech_g1.c dm_seek_time_g1), never going below 0.
template <class SeekFn>
Time positioning_seek(std::uint32_t distance, bool head_change, const SeekFn& seek, Time settle, Time head_switch,
                      Time write_settle = Time{0}) {
  Time t{0};
  if (distance == 0) {
    t = head_change ? head_switch : Time{0};
  } else {
    const Time move = seek(distance) + settle;
    t = head_change && head_switch > move ? head_switch : move;
  }
  if (t == Time{0}) return t;
  t += write_settle;
  return t < Time{0} ? Time{0} : t;
}

/// One media pass over `blocks` blocks from `lbn` on `geometry`, the heads on the first block's
/// track at time `start`: waits for the first block's slot, then reads run after run of blocks on
/// consecutive sectors (DiskGeometry::run_blocks: a run ends at the track's end, a spare or a
/// slip), crossing to the next run's track with positioning_seek() (a head switch or a cylinder
/// move; `write_settle` added for a write, 0 for a read) and the rotational wait after it. Calls
/// on_track(address of the run's first block, index of that block in the pass, blocks in the run,
/// time its first sector is under the head) once per run and returns when the last block has passed (the leading edge
/// of the slot after it, so that back-to-back passes agree with rotational_wait()). Block j of a track's run ends at
/// run_start + sectors_time(slot + j + 1) - sectors_time(slot). The contract the read channel's
/// transfers and the firmware's host-interface timing share (docs/models/cache.md).
///
/// media_pass_located() is the same pass with `locate(lbn)` in place of geometry.locate(lbn): a
/// caller that memoises the geometry's addresses (DiskPredictor::locate) passes its memo.
template <class LocateFn, class SeekFn, class OnTrack>
Time media_pass_located(const DiskGeometry& geometry, const LocateFn& locate, std::uint64_t lbn, std::uint64_t blocks,
                        Time start, Time phase_origin, Time period, const SeekFn& seek, Time settle, Time head_switch,
                        Time write_settle, OnTrack&& on_track) {
  Time t = start;
  std::uint64_t next = lbn;
  std::uint64_t done = 0;
  PhysicalAddress prev{};
  while (done < blocks) {
    const PhysicalAddress a = locate(next);
    if (done > 0) {
      const std::uint32_t d = a.cylinder > prev.cylinder ? a.cylinder - prev.cylinder : prev.cylinder - a.cylinder;
      t += positioning_seek(d, a.head != prev.head, seek, settle, head_switch, write_settle);
    }
    t += rotational_wait(t, phase_origin, period, a.slot, a.sectors_per_track);
    // The blocks on consecutive sectors of this track (up to a spare, a slip or the track's end).
    const std::uint64_t k = geometry.run_blocks(next, blocks - done, a);
    on_track(a, done, k, t);
    t += sectors_time(period, a.slot + k, a.sectors_per_track) - sectors_time(period, a.slot, a.sectors_per_track);
    done += k;
    next += k;
    prev = a;
  }
  return t;
}

template <class SeekFn, class OnTrack>
Time media_pass(const DiskGeometry& geometry, std::uint64_t lbn, std::uint64_t blocks, Time start, Time phase_origin,
                Time period, const SeekFn& seek, Time settle, Time head_switch, Time write_settle, OnTrack&& on_track) {
  return media_pass_located(
      geometry, [&geometry](std::uint64_t x) { return geometry.locate(x); }, lbn, blocks, start, phase_origin, period,
      seek, settle, head_switch, write_settle, on_track);
}

/// The on_track callback of media_pass() that calls on_block(index in the pass, time the block has
/// passed under the head) for each block of the run in order.
template <class OnBlock>
auto block_ends_of_runs(Time period, OnBlock& on_block) {
  return [period, &on_block](const PhysicalAddress& a, std::uint64_t index, std::uint64_t k, Time run_start) {
    const Time base = sectors_time(period, a.slot, a.sectors_per_track);
    for (std::uint64_t j = 0; j < k; ++j)
      on_block(index + j, run_start + sectors_time(period, a.slot + j + 1, a.sectors_per_track) - base);
  };
}

/// media_pass() block by block: calls on_block(index in the pass, time the block has passed under
/// the head) for each block in order; returns the pass's end.
template <class SeekFn, class OnBlock>
Time media_block_ends(const DiskGeometry& geometry, std::uint64_t lbn, std::uint64_t blocks, Time start,
                      Time phase_origin, Time period, const SeekFn& seek, Time settle, Time head_switch,
                      Time write_settle, OnBlock&& on_block) {
  return media_pass(geometry, lbn, blocks, start, phase_origin, period, seek, settle, head_switch, write_settle,
                    block_ends_of_runs(period, on_block));
}

}  // namespace drivevp
