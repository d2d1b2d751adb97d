// Batch decisions (firmware/policy.h Decision::batch): the controller hands a Serve decision's
// commands to the media driver as one media access and completes them together, one completion
// entry per command with its own service log. The disk's driver serves a batch one command after
// another (seek, transfer) inside the one decision, spending the command overhead once
// (docs/models/firmware.md "Controller and media driver"). Of the registered disk policies only
// the Linux elevators' merge chains are batches (sim/test_linux_elevators.cpp); a tiny test policy
// batches here.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>

#include "sim_test_util.h"

namespace drivevp {
namespace {

using namespace simtest;

constexpr Time kPredicted{777'000'000};  // the test policy's "prediction" for a batch's first command

/// FCFS that serves up to `k` queued commands per decision (the first with kPredicted) and
/// records its batches and the completions it is told about.
class BatchingPolicy final : public SchedulingPolicy {
 public:
  explicit BatchingPolicy(std::size_t k) : k_(k) {}
  std::string_view name() const override { return "test-batch"; }
  void enqueue(const Command& c, const SchedulingContext&) override { queue_.push_back(c); }
  Decision next(const SchedulingContext&) override {
    if (queue_.empty()) return Decision::idle();
    const Command first = queue_.front();
    queue_.pop_front();
    std::vector<Command> more;
    while (!queue_.empty() && more.size() + 1 < k_) {
      more.push_back(queue_.front());
      queue_.pop_front();
    }
    std::vector<std::uint64_t> ids{first.id};
    for (const Command& c : more) ids.push_back(c.id);
    batches.push_back(ids);
    return Decision::serve_batch(first, std::move(more), kPredicted);
  }
  std::size_t pending() const override { return queue_.size(); }
  void on_complete(const Command& c, const SchedulingContext&) override { completed.push_back(c.id); }

  std::vector<std::vector<std::uint64_t>> batches;
  std::vector<std::uint64_t> completed;

 private:
  std::size_t k_;
  std::deque<Command> queue_;
};

Command at(Time t, Op op, std::uint64_t lbn, std::uint32_t blocks) { return command_at(t, op, lbn, blocks); }

TEST_CASE("sim: A batch decision is served in one media access and its commands complete together",
          "[sim][batch][firmware]") {
  TempDir dir("batch");
  write_text(dir / "scenario.toml", synthetic_scenario("fcfs", "loop = \"open\"\n", "check_data = true\n"));
  const Scenario sc = load_scenario((dir / "scenario.toml").string(), {});
  const std::uint64_t far = sc.device.geometry().capacity_blocks() - 100;
  // Command 0 (a long seek away) keeps the media busy while 1-3 arrive: the policy then serves
  // 1-3 in one decision; the same for 4 and the reads 5-7 of the blocks 1-3 wrote.
  const Time ms{1'000'000'000};
  ListSource source({at(Time{0}, Op::Read, far, 4), at(ms, Op::Write, 5000, 8), at(ms, Op::Write, 20000, 8),
                     at(ms, Op::Write, 9000, 8), at(1000 * ms, Op::Read, far, 4), at(1001 * ms, Op::Read, 9000, 8),
                     at(1001 * ms, Op::Read, 5000, 8), at(1001 * ms, Op::Read, 20000, 8)});
  std::vector<RequestRecord> done;
  Platform platform(
      sc, source, [&done](const RequestRecord& r) { done.push_back(r); }, nullptr, std::make_unique<BatchingPolicy>(3));
  sc_core::sc_start();  // the host stops the simulation after the last completion

  const auto& policy = dynamic_cast<const BatchingPolicy&>(platform.firmware.policy());
  const std::vector<std::vector<std::uint64_t>> batches{{0}, {1, 2, 3}, {4}, {5, 6, 7}};
  CHECK(policy.batches == batches);
  CHECK(policy.completed == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  REQUIRE(done.size() == 8);
  for (std::size_t i = 0; i < done.size(); ++i) {
    INFO("request " << i);
    CHECK(done[i].command.id == i);
    CHECK(done[i].data_ok);  // 5-7 read back what 1-3 wrote, each through its own DMA
    CHECK(done[i].transfer_start >= done[i].seek_end);
    CHECK(done[i].transfer_end > done[i].transfer_start);
  }
  CHECK(platform.host.media_errors() == 0);
  CHECK(platform.host.integrity().violations().count() == 0);

  const auto& p = dynamic_cast<const DiskPredictor&>(platform.firmware.predictor());
  const Time a = p.command_path().read_to_seek;             // one bus access
  const Time dma = p.command_path().write_to_seek - a - a;  // one data DMA (DMI)
  for (const std::vector<std::uint64_t>& b : batches) {
    const RequestRecord& first = done[b.front()];
    INFO("batch starting with " << b.front());
    // The decision: one dispatch time and one command overhead for the whole batch; the policy's
    // prediction is the first command's only.
    CHECK(first.seek_start == first.dispatch + p.command_overhead() + p.command_path().to_seek(first.command.op));
    CHECK(first.predicted_positioning == kPredicted);
    for (std::size_t k = 1; k < b.size(); ++k) {
      const RequestRecord& prev = done[b[k - 1]];
      const RequestRecord& r = done[b[k]];
      INFO("member " << b[k]);
      CHECK(r.dispatch == first.dispatch);
      CHECK(r.predicted_positioning == Time{-1});
      // Served right after the previous member, with no completion or overhead in between:
      // transfer-done IRQ_ACK burst, [read: data DMA out], [write: COUNT, data DMA in], seek burst.
      const Time between = a + (prev.command.is_read() ? dma : Time{0}) + (r.command.is_read() ? Time{0} : a + dma) + a;
      CHECK(r.seek_start == prev.transfer_end + between);
      // Completed together: the host sees every completion of the access at once.
      CHECK(r.completion == first.completion);
    }
    CHECK(first.completion > done[b.back()].transfer_end);
  }
}

}  // namespace
}  // namespace drivevp
