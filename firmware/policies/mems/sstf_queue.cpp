// SSTF on a MEMS device. 002 §2.2 defines SSTF as serving from the smallest seek time and cites
// Griffin et al. (OSDI 2000) for mapping disk seek to the sled's X movement and rotational
// latency to its Y movement; so the position with the smallest X distance |x - sled.x| goes
// first, then the smallest Y distance |y - sled.y|, then the smaller x, then the smaller y.
// Distances are in position indices (cylinders, rows); no positioning call is made (the Batch's
// positioning is -1). O(P) per decision over P distinct queued positions.
#include <tuple>

#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {

namespace {
std::uint32_t dist(std::uint32_t a, std::uint32_t b) { return a > b ? a - b : b - a; }
}  // namespace

Queue::Pick SstfQueue::pick(Time, const Positioning&, SledPosition sled) {
  bool first = true;
  std::uint32_t best = 0;
  std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t> best_key{};
  for (std::uint32_t s : index_.zone_slots(0)) {
    const auto& slot = index_.slot(s);
    const auto k = std::make_tuple(dist(slot.x, sled.x), dist(slot.y, sled.y), slot.x, slot.y);
    if (first || k < best_key) {
      best = s;
      best_key = k;
      first = false;
    }
  }
  return {best, Time{-1}};
}

}  // namespace drivevp::mems_sched
