// SPTF, Shortest Positioning Time First (Seltzer, Chen & Ousterhout, "Disk scheduling revisited",
// USENIX 1990; Jacobson & Wilkes, HPL-CSP-91-7, 1991; Worthington, Ganger & Patt, SIGMETRICS 1994;
// named in 003 §1.1.2 and 002 §2.2).
//
// Rule: serve the pending request with the smallest predicted access time
// Predictor::estimate(ctx.position, ctx.now, lbn, op).access() from the arm's current
// cylinder and head, starting at ctx.now: the firmware's own command path to the seek (one bus
// burst for a read; for a write also the data DMA into the sector buffer), the seek (+ settle, or
// head switch), the command path from the seek's end to the read channel, and the rotational
// latency after it (firmware/predictor.h). Ranking on this rather than on seek + rotation alone is
// what DiskSim 4.0 does (read/write delay + access time, `src/disksim_ioqueue.c`); the two differ
// only by the write's longer command path. Ties go to the earlier command id. The Serve decision
// carries the predicted positioning time seek + rotation (picoseconds), the quantity requests.csv
// measures. Transfer time and request length are not considered; the prediction is for the first
// block.
//
// Implemented by ShortestPositioningFirst (shortest_positioning.h) with age weight 0.
#include "firmware/policies/mems/mems_policy.h"
#include "firmware/policies/policies.h"
#include "firmware/policies/shortest_positioning.h"

namespace drivevp {

PolicyInfo describe_sptf() {
  return {"sptf",
          "SPTF",
          "shortest predicted access time (command path + seek + rotation) first, ties by arrival (Seltzer, "
          "Chen & Ousterhout 1990; Worthington, Ganger & Patt 1994)",
          {},
          [](const PolicyParams& params, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            if (device == "mems") return make_mems_policy("sptf", params);
            return std::make_unique<ShortestPositioningFirst>("SPTF", 0.0);
          }};
}

}  // namespace drivevp
