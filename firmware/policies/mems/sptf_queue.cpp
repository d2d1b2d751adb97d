// SPTF on a MEMS device (002 §2.2; Worthington, Ganger & Patt 1994): the position with the
// shortest positioning time (002 eq. 1, from the caller's predictor); ties to the smaller x, then
// the smaller y. One positioning call per distinct queued position.
#include "firmware/policies/mems/policies.h"
#include "firmware/policies/mems/selection.h"

namespace drivevp::mems_sched {

Queue::Pick SptfQueue::pick(Time now, const Positioning& positioning, SledPosition) {
  const Scored b = best_position(index_, index_.zone_slots(0), now, positioning, UnitNumerator{});
  return {b.slot, b.t};
}

}  // namespace drivevp::mems_sched
