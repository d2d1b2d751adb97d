// Aged SPTF, ASPTF(W) (Worthington, Ganger & Patt, "Scheduling algorithms for modern disk drives",
// SIGMETRICS 1994, paper 002 ref. [5]; the aged SATF of Jacobson & Wilkes, HPL-CSP-91-7, 1991,
// paper 003 ref. [12]): SPTF with an aging term that bounds starvation.
//
// Rule: for each pending request compute
//     effective = access - W * (ctx.now - command.arrival)
// where access is PositioningPredictor::predict(ctx.head, ctx.now, lbn, op).access() (as SPTF
// ranks, sptf.cpp) and
// W (parameter `age_weight`, dimensionless, [0, 1000], default 6) weighs the time the request has
// waited since the host submitted it. Serve the request with the smallest effective value; ties
// go to the earlier command id. W = 0 is SPTF; a W large against the spread of access times
// serves in arrival order (FCFS). The Serve decision carries the predicted positioning time (not
// the effective value), in picoseconds. The arithmetic is in double: positioning times and ages
// of simulated runs are exact in a double's 53-bit mantissa at picosecond resolution up to ~2.5
// hours.
//
// Implemented by ShortestPositioningFirst (shortest_positioning.h).
#include "firmware/policies/policies.h"
#include "firmware/policies/shortest_positioning.h"

namespace drivevp {

PolicyInfo describe_aged_sptf() {
  return {
      "aged_sptf",
      "ASPTF(W)",
      "SPTF on positioning - W x waiting time (Worthington, Ganger & Patt, SIGMETRICS 1994; "
      "Jacobson & Wilkes 1991 aged SATF)",
      {{"age_weight", 6, 0, 1000, "",
        "W, weight of the waiting time subtracted from the predicted positioning time (dimensionless); "
        "Worthington, Ganger & Patt, SIGMETRICS 1994, ASPTF(W)"}},
      [](const PolicyParams& p) { return std::make_unique<ShortestPositioningFirst>("ASPTF(W)", p.at("age_weight")); }};
}

}  // namespace drivevp
