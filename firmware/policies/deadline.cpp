// deadline, the Linux kernel's deadline elevator (block/deadline-iosched.c, and its multi-queue
// form mq-deadline, block/mq-deadline.c), with the tunables of its documentation
// (Documentation/block/deadline-iosched.rst) as parameters; paper 000 §2: "four queues ... one
// deadline queue and one sector sorted queue for both reads and writes".
//
// Rule. Reads and writes are queued apart, each in sector (LBN) order and in a FIFO; a request's
// expiry is its enqueue time plus read_expire (reads) or write_expire (writes). Requests are
// dispatched in batches of one direction, up to fifo_batch requests (a merge chain counts as one,
// as a merged request does in the kernel), each the next request in sector order after the last
// one dispatched; expiries are checked only between batches. A batch ends early when no request
// of its direction follows the last one in sector order. At a batch start:
//   - reads are preferred, unless writes are waiting and reads have been preferred over them
//     writes_starved times already (counter `starved`: incremented at each batch start that
//     chose reads while writes waited, reset when a write batch starts);
//   - in the chosen direction, the batch starts from the FIFO head (the oldest request) if it has
//     expired, or if no request follows the last one dispatched in this direction (switching
//     direction: the kernel clears the other direction's "next request"), else from that next
//     request.
// Dispatch takes the request with its merge chain (SectorQueue::take_chain; back merges always,
// front merges when front_merges is on), served as one batch in LBN order; on MEMS no merging.
//
// Simplified vs the kernel: the expiry is measured from the controller's enqueue (ctx.now), not
// the block layer's; mq-deadline's I/O priority levels, prio_aging_expire, zoned-write handling
// and async_depth are absent; after the last request in sector order the batch ends and the next
// starts from the FIFO head (deadline-iosched.c; mq-deadline 6.x continues from a remembered
// position, which gives the same order here); merges as SectorQueue describes.
#include <cmath>

#include "firmware/policies/deadline_core.h"
#include "firmware/policies/policies.h"

namespace drivevp {

PolicyInfo describe_deadline() {
  return {
      "deadline",
      "deadline",
      "Linux deadline / mq-deadline elevator: sector-sorted read and write batches, FIFO expiry, write "
      "starvation limit, front merges (Documentation/block/deadline-iosched.rst; paper 000 §2)",
      {PolicyParameter::number("read_expire_ms", 500, 0, 1e7, "ms",
                               "deadline: a read's FIFO expiry after it is queued (kernel read_expire, default "
                               "500 ms; Documentation/block/deadline-iosched.rst)"),
       PolicyParameter::number("write_expire_ms", 5000, 0, 1e7, "ms",
                               "deadline: a write's FIFO expiry after it is queued (kernel write_expire, default "
                               "5000 ms; Documentation/block/deadline-iosched.rst)"),
       PolicyParameter::integer("fifo_batch", 16, 1, 1e6, "requests",
                                "deadline: most requests per batch of one direction, expiries checked between "
                                "batches (kernel fifo_batch, default 16; Documentation/block/deadline-iosched.rst)"),
       PolicyParameter::integer("writes_starved", 2, 0, 1e6, "batches",
                                "deadline: read batches preferred over waiting writes before a write batch "
                                "(kernel writes_starved, default 2; Documentation/block/deadline-iosched.rst)"),
       PolicyParameter::boolean("front_merges", true,
                                "deadline: merge a request ending where a queued one starts (kernel front_merges, "
                                "default 1; Documentation/block/deadline-iosched.rst)")},
      [](const PolicyParams& p, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
        DeadlineParams d;
        d.read_expire = from_ms(p.at("read_expire_ms"));
        d.write_expire = from_ms(p.at("write_expire_ms"));
        d.fifo_batch = static_cast<std::uint32_t>(p.at("fifo_batch"));
        d.writes_starved = static_cast<std::uint32_t>(p.at("writes_starved"));
        d.front_merges = p.at("front_merges") != 0;
        d.merge = device == "disk";
        return std::make_unique<DeadlineEngine>("deadline", d);
      }};
}

}  // namespace drivevp
