// SPTF, Shortest Positioning Time First (Seltzer, Chen & Ousterhout, "Disk scheduling revisited",
// USENIX 1990; Jacobson & Wilkes, HPL-CSP-91-7, 1991; Worthington, Ganger & Patt, SIGMETRICS 1994;
// named in paper 003 §1.1.2 and paper 002 §2.2).
//
// Rule: serve the pending request with the smallest predicted positioning time (seek + settle or
// head switch, plus rotational latency) from the arm's current cylinder and head, starting at
// ctx.now, as given by the firmware's PositioningPredictor::predict(). Ties go to the earlier
// command id. The Serve decision carries that predicted positioning time (picoseconds).
// Transfer time and request length are not considered; the prediction is for the first block.
//
// Implemented by ShortestPositioningFirst (shortest_positioning.h) with age weight 0.
#include "firmware/policies/policies.h"
#include "firmware/policies/shortest_positioning.h"

namespace drivevp {

PolicyInfo describe_sptf() {
  return {"sptf",
          "SPTF",
          "shortest predicted positioning time (seek + rotation) first, ties by arrival (Seltzer, Chen & "
          "Ousterhout 1990; Worthington, Ganger & Patt 1994)",
          {},
          [](const PolicyParams&) { return std::make_unique<ShortestPositioningFirst>("SPTF", 0.0); }};
}

}  // namespace drivevp
