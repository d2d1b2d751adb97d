#include "firmware/policies/mems/mems_policy.h"

#include <stdexcept>
#include <string>
#include <tuple>

#include "firmware/flat_map.h"
#include "firmware/mems_predictor.h"
#include "firmware/policies/mems/queue.h"

namespace drivevp {

namespace {

/// The zones of 002 §4 ("we used 25×3 zones for each region"), as integer policy parameters (the
/// scenario loader also bounds them by the device's grid).
std::vector<PolicyParameter> zone_params() {
  return {PolicyParameter::integer("zones_x", 25, 1, 100000, "zones",
                                   "zones per region along X (002 §4: 25; at most the device's cylinders)"),
          PolicyParameter::integer("zones_y", 3, 1, 100000, "zones",
                                   "zones per region along Y (002 §4: 3; at most the rows per column)")};
}

/// Adapts one mems_sched::Queue. The queue is built at the first command, from the MEMS
/// predictor the context carries (the device's geometry is known only after boot).
class MemsQueuePolicy final : public SchedulingPolicy {
 public:
  MemsQueuePolicy(std::string key, const PolicyParams& params)
      : key_(std::move(key)),
        aware_(key_ == "psptf" || key_ == "pasptf" || key_ == "zscan_psptf" || key_ == "zpsptf"),
        fcfs_(key_ == "fcfs") {
    auto get = [&](const char* name) {
      auto it = params.find(name);
      return it == params.end() ? 1u : static_cast<std::uint32_t>(it->second);
    };
    zones_x_ = get("zones_x");
    zones_y_ = get("zones_y");
    // A queue over a one-position grid: validates the key and names the policy until boot.
    mems_sched::Geometry g;
    g.zones_x = 1;
    g.zones_y = 1;
    queue_ = mems_sched::make_queue(key_, g);
    name_ = std::string(queue_->name());
  }

  std::string_view name() const override { return name_; }

  void enqueue(const Command& c, const SchedulingContext& ctx) override {
    const MemsPredictor& p = mems(ctx);
    if (fcfs_) {
      fifo_push(c);
      return;
    }
    const MemsLocation loc = p.locate(c.lbn);
    mems_sched::Request r;
    r.id = c.id;
    r.arrival = c.arrival;
    r.x = loc.x;
    r.y = loc.y;
    r.region = loc.region;
    r.op = c.op;
    queue_->enqueue(r);
    commands_[c.id] = c;
  }

  Decision next(const SchedulingContext& ctx) override {
    if (fcfs_) return fifo_next(ctx);
    if (commands_.empty()) return Decision::idle();
    const MemsPredictor& p = mems(ctx);
    const MemsSledView sled = MemsPredictor::sled_of(ctx.position);
    const MemsIndices at = p.indices(sled.state);
    mems_sched::Batch& batch = batch_;  // reused: no allocation per decision
    queue_->choose(
        ctx.now, [&](std::uint32_t x, std::uint32_t y) { return p.positioning_to(sled.state, x, y); },
        mems_sched::SledPosition{at.x, at.y}, batch);
    // Only the parallelism-aware policies gather several requests (their queue's geometry allows
    // one region per access for the others: 002 §3, SPTF, SSTF, FCFS and ZSPTF "do not consider
    // the parallelism"). The device serves a batch in one access only when the first sweeps share
    // the position and direction and the tips fit (MemsPredictor::batch_conflict): keep the
    // requests, oldest first, that fit with those kept; the others go back to the queue.
    std::vector<mems::BatchSpan> spans;  // built only for a batch of several (one never conflicts)
    std::vector<Command> more;
    Command first{};
    for (std::size_t i = 0; i < batch.requests.size(); ++i) {
      const mems_sched::Request& r = batch.requests[i];
      const Command c = commands_.at(r.id);
      if (batch.requests.size() > 1) spans.push_back({c.lbn, c.blocks});
      if (i > 0 && p.batch_conflict(spans)) {
        spans.pop_back();
        queue_->enqueue(r);
        continue;
      }
      commands_.erase(r.id);
      if (i == 0)
        first = c;
      else
        more.push_back(c);
    }
    const Time predicted = p.estimate(ctx.position, ctx.now, first.lbn, first.op).positioning;
    return Decision::serve_batch(first, std::move(more), predicted);
  }

  std::size_t pending() const override { return fcfs_ ? fifo_size_ : commands_.size(); }

 private:
  // FCFS without the position index. FcfsQueue serves the oldest request (arrival, then id) at
  // its position and gathers the others there in other regions up to max_regions_per_access,
  // which is 1 for FCFS (it does not consider the parallelism): every decision is the single
  // oldest command. So a FIFO kept in (arrival, id) order gives the same decisions; it needs
  // neither the position nor the command map. A command that arrives out of order (never in the
  // controller's fetch order, kept for equality) is moved back to its place.
  void fifo_push(const Command& c) {
    if (fifo_size_ == fifo_.size()) fifo_grow();
    const std::size_t mask = fifo_.size() - 1;
    std::size_t i = fifo_size_++;
    auto before = [&](const Command& a, const Command& b) {
      return std::tie(a.arrival, a.id) < std::tie(b.arrival, b.id);
    };
    while (i > 0 && before(c, fifo_[(fifo_head_ + i - 1) & mask])) {
      fifo_[(fifo_head_ + i) & mask] = fifo_[(fifo_head_ + i - 1) & mask];
      --i;
    }
    fifo_[(fifo_head_ + i) & mask] = c;
    if (c.arrival > fifo_latest_arrival_) fifo_latest_arrival_ = c.arrival;
  }

  void fifo_grow() {
    std::vector<Command> bigger(fifo_.empty() ? 64 : fifo_.size() * 2);
    for (std::size_t i = 0; i < fifo_size_; ++i) bigger[i] = fifo_[(fifo_head_ + i) & (fifo_.size() - 1)];
    fifo_.swap(bigger);
    fifo_head_ = 0;
  }

  Decision fifo_next(const SchedulingContext& ctx) {
    if (fifo_size_ == 0) return Decision::idle();
    const MemsPredictor& p = mems(ctx);
    if (ctx.now < fifo_latest_arrival_)  // as mems_sched::Queue::choose checks
      throw std::invalid_argument("mems_sched::" + name_ + ": choose at now = " + std::to_string(ctx.now.count()) +
                                  " ps precedes the arrival of an enqueued request (" +
                                  std::to_string(fifo_latest_arrival_.count()) + " ps)");
    const Command first = fifo_[fifo_head_];
    fifo_head_ = (fifo_head_ + 1) & (fifo_.size() - 1);
    --fifo_size_;
    const Time predicted = p.estimate(ctx.position, ctx.now, first.lbn, first.op).positioning;
    return Decision::serve_batch(first, {}, predicted);
  }

  const MemsPredictor& mems(const SchedulingContext& ctx) {
    if (ctx.predictor && ctx.predictor == booted_predictor_) return *booted_;  // checked when booted
    const auto* p = dynamic_cast<const MemsPredictor*>(ctx.predictor);
    if (!p)
      throw std::logic_error("policy '" + key_ + "' (" + name_ + ") needs a MEMS device; the predictor is a " +
                             std::string(ctx.predictor ? ctx.predictor->device_kind() : "missing") + " predictor");
    if (p != booted_) {
      const mems::MemsLayout& L = p->seek().layout();
      mems_sched::Geometry g;
      g.x_positions = L.cylinders();
      g.y_positions = L.rows_per_column();
      // A policy that does not consider the parallelism gathers one request per access.
      g.max_regions_per_access = aware_ ? p->regions_per_access() : 1;
      g.zones_x = zones_x_;
      g.zones_y = zones_y_;
      if (!commands_.empty()) throw std::logic_error("MEMS policy: the predictor changed with commands queued");
      queue_ = mems_sched::make_queue(key_, g);
      booted_ = p;
      booted_predictor_ = ctx.predictor;
    }
    return *p;
  }

  std::string key_;
  bool aware_;                 ///< parallelism-aware (002 §3): serves batches
  bool fcfs_;                  ///< FCFS: the FIFO below instead of the mems_sched queue
  std::vector<Command> fifo_;  ///< ring buffer (size a power of two), (arrival, id) order from fifo_head_
  std::size_t fifo_head_ = 0;
  std::size_t fifo_size_ = 0;
  Time fifo_latest_arrival_{0};
  std::string name_;
  std::uint32_t zones_x_ = 1, zones_y_ = 1;
  std::unique_ptr<mems_sched::Queue> queue_;
  mems_sched::Batch batch_;  ///< the last decision's batch (its buffer reused)
  const MemsPredictor* booted_ = nullptr;
  const Predictor* booted_predictor_ = nullptr;  ///< booted_ as the context passes it (skips the cast)
  FlatMap<Command> commands_;                    ///< queued, by id
};

}  // namespace

std::unique_ptr<SchedulingPolicy> make_mems_policy(std::string_view key, const PolicyParams& params) {
  return std::make_unique<MemsQueuePolicy>(std::string(key), params);
}

std::vector<PolicyInfo> describe_mems_policies() {
  auto entry = [](std::string key, std::string paper, std::string description, std::vector<PolicyParameter> params) {
    PolicyInfo p;
    p.key = key;
    p.paper_name = std::move(paper);
    p.description = std::move(description);
    p.params = std::move(params);
    p.make = [key](const PolicyParams& values, std::string_view) { return make_mems_policy(key, values); };
    p.devices = {"mems"};
    return p;
  };
  return {
      entry("psptf", "P-SPTF",
            "parallelism-aware SPTF: the (x, y) with the largest N(x, y) / positioning time (002 eq. (2), §3.1)", {}),
      entry("pasptf", "PA-SPTF",
            "P-SPTF with aging: the (x, y) with the largest summed waiting time / positioning time (002 eq. (3), "
            "§3.1)",
            {}),
      entry("zsptf", "ZSPTF", "zones in C-SCAN order, SPTF inside a zone (002 §2.2; Hong et al.)", zone_params()),
      entry("zscan_psptf", "ZSCAN-PSPTF", "zones in SCAN order, P-SPTF inside a zone (002 §3.2)", zone_params()),
      entry("zpsptf", "ZPSPTF", "P-SPTF over zones and inside a zone (002 §3.2)", zone_params()),
  };
}

}  // namespace drivevp
