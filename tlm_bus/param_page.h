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

/// A recording zone: a run of cylinders with the same number of sectors per track.
struct Zone {
  std::uint32_t first_cylinder = 0;     ///< first cylinder of the zone
  std::uint32_t cylinders = 0;          ///< number of cylinders, >= 1
  std::uint32_t sectors_per_track = 0;  ///< sectors (of kBlockBytes) per track, >= 1
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

/// LBN layout of a zoned disk with track and cylinder skew. LBNs fill a track, then the next head
/// of the same cylinder, then the next cylinder (cylinder-major, the layout of Ruemmler & Wilkes
/// 1994 §"Data layout"). Skew: the first sector of each successive track is rotated by
/// `track_skew` slots after a head switch and by `cylinder_skew` slots after a cylinder switch,
/// cumulatively from cylinder 0 head 0 (DiskSim 4.0 `disk_layout` convention).
class DiskGeometry {
 public:
  DiskGeometry() = default;
  /// Throws std::invalid_argument if cylinders or heads is 0, the zones do not tile
  /// [0, cylinders) in order, or any zone has 0 sectors per track.
  DiskGeometry(std::uint32_t cylinders, std::uint32_t heads, std::vector<Zone> zones, std::uint32_t track_skew,
               std::uint32_t cylinder_skew);

  std::uint32_t cylinders() const { return cylinders_; }
  std::uint32_t heads() const { return heads_; }
  std::uint32_t track_skew() const { return track_skew_; }
  std::uint32_t cylinder_skew() const { return cylinder_skew_; }
  const std::vector<Zone>& zones() const { return zones_; }
  /// Total number of blocks (kBlockBytes each).
  std::uint64_t capacity_blocks() const { return capacity_; }

  /// Maps an LBN to its physical address. Precondition: lbn < capacity_blocks()
  /// (throws std::out_of_range otherwise).
  PhysicalAddress locate(std::uint64_t lbn) const;
  /// Sectors per track of the zone holding `cylinder`.
  std::uint32_t sectors_per_track(std::uint32_t cylinder) const;
  /// Angular slot of logical sector `sector` on track (cylinder, head).
  std::uint32_t slot_of(std::uint32_t cylinder, std::uint32_t head, std::uint32_t sector) const;

 private:
  const Zone& zone_of(std::uint32_t cylinder) const;
  std::uint32_t cylinders_ = 0;
  std::uint32_t heads_ = 0;
  std::vector<Zone> zones_;
  std::vector<std::uint64_t> zone_first_lbn_;
  std::uint32_t track_skew_ = 0;
  std::uint32_t cylinder_skew_ = 0;
  std::uint64_t capacity_ = 0;
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
  static constexpr std::size_t kMaxZones = 64;
  static constexpr std::size_t kMaxSeekSamples = 128;

  ParameterPageHeader header{ParameterPageHeader::kMagic, 2, DeviceKind::Disk, 0};
  std::uint32_t cylinders = 0;
  std::uint32_t heads = 0;
  std::uint32_t track_skew = 0;     ///< slots
  std::uint32_t cylinder_skew = 0;  ///< slots
  std::uint32_t zone_count = 0;
  std::uint32_t seek_sample_count = 0;
  std::int64_t rotation_period_ps = 0;
  std::int64_t head_switch_ps = 0;
  std::int64_t settle_ps = 0;            ///< added to every seek of distance >= 1
  std::int64_t command_overhead_ps = 0;  ///< controller overhead per command
  std::uint64_t capacity_blocks = 0;
  std::array<Zone, kMaxZones> zones{};
  std::array<std::uint32_t, kMaxSeekSamples> seek_distance{};
  std::array<std::int64_t, kMaxSeekSamples> seek_time_ps{};  ///< excluding settle

  /// Rebuilds the geometry the page describes. Throws std::invalid_argument on a malformed page.
  DiskGeometry geometry() const;
  /// Rebuilds the sampled seek table (without settle).
  SeekTable seek_table() const;
};
static_assert(std::is_trivially_copyable_v<ParameterPage>, "the page is read over the bus byte for byte");
static_assert(sizeof(ParameterPage) == 16 + 6 * 4 + 5 * 8 + 64 * 12 + 128 * 4 + 128 * 8,
              "the disk page's layout is documented in docs/registers.md");

}  // namespace drivevp

namespace drivevp {

/// Rotational wait, from time `t`, until the leading edge of angular slot `slot` (of
/// `sectors_per_track` equal slots) is under the head. The spindle is at phase 0 at time
/// `phase_origin` and turns once per `period`; slot s starts at phase floor(s * period / spt).
/// Result in [0, period). This is the contract both the spindle model and the firmware predictor
/// follow.
inline Time rotational_wait(Time t, Time phase_origin, Time period, std::uint32_t slot,
                            std::uint32_t sectors_per_track) {
  const std::int64_t T = period.count();
  const std::int64_t slot_start = static_cast<std::int64_t>((static_cast<__int128>(slot) * T) / sectors_per_track);
  std::int64_t pos = (t - phase_origin).count() % T;
  if (pos < 0) pos += T;
  std::int64_t w = (slot_start - pos) % T;
  if (w < 0) w += T;
  return Time{w};
}

/// Time for `n` whole sectors to pass under the head on a track of `spt` slots.
inline Time sectors_time(Time period, std::uint64_t n, std::uint32_t spt) {
  return Time{static_cast<std::int64_t>((static_cast<__int128>(n) * period.count()) / spt)};
}

/// The seek rule shared by the actuator model and the firmware predictor (docs/models/disk.md):
/// distance 0 on the same head costs 0; distance 0 with a head change costs `head_switch`;
/// distance d >= 1 costs max(seek(d) + settle, head_switch) when the head changes (the switch
/// overlaps the arm move) and seek(d) + settle otherwise.
template <class SeekFn>
Time positioning_seek(std::uint32_t distance, bool head_change, const SeekFn& seek, Time settle, Time head_switch) {
  if (distance == 0) return head_change ? head_switch : Time{0};
  const Time move = seek(distance) + settle;
  return head_change && head_switch > move ? head_switch : move;
}

/// One media pass over `blocks` blocks from `lbn` on `geometry`, the heads on the first block's
/// track at time `start`: waits for the first block's slot, then reads track after track, crossing
/// each track boundary with positioning_seek() (a head switch or a one-cylinder move) and the
/// rotational wait after it. Calls on_track(address of the track's first block, index of that
/// block in the pass, blocks on this track, time its first sector is under the head) once per
/// track and returns when the last block has passed (the leading edge of the slot after it, so
/// that back-to-back passes agree with rotational_wait()). Block j of a track's run ends at
/// run_start + sectors_time(slot + j + 1) - sectors_time(slot). The contract the read channel's
/// transfers and the firmware's host-interface timing share (docs/models/cache.md).
template <class SeekFn, class OnTrack>
Time media_pass(const DiskGeometry& geometry, std::uint64_t lbn, std::uint64_t blocks, Time start, Time phase_origin,
                Time period, const SeekFn& seek, Time settle, Time head_switch, OnTrack&& on_track) {
  Time t = start;
  std::uint64_t next = lbn;
  std::uint64_t done = 0;
  PhysicalAddress prev{};
  while (done < blocks) {
    const PhysicalAddress a = geometry.locate(next);
    if (done > 0) t += positioning_seek(a.cylinder - prev.cylinder, a.head != prev.head, seek, settle, head_switch);
    t += rotational_wait(t, phase_origin, period, a.slot, a.sectors_per_track);
    const std::uint64_t k = std::min<std::uint64_t>(blocks - done, a.sectors_per_track - a.sector);
    on_track(a, done, k, t);
    t += sectors_time(period, a.slot + k, a.sectors_per_track) - sectors_time(period, a.slot, a.sectors_per_track);
    done += k;
    next += k;
    prev = a;
  }
  return t;
}

/// media_pass() block by block: calls on_block(index in the pass, time the block has passed under
/// the head) for each block in order; returns the pass's end.
template <class SeekFn, class OnBlock>
Time media_block_ends(const DiskGeometry& geometry, std::uint64_t lbn, std::uint64_t blocks, Time start,
                      Time phase_origin, Time period, const SeekFn& seek, Time settle, Time head_switch,
                      OnBlock&& on_block) {
  return media_pass(geometry, lbn, blocks, start, phase_origin, period, seek, settle, head_switch,
                    [&](const PhysicalAddress& a, std::uint64_t index, std::uint64_t k, Time run_start) {
                      const Time base = sectors_time(period, a.slot, a.sectors_per_track);
                      for (std::uint64_t j = 0; j < k; ++j)
                        on_block(index + j,
                                 run_start + sectors_time(period, a.slot + j + 1, a.sectors_per_track) - base);
                    });
}

}  // namespace drivevp
