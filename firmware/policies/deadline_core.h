// The shared engine of the deadline elevator (deadline.cpp) and the anticipatory elevator
// (anticipatory.cpp): sector-sorted read and write queues with a FIFO each, batches of one
// direction, FIFO expiry checked between batches, and write starvation. See deadline.cpp for the
// rule and its source.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "firmware/policies/sector_queue.h"
#include "firmware/policy.h"

namespace drivevp {

struct DeadlineParams {
  Time read_expire{0};               ///< a read's FIFO expiry after its enqueue
  Time write_expire{0};              ///< a write's FIFO expiry after its enqueue
  std::uint32_t fifo_batch = 16;     ///< requests (merge chains) per batch
  std::uint32_t writes_starved = 2;  ///< read batches while writes wait before a write batch
  bool front_merges = true;
  bool merge = true;  ///< merge contiguous requests at all (false on MEMS)
};

class DeadlineEngine : public SchedulingPolicy {
 public:
  DeadlineEngine(std::string name, const DeadlineParams& p) : name_(std::move(name)), p_(p) {}
  std::string_view name() const override { return name_; }
  void enqueue(const Command& c, const SchedulingContext& ctx) override { queue(c.op).insert(c, ctx.now); }
  Decision next(const SchedulingContext& ctx) override {
    const int dir = choose(ctx);
    if (dir < 0) return Decision::idle();
    return dispatch(dir, pick_, ctx);
  }
  std::size_t pending() const override { return q_[0].size() + q_[1].size(); }

 protected:
  static int dir_of(Op op) { return op == Op::Read ? 0 : 1; }
  SectorQueue& queue(Op op) { return q_[dir_of(op)]; }
  SectorQueue& queue(int dir) { return q_[dir]; }
  bool expired(int dir, Time now) {
    auto it = q_[dir].oldest();
    return it != q_[dir].end() && now >= it->second.queued + (dir == 0 ? p_.read_expire : p_.write_expire);
  }
  /// Decides the direction and the request (in pick_) of the next dispatch; -1 when empty.
  int choose(const SchedulingContext& ctx) {
    // Continue the batch: the next request after the last dispatched, same direction.
    if (has_last_ && batching_ < p_.fifo_batch) {
      auto it = q_[last_dir_].after(last_key_);
      if (it != q_[last_dir_].end()) {
        pick_ = it;
        return last_dir_;
      }
    }
    const bool reads = !q_[0].empty();
    const bool writes = !q_[1].empty();
    int dir;
    if (reads && !(writes && starved_++ >= p_.writes_starved)) {
      dir = 0;
    } else if (writes) {
      starved_ = 0;
      dir = 1;
    } else {
      return -1;
    }
    // A new batch: from the FIFO head if it has expired or nothing follows the last request
    // dispatched in this direction, else from that next request.
    SectorQueue& q = q_[dir];
    auto next = has_last_ && last_dir_ == dir ? q.after(last_key_) : q.end();
    pick_ = expired(dir, ctx.now) || next == q.end() ? q.oldest() : next;
    batching_ = 0;
    return dir;
  }
  Decision dispatch(int dir, SectorQueue::iterator it, const SchedulingContext&) {
    ++batching_;
    has_last_ = true;
    last_dir_ = dir;
    if (!p_.merge) {
      last_key_ = it->first;
      return Decision::serve(q_[dir].take(it));
    }
    return serve_chain(q_[dir].take_chain(it, p_.front_merges, &last_key_));
  }

  std::string name_;
  DeadlineParams p_;
  std::array<SectorQueue, 2> q_;  ///< [0] reads, [1] writes
  SectorQueue::iterator pick_{};
  bool has_last_ = false;
  int last_dir_ = 0;
  SectorQueue::Key last_key_{};
  std::uint32_t batching_ = 0;
  std::uint32_t starved_ = 0;
};

}  // namespace drivevp
