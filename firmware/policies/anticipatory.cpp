// anticipatory, the Linux kernel's anticipatory elevator (block/as-iosched.c, removed in 2.6.33;
// Documentation/block/as-iosched.txt; Iyer & Druschel, "Anticipatory scheduling: a disk
// scheduling framework to overcome deceptive idleness in synchronous I/O", SOSP 2001). Paper 000
// §2: "pausing for a tiny amount of time after a read process in the hope of another closely
// related request".
//
// Rule: the deadline engine (deadline_core.h; deadline.cpp has its rule) with the anticipatory
// scheduler's expiries (read_expire 125 ms, write_expire 250 ms), plus anticipation. When a read
// of stream s completes at time t (on_complete; stream = Command::stream, 0 counting as one
// stream of its own), the scheduler anticipates stream s until t + antic_expire:
//   - a queued read of stream s is served at once: the one nearest in LBN to where the completed
//     read ended (ties: the lower LBN, then the earlier enqueued), with its merge chain; it counts
//     as a request of a read batch;
//   - otherwise, while the queue holds a request and no FIFO head has expired, the decision is
//     WaitUntil(t + antic_expire): the disk idles though work is queued (the non-work-conserving
//     step that defeats deceptive idleness); a read of s arriving meanwhile is served as above;
//   - at t + antic_expire, or when a FIFO head expires, the anticipation ends and the deadline
//     rule chooses.
// A write's completion starts no anticipation; a new read completion restarts it.
//
// Simplified vs the kernel: as-iosched anticipated only a process whose mean think time and seek
// distance predicted a quick nearby read, and broke the anticipation for a request "close" to the
// head from any process; here every read completion is anticipated for its stream and only that
// stream's read breaks it. as-iosched's batches were time-limited (read_batch_expire 500 ms,
// write_batch_expire 125 ms); here they are counted as in deadline (fifo_batch, writes_starved).
// Its one-way elevator with a back-seek penalty is deadline's sector order.
#include <cstdlib>

#include "firmware/policies/deadline_core.h"
#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class Anticipatory final : public DeadlineEngine {
 public:
  Anticipatory(const DeadlineParams& p, Time antic_expire) : DeadlineEngine("anticipatory", p), antic_(antic_expire) {}
  void on_complete(const Command& c, const SchedulingContext& ctx) override {
    if (!c.is_read() || antic_ <= Time{0}) return;
    anticipating_ = true;
    stream_ = c.stream;
    until_ = ctx.now + antic_;
    pos_ = c.end_lbn();
  }
  Decision next(const SchedulingContext& ctx) override {
    if (pending() == 0) return Decision::idle();
    if (anticipating_) {
      if (ctx.now >= until_ || expired(0, ctx.now) || expired(1, ctx.now)) {
        anticipating_ = false;
      } else if (auto it = nearest_read_of_stream(); it != q_[0].end()) {
        anticipating_ = false;
        if (!(has_last_ && last_dir_ == 0)) batching_ = 0;
        return dispatch(0, it, ctx);
      } else {
        return Decision::wait_until(until_);
      }
    }
    return DeadlineEngine::next(ctx);
  }

 private:
  SectorQueue::iterator nearest_read_of_stream() {
    SectorQueue& q = q_[0];
    auto best = q.end();
    std::uint64_t best_d = 0;
    for (auto it = q.lowest(); it != q.end(); ++it) {  // O(n); reads of one stream are few
      if (it->second.command.stream != stream_) continue;
      const std::uint64_t l = it->first.first;
      const std::uint64_t d = l >= pos_ ? l - pos_ : pos_ - l;
      if (best == q.end() || d < best_d) {
        best = it;
        best_d = d;
      }
    }
    return best;
  }

  Time antic_;
  bool anticipating_ = false;
  std::uint32_t stream_ = 0;
  Time until_{0};
  std::uint64_t pos_ = 0;
};

}  // namespace

PolicyInfo describe_anticipatory() {
  return {"anticipatory",
          "anticipatory",
          "Linux anticipatory elevator: deadline batches plus a short wait after a read for the same stream's next "
          "read (Documentation/block/as-iosched.txt; Iyer & Druschel, SOSP 2001; paper 000 §2)",
          {PolicyParameter::number("antic_expire_ms", 6, 0, 1e4, "ms",
                                   "anticipatory: how long to wait after a read for the same stream's next read "
                                   "(kernel antic_expire, default HZ/150, about 6 ms; Documentation/block/"
                                   "as-iosched.txt); 0 disables anticipation"),
           PolicyParameter::number("read_expire_ms", 125, 0, 1e7, "ms",
                                   "anticipatory: a read's FIFO expiry after it is queued (kernel read_expire, "
                                   "default HZ/8, 125 ms; Documentation/block/as-iosched.txt)"),
           PolicyParameter::number("write_expire_ms", 250, 0, 1e7, "ms",
                                   "anticipatory: a write's FIFO expiry after it is queued (kernel write_expire, "
                                   "default HZ/4, 250 ms; Documentation/block/as-iosched.txt)"),
           PolicyParameter::integer("fifo_batch", 16, 1, 1e6, "requests",
                                    "anticipatory: most requests per batch of one direction (as deadline's "
                                    "fifo_batch, default 16; replaces as-iosched's time-limited batches)"),
           PolicyParameter::integer("writes_starved", 2, 0, 1e6, "batches",
                                    "anticipatory: read batches preferred over waiting writes before a write batch "
                                    "(as deadline's writes_starved, default 2)")},
          [](const PolicyParams& p, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            DeadlineParams d;
            d.read_expire = from_ms(p.at("read_expire_ms"));
            d.write_expire = from_ms(p.at("write_expire_ms"));
            d.fifo_batch = static_cast<std::uint32_t>(p.at("fifo_batch"));
            d.writes_starved = static_cast<std::uint32_t>(p.at("writes_starved"));
            d.front_merges = true;
            d.merge = device == "disk";
            return std::make_unique<Anticipatory>(d, from_ms(p.at("antic_expire_ms")));
          }};
}

}  // namespace drivevp
