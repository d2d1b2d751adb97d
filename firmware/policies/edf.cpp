// EDF, earliest deadline first (Liu & Layland, JACM 1973, for CPUs; as a disk policy the baseline
// of Reddy & Wyllie, "Disk scheduling in a multimedia I/O system", ACM Multimedia 1993, paper 003
// §1.1.2 ref. [19], and of paper 004 §1).
//
// Rule: serve the pending command with the earliest absolute deadline (Command::deadline); ties
// go to the earlier command id (arrival order). Commands without a deadline (kNoDeadline) come
// after every command with one, in arrival order (kNoDeadline is the largest Time, so the same
// order does it). The position of the media plays no part. O(log n) per decision.
#include <map>
#include <tuple>

#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class Edf final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "EDF"; }
  void enqueue(const Command& c, const SchedulingContext&) override {
    queue_.emplace(Key{c.deadline, c.id, seq_++}, c);
  }
  Decision next(const SchedulingContext&) override {
    if (queue_.empty()) return Decision::idle();
    const Command c = queue_.begin()->second;
    queue_.erase(queue_.begin());
    return Decision::serve(c);
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  struct Key {
    Time deadline;
    std::uint64_t id;
    std::uint64_t seq;
    bool operator<(const Key& o) const { return std::tie(deadline, id, seq) < std::tie(o.deadline, o.id, o.seq); }
  };
  std::map<Key, Command> queue_;
  std::uint64_t seq_ = 0;
};

}  // namespace

PolicyInfo describe_edf() {
  return {"edf",
          "EDF",
          "earliest deadline first; requests without a deadline last, in arrival order (Reddy & Wyllie 1993; paper "
          "003 §1.1.2, paper 004 §1)",
          {},
          [](const PolicyParams&, std::string_view) -> std::unique_ptr<SchedulingPolicy> {
            return std::make_unique<Edf>();
          }};
}

}  // namespace drivevp
