// The small hand-built disk of the policy unit tests (test_policies.cpp,
// test_deadline_policies.cpp): a parameter page simple enough that every expected service order
// can be worked out by hand, and the firmware's DiskPredictor built from it. Plain C++.
#pragma once

#include <cstdint>

#include "firmware/disk_predictor.h"
#include "tlm_bus/command.h"

namespace drivevp::testdisk {

constexpr std::uint32_t kCylinders = 100;
constexpr std::uint32_t kHeads = 2;
constexpr std::uint32_t kSpt = 10;

constexpr Time us(std::int64_t v) { return Time{v * 1'000'000}; }
constexpr Time ms(std::int64_t v) { return us(v * 1000); }

/// 100 cylinders, 2 heads, one zone of 10 sectors per track, no skew, 10 ms per revolution (so
/// slot s starts at phase s ms), seek table 1 -> 1 ms, 10 -> 2 ms, 99 -> 5 ms, settle 0,
/// head switch 0.5 ms. LBN = (20 c + 10 h + s).
inline ParameterPage small_page() {
  ParameterPage p;
  p.cylinders = kCylinders;
  p.heads = kHeads;
  p.zone_count = 1;
  p.zones[0] = Zone{0, kCylinders, kSpt};
  p.seek_sample_count = 3;
  p.seek_distance[0] = 1;
  p.seek_distance[1] = 10;
  p.seek_distance[2] = 99;
  p.seek_time_ps[0] = ms(1).count();
  p.seek_time_ps[1] = ms(2).count();
  p.seek_time_ps[2] = ms(5).count();
  p.rotation_period_ps = ms(10).count();
  p.head_switch_ps = us(500).count();
  p.settle_ps = 0;
  p.capacity_blocks = std::uint64_t{kCylinders} * kHeads * kSpt;
  return p;
}

/// The firmware's predictor of small_page() (built once per process).
inline const DiskPredictor& predictor() {
  static const DiskPredictor pred(small_page(), Time{0});
  return pred;
}

}  // namespace drivevp::testdisk
