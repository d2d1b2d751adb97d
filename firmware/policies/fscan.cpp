// FSCAN (Coffman, Klimko & Ryan, "Analysis of scanning policies for reducing disk seek times",
// SIAM J. Computing 1(3), 1972; paper 000 §2: "uses two queues ... While this queue is being
// processed, all other arriving requests will be kept in another queue ... Once all the requests
// from the original queue have been serviced, it becomes the backup queue").
//
// Rule: two queues. The active queue is served with SCAN (batched_scan.h: the elevator of
// scan.cpp, sweeping to the edge, direction kept across swaps); every request arriving once its
// service has started goes to the other queue; when the active queue is empty the two swap. A
// request is thus never served before one that was already in the active queue when it arrived.
// While the disk is idle, arrivals join the queue that will be served next.
#include "firmware/policies/batched_scan.h"
#include "firmware/policies/policies.h"

namespace drivevp {

PolicyInfo describe_fscan() {
  return {"fscan",
          "FSCAN",
          "SCAN over a frozen queue while arrivals collect in a second one; swap when it empties (Coffman, Klimko & "
          "Ryan 1972; paper 000 §2)",
          {},
          [](const PolicyParams&, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
            return std::make_unique<BatchedScan>("FSCAN", 0);
          }};
}

}  // namespace drivevp
