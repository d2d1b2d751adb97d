// ZPSPTF (002 §3.3): zones as ZSPTF's (002 §4: 25 x 3 per region), P-SPTF both to choose the next
// zone (N(zone) / shortest positioning time into it) and inside the zone (zone_queue.cpp).
#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {

ZpsptfQueue::ZpsptfQueue(const Geometry& g) : ZoneQueue(g, Inter::PSptf, Intra::PSptf) {}

}  // namespace drivevp::mems_sched
