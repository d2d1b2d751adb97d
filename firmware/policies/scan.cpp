// SCAN, the elevator that sweeps edge to edge (Denning 1967; paper 003 §1.1.2 ref. [6]: "serves
// requests in an elevator-like manner as it sweeps the disk").
//
// Rule: keep a sweep direction, initially toward higher cylinders. Serve the first request on the
// nearest pending cylinder at or beyond the arm in the current direction (requests on the arm's
// own cylinder count as ahead and are served first, earlier id first). When nothing is pending
// ahead:
//   - if the arm is not yet at the edge of the sweep (cylinder cylinders()-1 going up, 0 going
//     down), return Reposition(edge): the arm completes the sweep without a transfer and the
//     controller asks again from the edge (a request that arrived meanwhile ahead of the arm is
//     then still served on the way, since the next call looks ahead again);
//   - at the edge, reverse and serve the nearest request in the new direction.
// With an empty queue the answer is Idle and the arm stays where it is (no sweep to the edge for
// nothing); the direction is kept.
//
// Implemented by Elevator (elevator.h); each decision is O(log n) in the pending requests.
#include "firmware/policies/elevator.h"
#include "firmware/policies/policies.h"

namespace drivevp {

PolicyInfo describe_scan() {
  return {"scan",
          "SCAN",
          "elevator sweeping to the disk edge before reversing, starting upward (paper 003 §1.1.2)",
          {},
          [](const PolicyParams&, std::string_view) { return std::make_unique<Elevator>("SCAN", true); }};
}

}  // namespace drivevp
