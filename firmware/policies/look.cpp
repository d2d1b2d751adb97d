// LOOK, the elevator that reverses at the last request (Merten 1970; named in paper 003 §1.1.2,
// "changes scanning direction when no more requests are pending in the current direction").
//
// Rule: keep a sweep direction, initially toward higher cylinders. Serve the first request on the
// nearest pending cylinder at or beyond the arm in the current direction (requests on the arm's
// own cylinder count as ahead and are served first, earlier id first). When nothing is pending
// ahead, reverse the direction and serve the nearest request in the new direction. The arm never
// moves without a transfer (compare SCAN, scan.cpp). Idle when the queue is empty.
//
// Implemented by Elevator (elevator.h); each decision is O(log n) in the pending requests.
#include "firmware/policies/elevator.h"
#include "firmware/policies/policies.h"

namespace drivevp {

PolicyInfo describe_look() {
  return {"look",
          "LOOK",
          "elevator reversing at the last pending request, starting upward (paper 003 §1.1.2)",
          {},
          [](const PolicyParams&, std::string_view) { return std::make_unique<Elevator>("LOOK", false); }};
}

}  // namespace drivevp
