// BFQ, Budget Fair Queueing (Valente & Checconi, "High throughput disk scheduling with fair
// bandwidth distribution", IEEE Trans. Computers 59(9), 2010; the Linux kernel's
// block/bfq-iosched.c and Documentation/block/bfq-iosched.rst; paper 000 §2, ref. [28]).
//
// Rule. One queue per stream (Command::stream; stream 0 is one stream of its own), in sector
// (LBN) order, all streams with the same weight. A stream is granted the disk not for a time
// slice but for a budget of max_budget sectors (blocks), chosen among the busy streams by
// B-WF2Q+ (the kernel's variant of WF2Q+, Bennett & Zhang 1996):
//   - each stream has a virtual start S and finish F; the scheduler a virtual time V (in sectors
//     per unit weight, from 0);
//   - a stream becoming busy (a request arrives to its empty queue while it is not in service)
//     gets S = max(V, F), F = S + max_budget;
//   - to choose: if no busy stream is eligible (S <= V), V jumps to the smallest S; the eligible
//     stream with the smallest F is served (ties: the smaller S, then the lower stream id);
//   - the stream in service gets its requests served in sector order after its last one, wrapping
//     to its lowest (with merge chains, none on MEMS), until it has received at least max_budget
//     sectors, its queue is empty, or timeout_sync has passed since its first dispatch; the
//     check is between dispatches;
//   - it is then charged what it received, `served` sectors: V += served / (busy streams,
//     itself included); F = S + served; if it still has requests, S = F and F = S + max_budget
//     (it competes again), else it leaves the busy set and keeps F.
//
// Simplified vs the kernel: equal weights (no I/O priorities or cgroups); a fixed budget (no
// feedback adjusting each queue's budget, no automatic max_budget); a timed-out stream is
// charged the sectors it received (the kernel charges a budget computed from the time); the last
// dispatch may overshoot the budget (the kernel expires a queue whose next request does not fit
// in what is left, and sizes a budget to at least its next request); no idling for a stream's
// next request (slice_idle), no weight raising for interactive or soft real-time streams
// (low_latency), no queue merging, no separate async handling; the next request ignores back
// seeks (back_seek_max, back_seek_penalty). Virtual times are doubles.
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "firmware/policies/policies.h"
#include "firmware/policies/sector_queue.h"

namespace drivevp {
namespace {

class Bfq final : public SchedulingPolicy {
 public:
  Bfq(double budget, Time timeout, bool merge) : budget_(budget), timeout_(timeout), merge_(merge) {}
  std::string_view name() const override { return "BFQ"; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    Stream& s = streams_[c.stream];
    if (!s.busy && !(active_ && *active_ == c.stream)) {
      s.busy = true;
      s.start = std::max(v_, s.finish);
      s.finish = s.start + budget_;
    }
    s.q.insert(c, ctx.now);
    ++pending_;
  }
  Decision next(const SchedulingContext& ctx) override {
    if (active_) {
      Stream& s = streams_[*active_];
      if (s.q.empty() || served_ >= budget_ || ctx.now >= active_until_) expire(s);
    }
    if (pending_ == 0) return Decision::idle();
    if (!active_) select(ctx);
    return serve(streams_[*active_]);
  }
  std::size_t pending() const override { return pending_; }

  /// The virtual time and a stream's virtual start and finish (for tests).
  double virtual_time() const { return v_; }
  std::pair<double, double> stamps(std::uint32_t stream) const {
    const Stream& s = streams_.at(stream);
    return {s.start, s.finish};
  }

 private:
  struct Stream {
    SectorQueue q;
    SectorQueue::Key last{};
    bool has_last = false;
    bool busy = false;  ///< backlogged and not in service (in service: active_)
    double start = 0;
    double finish = 0;
  };

  void expire(Stream& s) {
    std::size_t busy = 1;
    for (const auto& [id, o] : streams_) busy += o.busy ? 1 : 0;
    v_ += served_ / static_cast<double>(busy);
    s.finish = s.start + served_;
    if (!s.q.empty()) {
      s.busy = true;
      s.start = s.finish;
      s.finish = s.start + budget_;
    }
    active_.reset();
  }
  void select(const SchedulingContext& ctx) {
    double min_start = 0;
    bool any = false;
    for (const auto& [id, s] : streams_)
      if (s.busy && (!any || s.start < min_start)) {
        min_start = s.start;
        any = true;
      }
    v_ = std::max(v_, min_start);  // no eligible stream: V jumps to the smallest start
    const Stream* best = nullptr;
    for (const auto& [id, s] : streams_) {
      if (!s.busy || s.start > v_) continue;
      if (!best || std::tie(s.finish, s.start) < std::tie(best->finish, best->start)) {
        best = &s;
        active_ = id;
      }
    }
    streams_[*active_].busy = false;
    served_ = 0;
    active_until_ = ctx.now + timeout_;
  }
  Decision serve(Stream& s) {
    auto it = s.has_last ? s.q.after(s.last) : s.q.end();
    if (it == s.q.end()) it = s.q.lowest();
    s.has_last = true;
    std::vector<Command> chain;
    if (merge_) {
      chain = s.q.take_chain(it, true, &s.last);
    } else {
      s.last = it->first;
      chain.push_back(s.q.take(it));
    }
    pending_ -= chain.size();
    for (const Command& c : chain) served_ += c.blocks;
    return serve_chain(std::move(chain));
  }

  double budget_;
  Time timeout_;
  bool merge_;
  std::map<std::uint32_t, Stream> streams_;
  std::optional<std::uint32_t> active_;
  double served_ = 0;  ///< sectors served to the active stream in its current service
  Time active_until_{0};
  double v_ = 0;
  std::size_t pending_ = 0;
};

}  // namespace

PolicyInfo describe_bfq() {
  return {"bfq",
          "BFQ",
          "Linux BFQ: per-stream sector budgets, the eligible stream with the smallest virtual finish time served "
          "(B-WF2Q+) (Documentation/block/bfq-iosched.rst; Valente & Checconi 2010; paper 000 §2)",
          {PolicyParameter::integer("max_budget", 16384, 1, 1e9, "sectors",
                                    "BFQ: a stream's budget per service, 512 B sectors (the kernel's "
                                    "bfq_default_max_budget, 16 * 1024; Documentation/block/bfq-iosched.rst "
                                    "max_budget)"),
           PolicyParameter::number("timeout_sync_ms", 125, 0.001, 1e7, "ms",
                                   "BFQ: most time a stream is served per budget (kernel timeout_sync, default HZ/8, "
                                   "125 ms; Documentation/block/bfq-iosched.rst)")},
          [](const PolicyParams& p, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            return std::make_unique<Bfq>(p.at("max_budget"), from_ms(p.at("timeout_sync_ms")), device == "disk");
          }};
}

}  // namespace drivevp
