// Aged SPTF, ASPTF(W) (Worthington, Ganger & Patt, "Scheduling algorithms for modern disk drives",
// SIGMETRICS 1994, paper 002 ref. [5]; the aged SATF of Jacobson & Wilkes, HPL-CSP-91-7, 1991,
// paper 003 ref. [12]): SPTF with an aging term that bounds starvation.
//
// Rule: for each pending request compute
//     effective = access - (W / 1000) * (ctx.now - command.arrival)
// where access is Predictor::estimate(ctx.position, ctx.now, lbn, op).access() (the
// firmware's command path to the seek + seek + rotational latency, as SPTF ranks, sptf.cpp) and W
// (parameter `age_weight`, per mille, [0, 1e9], default 6) weighs the time the request has waited
// since the host submitted it. W is per mille as in DiskSim 4.0, written by the same authors
// (`src/disksim_ioqueue.c`, `ioqueue_get_request_from_opt_sptf_queue`: delay - age x W x 0.001):
// ASPTF(6) takes 6 us off a request's access time for every ms it has waited. Serve the request
// with the smallest effective value; ties go to the earlier command id. W = 0 is SPTF. The order
// is exactly FCFS (arrival order) when W / 1000 times the smallest gap between two arrivals
// exceeds the largest spread of access times (on the HP 97560 under 40 ms: W = 1e9 needs arrivals
// more than 40 ns apart). The Serve decision carries the predicted positioning time (seek +
// rotation, not the effective value), in picoseconds. The arithmetic is in double
// (shortest_positioning.h).
//
// Implemented by ShortestPositioningFirst (shortest_positioning.h).
#include "firmware/policies/policies.h"
#include "firmware/policies/shortest_positioning.h"

namespace drivevp {

PolicyInfo describe_aged_sptf() {
  return {"aged_sptf",
          "ASPTF(W)",
          "SPTF on access time - (W / 1000) x waiting time (Worthington, Ganger & Patt, SIGMETRICS 1994; "
          "Jacobson & Wilkes 1991 aged SATF; W per mille as in DiskSim 4.0)",
          {PolicyParameter::number(
              "age_weight", 6, 0, 1e9, "per mille",
              "W, per mille: W / 1000 ps of access time off per ps of waiting (6: 6 us per ms); Worthington, "
              "Ganger & Patt, SIGMETRICS 1994, ASPTF(W); DiskSim 4.0 ioqueue_get_request_from_opt_sptf_queue")},
          [](const PolicyParams& p, std::string_view) {
            return std::make_unique<ShortestPositioningFirst>("ASPTF(W)", p.at("age_weight"));
          }};
}

}  // namespace drivevp
