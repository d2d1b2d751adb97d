// ZSCAN-PSPTF (002 §3.3): zones as ZSPTF's (002 §4: 25 x 3 per region), inter-zone order SCAN,
// intra-zone order P-SPTF (eq. 2) (zone_queue.cpp).
#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {

ZscanPsptfQueue::ZscanPsptfQueue(const Geometry& g) : ZoneQueue(g, Inter::Scan, Intra::PSptf) {}

}  // namespace drivevp::mems_sched
