// PA-SPTF (Lee et al.; 002 §3.2, eq. 3): Priority(x, y) = Σ W(x, y) / time_position(x, y), the
// summed waiting times of the requests at (x, y) at `now`, computed from the incrementally kept
// count and arrival sum as N(x, y) * now - Σ arrival (no per-request pass). The largest goes
// first, exactly as P-SPTF's rule (selection.h); when every waiting time is 0 (all arrived at
// `now`) the tie rule makes it SPTF.
#include "firmware/policies/mems/policies.h"
#include "firmware/policies/mems/selection.h"

namespace drivevp::mems_sched {

Queue::Pick PaSptfQueue::pick(Time now, const Positioning& positioning, SledPosition) {
  const Scored b = best_position(index_, index_.zone_slots(0), now, positioning, WaitNumerator{});
  return {b.slot, b.t};
}

}  // namespace drivevp::mems_sched
