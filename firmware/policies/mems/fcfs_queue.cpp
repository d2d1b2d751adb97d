// FCFS on a MEMS device (002 §2.2): the oldest queued request (smallest arrival, then smallest
// id) decides the position; the batch then gathers the other requests at that (x, y) in other
// regions, oldest first (queue.h). O(log n) per enqueue/remove, O(k log k) per decision for the
// k requests at the chosen position.
#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {

Queue::Pick FcfsQueue::pick(Time, const Positioning&, SledPosition) {
  const Request& oldest = index_.request(order_.begin()->second);
  return {*index_.find(oldest.x, oldest.y), Time{-1}};
}

}  // namespace drivevp::mems_sched
