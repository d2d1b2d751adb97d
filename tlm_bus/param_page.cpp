#include "tlm_bus/param_page.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace drivevp {

DiskGeometry::DiskGeometry(std::uint32_t cylinders, std::uint32_t heads, std::vector<Zone> zones,
                           std::uint32_t track_skew, std::uint32_t cylinder_skew)
    : cylinders_(cylinders),
      heads_(heads),
      zones_(std::move(zones)),
      track_skew_(track_skew),
      cylinder_skew_(cylinder_skew) {
  if (cylinders_ == 0 || heads_ == 0) throw std::invalid_argument("geometry: cylinders and heads must be >= 1");
  if (zones_.empty()) throw std::invalid_argument("geometry: at least one zone is required");
  std::uint32_t next = 0;
  std::uint64_t lbn = 0;
  for (const Zone& z : zones_) {
    if (z.first_cylinder != next || z.cylinders == 0)
      throw std::invalid_argument("geometry: zones must tile the cylinders in order (zone starting at cylinder " +
                                  std::to_string(z.first_cylinder) + ", expected " + std::to_string(next) + ")");
    if (z.sectors_per_track == 0) throw std::invalid_argument("geometry: a zone has 0 sectors per track");
    zone_first_lbn_.push_back(lbn);
    lbn += std::uint64_t{z.cylinders} * heads_ * z.sectors_per_track;
    next += z.cylinders;
  }
  if (next != cylinders_)
    throw std::invalid_argument("geometry: zones cover " + std::to_string(next) + " cylinders, expected " +
                                std::to_string(cylinders_));
  capacity_ = lbn;
}

const Zone& DiskGeometry::zone_of(std::uint32_t cylinder) const {
  auto it = std::upper_bound(zones_.begin(), zones_.end(), cylinder,
                             [](std::uint32_t c, const Zone& z) { return c < z.first_cylinder; });
  return *(it - 1);
}

std::uint32_t DiskGeometry::sectors_per_track(std::uint32_t cylinder) const {
  return zone_of(cylinder).sectors_per_track;
}

std::uint32_t DiskGeometry::slot_of(std::uint32_t cylinder, std::uint32_t head, std::uint32_t sector) const {
  const std::uint32_t spt = sectors_per_track(cylinder);
  const std::uint64_t per_cylinder = std::uint64_t{heads_ - 1} * track_skew_ + cylinder_skew_;
  const std::uint64_t offset = std::uint64_t{cylinder} * per_cylinder + std::uint64_t{head} * track_skew_;
  return static_cast<std::uint32_t>((offset + sector) % spt);
}

PhysicalAddress DiskGeometry::locate(std::uint64_t lbn) const {
  if (lbn >= capacity_)
    throw std::out_of_range("LBN " + std::to_string(lbn) + " is beyond the capacity of " + std::to_string(capacity_) +
                            " blocks");
  auto it = std::upper_bound(zone_first_lbn_.begin(), zone_first_lbn_.end(), lbn) - 1;
  const Zone& z = zones_[static_cast<std::size_t>(it - zone_first_lbn_.begin())];
  const std::uint64_t rel = lbn - *it;
  const std::uint64_t track = rel / z.sectors_per_track;
  PhysicalAddress a;
  a.sectors_per_track = z.sectors_per_track;
  a.sector = static_cast<std::uint32_t>(rel % z.sectors_per_track);
  a.cylinder = z.first_cylinder + static_cast<std::uint32_t>(track / heads_);
  a.head = static_cast<std::uint32_t>(track % heads_);
  a.slot = slot_of(a.cylinder, a.head, a.sector);
  return a;
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
  if (header.version != 2) throw std::invalid_argument("parameter page: unknown layout version");
  if (header.kind != DeviceKind::Disk) throw std::invalid_argument("parameter page: not a disk's page");
  if (zone_count == 0 || zone_count > kMaxZones) throw std::invalid_argument("parameter page: bad zone count");
  return DiskGeometry(cylinders, heads, std::vector<Zone>(zones.begin(), zones.begin() + zone_count), track_skew,
                      cylinder_skew);
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
