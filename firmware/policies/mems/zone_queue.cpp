// The zone engine of ZSPTF, ZSCAN-PSPTF and ZPSPTF (002 §3.2, §3.3; zones: queue.h).
// The current zone is served until it has no queued request (arrivals into it while it is being
// served are served in the same visit), then the next zone is chosen:
// - C-SCAN (ZSPTF): the next zone with queued requests at a higher index, else wrapping to the
//   lowest such index.
// - SCAN (ZSCAN-PSPTF): the next zone with queued requests in the current direction; when there
//   is none, the direction reverses. Zones are only visited to serve them, so sweeping on to the
//   end zone before reversing (SCAN) and reversing at the last occupied zone (LOOK) give the same
//   service order.
// - P-SPTF over zones (ZPSPTF): the zone with the largest N(zone) / t(zone), t(zone) the shortest
//   positioning time to a queued position in it; ties to the shorter t(zone), then the lower
//   index. (002 does not say what a zone's positioning time is; the nearest queued position is
//   where serving the zone would start.)
// C-SCAN and SCAN: before the first choice the "current" zone is the sled's; it is served first
// when it holds requests, else the search starts from it. Zone indices run X-major: z = zx * zones_y + zy, so C-SCAN
// and SCAN sweep along X (the seek-dominant axis, 002 §2.1) and through Y within one X band. Cost: a zone change is
// O(Z) (C-SCAN, SCAN) or O(P) positioning calls (P-SPTF over zones); the choice inside a zone is O(P_z) positioning
// calls for the P_z occupied positions of the zone.
#include <vector>

#include "firmware/policies/mems/policies.h"
#include "firmware/policies/mems/selection.h"

namespace drivevp::mems_sched {

std::uint32_t ZoneQueue::next_zone(Time now, const Positioning& positioning, SledPosition sled) {
  const std::uint32_t zones = index_.zone_count();
  const std::uint32_t start = current_ ? *current_ : index_.zone_of(sled.x, sled.y);
  if (inter_ != Inter::PSptf && index_.zone_size(start) > 0) return start;
  switch (inter_) {
    case Inter::CScan:
      for (std::uint32_t i = 1; i < zones; ++i) {
        const std::uint32_t z = (start + i) % zones;
        if (index_.zone_size(z) > 0) return z;
      }
      break;
    case Inter::Scan:
      for (int pass = 0; pass < 2; ++pass) {
        for (std::int64_t z = std::int64_t{start} + direction_; z >= 0 && z < std::int64_t{zones}; z += direction_)
          if (index_.zone_size(static_cast<std::uint32_t>(z)) > 0) return static_cast<std::uint32_t>(z);
        direction_ = -direction_;
      }
      break;
    case Inter::PSptf: {
      Scored best;
      bool first = true;
      for (std::uint32_t z = 0; z < zones; ++z) {
        if (index_.zone_size(z) == 0) continue;
        Scored c;
        c.num = static_cast<Int128>(index_.zone_size(z));
        c.order = z;
        c.slot = z;
        bool first_slot = true;
        for (std::uint32_t s : index_.zone_slots(z)) {
          const Time t = checked_positioning(positioning, index_.slot(s).x, index_.slot(s).y);
          if (first_slot || t < c.t) c.t = t;
          first_slot = false;
        }
        if (first || goes_first(c, best)) best = c;
        first = false;
      }
      (void)now;
      return best.slot;
    }
  }
  return start;  // unreachable with a non-empty queue
}

Queue::Pick ZoneQueue::pick(Time now, const Positioning& positioning, SledPosition sled) {
  if (!current_ || index_.zone_size(*current_) == 0) current_ = next_zone(now, positioning, sled);
  const auto& slots = index_.zone_slots(*current_);
  const Scored b = intra_ == Intra::Sptf ? best_position(index_, slots, now, positioning, UnitNumerator{})
                                         : best_position(index_, slots, now, positioning, CountNumerator{});
  return {b.slot, b.t};
}

}  // namespace drivevp::mems_sched
