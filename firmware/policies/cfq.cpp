// CFQ, Completely Fair Queueing, the Linux kernel's default elevator from 2.6.18 to 5.0
// (block/cfq-iosched.c; Documentation/block/cfq-iosched.txt; paper 000 §2: "Different queues are
// associated with different applications ... By round-robin principle it removes requests and
// dispatches from a busy queue").
//
// Rule. One queue per stream (Command::stream; stream 0, "none", is one stream of its own), each
// in sector (LBN) order with a FIFO. Busy streams wait in a round-robin list in the order they
// became busy. The stream at the head of the list becomes active for a time slice of slice_sync
// from its first dispatch; while the slice lasts its requests are served:
//   - its oldest request first if that has waited fifo_expire_sync since it was queued,
//   - else the next request in sector order after its last one dispatched, wrapping to its lowest
//     (the kernel's cfq_find_next_rq), with its merge chain (back and front merges within the
//     stream, SectorQueue::take_chain; none on MEMS).
// When the active stream's queue is empty before its slice ends, CFQ idles: with requests of
// other streams queued the decision is WaitUntil(min(now + slice_idle, slice end)), and a request
// of the active stream arriving meanwhile is served in its slice; when the wait ends the slice
// ends. A slice ends at its end time (checked between dispatches; a dispatch started before it
// runs to completion); the stream then goes to the tail of the list if it still has requests.
//
// Simplified vs the kernel: every stream is a synchronous queue with slice_sync (no async queues
// per priority, slice_async, slice_async_rq, I/O priorities or their slice scaling, cgroups,
// low_latency, group_idle); the kernel idles only on queues it does not judge seeky, here
// always; the FIFO is checked at each dispatch rather than once per slice; the next request
// ignores back seeks (back_seek_max, back_seek_penalty); quantum (requests a queue may have at
// the device at once) has no counterpart, since the controller keeps one access outstanding.
#include <algorithm>
#include <deque>
#include <map>
#include <optional>

#include "firmware/policies/policies.h"
#include "firmware/policies/sector_queue.h"

namespace drivevp {
namespace {

struct CfqParams {
  Time slice_sync{0};
  Time slice_idle{0};
  Time fifo_expire{0};
  bool merge = true;
};

class Cfq final : public SchedulingPolicy {
 public:
  explicit Cfq(const CfqParams& p) : p_(p) {}
  std::string_view name() const override { return "CFQ"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    Stream& s = streams_[c.stream];
    if (s.q.empty() && !(active_ && *active_ == c.stream)) rr_.push_back(c.stream);
    s.q.insert(c, ctx.now);
    ++pending_;
  }
  Decision next(const SchedulingContext& ctx) override {
    if (pending_ == 0) return Decision::idle();
    for (;;) {
      if (!active_) {
        active_ = rr_.front();  // pending_ > 0 and the active stream is empty: the list is not
        rr_.pop_front();
        slice_end_ = ctx.now + p_.slice_sync;
        idling_ = false;
      }
      Stream& s = streams_[*active_];
      if (ctx.now < slice_end_) {
        if (!s.q.empty()) return serve(s, ctx);
        if (!idling_) {
          idling_ = true;
          idle_until_ = std::min(ctx.now + p_.slice_idle, slice_end_);
        }
        if (ctx.now < idle_until_) return Decision::wait_until(idle_until_);
      }
      if (!s.q.empty()) rr_.push_back(*active_);  // the slice is over
      active_.reset();
    }
  }
  std::size_t pending() const override { return pending_; }

 private:
  struct Stream {
    SectorQueue q;
    SectorQueue::Key last{};
    bool has_last = false;
  };

  Decision serve(Stream& s, const SchedulingContext& ctx) {
    idling_ = false;
    auto it = s.q.oldest();
    if (ctx.now < it->second.queued + p_.fifo_expire) {
      it = s.has_last ? s.q.after(s.last) : s.q.end();
      if (it == s.q.end()) it = s.q.lowest();
    }
    s.has_last = true;
    std::vector<Command> chain;
    if (p_.merge) {
      chain = s.q.take_chain(it, true, &s.last);
    } else {
      s.last = it->first;
      chain.push_back(s.q.take(it));
    }
    pending_ -= chain.size();
    return serve_chain(std::move(chain));
  }

  CfqParams p_;
  std::map<std::uint32_t, Stream> streams_;
  std::deque<std::uint32_t> rr_;  ///< busy streams waiting for a slice, in round-robin order
  std::optional<std::uint32_t> active_;
  Time slice_end_{0};
  bool idling_ = false;
  Time idle_until_{0};
  std::size_t pending_ = 0;
};

}  // namespace

PolicyInfo describe_cfq() {
  return {"cfq",
          "CFQ",
          "Linux CFQ: per-stream queues served round robin in time slices, sector order within a slice, idling on an "
          "emptied queue (Documentation/block/cfq-iosched.txt; paper 000 §2)",
          {PolicyParameter::number("slice_sync_ms", 100, 0.001, 1e7, "ms",
                                   "CFQ: a stream's time slice (kernel slice_sync, default HZ/10, 100 ms; "
                                   "Documentation/block/cfq-iosched.txt)"),
           PolicyParameter::number("slice_idle_ms", 8, 0, 1e4, "ms",
                                   "CFQ: how long to wait for the active stream's next request when its queue "
                                   "empties (kernel slice_idle, default 8 ms; Documentation/block/cfq-iosched.txt); "
                                   "0 disables idling"),
           PolicyParameter::number("fifo_expire_sync_ms", 125, 0, 1e7, "ms",
                                   "CFQ: a request waiting this long is served before sector order within its "
                                   "stream (kernel fifo_expire_sync, default HZ/8, 125 ms; "
                                   "Documentation/block/cfq-iosched.txt)")},
          [](const PolicyParams& p, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            CfqParams c;
            c.slice_sync = from_ms(p.at("slice_sync_ms"));
            c.slice_idle = from_ms(p.at("slice_idle_ms"));
            c.fifo_expire = from_ms(p.at("fifo_expire_sync_ms"));
            c.merge = device == "disk";
            return std::make_unique<Cfq>(c);
          }};
}

}  // namespace drivevp
