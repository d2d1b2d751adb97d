#include "hw_models/disk/disk_params.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace drivevp {

Time SeekCurve::operator()(std::uint32_t d) const {
  if (d == 0) return Time{0};
  if (d <= first_ms.size()) return from_ms(first_ms[d - 1]);
  const double x = static_cast<double>(d);
  const double ms =
      d <= short_max_distance ? short_const_ms + short_sqrt_ms * std::sqrt(x) : long_const_ms + long_linear_ms * x;
  return from_ms(ms);
}

Time DiskParams::rotation_period() const { return from_s(60.0 / rpm); }

Time DiskParams::seek_time(std::uint32_t d) const {
  return seek_table.distances().empty() ? seek_curve(d) : seek_table(d);
}

DiskGeometry DiskParams::geometry() const {
  if (layout_rules.skew_origin == SkewOrigin::Disk && layout_rules.sparing == SparingScheme::None &&
      layout_rules.mapping == LbnMapping::Normal && slips.empty() && defects.empty() && block_count == 0)
    return DiskGeometry(cylinders, heads, zones, track_skew, cylinder_skew);
  return DiskGeometry(cylinders, heads, zones, track_skew, cylinder_skew, layout_rules, slips, defects, block_count);
}

void DiskParams::validate() const {
  auto bad = [](const std::string& key, const std::string& allowed) {
    throw std::invalid_argument("device." + key + " must be " + allowed);
  };
  if (cylinders < 1 || cylinders > 10'000'000) bad("cylinders", "in [1, 10000000]");
  if (heads < 1 || heads > 1024) bad("heads", "in [1, 1024]");
  if (!(rpm >= 60 && rpm <= 100'000)) bad("rpm", "in [60, 100000]");
  if (zones.empty() || zones.size() > ParameterPage::kMaxZones) bad("zones", "1 to 64 zones");
  const bool zone_skews = layout_rules.skew_origin == SkewOrigin::Zone;
  for (const Zone& z : zones) {
    if (z.sectors_per_track < 1 || z.sectors_per_track > 100'000) bad("sectors_per_track", "in [1, 100000]");
    if ((zone_skews ? z.track_skew : track_skew) >= z.sectors_per_track)
      bad("track_skew", "less than the sectors per track");
    if ((zone_skews ? z.cylinder_skew : cylinder_skew) >= z.sectors_per_track)
      bad("cylinder_skew", "less than the sectors per track");
  }
  if (slips.size() > ParameterPage::kMaxSlips) bad("slips", "at most 1024 in all");
  if (defects.size() > ParameterPage::kMaxDefects) bad("defects", "at most 256 in all");
  if (!(head_switch_ms >= 0 && head_switch_ms <= 1000)) bad("head_switch_ms", "in [0, 1000]");
  if (!(settle_ms >= 0 && settle_ms <= 1000)) bad("settle_ms", "in [0, 1000]");
  if (!(write_settle_ms >= -1000 && write_settle_ms <= 1000)) bad("write_settle_ms", "in [-1000, 1000]");
  if (!(command_overhead_ms >= 0 && command_overhead_ms <= 1000)) bad("command_overhead_ms", "in [0, 1000]");
  if (seek_calibration_samples < 2 || seek_calibration_samples > ParameterPage::kMaxSeekSamples)
    bad("seek_calibration_samples", "in [2, 128]");
  if (seek_table.distances().empty()) {
    const SeekCurve& c = seek_curve;
    if (!(c.short_const_ms >= 0 && c.short_sqrt_ms >= 0 && c.long_const_ms >= 0 && c.long_linear_ms >= 0))
      bad("seek_curve", "non-negative coefficients");
  }
  if (features.cache.fast_write_level > 0 && !features.cache.enabled)
    bad("cache.fast_write_level", "0 unless device.cache.enabled = true (write-back keeps its data in the cache)");
  (void)geometry();  // zone tiling
}

ParameterPage DiskParams::parameter_page() const {
  ParameterPage p;
  p.header.page_bytes = sizeof(ParameterPage);
  p.cylinders = cylinders;
  p.heads = heads;
  p.track_skew = track_skew;
  p.cylinder_skew = cylinder_skew;
  p.zone_count = static_cast<std::uint32_t>(zones.size());
  std::copy(zones.begin(), zones.end(), p.zones.begin());
  p.rotation_period_ps = rotation_period().count();
  p.head_switch_ps = head_switch().count();
  p.settle_ps = settle().count();
  p.command_overhead_ps = from_ms(command_overhead_ms).count();
  const DiskGeometry g = geometry();
  p.capacity_blocks = g.capacity_blocks();
  p.rules = g.rules();
  p.write_settle_ps = write_settle().count();
  p.slip_count = static_cast<std::uint32_t>(slips.size());
  std::copy(slips.begin(), slips.end(), p.slips.begin());
  p.defect_count = static_cast<std::uint32_t>(defects.size());
  std::copy(defects.begin(), defects.end(), p.defects.begin());
  // Calibration distances: every distance up to a dense limit (at most 32, and at most a third
  // of the samples), the curve's branch points, a full stroke, and the rest spread
  // geometrically between the dense limit and a full stroke.
  const std::uint32_t max_d = cylinders > 1 ? cylinders - 1 : 1;
  const std::uint32_t dense =
      std::max<std::uint32_t>(1, std::min<std::uint32_t>({32, max_d, seek_calibration_samples / 3}));
  std::set<std::uint32_t> ds;
  for (std::uint32_t d = 1; d <= dense; ++d) ds.insert(d);
  ds.insert(max_d);
  if (seek_table.distances().empty()) {
    for (std::uint32_t d : {seek_curve.short_max_distance, seek_curve.short_max_distance + 1})
      if (d > dense && d < max_d && ds.size() + 2 <= seek_calibration_samples) ds.insert(d);
  }
  // Geometric fill; points that round onto existing ones are retried with a finer spacing.
  for (int pass = 0; pass < 8 && ds.size() < seek_calibration_samples && max_d > dense + 1; ++pass) {
    const std::size_t fill = seek_calibration_samples - ds.size();
    const double ratio = std::pow(static_cast<double>(max_d) / dense, 1.0 / static_cast<double>(fill + 1));
    double x = dense;
    for (std::size_t k = 0; k < fill && ds.size() < seek_calibration_samples; ++k) {
      x *= ratio;
      const auto d = static_cast<std::uint32_t>(std::lround(x));
      if (d > dense && d < max_d) ds.insert(d);
    }
  }
  std::size_t i = 0;
  for (std::uint32_t d : ds) {
    if (i >= seek_calibration_samples || i >= ParameterPage::kMaxSeekSamples) break;
    p.seek_distance[i] = d;
    p.seek_time_ps[i] = seek_time(d).count();
    ++i;
  }
  p.seek_sample_count = static_cast<std::uint32_t>(i);
  return p;
}

DiskParams hp97560() {
  DiskParams p;
  p.preset = "hp97560";
  p.cylinders = 1962;                              // 001 §5, 004 Table 2
  p.heads = 19;                                    // 001 §5, 004 Table 2
  p.zones = {Zone{0, 1962, 72}};                   // 72 x 512 B sectors per track, 001 §5
  p.track_skew = 8;                                // Ruemmler & Wilkes 1994
  p.cylinder_skew = 18;                            // Ruemmler & Wilkes 1994
  p.rpm = 4002;                                    // 001 §5, 004 Table 2
  p.seek_curve = {3.24, 0.400, 8.00, 0.008, 382};  // 004 Table 2: d < 383 short branch
  p.head_switch_ms = 1.6;                          // Ruemmler & Wilkes 1994
  p.settle_ms = 0;                                 // included in the published curve
  p.command_overhead_ms = 2.2;                     // Ruemmler & Wilkes 1994
  return p;
}

DiskParams disk003() {
  DiskParams p;
  p.preset = "disk003";
  p.cylinders = 6720;              // 003 Table 1
  p.heads = 12;                    // assumed: 003 gives no head count (docs/models/disk.md)
  p.zones = {Zone{0, 6720, 199}};  // 1 zone (003 Table 1); 199 x 512 B = 101,888 B > 90 KB;
                                   // 199 sectors / 6 ms = 16.98 MB/s ~ 17 MB/s (Table 1)
  p.track_skew = 27;               // assumed: covers the head switch (0.8 ms = 26.5 sectors)
  p.cylinder_skew = 67;            // assumed: covers a 1-cylinder seek (2.00 ms = 66.3 sectors)
  p.rpm = 10000;                   // 003 Table 1: 6 ms per revolution
  // 003 eq. (1); the paper labels it msec but the values are seconds (parameters.md): branches
  // meet at d = 1344.
  p.seek_curve = {1.867, 0.1315, 3.8635, 0.0021, 1344};
  p.head_switch_ms = 0.8;     // assumed: typical of 10,000 RPM drives of 003's time
  p.settle_ms = 0;            // included in eq. (1)
  p.command_overhead_ms = 0;  // 003 §3.2: service = seek + rotation + transfer
  return p;
}

DiskParams disk003_projected() {
  // 003 §5: four years of 8 %/year faster seeks, 20 %/year faster rotation and at least 20 %/year
  // more transfer rate (docs/models/disk.md "disk003_projected").
  constexpr double kSeek = 0.92 * 0.92 * 0.92 * 0.92;  // 0.71639296
  DiskParams p = disk003();
  p.preset = "disk003_projected";
  p.rpm = 10000 * 1.2 * 1.2 * 1.2 * 1.2;  // 20,736 RPM, 2.894 ms per revolution
  // Same 199 sectors per track: the transfer rate grows with the rotation, x 2.0736 = 35.25 MB/s
  // (the "at least 20 %/year" of 003 §5 met exactly).
  p.seek_curve = {1.867 * kSeek, 0.1315 * kSeek, 3.8635 * kSeek, 0.0021 * kSeek, 1344};
  p.head_switch_ms = 0.8 * kSeek;  // assumed to improve with the seek: 0.573 ms
  p.track_skew = 40;               // covers the head switch: 0.573 ms / 14.54 us per sector = 39.4
  p.cylinder_skew = 99;            // covers a 1-cylinder seek: 1.432 ms / 14.54 us = 98.5
  return p;
}

DiskParams disk_preset(std::string_view name) {
  if (name == "hp97560") return hp97560();
  if (name == "disk003") return disk003();
  if (name == "disk003_projected") return disk003_projected();
  throw std::invalid_argument("unknown device preset '" + std::string(name) + "'");
}

std::vector<std::string> disk_preset_names() { return {"hp97560", "disk003", "disk003_projected"}; }

}  // namespace drivevp
