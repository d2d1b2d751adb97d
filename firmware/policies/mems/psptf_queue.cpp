// P-SPTF (Lee et al.; 002 §3.1, eq. 2): Priority(x, y) = N(x, y) / time_position(x, y), N the
// requests queued at (x, y) over all regions (kept incrementally), time_position from the
// caller's predictor (eq. 1). The largest priority goes first, compared exactly in 128-bit
// integers with time_position taken as max(t, 1 ps); ties to the shorter positioning time, then
// the smaller x, then the smaller y (selection.h). One positioning call per distinct position.
#include "firmware/policies/mems/policies.h"
#include "firmware/policies/mems/selection.h"

namespace drivevp::mems_sched {

Queue::Pick PSptfQueue::pick(Time now, const Positioning& positioning, SledPosition) {
  const Scored b = best_position(index_, index_.zone_slots(0), now, positioning, CountNumerator{});
  return {b.slot, b.t};
}

}  // namespace drivevp::mems_sched
