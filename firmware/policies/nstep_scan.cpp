// N-step SCAN (Teorey & Pinkerton, "A comparative analysis of disk scheduling policies", CACM
// 15(3), 1972; paper 000 §2: "divides the request queue into sub queues of length N ... processed
// using SCAN inside each sub queue ... If any request comes for service it will have to wait in
// the separate queue").
//
// Rule: arrivals are grouped, in arrival order, into subqueues of at most N requests; the oldest
// subqueue is served with SCAN (batched_scan.h: the elevator of scan.cpp, sweeping to the edge,
// its direction kept from one subqueue to the next) and, once its service has started, takes no
// new arrival: they join the newest subqueue while it holds fewer than N, else start another.
// When the subqueue in service is empty the next one starts. A request is thus never served
// before one that arrived in an earlier subqueue. N = 1 is FCFS; a large N approaches FSCAN
// (fscan.cpp), which has no limit.
#include "firmware/policies/batched_scan.h"
#include "firmware/policies/policies.h"

namespace drivevp {

PolicyInfo describe_nstep_scan() {
  return {"nstep_scan",
          "N-step SCAN",
          "SCAN over subqueues of N arrivals; arrivals wait for a later subqueue (Teorey & Pinkerton, CACM 1972; paper "
          "000 §2)",
          {PolicyParameter::integer("nstep_n", 10, 1, 1e6, "requests",
                                    "N-step SCAN: most requests per subqueue, N (Teorey & Pinkerton 1972 leave N "
                                    "free; 10 is this model's choice)")},
          [](const PolicyParams& p, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
            return std::make_unique<BatchedScan>("N-step SCAN", static_cast<std::size_t>(p.at("nstep_n")));
          }};
}

}  // namespace drivevp
