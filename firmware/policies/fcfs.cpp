// FCFS: serve commands in arrival order (the baseline of every paper in ../shared/papers).
#include <deque>

#include "firmware/policies/mems/mems_policy.h"
#include "firmware/policies/policies.h"

namespace drivevp {
namespace {

class Fcfs final : public SchedulingPolicy {
 public:
  std::string_view name() const override { return "FCFS"; }
  void enqueue(const Command& c, const SchedulingContext&) override { queue_.push_back(c); }
  Decision next(const SchedulingContext&) override {
    if (queue_.empty()) return Decision::idle();
    const Command c = queue_.front();
    queue_.pop_front();
    return Decision::serve(c);
  }
  std::size_t pending() const override { return queue_.size(); }

 private:
  std::deque<Command> queue_;
};

}  // namespace

PolicyInfo describe_fcfs() {
  return {"fcfs",
          "FCFS",
          "first come, first served (arrival order)",
          {},
          [](const PolicyParams& params, std::string_view device) -> std::unique_ptr<SchedulingPolicy> {
            if (device == "mems") return make_mems_policy("fcfs", params);
            return std::make_unique<Fcfs>();
          }};
}

}  // namespace drivevp
