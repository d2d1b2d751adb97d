#include "tlm_bus/param_page.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace drivevp {

namespace {

bool is_sector_per_cylinder(SparingScheme s) {
  return s == SparingScheme::SectorPerCylinder || s == SparingScheme::SectorPerCylinderSlipToEnd ||
         s == SparingScheme::SectorPerCylinderAtFront || s == SparingScheme::SectorPerCylinderAtFrontSlipToEnd;
}

bool slips_to_end(SparingScheme s) {
  return s == SparingScheme::SectorPerCylinderSlipToEnd || s == SparingScheme::SectorPerCylinderAtFrontSlipToEnd ||
         s == SparingScheme::SectorAtEnd;
}

bool spares_at_front(SparingScheme s) {
  return s == SparingScheme::SectorPerCylinderAtFront || s == SparingScheme::SectorPerCylinderAtFrontSlipToEnd;
}

[[noreturn]] void bad_zone(std::size_t z, const std::string& what) {
  throw std::invalid_argument("geometry: zone " + std::to_string(z) + ": " + what);
}

}  // namespace

DiskGeometry::DiskGeometry(std::uint32_t cylinders, std::uint32_t heads, std::vector<Zone> zones,
                           std::uint32_t track_skew, std::uint32_t cylinder_skew)
    : DiskGeometry(cylinders, heads, std::move(zones), track_skew, cylinder_skew, LayoutRules{}, {}, {}, 0) {
  std::uint32_t next = 0;
  for (const Zone& z : zones_) {
    if (z.first_cylinder != next)
      throw std::invalid_argument("geometry: zones must tile the cylinders in order (zone starting at cylinder " +
                                  std::to_string(z.first_cylinder) + ", expected " + std::to_string(next) + ")");
    next += z.cylinders;
  }
  if (next != cylinders_)
    throw std::invalid_argument("geometry: zones cover " + std::to_string(next) + " cylinders, expected " +
                                std::to_string(cylinders_));
}

DiskGeometry::DiskGeometry(std::uint32_t cylinders, std::uint32_t heads, std::vector<Zone> zones,
                           std::uint32_t track_skew, std::uint32_t cylinder_skew, const LayoutRules& rules,
                           std::vector<std::uint32_t> slips, std::vector<DefectRemap> defects,
                           std::uint64_t block_count)
    : cylinders_(cylinders),
      heads_(heads),
      zones_(std::move(zones)),
      track_skew_(track_skew),
      cylinder_skew_(cylinder_skew),
      rules_(rules),
      slips_(std::move(slips)),
      defects_(std::move(defects)) {
  if (cylinders_ == 0 || heads_ == 0) throw std::invalid_argument("geometry: cylinders and heads must be >= 1");
  if (zones_.empty()) throw std::invalid_argument("geometry: at least one zone is required");
  if (static_cast<std::uint32_t>(rules_.sparing) > 10)
    throw std::invalid_argument("geometry: sparing scheme " +
                                std::to_string(static_cast<std::uint32_t>(rules_.sparing)) + " is not one of 0..10");
  if (static_cast<std::uint32_t>(rules_.mapping) > 2)
    throw std::invalid_argument("geometry: LBN mapping scheme " +
                                std::to_string(static_cast<std::uint32_t>(rules_.mapping)) + " is not one of 0..2");
  if (rules_.range_size == 0) throw std::invalid_argument("geometry: sparing range size must be >= 1");
  std::uint64_t next = 0;
  std::uint64_t lbn = 0;
  for (std::size_t i = 0; i < zones_.size(); ++i) {
    const Zone& z = zones_[i];
    if (z.cylinders == 0) bad_zone(i, "has no cylinders");
    if (z.first_cylinder < next)
      bad_zone(i, "starts at cylinder " + std::to_string(z.first_cylinder) +
                      ", inside the previous zone (ends before " + std::to_string(next) + ")");
    if (std::uint64_t{z.first_cylinder} + z.cylinders > cylinders_)
      bad_zone(i, "ends past the last cylinder " + std::to_string(cylinders_ - 1));
    if (z.sectors_per_track == 0) bad_zone(i, "has 0 sectors per track");
    if (std::uint64_t{z.slip_first} + z.slip_count > slips_.size()) bad_zone(i, "slip range beyond the slip list");
    if (std::uint64_t{z.defect_first} + z.defect_count > defects_.size())
      bad_zone(i, "defect range beyond the defect list");
    const std::uint64_t blocks = compute_zone_blocks(z);
    zone_first_lbn_.push_back(lbn);
    zone_blocks_.push_back(blocks);
    lbn += blocks;
    next = std::uint64_t{z.first_cylinder} + z.cylinders;
  }
  mapped_ = lbn;
  if (block_count > mapped_)
    throw std::invalid_argument("geometry: block count " + std::to_string(block_count) +
                                " exceeds the blocks the layout maps (" + std::to_string(mapped_) + ")");
  capacity_ = block_count > 0 ? block_count : mapped_;
}

std::uint64_t DiskGeometry::compute_zone_blocks(const Zone& z) const {
  // DiskSim 4.0 diskmodel/layout_g1_load.c, dm_layout_g1_compute_blksinband.
  const std::int64_t cyls = z.cylinders;
  const std::int64_t spt = z.sectors_per_track;
  const std::int64_t spares = z.spares;
  const std::int64_t slips = z.slip_count;
  std::int64_t b = cyls * spt * heads_ - z.front_space;
  switch (rules_.sparing) {
    case SparingScheme::None:
      break;
    case SparingScheme::Track:
      b -= spares * spt;
      break;
    case SparingScheme::SectorPerTrack:
      b -= spares * cyls * heads_;
      break;
    case SparingScheme::SectorAtEnd:
      b -= slips;
      break;
    case SparingScheme::SectorPerZone:
      b -= spares;
      break;
    case SparingScheme::SectorPerZoneSlipToEnd:
      b -= spares + slips;
      break;
    case SparingScheme::SectorPerCylinder:
    case SparingScheme::SectorPerCylinderAtFront:
      b -= spares * cyls;
      break;
    case SparingScheme::SectorPerCylinderSlipToEnd:
    case SparingScheme::SectorPerCylinderAtFrontSlipToEnd:
      b -= spares * cyls + slips;
      break;
    case SparingScheme::SectorPerRange:
      b -= spares * (cyls / rules_.range_size);
      break;
  }
  if (b < 0) throw std::invalid_argument("geometry: a zone's spares and front space exceed its sectors");
  return static_cast<std::uint64_t>(b);
}

const Zone& DiskGeometry::zone_of(std::uint32_t cylinder) const {
  auto it = std::upper_bound(zones_.begin(), zones_.end(), cylinder,
                             [](std::uint32_t c, const Zone& z) { return c < z.first_cylinder; });
  return it == zones_.begin() ? *it : *(it - 1);
}

std::uint32_t DiskGeometry::sectors_per_track(std::uint32_t cylinder) const {
  return zone_of(cylinder).sectors_per_track;
}

std::uint32_t DiskGeometry::slot_in_zone(const Zone& z, std::uint32_t cz, std::uint32_t surface,
                                         std::uint32_t sector) const {
  const std::uint32_t spt = z.sectors_per_track;
  if (rules_.skew_origin == SkewOrigin::Disk) {
    const std::uint64_t c = std::uint64_t{z.first_cylinder} + cz;
    const std::uint64_t per_cylinder = std::uint64_t{heads_ - 1} * track_skew_ + cylinder_skew_;
    return static_cast<std::uint32_t>((c * per_cylinder + std::uint64_t{surface} * track_skew_ + sector) % spt);
  }
  // DiskSim 4.0 g1_map_pbn_skew: first-block offset, one track skew per track switch and one
  // cylinder skew per cylinder switch since the zone's first cylinder, and under the per-track and
  // per-cylinder sparing schemes one sector per slip on the tracks before this one.
  const std::uint64_t switches = surface + std::uint64_t{heads_ - 1} * cz;
  std::uint64_t slot = z.first_block_offset + switches * z.track_skew + std::uint64_t{cz} * z.cylinder_skew + sector;
  if (is_sector_per_cylinder(rules_.sparing) || rules_.sparing == SparingScheme::SectorPerTrack) {
    std::uint64_t tracks = std::uint64_t{cz} * heads_;
    if (rules_.sparing == SparingScheme::SectorPerTrack) tracks += surface;
    const std::uint64_t cutoff = tracks * spt;
    for (std::uint32_t i = 0; i < z.slip_count; ++i)
      if (slips_[z.slip_first + i] < cutoff) ++slot;
  }
  return static_cast<std::uint32_t>(slot % spt);
}

std::uint32_t DiskGeometry::slot_of(std::uint32_t cylinder, std::uint32_t head, std::uint32_t sector) const {
  const Zone& z = zone_of(cylinder);
  const std::uint32_t cz = cylinder >= z.first_cylinder ? cylinder - z.first_cylinder : 0;
  std::uint32_t surface = head;
  const bool odd = rules_.mapping == LbnMapping::CylSwitchOnSurface1   ? (cz % 2) == 1
                   : rules_.mapping == LbnMapping::CylSwitchOnSurface2 ? (cylinder % 2) == 1
                                                                       : false;
  if (odd) surface = heads_ - 1 - head;
  return slot_in_zone(z, cz, surface, sector);
}

DiskGeometry::Pbn DiskGeometry::map_in_zone(const Zone& z, std::uint64_t rel) const {
  // DiskSim 4.0 diskmodel/layout_g1.c, g1_ltop_* with MAP_FULL: slips and defects are visited
  // in the order the description lists them.
  const std::uint64_t S = z.sectors_per_track;
  const std::uint64_t H = heads_;
  const std::uint32_t* slip = slips_.data() + z.slip_first;
  const DefectRemap* defect = defects_.data() + z.defect_first;
  std::uint64_t pos = 0;  // zone-relative physical sector
  switch (rules_.sparing) {
    case SparingScheme::None:
      pos = rel;
      break;
    case SparingScheme::Track: {
      std::uint64_t track = rel / S;
      for (std::uint32_t i = 0; i < z.slip_count; ++i)
        if (slip[i] <= track) ++track;
      for (std::uint32_t i = 0; i < z.defect_count; ++i)
        if (defect[i].defect == track) {
          track = defect[i].remap;
          break;
        }
      pos = track * S + rel % S;
      break;
    }
    case SparingScheme::SectorPerTrack: {
      const std::uint64_t per_track = S - z.spares;
      std::uint64_t track = rel / per_track;
      std::uint64_t off = rel % per_track;
      const std::uint64_t first = track * S;
      for (std::uint32_t i = 0; i < z.slip_count; ++i)
        if (slip[i] >= first && slip[i] - first <= off) ++off;
      pos = first + off;
      for (std::uint32_t i = 0; i < z.defect_count; ++i)
        if (defect[i].defect == pos) pos = defect[i].remap;
      break;
    }
    case SparingScheme::SectorPerRange: {
      const std::uint64_t per_range = S * H * rules_.range_size;
      const std::uint64_t lbns = per_range - z.spares;
      const std::uint64_t range = rel / lbns;
      std::uint64_t off = rel % lbns;
      const std::uint64_t first = range * per_range;
      std::uint64_t slips = 0;
      for (std::uint32_t i = 0; i < z.slip_count; ++i)
        if (slip[i] >= first && slip[i] - first <= off + slips) ++slips;
      off += slips;
      for (std::uint32_t i = 0; i < z.defect_count; ++i)
        if (defect[i].defect == first + off && defect[i].remap != defect[i].defect) {
          off = defect[i].remap % per_range;
          break;
        }
      pos = first + off;
      break;
    }
    case SparingScheme::SectorPerZone:
    case SparingScheme::SectorPerZoneSlipToEnd: {
      std::uint64_t slips = 0;
      for (std::uint32_t i = 0; i < z.slip_count; ++i)
        if (slip[i] <= rel + slips) ++slips;
      pos = rel + slips;
      for (std::uint32_t i = 0; i < z.defect_count; ++i)
        if (defect[i].defect == pos && defect[i].remap != defect[i].defect) {
          pos = defect[i].remap;
          break;
        }
      break;
    }
    default: {  // the per-cylinder schemes and SectorAtEnd (DiskSim's g1_ltop_sectpercylspare)
      const std::uint64_t per_cyl = S * H;
      const std::uint64_t lbns = per_cyl - z.spares;
      std::uint64_t cyl = rel / lbns;
      std::uint64_t off = rel % lbns;
      const std::uint64_t first = cyl * per_cyl;
      const bool to_end = slips_to_end(rules_.sparing);
      std::uint64_t slips = 0;
      for (std::uint32_t i = 0; i < z.slip_count; ++i)
        if ((to_end && slip[i] / per_cyl < cyl) || (slip[i] >= first && slip[i] - first <= off + slips)) ++slips;
      off += slips;
      bool remapped = false;
      for (std::uint32_t i = 0; i < z.defect_count; ++i)
        if (defect[i].defect == first + off && defect[i].remap != defect[i].defect) {
          pos = defect[i].remap;
          remapped = true;
          break;
        }
      if (!remapped) {
        cyl += off / lbns;
        off %= lbns;
        if (spares_at_front(rules_.sparing)) off += z.spares;
        pos = cyl * per_cyl + off;
      }
      break;
    }
  }
  Pbn p;
  p.cylinder_in_zone = static_cast<std::uint32_t>(pos / (S * H));
  p.surface = static_cast<std::uint32_t>((pos / S) % H);
  p.sector = static_cast<std::uint32_t>(pos % S);
  return p;
}

PhysicalAddress DiskGeometry::locate(std::uint64_t lbn) const {
  if (lbn >= capacity_)
    throw std::out_of_range("LBN " + std::to_string(lbn) + " is beyond the capacity of " + std::to_string(capacity_) +
                            " blocks");
  auto it = std::upper_bound(zone_first_lbn_.begin(), zone_first_lbn_.end(), lbn) - 1;
  const Zone& z = zones_[static_cast<std::size_t>(it - zone_first_lbn_.begin())];
  const Pbn p = map_in_zone(z, lbn - *it + z.front_space);
  PhysicalAddress a;
  a.sectors_per_track = z.sectors_per_track;
  a.sector = p.sector;
  a.cylinder = z.first_cylinder + p.cylinder_in_zone;
  std::uint32_t head = p.surface;
  const bool odd = rules_.mapping == LbnMapping::CylSwitchOnSurface1   ? (p.cylinder_in_zone % 2) == 1
                   : rules_.mapping == LbnMapping::CylSwitchOnSurface2 ? (a.cylinder % 2) == 1
                                                                       : false;
  if (odd) head = heads_ - 1 - p.surface;
  a.head = head;
  a.slot = slot_in_zone(z, p.cylinder_in_zone, p.surface, p.sector);
  return a;
}

std::uint64_t DiskGeometry::run_blocks(std::uint64_t lbn, std::uint64_t limit) const {
  return run_blocks(lbn, limit, locate(lbn));
}

std::uint64_t DiskGeometry::run_blocks(std::uint64_t lbn, std::uint64_t limit, const PhysicalAddress& a) const {
  std::uint64_t n = std::min<std::uint64_t>({limit, a.sectors_per_track - a.sector, capacity_ - lbn});
  if (n <= 1) return n;
  // No spares and empty slip and defect lists (every zone's ranges lie in them): no zone has any,
  // the run is the rest of the track (below) without looking the zone up.
  if (rules_.sparing == SparingScheme::None && slips_.empty() && defects_.empty()) return n;
  auto it = std::upper_bound(zone_first_lbn_.begin(), zone_first_lbn_.end(), lbn) - 1;
  const Zone& z = zones_[static_cast<std::size_t>(it - zone_first_lbn_.begin())];
  // Without spares, slips or defects the zone's blocks sit on consecutive sectors, track after
  // track (map_in_zone: the physical sector is the zone-relative LBN): the run is the rest of the
  // track, which the zone's and the capacity's ends cannot cut short (a zone holds whole tracks).
  if (rules_.sparing == SparingScheme::None && z.slip_count == 0 && z.defect_count == 0) return n;
  auto follows = [&](std::uint64_t j) {  // block lbn + j sits j sectors after lbn on the same track
    const PhysicalAddress b = locate(lbn + j);
    return b.cylinder == a.cylinder && b.head == a.head && b.sector == a.sector + j;
  };
  // Slips only push blocks later on a track, so the run is unbroken unless a remapped defect
  // sits inside it and comes back: check each block only in a zone with defects.
  if (follows(n - 1) && z.defect_count == 0) return n;
  std::uint64_t k = 1;
  while (k < n && follows(k)) ++k;
  return k;
}

SeekTable::SeekTable(std::vector<std::uint32_t> distances, std::vector<Time> times)
    : distances_(std::move(distances)), times_(std::move(times)) {
  if (distances_.empty() || distances_.size() != times_.size())
    throw std::invalid_argument("seek table: needs >= 1 sample and as many times as distances");
  for (std::size_t i = 0; i < distances_.size(); ++i) {
    if (distances_[i] == 0 || (i > 0 && distances_[i] <= distances_[i - 1]))
      throw std::invalid_argument("seek table: distances must be >= 1 and strictly increasing");
  }
}

Time SeekTable::operator()(std::uint32_t d) const {
  if (d == 0) return Time{0};
  const std::size_t n = distances_.size();
  if (n == 1) return times_[0];
  std::size_t hi =
      static_cast<std::size_t>(std::lower_bound(distances_.begin(), distances_.end(), d) - distances_.begin());
  if (hi < n && distances_[hi] == d) return times_[hi];
  if (hi == 0) hi = 1;      // below the first sample: extrapolate from the first two
  if (hi >= n) hi = n - 1;  // beyond the last sample: extrapolate from the last two
  const double d0 = distances_[hi - 1], d1 = distances_[hi];
  const double t0 = static_cast<double>(times_[hi - 1].count()), t1 = static_cast<double>(times_[hi].count());
  const double t = t0 + (t1 - t0) * (static_cast<double>(d) - d0) / (d1 - d0);
  return Time{static_cast<std::int64_t>(t + 0.5)};
}

DiskGeometry ParameterPage::geometry() const {
  if (header.magic != kMagic) throw std::invalid_argument("parameter page: bad magic");
  if (header.version != kVersion) throw std::invalid_argument("parameter page: unknown layout version");
  if (header.kind != DeviceKind::Disk) throw std::invalid_argument("parameter page: not a disk's page");
  if (zone_count == 0 || zone_count > kMaxZones) throw std::invalid_argument("parameter page: bad zone count");
  if (slip_count > kMaxSlips) throw std::invalid_argument("parameter page: bad slip count");
  if (defect_count > kMaxDefects) throw std::invalid_argument("parameter page: bad defect count");
  return DiskGeometry(cylinders, heads, std::vector<Zone>(zones.begin(), zones.begin() + zone_count), track_skew,
                      cylinder_skew, rules, std::vector<std::uint32_t>(slips.begin(), slips.begin() + slip_count),
                      std::vector<DefectRemap>(defects.begin(), defects.begin() + defect_count), capacity_blocks);
}

SeekTable ParameterPage::seek_table() const {
  if (seek_sample_count == 0 || seek_sample_count > kMaxSeekSamples)
    throw std::invalid_argument("parameter page: bad seek sample count");
  std::vector<std::uint32_t> d(seek_distance.begin(), seek_distance.begin() + seek_sample_count);
  std::vector<Time> t;
  t.reserve(seek_sample_count);
  for (std::uint32_t i = 0; i < seek_sample_count; ++i) t.emplace_back(seek_time_ps[i]);
  return SeekTable(std::move(d), std::move(t));
}

}  // namespace drivevp
