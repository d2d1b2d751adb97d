// ZSPTF (Hong et al., 002 refs [1, 17]; 002 §2.2, §3.2): each region divided into rectangular
// zones (queue.h); zones served in C-SCAN order, SPTF inside a zone (zone_queue.cpp).
#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {

ZsptfQueue::ZsptfQueue(const Geometry& g) : ZoneQueue(g, Inter::CScan, Intra::Sptf) {}

}  // namespace drivevp::mems_sched
